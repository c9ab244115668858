"""`xs import` and `xs ls --foreign` (docs/import.md) over the small Claude, MyAgents and gateway
stores of the conformance cases (tests/conformance/tools/import_cases.py), written to a temporary
directory: the summary table, a re-import, a dry run, --json, the default path under $HOME, the
listings, bad kinds and paths; the sources are never written."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from json_schema_check import problems
from xs_cli_common import REPO, XS, in_terminal, xs_env

sys.path.insert(0, os.path.join(REPO, "tests", "conformance", "tools"))
import import_cases as fx  # noqa: E402

CORPUS = os.path.join(REPO, "..", "shared", "corpus")


TABLE = "SESSION                               NEW  ROWS    IMPORTED  CUSTOM  ALREADY  SKIPPED  SOURCE\n"


def row(sid, new, read, imported, custom, already, skipped, source):
    return "%-36s  %-3s  %-6d  %-8d  %-6d  %-7d  %-7d  %s\n" % (sid, new, read, imported, custom, already, skipped,
                                                                source)


class XsImportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="xs-cli-import-")
        self.store = os.path.join(self.tmp, "store")
        self.home = os.path.join(self.tmp, "home")
        files = {
            "home/.claude/projects/-tmp-demo/" + fx.CLAUDE_FILE: fx.CLAUDE_ROWS,
            "myagents/sessions.json": fx.MA_INDEX,
            "myagents/sessions/%s.jsonl" % fx.MA_ID: fx.MA_ROWS,
            "gateway/agents/main/sessions/sessions.json": fx.GW_INDEX,
            "gateway/agents/main/sessions/%s.jsonl" % fx.GW_ID: fx.GW_ROWS,
        }
        self.sources = {}
        for rel, text in files.items():
            path = os.path.join(self.tmp, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
            self.sources[path] = (text, os.stat(path).st_mtime_ns)

    def tearDown(self):
        for path, (text, mtime) in self.sources.items():
            with open(path) as f:
                self.assertEqual(f.read(), text, path)
            self.assertEqual(os.stat(path).st_mtime_ns, mtime, path)
        shutil.rmtree(self.tmp)

    def xs(self, *args, code=0):
        env = dict(xs_env(), HOME=self.home)
        p = subprocess.run([XS, "--root", self.store, *args], capture_output=True, text=True, env=env)
        self.assertEqual(p.returncode, code, f"xs {' '.join(args)}\nstdout: {p.stdout}\nstderr: {p.stderr}")
        return p

    def test_claude_from_its_usual_place_then_again(self):
        projects = os.path.join(self.home, ".claude", "projects")
        skipped = "skipped:\n  -tmp-demo/%s:2: %s\n" % (fx.CLAUDE_FILE, fx.NOT_JSON)
        first = self.xs("import", "claude")
        self.assertEqual(first.stderr, "")
        self.assertEqual(first.stdout, "imported claude from %s\n" % projects + TABLE +
                         row(fx.CLAUDE_ID, "yes", 3, 2, 0, 0, 1, "-tmp-demo/" + fx.CLAUDE_FILE) +
                         "1 session, 3 rows: 2 imported, 0 kept as custom, 0 already imported, 1 skipped\n" + skipped)
        with open(os.path.join(self.store, fx.CLAUDE_SESSION_FILE)) as f:
            self.assertEqual(f.read(), "\n".join(fx.CLAUDE_SESSION) + "\n")
        again = self.xs("import", "claude", projects + "/-tmp-demo")
        self.assertEqual(again.stdout, "imported claude from %s/-tmp-demo\n" % projects + TABLE +
                         row(fx.CLAUDE_ID, "no", 3, 0, 0, 2, 1, fx.CLAUDE_FILE) +
                         "1 session, 3 rows: 0 imported, 0 kept as custom, 2 already imported, 1 skipped\n" +
                         skipped.replace("-tmp-demo/", ""))

    def test_dry_run_writes_nothing_and_json_is_the_report(self):
        src = os.path.join(self.tmp, "gateway")
        d = src + "/agents/main/sessions"
        dry = self.xs("import", "gateway", src, "--dry-run")
        self.assertEqual(dry.stdout, "dry run: would import gateway from %s\n" % src + TABLE +
                         row(fx.GW_ID, "yes", 1, 1, 0, 0, 0, "agents/main/sessions/%s.jsonl" % fx.GW_ID) +
                         row("(keys)", "no", 1, 1, 0, 0, 0, "agents/main/sessions/sessions.json") +
                         "2 sessions, 2 rows: 2 imported, 0 kept as custom, 0 already imported, 0 skipped\n")
        self.assertFalse(os.path.exists(self.store))
        report = json.loads(self.xs("import", "gateway", src, "--json").stdout)
        self.assertEqual(report, json.loads(fx.gateway_report(True).replace("{root}/source/gateway", src)
                                            .replace("{root}/" + fx.GW_DIR, d).replace("{root}", self.store)))

    def test_cwd_places_myagents_sessions_that_name_none(self):
        src = os.path.join(self.tmp, "myagents")
        out = self.xs("import", "myagents", src, "--cwd", "/srv/app").stdout
        # The session names its agentDir, so --cwd (a fallback for hosts) does not move it.
        self.assertIn(row(fx.MA_ID, "yes", 2, 2, 0, 0, 0, "sessions/%s.jsonl" % fx.MA_ID), out)
        self.assertTrue(os.path.isdir(os.path.join(self.store, "sessions", "--tmp-demo--")))

    def test_foreign_listings(self):
        self.assertEqual(self.xs("ls", "--foreign", "claude").stdout,
                         "PROJECT                       FILE                                          ROWS    BAD  TITLE\n"
                         "%-28s  %-44s  %-6d  %-3d  %s\n" % ("-tmp-demo", fx.CLAUDE_FILE, 3, 1, "Say hi"))
        self.assertEqual(self.xs("ls", "--foreign", "myagents", os.path.join(self.tmp, "myagents")).stdout,
                         "ID                                    INDEX  FILE    TITLE\n"
                         "%-36s  yes    jsonl   Fix\n" % fx.MA_ID)
        self.assertEqual(self.xs("ls", "--foreign", "gateway", os.path.join(self.tmp, "gateway")).stdout,
                         "AGENT         FILE                                                  GENERATION  SIZE   KEYS\n"
                         "%-12s  %-52s  %-10s  %-5s  1\n" % ("main", fx.GW_ID + ".jsonl", "live",
                                                              "%dB" % len(fx.GW_ROWS.encode())))
        listing = json.loads(self.xs("ls", "--foreign", "myagents", os.path.join(self.tmp, "myagents"), "--json").stdout)
        self.assertEqual(listing, json.loads(fx.MA_LISTING.replace("{root}/source", self.tmp)))
        self.assertFalse(os.path.exists(self.store))

    def test_progress_bar_on_a_terminal_only(self):
        """The source's bytes handled: drawn on stderr when it is a terminal, erased before the table."""
        src = os.path.join(self.home, ".claude", "projects", "-tmp-demo", fx.CLAUDE_FILE)
        size = len(fx.CLAUDE_ROWS.encode())
        self.assertEqual(os.path.getsize(src), size)
        out = in_terminal("%s --root %s import claude >/dev/null" % (XS, self.store), {"HOME": self.home})
        self.assertIn("\r\x1b[2Kimport [------------------------] 0B/%dB " % size, out)
        self.assertIn("\r\x1b[2Kimport [########################] %dB/%dB " % (size, size), out)
        self.assertTrue(out.endswith("\r\x1b[2K"), repr(out[-80:]))
        self.assertEqual(self.xs("import", "claude", "--dry-run").stderr, "")  # not a terminal: no bar

    def test_bad_kinds_and_paths(self):
        missing = os.path.join(self.tmp, "nowhere")
        p = self.xs("import", "claude", missing, code=2)
        self.assertEqual(p.stderr, "xs: import source %s does not exist\n" % missing)
        p = self.xs("import", "codex", code=2)
        self.assertEqual(p.stderr, "kind: codex not in {claude,myagents,gateway}\nRun with --help for more information.\n")
        p = self.xs("ls", "--foreign", "codex", code=2)
        self.assertEqual(p.stderr, "--foreign: \"codex\" is not claude, myagents or gateway\n"
                                   "Run with --help for more information.\n")
        gateway = os.path.join(self.tmp, "gateway")
        p = self.xs("ls", "--foreign", "myagents", gateway, code=2)
        self.assertEqual(p.stderr, "xs: %s: not a MyAgents store (no sessions.json, no sessions/)\n" % gateway)
        self.assertFalse(os.path.exists(self.store))

    def test_outputs_match_their_schemas(self):
        """capi/schema/: every report and listing of the small stores, and of the corpus's real Claude
        projects and gateway stores (../shared/corpus, as CI sets it up), imported as dry runs."""
        report, listing = "import-report.schema.json", "foreign-list.schema.json"
        sources = [("claude", os.path.join(self.home, ".claude", "projects")),
                   ("myagents", os.path.join(self.tmp, "myagents")), ("gateway", os.path.join(self.tmp, "gateway"))]
        for name in sorted(os.listdir(os.path.join(CORPUS, "claude-code"))):
            if os.path.isdir(os.path.join(CORPUS, "claude-code", name)):
                sources.append(("claude", os.path.join(CORPUS, "claude-code", name)))
        for name in sorted(os.listdir(os.path.join(CORPUS, "openclaw"))):
            if os.path.isdir(os.path.join(CORPUS, "openclaw", name)):
                sources.append(("gateway", os.path.join(CORPUS, "openclaw", name)))
        for kind, path in sources:
            for dry in (["--dry-run"], []) if path.startswith(self.tmp) else (["--dry-run"],):
                got = json.loads(self.xs("import", kind, path, "--json", *dry).stdout)
                self.assertEqual(problems(got, report), [], path)
            got = json.loads(self.xs("ls", "--foreign", kind, path, "--json").stdout)
            self.assertEqual(problems(got, listing), [], path)
        self.assertEqual(problems({"source": "claude"}, listing),
                         ["at $: {'source': 'claude'} is not valid under any of the given schemas"])
