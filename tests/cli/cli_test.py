#!/usr/bin/env python3
"""`xs` over the example store: exact output of each command (plain and --json) and exit codes.

    cli_test.py XS_BINARY MAKE_STORE_SCRIPT COMMITTED_STORE_DIR

The store is rebuilt in a temporary directory by examples/make_store.py (fixed bytes and mtimes);
XS_NOW_MS fixes "now" for ages and XS_ID_SEED the ids a migration makes up.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

XS, MAKE_STORE, COMMITTED = sys.argv[1:4]
NOW_MS = "1773000000000"  # 2026-03-08T20:00:00Z


class XsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="xs-cli-")
        cls.root = os.path.join(cls.tmp, "store")
        subprocess.run([sys.executable, MAKE_STORE, cls.root], check=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def xs(self, *args, code=0, root=None):
        env = dict(os.environ, XS_NOW_MS=NOW_MS, XS_ID_SEED="7")
        env.pop("NO_COLOR", None)
        p = subprocess.run([XS, "--root", root or self.root, *args], capture_output=True, text=True, env=env)
        self.assertEqual(p.returncode, code, f"xs {' '.join(args)}\nstdout: {p.stdout}\nstderr: {p.stderr}")
        return p

    def out(self, *args):
        p = self.xs(*args)
        self.assertEqual(p.stderr, "", "no progress or noise when stderr is not a terminal")
        return p.stdout.replace(self.root, "<root>")

    # --- the example store --------------------------------------------------------------------

    def test_committed_store_is_the_scripts_output(self):
        def files(d):
            out = {}
            for base, _, names in os.walk(d):
                for n in names:
                    with open(os.path.join(base, n), "rb") as f:
                        out[os.path.relpath(os.path.join(base, n), d)] = f.read()
            return out
        self.assertEqual(files(COMMITTED), files(self.root))

    # --- ls -----------------------------------------------------------------------------------

    def test_ls_all(self):
        self.assertEqual(self.out("ls", "--all"), (
            "ID                MODIFIED    SIZE   FLAGS  TITLE\n"
            "1ma9e00000000001  1d ago      774B   -      Button colour\n"
            "70rn000000000001  2d ago      669B   -      Rename Token to Lexeme everywhere.\n"
            "c0mpac7ed0000001  3d ago      2.1K   -      Speed up the lexer\n"
            "5e55a0c1d2e3f401  6d ago      3.1K   -      Fix the tokenizer crash\n"
            "legacy-0002       2026-01-10  830B   M      Why is the build slow?\n"
            "legacy-0001       2025-11-20  1.1K   M      Summarise the build system.\n"))

    def test_ls_check_counts_messages_and_flags_skipped_lines(self):
        self.assertEqual(self.out("ls", "--all", "--check", "--limit", "3"), (
            "ID                MODIFIED    SIZE   MSGS   FLAGS  TITLE\n"
            "1ma9e00000000001  1d ago      774B   2      -      Button colour\n"
            "70rn000000000001  2d ago      669B   2      D      Rename Token to Lexeme everywhere.\n"
            "c0mpac7ed0000001  3d ago      2.1K   6      -      Speed up the lexer\n"))

    def test_ls_check_json_adds_counts_and_problems(self):
        listed = json.loads(self.out("ls", "--all", "--check", "--json"))
        torn = [s for s in listed if s["id"] == "70rn000000000001"][0]
        self.assertEqual((torn["messageCount"], torn["entryCount"], torn["problems"]), (2, 2, 1))
        self.assertEqual(sum(s["problems"] for s in listed), 1)

    def test_ls_of_one_cwd_as_json(self):
        listed = json.loads(self.out("ls", "--cwd", "/home/dev/projects/web", "--json"))
        self.assertEqual([s["id"] for s in listed], ["1ma9e00000000001", "legacy-0002"])
        self.assertEqual(listed[1], {
            "path": "<root>/sessions/--home-dev-projects-web--/2026-01-10T08-00-00-000Z_legacy-0002.jsonl",
            "id": "legacy-0002", "cwd": "/home/dev/projects/web", "timestamp": "2026-01-10T08:00:00.000Z",
            "modified": 1768032003000, "size": 830, "title": None, "parentSession": None, "version": 2,
            "needsMigration": True, "corruptCopies": 0, "firstMessage": "Why is the build slow?"})

    def test_ls_of_the_current_directory_by_default(self):
        self.assertEqual(self.out("ls"), "ID                MODIFIED    SIZE   FLAGS  TITLE\n")

    # --- show ---------------------------------------------------------------------------------

    def test_show(self):
        self.assertEqual(self.out("show", "5e55"), (
            "session     5e55a0c1d2e3f401\n"
            "file        <root>/sessions/--home-dev-projects-parser--/2026-03-02T09-00-00-000Z_5e55a0c1d2e3f401.jsonl\n"
            "cwd         /home/dev/projects/parser\n"
            "created     2026-03-02T09:00:00.000Z\n"
            "title       Fix the tokenizer crash\n"
            "version     3\n"
            "entries     10 (message 6, thinking_level_change 1, model_change 1, branch_summary 1, label 1)\n"
            "leaf        b0000004\n"
            "tokens      input 6550, output 264, cache read 3800, cache write 0, cost $0.0248\n"
            "labels      1\n"
            "  a0000006  diagnosis\n"
            "skipped     -\n"))

    def test_show_reports_a_torn_tail(self):
        out = self.out("show", "70rn")
        self.assertIn("skipped     1\n  line 4 (byte 599): incomplete_tail: last line has no newline", out)

    def test_show_json(self):
        shown = json.loads(self.out("show", "c0mpac7ed0000001", "--json"))
        self.assertEqual(shown["info"]["entryTypes"], {"message": 6, "compaction": 1})
        self.assertEqual(list(shown), ["info", "usage", "labels", "diagnostics"])
        self.assertEqual(shown["info"]["title"], "Speed up the lexer")
        self.assertEqual(shown["usage"]["input"], 1200 * (2 + 4 + 7))
        self.assertEqual(shown["labels"], [])
        self.assertEqual(shown["diagnostics"], [])

    # --- tree ---------------------------------------------------------------------------------

    BRANCHED_TREE = (
        "a0000001 model: anthropic/claude-sonnet-4-5\n"
        "a0000002 user: The tokenizer crashes on an empty input file. Can you find out why…\n"
        "a0000003 assistant: Let me read the tokenizer first. → read({\"path\":\"src/tokenize…\n"
        "├─ a0000004 toolResult(read): char next(Tokenizer *t) { return t->buf[t->pos++]; /*…\n"
        "│  a0000005 thinking: high\n"
        "│  a0000006 assistant: next() reads t->buf[t->pos] without checking t->pos < t->len,… [diagnosis]\n"
        "│  a0000007 label a0000006: diagnosis\n"
        "└─ b0000001 branch summary: Explored reading the file with mmap instead; abandoned b…\n"
        "   b0000002 user: Instead, just write a failing test for the empty-file case.\n"
        "   b0000004 assistant: Added tests/empty_file_test.c; it fails with a read past the… ◀ leaf\n")

    def test_tree(self):
        self.assertEqual(self.out("tree", "5e55"), self.BRANCHED_TREE)

    def test_tree_in_colour_when_asked(self):
        out = self.out("--color=always", "tree", "5e55")
        self.assertIn("\x1b[2ma0000001\x1b[0m model: anthropic/claude-sonnet-4-5\n", out)
        self.assertIn("\x1b[33m[diagnosis]\x1b[0m", out)
        self.assertIn("\x1b[32m◀ leaf\x1b[0m", out)
        self.assertEqual(self.out("--color=never", "tree", "5e55"), self.BRANCHED_TREE)

    def test_tree_of_a_migrated_v1_file(self):
        out = self.out("tree", "legacy-0001")
        self.assertEqual([l.split(" ", 1)[1] for l in out.splitlines()], [
            "user: Summarise the build system.",
            "assistant: It is a plain Makefile with three targets.",
            "custom: make lint: 0 warnings",
            "compaction: The user asked about the build; it is a Makefile with three…",
            "user: Now add a test target. ◀ leaf"])
        self.assertEqual(out, self.out("tree", "legacy-0001"), "ids are reproducible with XS_ID_SEED")

    def test_tree_folds_long_runs(self):
        root = os.path.join(self.tmp, "long")
        d = os.path.join(root, "sessions", "--w--")
        os.makedirs(d)
        lines = ['{"type":"session","version":3,"id":"10n9","timestamp":"2026-03-01T00:00:00.000Z","cwd":"/w"}']
        for i in range(1, 21):
            parent = "null" if i == 1 else '"%08d"' % (i - 1)
            role = "user" if i % 2 else "assistant"
            lines.append('{"type":"message","id":"%08d","parentId":%s,"timestamp":"2026-03-01T00:00:%02d.000Z",'
                         '"message":{"role":"%s","content":"m%d"}}' % (i, parent, i, role, i))
        with open(os.path.join(d, "2026-03-01T00-00-00-000Z_10n9.jsonl"), "w") as f:
            f.write("\n".join(lines) + "\n")
        self.assertEqual(self.xs("tree", "10n9", root=root).stdout, (
            "00000001 user: m1\n"
            "00000002 assistant: m2\n"
            "00000003 user: m3\n"
            "┆ 14 more entries (--full shows them)\n"
            "00000018 assistant: m18\n"
            "00000019 user: m19\n"
            "00000020 assistant: m20 ◀ leaf\n"))
        self.assertEqual(len(self.xs("tree", "10n9", "--full", root=root).stdout.splitlines()), 20)

    def test_tree_json_is_the_librarys_tree(self):
        tree = json.loads(self.out("tree", "5e55", "--json"))
        self.assertEqual([n["id"] for n in tree][:4], ["a0000001", "a0000002", "a0000003", "a0000004"])
        self.assertEqual(tree[2]["children"], ["a0000004", "b0000001"])
        self.assertEqual(tree[5]["label"], "diagnosis")

    # --- context ------------------------------------------------------------------------------

    def test_context_after_a_compaction(self):
        self.assertEqual(self.out("context", "c0mp"), (
            "leaf d0000007, 5 messages, thinking off, model default=anthropic/claude-sonnet-4-5\n"
            "\n── compaction summary ──\n"
            "Profiled the lexer; identifier re-scanning dominated; added a per-file identifier table.\n"
            "\n── user ──\nCache the identifier table.\n"
            "\n── assistant (anthropic/claude-sonnet-4-5) ──\nDone: the table is built once per file.\n"
            "\n── user ──\nNow run the benchmarks again.\n"
            "\n── assistant (anthropic/claude-sonnet-4-5) ──\nLexing is 3.1x faster on the big fixture.\n"))

    def test_context_from_another_leaf(self):
        out = self.out("context", "5e55", "--leaf", "a0000006")
        self.assertTrue(out.startswith("leaf a0000006, 4 messages, thinking high,"), out)

    def test_context_json_resolves_the_blob(self):
        ctx = json.loads(self.out("context", "1ma9", "--json"))
        image = ctx["messages"][0]["content"][1]
        self.assertEqual(image["mimeType"], "image/png")
        self.assertTrue(image["data"].startswith("iVBORw0KGgo"), image["data"][:20])

    # --- verify (read-only; the shared store stays as built) ------------------------------------

    TORN = "<root>/sessions/--home-dev-projects-parser--/2026-03-06T16-00-00-000Z_70rn000000000001.jsonl"
    TORN_PROBLEM = ("  line 4 @599: incomplete_tail: last line has no newline (an interrupted or unfinished write): "
                    "invalid JSON: A string is opened, but never closed. (xs repair fixes this)\n")

    def test_verify_the_whole_store(self):
        p = self.xs("verify", code=1)
        self.assertEqual(p.stderr, "", "no progress bar when stderr is not a terminal")
        parser = "<root>/sessions/--home-dev-projects-parser--/"
        web = "<root>/sessions/--home-dev-projects-web--/"
        self.assertEqual(p.stdout.replace(self.root, "<root>"), (
            parser + "2025-11-20T14-00-00-000Z_legacy-0001.jsonl: ok, 5 entries\n"
            "  note: a version 1 file; `xs migrate --write` rewrites it as version 3\n" +
            parser + "2026-03-02T09-00-00-000Z_5e55a0c1d2e3f401.jsonl: ok, 10 entries\n" +
            parser + "2026-03-05T10-00-00-000Z_c0mpac7ed0000001.jsonl: ok, 7 entries\n" +
            self.TORN + ": 1 problem\n" + self.TORN_PROBLEM +
            web + "2026-01-10T08-00-00-000Z_legacy-0002.jsonl: ok, 3 entries\n"
            "  note: a version 2 file; `xs migrate --write` rewrites it as version 3\n" +
            web + "2026-03-07T11-00-00-000Z_1ma9e00000000001.jsonl: ok, 2 entries\n"
            "6 files: 5 clean, 1 with problems, 0 unreadable\n"))

    def test_verify_clean_files_exit_0(self):
        self.assertEqual(self.out("verify", "5e55"), (
            "<root>/sessions/--home-dev-projects-parser--/2026-03-02T09-00-00-000Z_5e55a0c1d2e3f401.jsonl: "
            "ok, 10 entries\n"))

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
        self.assertEqual(p.stdout.replace(self.tmp, "<tmp>").splitlines()[0],
                         "unreadable: <tmp>/headless.jsonl: no session header (no session header in the file)")
        self.assertTrue(p.stdout.endswith("2 files: 1 clean, 0 with problems, 1 unreadable\n"), p.stdout)
        with open(bad) as f:
            self.assertEqual(f.read(), "garbage\n", "verify writes nothing")

    def test_verify_reports_missing_and_damaged_blobs_and_orphans(self):
        root = os.path.join(self.tmp, "blobby")
        d = os.path.join(root, "sessions", "--w--")
        os.makedirs(d)
        os.makedirs(os.path.join(root, "blobs"))
        damaged = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"  # sha256("abc")
        with open(os.path.join(root, "blobs", damaged), "w") as f:
            f.write("abd")
        lines = ['{"type":"session","version":3,"id":"b10b","timestamp":"2026-03-01T00:00:00.000Z","cwd":"/w"}']
        for i, h in enumerate([damaged, "0" * 64], 1):
            lines.append('{"type":"message","id":"m%d","parentId":%s,"timestamp":"2026-03-01T00:00:0%d.000Z",'
                         '"message":{"role":"user","content":[{"type":"image","data":"blob:sha256:%s",'
                         '"mimeType":"image/png"}]}}' % (i, '"gone"' if i == 2 else "null", i, h))
        with open(os.path.join(d, "2026-03-01T00-00-00-000Z_b10b.jsonl"), "w") as f:
            f.write("\n".join(lines) + "\n")
        p = self.xs("verify", "b10b", root=root, code=1)
        at2, at3 = len(lines[0]) + 1, len(lines[0]) + len(lines[1]) + 2
        self.assertEqual(p.stdout.split("\n", 1)[1], (
            "  line 2 @%d: corrupt_blob: blob %s does not match its hash (referenced by entry m1)\n"
            "  line 3 @%d: orphan: entry m2 names parent gone, which is not in the session; it is read as a root\n"
            "  line 3 @%d: missing_blob: blob %s is missing (referenced by entry m2)\n"
            % (at2, damaged, at3, at3, "0" * 64)))

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


class XsWriteTest(unittest.TestCase):
    """Commands that change files, each on a store of its own."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="xs-cli-w-")
        self.root = os.path.join(self.tmp, "store")
        subprocess.run([sys.executable, MAKE_STORE, self.root], check=True)
        self.seed = 100

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def xs(self, *args, code=0, stdin=None):
        self.seed += 1  # each command makes its own ids, as separate agent runs would
        env = dict(os.environ, XS_NOW_MS=NOW_MS, XS_ID_SEED=str(self.seed))
        env.pop("XS_TERMINAL_ID", None)
        p = subprocess.run([XS, "--root", self.root, *args], capture_output=True, text=True, env=env, input=stdin)
        self.assertEqual(p.returncode, code, f"xs {' '.join(args)}\nstdout: {p.stdout}\nstderr: {p.stderr}")
        if code == 0:
            self.assertEqual(p.stderr, "")
        return p.stdout.replace(self.root, "<root>")

    def read(self, path):
        with open(path.replace("<root>", self.root), "rb") as f:
            return f.read()

    def torn_path(self):
        return os.path.join(self.root, "sessions", "--home-dev-projects-parser--",
                            "2026-03-06T16-00-00-000Z_70rn000000000001.jsonl")

    # --- new, append, branch, label, fork, continue ---------------------------------------------

    def test_a_session_written_from_the_command_line(self):
        sid, path = self.xs("new", "--cwd", "/w", "--title", "Demo").split()
        self.assertEqual(path, "<root>/sessions/--w--/2026-03-08T20-00-00-000Z_%s.jsonl" % sid)
        u = self.xs("append", sid, "--message", "user", "Hello there").strip()
        a = self.xs("append", sid, "--message", "assistant", "Hi!").strip()
        b = self.xs("branch", sid, u, "--summary", "Tried a greeting").strip()
        l = self.xs("label", sid, u, "start").strip()
        c = self.xs("append", sid, "--json", "-",
                    stdin='{"type":"custom","customType":"note","data":{"k":1}}\n').strip()
        t = '"timestamp":"2026-03-08T20:00:00.000Z"'
        self.assertEqual(self.read(path).decode(), "\n".join([
            '{"type":"session","version":3,"id":"%s",%s,"cwd":"/w","title":"Demo"}' % (sid, t),
            '{"type":"message","id":"%s","parentId":null,%s,"message":{"role":"user","content":"Hello there",'
            '"timestamp":1773000000000}}' % (u, t),
            '{"type":"message","id":"%s","parentId":"%s",%s,"message":{"role":"assistant","content":'
            '[{"type":"text","text":"Hi!"}],"timestamp":1773000000000}}' % (a, u, t),
            '{"type":"branch_summary","id":"%s","parentId":"%s",%s,"fromId":"%s","summary":"Tried a greeting"}'
            % (b, u, t, u),
            '{"type":"label","id":"%s","parentId":"%s",%s,"targetId":"%s","label":"start"}' % (l, b, t, u),
            '{"type":"custom","customType":"note","data":{"k":1},"id":"%s","parentId":"%s",%s}' % (c, l, t),
        ]) + "\n")
        self.assertEqual(self.xs("tree", sid), (
            "%s user: Hello there [start]\n"
            "├─ %s assistant: Hi!\n"
            "└─ %s branch summary: Tried a greeting\n"
            "   %s label %s: start\n"
            "   %s custom(note) ◀ leaf\n" % (u, a, b, l, u, c)))
        cleared = self.xs("label", sid, u, "--clear").strip()
        self.assertTrue(self.read(path).decode().endswith(
            '{"type":"label","id":"%s","parentId":"%s",%s,"targetId":"%s"}\n' % (cleared, c, t, u)))
        self.assertEqual(json.loads(self.xs("show", sid, "--json"))["labels"], [])

    def test_fork_whole_and_at_an_entry(self):
        whole = self.xs("fork", "5e55", "--json")
        info = json.loads(whole)
        self.assertEqual((info["entryCount"], info["leafId"]), (10, "b0000004"))
        self.assertTrue(info["path"].startswith("<root>/sessions/--home-dev-projects-parser--/"), info["path"])
        sid, path = self.xs("fork", "5e55", "--at", "a0000006").split()
        ids = [json.loads(l)["id"] for l in self.read(path).decode().splitlines()[1:]]
        self.assertEqual(ids[:6], ["a0000001", "a0000002", "a0000003", "a0000004", "a0000005", "a0000006"])
        self.assertEqual(json.loads(self.read(path).decode().splitlines()[0])["parentSession"],
                         self.torn_path().replace("70rn000000000001", "5e55a0c1d2e3f401")
                         .replace("2026-03-06T16-00-00-000Z", "2026-03-02T09-00-00-000Z"))

    def test_continue_picks_the_newest_session_of_the_directory(self):
        out = self.xs("continue", "--cwd", "/home/dev/projects/web")
        self.assertEqual(out, "1ma9e00000000001 <root>/sessions/--home-dev-projects-web--/"
                              "2026-03-07T11-00-00-000Z_1ma9e00000000001.jsonl\n")
        sid, path = self.xs("continue", "--cwd", "/nowhere/yet").split()
        self.assertEqual(path, "<root>/sessions/--nowhere-yet--/2026-03-08T20-00-00-000Z_%s.jsonl" % sid)
        self.assertTrue(os.path.exists(path.replace("<root>", self.root)), "a new session is written at once")

    def test_write_errors_are_one_line_and_status_2(self):
        p = subprocess.run([XS, "--root", self.root, "append", "5e55", "--message", "bot", "x"],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("ROLE must be user or assistant", p.stderr)
        p = subprocess.run([XS, "--root", self.root, "label", "5e55", "zzz", "x"], capture_output=True, text=True)
        self.assertEqual((p.returncode, p.stderr.count("\n")), (2, 1))
        self.assertTrue(p.stderr.startswith("xs: 5e55: label: "), p.stderr)
        p = subprocess.run([XS, "--root", self.root, "append", "5e55", "--json", "{not json"],
                           capture_output=True, text=True)
        self.assertEqual((p.returncode, p.stderr.count("\n")), (2, 1))

    # --- migrate --------------------------------------------------------------------------------

    def test_migrate_is_a_dry_run_unless_asked_to_write(self):
        legacy = os.path.join(self.root, "sessions", "--home-dev-projects-parser--",
                              "2025-11-20T14-00-00-000Z_legacy-0001.jsonl")
        before = self.read(legacy)
        self.assertEqual(self.xs("migrate", "legacy-0001", "5e55"), (
            "<root>/sessions/--home-dev-projects-parser--/2025-11-20T14-00-00-000Z_legacy-0001.jsonl: "
            "version 1 -> 3 (would rewrite)\n"
            "<root>/sessions/--home-dev-projects-parser--/2026-03-02T09-00-00-000Z_5e55a0c1d2e3f401.jsonl: "
            "version 3, nothing to do\n"
            "1 to migrate (run again with --write)\n"))
        self.assertEqual(self.read(legacy), before)
        self.assertEqual(self.xs("migrate", "--write"), (
            "<root>/sessions/--home-dev-projects-parser--/2025-11-20T14-00-00-000Z_legacy-0001.jsonl: "
            "version 1 -> 3, rewritten\n"
            "<root>/sessions/--home-dev-projects-parser--/2026-03-02T09-00-00-000Z_5e55a0c1d2e3f401.jsonl: "
            "version 3, nothing to do\n"
            "<root>/sessions/--home-dev-projects-parser--/2026-03-05T10-00-00-000Z_c0mpac7ed0000001.jsonl: "
            "version 3, nothing to do\n"
            "<root>/sessions/--home-dev-projects-parser--/2026-03-06T16-00-00-000Z_70rn000000000001.jsonl: "
            "version 3, nothing to do\n"
            "<root>/sessions/--home-dev-projects-web--/2026-01-10T08-00-00-000Z_legacy-0002.jsonl: "
            "version 2 -> 3, rewritten\n"
            "<root>/sessions/--home-dev-projects-web--/2026-03-07T11-00-00-000Z_1ma9e00000000001.jsonl: "
            "version 3, nothing to do\n"
            "2 migrated, 0 failed\n"))
        after = self.read(legacy).decode().splitlines()
        self.assertEqual(after[0], '{"type":"session","id":"legacy-0001","timestamp":"2025-11-20T14:00:00.000Z",'
                                   '"cwd":"/home/dev/projects/parser","version":3}')
        self.assertEqual(len(after), len(before.decode().splitlines()))
        again = json.loads(self.xs("migrate", "--json"))
        self.assertEqual(len(again), 6)
        for r in again:
            self.assertEqual((r["fileVersion"], r["needsMigration"], r["migrated"]), (3, False, False), r)

    # --- repair ---------------------------------------------------------------------------------

    def test_repair_keeps_a_backup_and_loses_nothing(self):
        path = self.torn_path()
        before = self.read(path)
        out = self.xs("repair", "70rn")
        rel = "<root>/sessions/--home-dev-projects-parser--/2026-03-06T16-00-00-000Z_70rn000000000001.jsonl"
        self.assertEqual(out, (
            rel + ": repaired\n"
            "backup: " + rel + ".bak-20260308T200000Z\n"
            "done:\n"
            "  line 4 @599: newline_written: wrote the newline the torn last line lacked; its bytes stay in the "
            "file as a skipped line\n"
            "left for a person (see xs verify):\n"
            "  line 4 @599: invalid_json: invalid JSON: A string is opened, but never closed.\n"))
        self.assertEqual(self.read(path + ".bak-20260308T200000Z"), before)
        self.assertEqual(self.read(path), before + b"\n", "every byte kept; only the newline added")
        self.assertEqual(self.xs("repair", "70rn"), (
            rel + ": nothing to repair\n"
            "left for a person (see xs verify):\n"
            "  line 4 @599: invalid_json: invalid JSON: A string is opened, but never closed.\n"))
        self.assertFalse(os.path.exists(path + ".bak-20260308T200000Z-1"), "no backup when nothing is written")
        self.assertIn('"verify":{', self.xs("repair", "70rn", "--json"))

    def test_repair_of_a_session_an_agent_has_open_changes_nothing(self):
        path = self.torn_path()
        before = self.read(path)
        # An agent holds the writer lock (flock on <file>.lock) while this runs.
        holder = subprocess.Popen([sys.executable, "-c",
                                   "import fcntl,sys; f=open(sys.argv[1],'a'); fcntl.flock(f, fcntl.LOCK_EX); "
                                   "print('locked', flush=True); sys.stdin.read()", path + ".lock"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            self.assertEqual(holder.stdout.readline(), "locked\n")
            self.xs("repair", "70rn", code=2)
        finally:
            holder.stdin.close()
            holder.wait()
        self.assertEqual(self.read(path), before)
        self.assertEqual([n for n in os.listdir(os.path.dirname(path)) if ".bak-" in n], [])

    def test_repair_of_a_file_without_header_preserves_it(self):
        bad = os.path.join(self.tmp, "headless.jsonl")
        with open(bad, "w") as f:
            f.write("garbage\n")
        out = self.xs("repair", bad).replace(self.tmp, "<tmp>")
        self.assertEqual(out, (
            "<tmp>/headless.jsonl: replaced (no session header)\n"
            "backup: <tmp>/headless.jsonl.bak-20260308T200000Z\n"
            "done:\n"
            "  file: corrupt_file_preserved: the file had no session header; its bytes were kept as "
            "<tmp>/headless.jsonl.corrupt-2026-03-08T20-00-00-000Z\n"))
        for kept in (".bak-20260308T200000Z", ".corrupt-2026-03-08T20-00-00-000Z"):
            with open(bad + kept) as f:
                self.assertEqual(f.read(), "garbage\n")

    # --- blobs ----------------------------------------------------------------------------------

    BLOB = "68c41bb798155f8ad4c0280b6540e49f18457b263986fa6edbf58dc0821f3cb1"

    def put_blob(self, data, mtime_ms):
        import hashlib
        h = hashlib.sha256(data).hexdigest()
        path = os.path.join(self.root, "blobs", h)
        with open(path, "wb") as f:
            f.write(data)
        os.utime(path, (mtime_ms / 1000,) * 2)
        return h

    def test_blobs_ls_and_verify(self):
        self.assertEqual(self.xs("blobs", "ls"), self.BLOB + "  73B    1d ago\n1 blob, 73B\n")
        self.assertEqual(self.xs("blobs", "verify"), "1 blob: 1 ok, 0 damaged\n")
        with open(os.path.join(self.root, "blobs", self.BLOB), "r+b") as f:
            f.write(b"X")
        self.assertEqual(self.xs("blobs", "verify", code=1),
                         "damaged: blob %s does not match its hash\n1 blob: 0 ok, 1 damaged\n" % self.BLOB)
        self.assertEqual(json.loads(self.xs("blobs", "ls", "--json"))["count"], 1)

    def test_blobs_gc_respects_references_and_the_grace_period(self):
        old = self.put_blob(b"unused and old", 1773000000000 - 7200 * 1000)
        young = self.put_blob(b"unused but young", 1773000000000 - 60 * 1000)
        self.assertEqual(self.xs("blobs", "gc", "--dry-run"), (
            "scanned 6 files: 1 blob in use\n"
            "would delete %s (14B)\n"
            "kept %s (unused, but younger than the grace period)\n"
            "would free 14B\n" % (old, young)))
        self.assertTrue(os.path.exists(os.path.join(self.root, "blobs", old)))
        self.assertEqual(self.xs("blobs", "gc"), (
            "scanned 6 files: 1 blob in use\n"
            "deleted %s (14B)\n"
            "kept %s (unused, but younger than the grace period)\n"
            "freed 14B\n" % (old, young)))
        self.assertFalse(os.path.exists(os.path.join(self.root, "blobs", old)))
        self.assertTrue(os.path.exists(os.path.join(self.root, "blobs", self.BLOB)), "referenced: kept")
        report = json.loads(self.xs("blobs", "gc", "--grace", "0", "--json"))
        self.assertEqual([d["name"] for d in report["deleted"]], [young])
        self.assertEqual(self.xs("context", "1ma9", "--json").count("iVBORw0KGgo"), 1, "the image still resolves")


class XsTerminalTest(unittest.TestCase):
    """Under a real pseudo-terminal (script(1)): colours and the progress bar appear there only."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="xs-cli-tty-")
        cls.root = os.path.join(cls.tmp, "store")
        subprocess.run([sys.executable, MAKE_STORE, cls.root], check=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def in_terminal(self, command):
        env = dict(os.environ, XS_NOW_MS=NOW_MS, TERM="xterm")
        env.pop("NO_COLOR", None)
        p = subprocess.run(["script", "-qec", command, "/dev/null"], capture_output=True, env=env)
        return p.stdout.decode().replace("\r\n", "\n")

    def test_tree_is_coloured_on_a_terminal(self):
        out = self.in_terminal("%s --root %s tree 5e55" % (XS, self.root))
        self.assertIn("\x1b[2ma0000001\x1b[0m model: anthropic/claude-sonnet-4-5\n", out)
        self.assertIn("\x1b[33m[diagnosis]\x1b[0m", out)
        self.assertIn("\x1b[32m◀ leaf\x1b[0m\n", out)
        plain = self.in_terminal("NO_COLOR=1 %s --root %s tree 5e55" % (XS, self.root))
        self.assertNotIn("\x1b[", plain)
        self.assertIn("◀ leaf\n", plain)

    def test_progress_bar_on_a_terminal_only(self):
        out = self.in_terminal("%s --root %s verify >/dev/null" % (XS, self.root))
        # The file name is cut to the terminal's width (script's terminal reports none: 80 columns).
        self.assertIn("\r\x1b[2Kverify [------------------------] 0/6 2025-11-20T14-00-00-000Z_legacy-0001.json…", out)
        self.assertIn("\r\x1b[2Kverify [####################----] 5/6 2026-03-07T11-00-00-000Z_1ma9e00000000001…", out)
        self.assertTrue(out.endswith("\r\x1b[2K"), repr(out[-80:]))  # erased before the results
        quiet = subprocess.run([XS, "--root", self.root, "verify"], capture_output=True, text=True)
        self.assertEqual(quiet.stderr, "")

if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
