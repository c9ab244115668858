"""`xs` over the example store: ls, show, tree and context; exact output, plain and --json."""
import json
import os

from json_schema_check import problems
from xs_cli_common import COMMITTED, LS_ALL, StoreTest, write_session


class XsReadTest(StoreTest):
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
        self.assertEqual(self.out("ls", "--all"), LS_ALL)

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
            "needsMigration": True, "corruptCopies": 0, "archived": False, "firstMessage": "Why is the build slow?",
            "firstPrompt": "Why is the build slow?"})

    def test_ls_of_the_current_directory_by_default(self):
        # The tests run where the store has no sessions: no table, and stderr says where to look.
        p = self.xs("ls")
        self.assertEqual((p.stdout, p.stderr), ("", "xs: no sessions of %s (xs ls --all lists every directory's)\n"
                                                % os.getcwd()))
        self.assertEqual(self.xs("ls", "--json").stdout, "[]\n")

    def test_ls_of_an_empty_store_says_so(self):
        root = os.path.join(self.tmp, "empty")
        os.makedirs(root)
        for args in (["ls", "--all"], ["ls", "--cwd", "/w"]):
            p = self.xs(*args, root=root)
            self.assertEqual((p.stdout, p.stderr), ("", "xs: no sessions in %s\n" % root))
        self.assertEqual(self.xs("ls", "--all", "--json", root=root).stdout, "[]\n")

    def test_ls_of_a_missing_root_is_an_error(self):
        root = os.path.join(self.tmp, "no-such-store")
        for args in (["ls", "--all"], ["ls", "--all", "--json"], ["verify"], ["migrate"]):
            p = self.xs(*args, root=root, code=2)
            self.assertEqual((p.stdout, p.stderr), ("", "xs: %s: the store root does not exist (--root or $XS_HOME "
                                                        "names it)\n" % root))
        self.assertFalse(os.path.exists(root), "nothing is created")

    # --- compact-plan -------------------------------------------------------------------------

    def test_compact_plan_starts_at_the_last_compactions_kept_range(self):
        # c0mpac7ed0000001: d1..d4, a compaction keeping from d3, then d6 (user) and d7 (assistant,
        # usage.output 80). The context holds d3..d7: d3 47 tokens (188 bytes / 4), d4 80 (its
        # usage.output), d5 63 and d6 48 (bytes / 4), d7 80 = 318.
        self.assertEqual(self.out("compact-plan", "c0mpac7e", "--window", "200000", "--keep", "0", "--tokens", "1000"), (
            "context   1000 tokens of a 200000-token window\n"
            "compact   not yet\n"
            "cut at    d0000007: summarise 4 entries, keep ~80 tokens\n"))
        self.assertEqual(json.loads(self.out("compact-plan", "c0mpac7e", "--window", "200000", "--keep", "0",
                                             "--json")), {
            "contextTokens": 318, "estimated": True, "shouldCompact": False,
            "plan": {"needed": True, "firstKeptEntryId": "d0000007",
                     "toSummarise": ["d0000003", "d0000004", "d0000005", "d0000006"],
                     "tokensBefore": 318, "keptTokens": 80}})
        # Compacts above 20000 - 19683 = 317 tokens: 318 is one over.
        self.assertEqual(self.out("compact-plan", "c0mpac7e", "--window", "20000", "--floor", "0", "--reserve", "19683",
                                  "--keep", "100"), (
            "context   318 tokens (estimated) of a 20000-token window\n"
            "compact   now\n"
            "cut at    d0000006: summarise 3 entries, keep ~128 tokens\n"))
        self.assertEqual(self.out("compact-plan", "c0mpac7e", "--window", "200000"), (
            "context   318 tokens (estimated) of a 200000-token window\n"
            "compact   not yet\n"
            "cut at    - (the path holds less than --keep tokens)\n"))
        p = self.xs("compact-plan", "c0mpac7e", "--window", "200000", "--leaf", "nope", code=2)
        self.assertIn("no entry nope", p.stderr)
        p = self.xs("compact-plan", "c0mpac7e", "--window", "0", code=2)
        self.assertEqual(p.stderr, "xs: --window must be > 0 and every token count >= 0\n")

    # --- show ---------------------------------------------------------------------------------

    def test_show(self):
        self.assertEqual(self.out("show", "5e55"), (
            "session     5e55a0c1d2e3f401\n"
            "file        <root>/sessions/--home-dev-projects-parser--/2026-03-02T09-00-00-000Z_5e55a0c1d2e3f401.jsonl\n"
            "cwd         /home/dev/projects/parser\n"
            "created     2026-03-02T09:00:00.000Z\n"
            "title       Fix the tokenizer crash\n"
            "version     3\n"
            "dialect     omp\n"
            "entries     10 (message 6, thinking_level_change 1, model_change 1, branch_summary 1, label 1)\n"
            "leaf        b0000004\n"
            "tokens      input 6550, output 264, cache read 3800, cache write 0, cost $0.0248\n"
            "labels      1\n"
            "  a0000006  diagnosis\n"
            "skipped     -\n"))

    def test_show_reports_a_torn_tail_with_its_whole_reason(self):
        # The place is named as verify and repair name it; the reason is not cut short.
        self.assertTrue(self.out("show", "70rn").endswith(
            "skipped     1\n"
            "  line 4 (byte 599): incomplete_tail: last line has no newline (an interrupted or unfinished write): "
            "invalid JSON: A string is opened, but never closed.\n"))

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
        lines = []
        for i in range(1, 21):
            parent = "null" if i == 1 else '"%08d"' % (i - 1)
            role = "user" if i % 2 else "assistant"
            lines.append('{"type":"message","id":"%08d","parentId":%s,"timestamp":"2026-03-01T00:00:%02d.000Z",'
                         '"message":{"role":"%s","content":"m%d"}}' % (i, parent, i, role, i))
        write_session(root, "10n9", lines)
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
        self.assertEqual(problems(tree, "tree.schema.json"), [])
        self.assertEqual([n["id"] for n in tree][:4], ["a0000001", "a0000002", "a0000003", "a0000004"])
        self.assertEqual(tree[2]["children"], ["a0000004", "b0000001"])
        self.assertEqual(tree[5]["label"], "diagnosis")

    # --- context ------------------------------------------------------------------------------

    def test_context_after_a_compaction(self):
        self.assertEqual(self.out("context", "c0mp"), (
            "leaf d0000007, 5 messages, thinking off, model anthropic/claude-sonnet-4-5\n"
            "\n── compaction summary ──\n"
            "Profiled the lexer; identifier re-scanning dominated; added a per-file identifier table.\n"
            "\n── user ──\nCache the identifier table.\n"
            "\n── assistant (anthropic/claude-sonnet-4-5) ──\nDone: the table is built once per file.\n"
            "\n── user ──\nNow run the benchmarks again.\n"
            "\n── assistant (anthropic/claude-sonnet-4-5) ──\nLexing is 3.1x faster on the big fixture.\n"))

    def test_context_from_another_leaf(self):
        out = self.out("context", "5e55", "--leaf", "a0000006")
        self.assertTrue(out.startswith("leaf a0000006, 4 messages, thinking high,"), out)

    # Tool-call arguments as RapidJSON's writer writes them (escapes, -0, 1e2, 64-bit limits), and
    # an integer beyond 64 bits, which the library keeps, shown as the nearest double (as
    # JSON.parse reads it); a model of another role named by its role.
    TOOL_ARGS = ('{"path":"a\\"b\\\\c\\/d","ctl":"\\u0001\\t\\u001f\\u007f","text":"\\u00e9\\ud83d\\ude00",'
                 '"n":[1,-0,-0.0,1.0,1e2,1E-7,0.1,-9223372036854775808,18446744073709551615],"o":{},"a":[[],null,true]}')

    def tool_call_session(self):
        root = os.path.join(self.tmp, "tool-args")
        if not os.path.exists(root):
            write_session(root, "a295", [
                '{"type":"model_change","id":"m1","parentId":null,"timestamp":"2026-03-01T00:00:01.000Z",'
                '"model":"anthropic/claude-sonnet-4-5"}',
                '{"type":"model_change","id":"m2","parentId":"m1","timestamp":"2026-03-01T00:00:02.000Z",'
                '"role":"smol","model":"openai/gpt-4o-mini"}',
                '{"type":"message","id":"t1","parentId":"m2","timestamp":"2026-03-01T00:00:03.000Z","message":'
                '{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"edit","arguments":%s}]}}'
                % self.TOOL_ARGS,
                '{"type":"message","id":"t2","parentId":"t1","timestamp":"2026-03-01T00:00:04.000Z","message":'
                '{"role":"assistant","content":[{"type":"toolCall","id":"c2","name":"count","arguments":'
                '{"huge":18446744073709551616}}]}}'])
        return root

    SHOWN_ARGS = ('{"path":"a\\"b\\\\c/d","ctl":"\\u0001\\t\\u001F\x7f","text":"é😀",'
                  '"n":[1,0,-0.0,1.0,100.0,1e-7,0.1,-9223372036854775808,18446744073709551615],"o":{},"a":[[],null,true]}')

    def test_context_shows_tool_calls_and_every_model_role(self):
        self.assertEqual(self.xs("context", "a295", root=self.tool_call_session()).stdout, (
            "leaf t2, 2 messages, thinking off, model anthropic/claude-sonnet-4-5, smol model openai/gpt-4o-mini\n"
            "\n── assistant ──\n→ edit(" + self.SHOWN_ARGS + ")\n"
            "\n── assistant ──\n→ count({\"huge\":18446744073709553000.0})\n"))

    def test_tree_previews_tool_calls(self):
        self.assertEqual(self.xs("tree", "a295", root=self.tool_call_session()).stdout, (
            "m1 model: anthropic/claude-sonnet-4-5\n"
            "m2 model: openai/gpt-4o-mini\n"
            "t1 assistant: → edit({\"path\":\"a\\\"b\\\\c/d\",\"ctl\":\"\\u0001\\t\\u001F\",\"text\":\"é😀\"…\n"
            "t2 assistant: → count({\"huge\":18446744073709553000.0}) ◀ leaf\n"))

    def test_context_of_one_message(self):
        self.assertTrue(self.out("context", "c0mp", "--leaf", "d0000001").startswith("leaf d0000001, 1 message, "))

    def test_context_json_resolves_the_blob(self):
        ctx = json.loads(self.out("context", "1ma9", "--json"))
        self.assertEqual(problems(ctx, "context.schema.json"), [])
        image = ctx["messages"][0]["content"][1]
        self.assertEqual(image["mimeType"], "image/png")
        self.assertTrue(image["data"].startswith("iVBORw0KGgo"), image["data"][:20])
