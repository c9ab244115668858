"""`xs export --html` (docs/html-view.md) over the example store: one page, several pages with an
index, the --json report against its schema, and the refusals (exit status 2, one line)."""
import json
import os
import shutil
import tempfile

from json_schema_check import problems
from xs_cli_common import StoreTest

BRANCHED = "5e55a0c1d2e3f401"  # a branch point, a label, a branch summary, a tool call
SMALL = "1ma9e00000000001"


def human(n):
    """The CLI's human_size for the sizes of these pages (under 10 KiB)."""
    return "%.1fK" % (n / 1024) if n >= 1024 else "%dB" % n


class XsHtmlTest(StoreTest):
    def setUp(self):
        self.out = tempfile.mkdtemp(prefix="xs-cli-html-")

    def tearDown(self):
        shutil.rmtree(self.out)

    def test_one_session_is_one_page(self):
        page = os.path.join(self.out, "p.html")
        p = self.xs("export", "--html", "5e55", "-o", page)
        self.assertEqual(p.stderr, "")
        size = os.path.getsize(page)
        self.assertEqual(p.stdout, "wrote %s (%s: 6 messages, 1 branch point, %s)\n" % (page, BRANCHED, human(size)))
        with open(page) as f:
            html = f.read()
        self.assertEqual(html.count('<article class="entry msg '), 6)
        self.assertEqual(html.count('<div class="branch-point"'), 1)
        self.assertEqual(html.count('<details class="branch">'), 1)
        self.assertEqual(html.count('<article class="entry mark branch-summary"'), 1)
        self.assertEqual(html.count('<span class="label">'), 2)  # on its target, and in the label entry
        self.assertNotIn("<script", html)

    def test_several_sessions_are_a_directory_with_an_index(self):
        d = os.path.join(self.out, "pages")
        p = self.xs("export", "--html", BRANCHED, SMALL, "-o", d)
        a, b, index = (os.path.join(d, n) for n in (BRANCHED + ".html", SMALL + ".html", "index.html"))
        self.assertEqual(p.stdout,
                         "wrote %s (%s: 6 messages, 1 branch point, %s)\n"
                         "wrote %s (%s: 2 messages, 0 branch points, %s)\n"
                         "wrote %s (index)\n" % (a, BRANCHED, human(os.path.getsize(a)), b, SMALL,
                                                 human(os.path.getsize(b)), index))
        self.assertEqual(sorted(os.listdir(d)), sorted([BRANCHED + ".html", SMALL + ".html", "index.html"]))
        with open(index) as f:
            self.assertIn('<a href="%s.html">Fix the tokenizer crash</a>' % BRANCHED, f.read())

    def test_json_report(self):
        d = os.path.join(self.out, "pages")
        report = json.loads(self.xs("export", "--html", BRANCHED, SMALL, "-o", d, "--json").stdout)
        self.assertEqual(problems(report, "html-report.schema.json"), [])
        self.assertEqual(report, {
            "pages": [
                {"path": os.path.join(d, BRANCHED + ".html"), "sessionId": BRANCHED, "entries": 10, "messages": 6,
                 "branchPoints": 1, "branches": 1, "bytes": os.path.getsize(os.path.join(d, BRANCHED + ".html"))},
                {"path": os.path.join(d, SMALL + ".html"), "sessionId": SMALL, "entries": 2, "messages": 2,
                 "branchPoints": 0, "branches": 0, "bytes": os.path.getsize(os.path.join(d, SMALL + ".html"))}],
            "index": {"path": os.path.join(d, "index.html"), "bytes": os.path.getsize(os.path.join(d, "index.html"))}})

    def test_refusals(self):
        page = os.path.join(self.out, "p.html")
        p = self.xs("export", "--html", "--gzip", BRANCHED, "-o", page, code=2)
        self.assertEqual(p.stderr, "--html excludes --gzip\nRun with --help for more information.\n")
        p = self.xs("export", "--html", BRANCHED, code=2)
        self.assertEqual(p.stderr, "--output is required\nRun with --help for more information.\n")
        p = self.xs("export", "--html", "zzzz", "-o", page, code=2)
        self.assertEqual(p.stderr, "xs: %s: zzzz: no session matches \"zzzz\"\n" % self.root)
        p = self.xs("export", "--html", BRANCHED, "-o", self.out, code=2)
        self.assertEqual(p.stderr, "xs: %s: %s is a directory: one session's page needs a file name\n"
                         % (self.root, self.out))
        p = self.xs("export", "--html", BRANCHED, BRANCHED, "-o", os.path.join(self.out, "d"), code=2)
        self.assertEqual(p.stderr, "xs: %s: %s: session %s is named twice\n" % (self.root, BRANCHED, BRANCHED))
        self.assertEqual(os.listdir(self.out), [])
