"""`xs` over the example store: verify, errors, usage and the global options."""
import json
import os
import shutil

from xs_cli_common import StoreTest, write_session

PARSER = "sessions/--home-dev-projects-parser--/"
WEB = "sessions/--home-dev-projects-web--/"


class XsCheckTest(StoreTest):
    # --- verify (read-only; the shared store stays as built) ------------------------------------

    TORN = "<root>/sessions/--home-dev-projects-parser--/2026-03-06T16-00-00-000Z_70rn000000000001.jsonl"
    TORN_PROBLEM = ("  line 4 (byte 599): incomplete_tail: last line has no newline (an interrupted or unfinished "
                    "write): invalid JSON: A string is opened, but never closed. (xs repair fixes this)\n")

    def test_verify_the_whole_store(self):
        # Paths relative to the root; files with nothing to say are counted, not listed.
        p = self.xs("verify", code=1)
        self.assertEqual(p.stderr, "", "no progress bar when stderr is not a terminal")
        self.assertEqual(p.stdout, (
            PARSER + "2025-11-20T14-00-00-000Z_legacy-0001.jsonl: ok, 5 entries\n"
            "  note: a version 1 file; `xs migrate --write` rewrites it as version 3\n" +
            PARSER + "2026-03-06T16-00-00-000Z_70rn000000000001.jsonl: 1 problem\n" + self.TORN_PROBLEM +
            WEB + "2026-01-10T08-00-00-000Z_legacy-0002.jsonl: ok, 3 entries\n"
            "  note: a version 2 file; `xs migrate --write` rewrites it as version 3\n"
            "3 other files without problems (-v lists them)\n"
            "6 files: 5 clean, 1 with problems, 0 unreadable\n"))

    def test_verify_verbose_lists_every_file(self):
        p = self.xs("verify", "-v", code=1)
        self.assertEqual(p.stdout, (
            PARSER + "2025-11-20T14-00-00-000Z_legacy-0001.jsonl: ok, 5 entries\n"
            "  note: a version 1 file; `xs migrate --write` rewrites it as version 3\n" +
            PARSER + "2026-03-02T09-00-00-000Z_5e55a0c1d2e3f401.jsonl: ok, 10 entries\n" +
            PARSER + "2026-03-05T10-00-00-000Z_c0mpac7ed0000001.jsonl: ok, 7 entries\n" +
            PARSER + "2026-03-06T16-00-00-000Z_70rn000000000001.jsonl: 1 problem\n" + self.TORN_PROBLEM +
            WEB + "2026-01-10T08-00-00-000Z_legacy-0002.jsonl: ok, 3 entries\n"
            "  note: a version 2 file; `xs migrate --write` rewrites it as version 3\n" +
            WEB + "2026-03-07T11-00-00-000Z_1ma9e00000000001.jsonl: ok, 2 entries\n"
            "6 files: 5 clean, 1 with problems, 0 unreadable\n"))
        self.assertEqual(self.xs("verify", "--verbose", code=1).stdout, p.stdout)

    def test_verify_of_clean_files_only(self):
        self.assertEqual(self.out("verify", "5e55", "c0mp"), (
            "2 files without problems (-v lists them)\n"
            "2 files: 2 clean, 0 with problems, 0 unreadable\n"))

    def test_verify_clean_files_exit_0(self):
        # One file named: always listed.
        self.assertEqual(self.out("verify", "5e55"), PARSER + "2026-03-02T09-00-00-000Z_5e55a0c1d2e3f401.jsonl: "
                                                               "ok, 10 entries\n")

    def test_verify_a_file_outside_the_root_shows_it_as_given(self):
        outside = os.path.join(self.tmp, "copy.jsonl")
        shutil.copy(os.path.join(self.root, PARSER, "2026-03-02T09-00-00-000Z_5e55a0c1d2e3f401.jsonl"), outside)
        self.assertEqual(self.out("verify", outside), outside + ": ok, 10 entries\n")
        # A relative root names the same files.
        p = self.bare("--root", os.path.relpath(self.root), "verify", "5e55")
        self.assertEqual(p.stdout, PARSER + "2026-03-02T09-00-00-000Z_5e55a0c1d2e3f401.jsonl: ok, 10 entries\n")

    def test_verify_json_is_the_librarys_reports(self):
        p = self.xs("verify", "70rn", "1ma9", "--json", code=1)
        reports = json.loads(p.stdout.replace(self.root, "<root>"))
        self.assertEqual(reports[0], {
            "path": self.TORN, "id": "70rn000000000001", "fileVersion": 3, "needsMigration": False, "lines": 4,
            "entries": 2, "blobRefs": 0, "problems": [{
                "line": 4, "offset": 599, "length": 70, "code": "incomplete_tail",
                "reason": "last line has no newline (an interrupted or unfinished write): invalid JSON: A string is "
                          "opened, but never closed.", "fixable": True}]})
        self.assertEqual((reports[1]["blobRefs"], reports[1]["problems"]), (1, []))

    def test_verify_an_unreadable_file_exits_2(self):
        bad = os.path.join(self.tmp, "headless.jsonl")
        with open(bad, "w") as f:
            f.write("garbage\n")
        p = self.xs("verify", bad, "5e55", code=2)
        self.assertEqual(p.stdout.replace(self.tmp, "<tmp>"), (
            "unreadable: <tmp>/headless.jsonl: no session header (no session header in the file)\n"
            "1 other file without problems (-v lists them)\n"
            "2 files: 1 clean, 0 with problems, 1 unreadable\n"))
        with open(bad) as f:
            self.assertEqual(f.read(), "garbage\n", "verify writes nothing")

    def test_verify_an_unreadable_file_under_the_root(self):
        root = os.path.join(self.tmp, "headless-root")
        os.makedirs(os.path.join(root, "sessions", "--w--"))
        with open(os.path.join(root, "sessions", "--w--", "x.jsonl"), "w") as f:
            f.write("garbage\n")
        self.assertEqual(self.xs("verify", root=root, code=2).stdout,
                         "unreadable: sessions/--w--/x.jsonl: no session header (no session header in the file)\n")

    def test_verify_reports_missing_and_damaged_blobs_and_orphans(self):
        root = os.path.join(self.tmp, "blobby")
        os.makedirs(os.path.join(root, "blobs"))
        damaged = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"  # sha256("abc")
        with open(os.path.join(root, "blobs", damaged), "w") as f:
            f.write("abd")
        lines = []
        for i, h in enumerate([damaged, "0" * 64], 1):
            lines.append('{"type":"message","id":"m%d","parentId":%s,"timestamp":"2026-03-01T00:00:0%d.000Z",'
                         '"message":{"role":"user","content":[{"type":"image","data":"blob:sha256:%s",'
                         '"mimeType":"image/png"}]}}' % (i, '"gone"' if i == 2 else "null", i, h))
        path = write_session(root, "b10b", lines)
        p = self.xs("verify", "b10b", root=root, code=1)
        with open(path) as f:
            header = f.readline()
        at2, at3 = len(header), len(header) + len(lines[0]) + 1
        self.assertEqual(p.stdout.split("\n", 1)[1], (
            "  line 2 (byte %d): corrupt_blob: blob %s does not match its hash (referenced by entry m1)\n"
            "  line 3 (byte %d): orphan: entry m2 names parent gone, which is not in the session; it is read as a root\n"
            "  line 3 (byte %d): missing_blob: blob %s is missing (referenced by entry m2)\n"
            % (at2, damaged, at3, at3, "0" * 64)))

    def test_reasons_keep_control_characters_off_the_screen(self):
        # A reason quotes the file's own text (here a parent id with an escape sequence in it).
        root = os.path.join(self.tmp, "escapes")
        path = write_session(root, "e5c", ['{"type":"message","id":"m1","parentId":"\\u001b[31mgone","timestamp":'
                                           '"2026-03-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}'])
        with open(path) as f:
            at2 = len(f.readline())
        out = self.xs("verify", "e5c", root=root, code=1).stdout
        self.assertEqual(out.split("\n", 1)[1], "  line 2 (byte %d): orphan: entry m1 names parent [31mgone, which is "
                                                "not in the session; it is read as a root\n" % at2)

    # --- errors -------------------------------------------------------------------------------

    def test_unknown_session_is_one_line_and_status_2(self):
        p = self.xs("show", "nope", code=2)
        self.assertEqual(p.stdout, "")
        self.assertEqual(p.stderr, 'xs: nope: no session matches "nope"\n')

    def test_unknown_leaf_names_the_session(self):
        self.assertEqual(self.xs("context", "5e55", "--leaf", "zzz", code=2).stderr, "xs: 5e55: entry zzz not found\n")

    def test_missing_file(self):
        p = self.xs("tree", "/nonexistent/x.jsonl", code=2)
        self.assertTrue(p.stderr.startswith("xs: /nonexistent/x.jsonl: "), p.stderr)
        self.assertEqual(len(p.stderr.splitlines()), 1)

    def test_usage_errors_are_status_2(self):
        self.assertIn("SESSION is required", self.xs("show", code=2).stderr)
        self.xs(code=2)
        self.xs("frobnicate", code=2)

    def test_help_on_every_command(self):
        for cmd in ("ls", "show", "tree", "context", "new", "continue", "fork", "verify", "migrate", "repair"):
            self.assertIn("--json", self.xs(cmd, "--help").stdout)
        for cmd in ("append", "branch", "label"):
            self.assertIn("SESSION", self.xs(cmd, "--help").stdout)
        for sub in ("ls", "verify", "gc"):
            self.assertIn("--json", self.xs("blobs", sub, "--help").stdout)
        self.assertIn("Exit status", self.xs("--help").stdout)

    # --- global options: before or after the command ---------------------------------------------

    def test_root_before_or_after_the_command(self):
        before = self.bare("--root", self.root, "ls", "--all").stdout
        self.assertEqual(before.splitlines()[1], "1ma9e00000000001  1d ago      774B   -      Button colour")
        self.assertEqual(self.bare("ls", "--root", self.root, "--all").stdout, before)
        self.assertEqual(self.bare("ls", "--all", "--root", self.root).stdout, before)
        self.assertEqual(self.bare("blobs", "verify", "--root", self.root).stdout, "1 blob: 1 ok, 0 damaged\n")
        self.assertEqual(self.bare("verify", "5e55", "--root", self.root).stdout,
                         PARSER + "2026-03-02T09-00-00-000Z_5e55a0c1d2e3f401.jsonl: ok, 10 entries\n")

    def test_color_before_or_after_the_command(self):
        coloured = self.xs("--color", "always", "tree", "5e55").stdout
        self.assertIn("\x1b[32m◀ leaf\x1b[0m", coloured)
        self.assertEqual(self.xs("tree", "5e55", "--color", "always").stdout, coloured)
        self.assertEqual(self.xs("tree", "--color=always", "5e55").stdout, coloured)
        self.assertNotIn("\x1b[", self.xs("tree", "5e55", "--color=never").stdout)
        self.assertIn("--color: banana not in {auto,always,never}", self.xs("tree", "5e55", "--color", "banana",
                                                                            code=2).stderr)

    def test_every_help_lists_the_global_options(self):
        ls_help = self.xs("ls", "--help").stdout
        self.assertIn("Global options:\n  --root TEXT                 store root (default: $XS_HOME, else "
                      "~/.xcsh/agent)\n  --store TEXT                a store in PostgreSQL: a postgresql:// URL (its "
                      "root: --root, else /xsession)\n  --color TEXT:{auto,always,never}\n", ls_help)
        commands = [[c] for c in ("ls", "show", "tree", "context", "new", "continue", "append", "branch", "label",
                                  "fork", "verify", "repair", "migrate", "blobs")]
        commands += [["blobs", "ls"], ["blobs", "verify"], ["blobs", "gc"]]
        for cmd in commands:
            out = self.xs(*cmd, "--help").stdout
            self.assertIn("--root TEXT", out, cmd)
            self.assertIn("--store TEXT", out, cmd)
            self.assertIn("--color TEXT", out, cmd)
