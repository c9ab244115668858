"""`xs search QUERY` and `xs index rebuild|refresh|verify|info` over the example store, and
`xs tree --around ENTRY` that opens a hit (docs/search.md); exact output, plain and --json."""
import json
import os

from json_schema_check import problems
from xs_cli_common import StoreTest, write_session

PARSER = "sessions/--home-dev-projects-parser--/"
WEB = "sessions/--home-dev-projects-web--/"
FILES = [PARSER + "2025-11-20T14-00-00-000Z_legacy-0001.jsonl",
         PARSER + "2026-03-02T09-00-00-000Z_5e55a0c1d2e3f401.jsonl",
         PARSER + "2026-03-05T10-00-00-000Z_c0mpac7ed0000001.jsonl",
         PARSER + "2026-03-06T16-00-00-000Z_70rn000000000001.jsonl",
         WEB + "2026-01-10T08-00-00-000Z_legacy-0002.jsonl",
         WEB + "2026-03-07T11-00-00-000Z_1ma9e00000000001.jsonl"]


class XsSearchTest(StoreTest):
    """Each test starts from the example store without an index (setUp removes it)."""

    def setUp(self):
        for name in ("index.db", "index.db-wal", "index.db-shm"):
            path = os.path.join(self.root, name)
            if os.path.exists(path):
                os.remove(path)

    def test_search_refreshes_the_index_first_and_shows_hits(self):
        self.assertEqual(self.out("search", "lexer"),
                         "c0mpac7ed0000001 d0000001  3d ago  user  Speed up the lexer\n"
                         "    Profile the lexer on the big fixture.\n"
                         "c0mpac7ed0000001 d0000005  3d ago  summary  Speed up the lexer\n"
                         "    Profiled the lexer; identifier re-scanning dominated; added a per-file identifier "
                         "table.\n"
                         "2 hits\n")
        self.assertTrue(os.path.exists(os.path.join(self.root, "index.db")))
        hits = json.loads(self.xs("search", "tokenizer crash", "--json").stdout)
        self.assertEqual(problems(hits, "search-hits.schema.json"), [])
        self.assertEqual(len(hits), 1)
        hit = dict(hits[0])
        self.assertLess(hit.pop("score"), 0)
        self.assertEqual(hit, {
            "sessionId": "5e55a0c1d2e3f401", "sessionTitle": "Fix the tokenizer crash",
            "sessionPath": os.path.join(self.root, FILES[1]), "cwd": "/home/dev/projects/parser",
            "entryId": "a0000002", "role": "user", "onPath": True, "timestamp": 1772442002000,
            "snippet": "The \u0002tokenizer\u0003 \u0002crashes\u0003 on an empty input file. Can you find out why?"})

    def test_filters_and_fts_syntax(self):
        self.assertEqual(self.out("search", "lexer", "--role", "summary"),
                         "c0mpac7ed0000001 d0000005  3d ago  summary  Speed up the lexer\n"
                         "    Profiled the lexer; identifier re-scanning dominated; added a per-file identifier "
                         "table.\n"
                         "1 hit\n")
        self.assertEqual(self.out("search", "lexer", "--cwd", "/home/dev/projects/web"), "0 hits\n")
        self.assertEqual(self.out("search", "lexer", "--session", "70rn000000000001"), "0 hits\n")
        self.assertEqual(self.out("search", "lexer", "--since", "2026-03-06"), "0 hits\n")
        self.assertEqual(self.out("search", "lexer", "--since", "4d", "--limit", "1"),
                         "c0mpac7ed0000001 d0000001  3d ago  user  Speed up the lexer\n"
                         "    Profile the lexer on the big fixture.\n"
                         "1 hit\n")
        self.assertEqual(self.out("search", "lex*", "--fts", "--limit", "2"),
                         "70rn000000000001 e0000001  2d ago  user  /home/dev/projects/parser\n"
                         "    Rename Token to Lexeme everywhere.\n"
                         "c0mpac7ed0000001 d0000001  3d ago  user  Speed up the lexer\n"
                         "    Profile the lexer on the big fixture.\n"
                         "2 hits\n")
        # Without --fts the query is plain words: an operator is a word like any other.
        self.assertEqual(self.out("search", "lexer OR tokenizer"), "0 hits\n")

    def test_a_session_written_since_is_found_and_no_refresh_skips_it(self):
        self.xs("index", "refresh")
        path = write_session(self.root, "fresh00000000001", [
            '{"type":"message","id":"f1","parentId":null,"timestamp":"2026-03-08T19:00:00.000Z",'
            '"message":{"role":"user","content":"where is the zeppelin config"}}'])
        try:
            self.assertEqual(self.out("search", "zeppelin", "--no-refresh"), "0 hits\n")
            self.assertEqual(self.out("search", "zeppelin"),
                             "fresh00000000001 f1  1h ago  user  /w\n"
                             "    where is the zeppelin config\n"  # the match is bold on a terminal only
                             "1 hit\n")
        finally:
            os.remove(path)
            os.rmdir(os.path.dirname(path))

    def test_index_commands(self):
        p = self.xs("index", "verify", code=1)
        self.assertEqual(p.stdout, "".join("missing: %s\n" % f for f in FILES) +
                         "6 files, 0 indexed sessions: the index differs from the files (xs index refresh)\n")
        self.assertEqual(self.out("index", "refresh"), "6 files: 6 added; 29 entries indexed\n")
        self.assertEqual(self.out("index", "refresh"), "6 files: 6 unchanged; 0 entries indexed\n")
        self.assertEqual(self.out("index", "verify"), "6 files, 6 indexed sessions: in step\n")
        self.assertEqual(self.out("index", "info"), "<root>/index.db: 6 sessions, 29 entries\n")
        report = json.loads(self.xs("index", "rebuild", "--json").stdout)
        self.assertEqual(report, {"files": 6, "unchanged": 0, "appended": 0, "reindexed": 0, "added": 6,
                                  "removed": 0, "unreadable": 0, "raced": 0, "entries": 29})
        self.assertEqual(problems(report, "index-report.schema.json"), [])
        verify = json.loads(self.xs("index", "verify", "--json").stdout)
        self.assertEqual(verify, {"ok": True, "files": 6, "indexed": 6, "missing": [], "extra": [], "stale": []})
        self.assertEqual(problems(verify, "index-verify.schema.json"), [])
        info = json.loads(self.xs("index", "info", "--json").stdout)
        self.assertEqual(info, {"path": os.path.join(self.root, "index.db"), "schemaVersion": 2, "sessions": 6,
                                "entries": 29, "damaged": None})
        self.assertEqual(problems(info, "index-info.schema.json"), [])
        self.xs("index", code=2)  # a verb is required

    def test_tree_around_marks_a_hit_and_unfolds_it(self):
        self.assertEqual(self.out("tree", "c0mpac7ed0000001", "--around", "d0000003"),
                         "d0000001 user: Profile the lexer on the big fixture.\n"
                         "d0000002 assistant: Most time goes to re-scanning identifiers.\n"
                         "d0000003 user: Cache the identifier table. ◀ here\n"
                         "d0000004 assistant: Done: the table is built once per file.\n"
                         "d0000005 compaction: Profiled the lexer; identifier re-scanning dominated; added…\n"
                         "d0000006 user: Now run the benchmarks again.\n"
                         "d0000007 assistant: Lexing is 3.1x faster on the big fixture. ◀ leaf\n")
        p = self.xs("tree", "c0mpac7ed0000001", "--around", "nope", code=2)
        self.assertEqual(p.stderr, "xs: tree: no entry nope in the session\n")

    def test_errors(self):
        p = self.xs("search", "(", "--fts", code=2)
        self.assertEqual(p.stderr, 'xs: index: bad search query: fts5: syntax error near ""\n')
        p = self.xs("search", "x", "--role", "robot", code=2)
        self.assertTrue(p.stderr.startswith("xs: index: "), p.stderr)
        p = self.xs("search", "x", "--since", "yesterday", code=2)
        self.assertIn('--since: "yesterday" is neither an age like 7d nor a date like 2026-11-01', p.stderr)
        p = self.xs("search", "x", root=os.path.join(self.tmp, "nowhere"), code=2)
        self.assertIn("the store root does not exist", p.stderr)
