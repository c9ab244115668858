"""`xs archive` and `xs prune` (docs/retention.md) over a fresh copy of the example store per test:
reports (plain and --json), dry runs, `xs ls` marking archives, reading an archived session, the
progress bar on a terminal only, bad ages."""
import gzip
import json
import os
import re
import shutil
import subprocess
import tempfile

from json_schema_check import problems
from xs_cli_common import XS, NOW_MS, StoreTest, in_terminal, make_store

PARSER = "sessions/--home-dev-projects-parser--/"
WEB = "sessions/--home-dev-projects-web--/"
OLD1 = PARSER + "2025-11-20T14-00-00-000Z_legacy-0001.jsonl"
OLD2 = WEB + "2026-01-10T08-00-00-000Z_legacy-0002.jsonl"


class XsRetentionTest(StoreTest):
    def setUp(self):
        # Each test archives: its own store, built the same way.
        self.own = tempfile.mkdtemp(prefix="xs-cli-retention-")
        self.store = os.path.join(self.own, "store")
        make_store(self.store)

    def tearDown(self):
        shutil.rmtree(self.own)

    def run_xs(self, *args, code=0):
        return self.xs(*args, code=code, root=self.store)

    def file(self, rel):
        return os.path.join(self.store, rel)

    def read(self, rel):
        with open(self.file(rel), "rb") as f:
            return f.read()

    def test_archive_dry_run_then_archive(self):
        originals = {rel: self.read(rel) for rel in (OLD1, OLD2)}
        dry = self.run_xs("archive", "--older", "30d", "--dry-run")
        self.assertEqual(dry.stderr, "")
        self.assertEqual(dry.stdout, "would archive %s\nwould archive %s\nwould archive 2 sessions, 1.9K\n"
                         % (OLD1, OLD2))
        self.assertTrue(os.path.exists(self.file(OLD1)))
        real = self.run_xs("archive", "--older", "30d")
        sizes = re.sub(r"-> [0-9.]+[BKMG]", "-> N", real.stdout)
        self.assertEqual(sizes, "archived %s (1.1K -> N)\narchived %s (830B -> N)\narchived 2 sessions, 1.9K -> N\n"
                         % (OLD1, OLD2))
        for rel, data in originals.items():
            self.assertFalse(os.path.exists(self.file(rel)))
            self.assertEqual(gzip.decompress(self.read(rel + ".gz")), data)  # what gzip -d restores
        self.assertEqual(self.run_xs("archive", "--older", "30d").stdout, "archived 0 sessions, 0B -> 0B\n")

    def test_archive_json_report(self):
        report = json.loads(self.run_xs("archive", "--older", "60d", "--json").stdout)
        self.assertEqual(problems(report, "archive-report.schema.json"), [])
        self.assertEqual(report["dryRun"], False)
        self.assertEqual([a["path"] for a in report["archived"]], [self.file(OLD1)])
        self.assertEqual(report["archived"][0]["bytes"], len(gzip.decompress(self.read(OLD1 + ".gz"))))
        self.assertEqual(report["archived"][0]["gzBytes"], os.path.getsize(self.file(OLD1 + ".gz")))
        self.assertEqual(report["skipped"], [])

    def test_ls_marks_archives_and_they_read_as_before(self):
        before = self.run_xs("show", "legacy-0002", "--json").stdout
        context = self.run_xs("context", "legacy-0002").stdout
        self.run_xs("archive", "--older", "30d")
        ls = self.run_xs("ls", "--all").stdout
        flags = {line.split()[0]: line[37:].split()[0] for line in ls.splitlines()[1:]}  # the FLAGS column
        self.assertEqual(flags, {"legacy-0001": "MA", "legacy-0002": "MA", "5e55a0c1d2e3f401": "-",
                                 "c0mpac7ed0000001": "-", "70rn000000000001": "-", "1ma9e00000000001": "-"})
        listed = json.loads(self.run_xs("ls", "--all", "--json").stdout)
        self.assertEqual(sorted((s["id"], s["archived"]) for s in listed)[-2:],
                         [("legacy-0001", True), ("legacy-0002", True)])
        self.assertEqual(self.run_xs("context", "legacy-0002").stdout, context)
        after = json.loads(self.run_xs("show", "legacy-0002", "--json").stdout)
        self.assertEqual(after["info"]["archived"], True)
        self.assertEqual(after["info"]["readOnly"], True)
        self.assertEqual(after["info"]["entryCount"], json.loads(before)["info"]["entryCount"])
        self.assertEqual(after["usage"], json.loads(before)["usage"])

    def test_prune_only_archives(self):
        self.run_xs("archive", "--older", "30d")
        # The archives were written just now: at XS_NOW_MS (2026-03-08) nothing is 90 days old...
        self.assertEqual(self.run_xs("prune", "--older", "90d").stdout, "deleted 0 archives, 0B\n")
        # ...but every archive is older than 0 seconds, and only archives go.
        dry = self.run_xs("prune", "--older", "0s", "--dry-run", "--json")
        now_env = dict(os.environ, XS_NOW_MS="4102444800000")
        p = subprocess.run([XS, "--root", self.store, "prune", "--older", "1d", "--dry-run"], capture_output=True,
                           text=True, env=now_env)
        self.assertEqual(re.sub(r"[0-9.]+[BKMG]\b", "N", p.stdout),
                         "would delete %s.gz (N)\nwould delete %s.gz (N)\nwould delete 2 archives, N\n" % (OLD1, OLD2))
        self.assertTrue(os.path.exists(self.file(OLD1 + ".gz")))
        self.assertIn('"dryRun":true', dry.stdout)
        self.assertEqual(problems(json.loads(dry.stdout), "prune-report.schema.json"), [])
        p = subprocess.run([XS, "--root", self.store, "prune", "--older", "1d", "--json"], capture_output=True,
                           text=True, env=now_env)
        self.assertEqual([x["path"] for x in json.loads(p.stdout)["pruned"]], [self.file(OLD1 + ".gz"),
                                                                              self.file(OLD2 + ".gz")])
        self.assertFalse(os.path.exists(self.file(OLD1 + ".gz")))
        self.assertEqual(len(json.loads(self.run_xs("ls", "--all", "--json").stdout)), 4)  # the live ones

    def test_bad_ages_are_usage_errors(self):
        for age in ("30", "d", "-1d", "3w", "1.5d"):
            p = self.run_xs("archive", "--older", age, code=2)
            self.assertIn("is not an age like 30d, 12h, 45m or 90s", p.stderr)
        self.run_xs("prune", code=2)  # --older is required

    def test_progress_bar_on_a_terminal_only(self):
        out = in_terminal("%s --root %s archive --older 30d >/dev/null" % (XS, self.store))
        self.assertIn("\r\x1b[2Karchive [------------------------] 0/2 ", out)
        self.assertTrue(out.endswith("\r\x1b[2K"), repr(out[-80:]))
        quiet = subprocess.run([XS, "--root", self.store, "archive", "--older", "1d"], capture_output=True, text=True,
                               env=dict(os.environ, XS_NOW_MS=NOW_MS))
        self.assertEqual(quiet.stderr, "")
