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
            "entries     10 (model_change 1, message 6, thinking_level_change 1, label 1, branch_summary 1)\n"
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
        self.assertEqual(shown["counts"], {"message": 6, "compaction": 1})
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
        for cmd in ("ls", "show", "tree", "context"):
            self.assertIn("--json", self.xs(cmd, "--help").stdout)
        self.assertIn("Exit status", self.xs("--help").stdout)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
