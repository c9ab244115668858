"""`xs history [QUERY] [--cwd DIR] [--json]` and `xs history --add`: the prompt history
(docs/history.md), exact output over a fresh store."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from json_schema_check import problems
from xs_cli_common import NOW_MS, XS, xs_env

T = int(NOW_MS)


class XsHistoryTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="xs-cli-history-")
        self.root = os.path.join(self.tmp, "store")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def xs(self, *args, code=0, cwd=None):
        p = subprocess.run([XS, "--root", self.root, "history", *args], capture_output=True, text=True,
                           env=xs_env(), cwd=cwd or self.tmp)
        self.assertEqual(p.returncode, code, f"xs history {' '.join(args)}\nstdout: {p.stdout}\nstderr: {p.stderr}")
        return p

    def fill(self):
        self.xs("--add", "fix the tokenizer crash", "--cwd", "/w/lexer")
        self.xs("--add", "explain the \"parser\" AND tokenizer", "--cwd", "/w/parser")
        self.xs("--add", "line one\nline two", "--cwd", "/w")

    def test_recent_table_and_json(self):
        self.fill()
        self.assertEqual(self.xs().stdout,
                         "ID  WHEN      CWD        PROMPT\n"
                         "3   just now  /w         line one line two\n"
                         "2   just now  /w/parser  explain the \"parser\" AND tokenizer\n"
                         "1   just now  /w/lexer   fix the tokenizer crash\n"
                         "3 prompts\n")
        out = json.loads(self.xs("--json", "--limit", "2").stdout)
        self.assertEqual(out, [{"id": 3, "prompt": "line one\nline two", "createdAt": T, "cwd": "/w"},
                               {"id": 2, "prompt": "explain the \"parser\" AND tokenizer", "createdAt": T,
                                "cwd": "/w/parser"}])
        self.assertEqual(problems(out, "history-recent.schema.json"), [])
        self.assertEqual(json.loads(self.xs("--json", "--cwd", "/w/lexer").stdout),
                         [{"id": 1, "prompt": "fix the tokenizer crash", "createdAt": T, "cwd": "/w/lexer"}])

    def test_search_words_prefix_and_fts(self):
        self.fill()
        self.assertEqual(self.xs("tokeni", "--cwd", "/w/lexer").stdout,
                         "ID  WHEN      CWD       MATCH\n"
                         "1   just now  /w/lexer  fix the tokenizer crash\n"
                         "1 prompt\n")
        hits = json.loads(self.xs("tokenizer", "--json").stdout)
        self.assertEqual(sorted(h["id"] for h in hits), [1, 2])
        self.assertEqual(problems(hits, "history-search.schema.json"), [])
        self.assertIn("\u0002tokenizer\u0003", hits[0]["snippet"])
        # Plain words by default: quotes and operators are text.
        self.assertEqual([h["id"] for h in json.loads(self.xs('"parser" AND', "--json").stdout)], [2])
        self.assertEqual(sorted(h["id"] for h in json.loads(self.xs("crash OR parser", "--fts", "--json").stdout)),
                         [1, 2])
        self.assertEqual(self.xs("nothing-like-it").stdout, "ID  WHEN  CWD  MATCH\n0 prompts\n")

    def test_a_store_without_history_shows_none_and_writes_nothing(self):
        os.makedirs(self.root)
        self.assertEqual(self.xs().stdout, "ID  WHEN  CWD  PROMPT\n0 prompts\n")
        self.assertEqual(self.xs("word", "--json").stdout, "[]\n")
        self.assertEqual(os.listdir(self.root), [])

    def test_errors(self):
        self.fill()
        p = self.xs('"open', "--fts", code=2)
        self.assertEqual(p.stderr, "xs: history: bad history query: unterminated string\n")
        p = self.xs("--limit", "10001", code=2)
        self.assertEqual(p.stderr, "xs: history: limit 10001 is over 10000\n")
        shutil.rmtree(self.root)
        p = self.xs(code=2)
        self.assertIn("the store root does not exist", p.stderr)

    def test_relative_cwd_is_made_absolute(self):
        os.makedirs(os.path.join(self.tmp, "proj"))
        proj = os.path.join(self.tmp, "proj")
        self.xs("--add", "in proj", "--cwd", "proj")
        self.xs("--add", "typed here", cwd=proj)  # no --cwd: the current directory
        out = json.loads(self.xs("--json", "--cwd", ".", cwd=proj).stdout)
        self.assertEqual([(h["prompt"], h["cwd"]) for h in out], [("typed here", proj), ("in proj", proj)])


if __name__ == "__main__":
    unittest.main()
