"""`xs import` and `xs ls --foreign` (docs/import.md) over the small Claude, MyAgents and gateway
stores of the conformance cases (tests/conformance/tools/import_cases.py) and a small Codex rollout,
written to a temporary directory: the summary table, a re-import, a dry run, --json, the default
path under $HOME (and $CODEX_HOME), the listings, bad kinds and paths; the sources are never
written."""
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


CODEX_ID = "0199a000-0000-7000-8000-0000000000c1"
CODEX_REL = "2026/03/01/rollout-2026-03-01T10-00-00-%s.jsonl" % CODEX_ID


def codex_row(time, kind, payload):
    return json.dumps({"timestamp": "2026-03-01T10:00:%sZ" % time, "type": kind, "payload": payload},
                      separators=(",", ":")) + "\n"


# A meta, a turn_context, a prompt and its UI event, a response with a call and its usage, the
# call's output, a line that is not JSON, the answer (9 rows).
CODEX_ROWS = (codex_row("00.000", "session_meta", {"id": CODEX_ID, "timestamp": "2026-03-01T10:00:00.000Z",
                                                    "cwd": "/tmp/demo", "cli_version": "0.50.0"}) +
              codex_row("01.000", "turn_context", {"cwd": "/tmp/demo", "model": "gpt-5-codex", "effort": "low"}) +
              codex_row("01.000", "response_item", {"type": "message", "role": "user",
                                                    "content": [{"type": "input_text", "text": "Show the date"}]}) +
              codex_row("01.000", "event_msg", {"type": "user_message", "message": "Show the date"}) +
              codex_row("02.000", "response_item", {"type": "function_call", "name": "shell",
                                                    "arguments": "{\"command\":[\"date\"]}", "call_id": "c1"}) +
              codex_row("02.000", "event_msg", {"type": "token_count", "info": {"last_token_usage": {
                  "input_tokens": 10, "cached_input_tokens": 0, "output_tokens": 5, "total_tokens": 15}}}) +
              codex_row("03.000", "response_item", {"type": "function_call_output", "call_id": "c1",
                                                    "output": "Sun Mar 1"}) +
              "{\"truncated\n" +
              codex_row("04.000", "response_item", {"type": "message", "role": "assistant",
                                                    "content": [{"type": "output_text", "text": "It is Sunday."}]}))
CODEX_NOT_JSON = "not JSON: invalid JSON at byte 11: Missing a closing quotation mark in string."


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
            "codexhome/sessions/" + CODEX_REL: CODEX_ROWS,
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

    def xs(self, *args, code=0, codex_home=None):
        env = dict(xs_env(), HOME=self.home)
        env.pop("CODEX_HOME", None)
        if codex_home:
            env["CODEX_HOME"] = codex_home
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

    def test_codex_from_codex_home_then_again(self):
        sessions = os.path.join(self.tmp, "codexhome", "sessions")
        skipped = "skipped:\n  %s:8: %s\n" % (CODEX_REL, CODEX_NOT_JSON)
        first = self.xs("import", "codex", codex_home=os.path.join(self.tmp, "codexhome"))
        self.assertEqual(first.stderr, "")
        self.assertEqual(first.stdout, "imported codex from %s\n" % sessions + TABLE +
                         row(CODEX_ID, "yes", 9, 6, 2, 0, 1, CODEX_REL) +
                         "1 session, 9 rows: 6 imported, 2 kept as custom, 0 already imported, 1 skipped\n" + skipped)
        context = json.loads(self.xs("context", CODEX_ID, "--json").stdout)
        self.assertEqual([m["role"] for m in context["messages"]], ["user", "assistant", "toolResult", "assistant"])
        self.assertEqual((context["thinkingLevel"], context["models"]), ("low", {"default": "openai/gpt-5-codex"}))
        # ~/.codex/sessions when $CODEX_HOME is not set: the same rollout, already imported.
        shutil.copytree(os.path.join(self.tmp, "codexhome"), os.path.join(self.home, ".codex"))
        again = self.xs("import", "codex")
        self.assertEqual(again.stdout, "imported codex from %s/.codex/sessions\n" % self.home + TABLE +
                         row(CODEX_ID, "no", 9, 0, 0, 8, 1, CODEX_REL) +
                         "1 session, 9 rows: 0 imported, 0 kept as custom, 8 already imported, 1 skipped\n" + skipped)
        shutil.rmtree(os.path.join(self.home, ".codex"))
        self.assertEqual(self.xs("ls", "--foreign", "codex", sessions).stdout,
                         "SESSION                               STARTED           ROWS    BAD  MODEL            "
                         "FIRST PROMPT\n"
                         "%-36s  2026-03-01T10:00  9       1    gpt-5-codex      Show the date\n" % CODEX_ID)

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
        p = self.xs("import", "opencode", code=2)
        self.assertEqual(p.stderr, "kind: opencode not in {claude,myagents,gateway,codex}\n"
                                   "Run with --help for more information.\n")
        p = self.xs("ls", "--foreign", "opencode", code=2)
        self.assertEqual(p.stderr, "--foreign: \"opencode\" is not claude, myagents, gateway or codex\n"
                                   "Run with --help for more information.\n")
        p = self.xs("import", "codex", code=2)  # no $CODEX_HOME, no ~/.codex
        self.assertEqual(p.stderr, "xs: import source %s/.codex/sessions does not exist\n" % self.home)
        gateway = os.path.join(self.tmp, "gateway")
        p = self.xs("ls", "--foreign", "myagents", gateway, code=2)
        self.assertEqual(p.stderr, "xs: %s: not a MyAgents store (no sessions.json, no sessions/)\n" % gateway)
        self.assertFalse(os.path.exists(self.store))

    def test_outputs_match_their_schemas(self):
        """capi/schema/: every report and listing of the small stores, and of the corpus's real Claude
        projects and gateway stores (../shared/corpus, as CI sets it up), imported as dry runs."""
        report, listing = "import-report.schema.json", "foreign-list.schema.json"
        sources = [("claude", os.path.join(self.home, ".claude", "projects")),
                   ("myagents", os.path.join(self.tmp, "myagents")), ("gateway", os.path.join(self.tmp, "gateway")),
                   ("codex", os.path.join(self.tmp, "codexhome", "sessions")),
                   ("codex", os.path.join(CORPUS, "codex"))]
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
