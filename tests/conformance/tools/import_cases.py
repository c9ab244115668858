"""Conformance cases of importing other agents' stores (docs/import.md): a small store of each kind
(Claude Code, MyAgents, the gateway), written by the case under <root>/source/ with write_file,
listed with foreign_list, imported with import (the report, exact), a dry run that writes nothing,
and a re-import that imports nothing. What the library writes is checked where its bytes are the
source's alone: the Claude and gateway sessions (their entry ids come from the source) and the keyed
store's records; MyAgents' entry ids are generated, so its session is checked through the report."""
import json

from casekit import J

CLAUDE_ID = "11111111-2222-4333-8444-555555555555"
U1 = "aaaaaaaa-0000-4000-8000-000000000001"
U2 = "aaaaaaaa-0000-4000-8000-000000000002"
CLAUDE_DIR = "source/claude/-tmp-demo"
CLAUDE_FILE = CLAUDE_ID + ".jsonl"
NOT_JSON = ("not JSON (The JSON document has an improper structure: missing or superfluous commas, braces, "
            "missing keys, etc.)")

# A prompt, a line torn in the middle, the reply: the torn line is skipped with its line number.
CLAUDE_ROWS = "\n".join([
    J({"parentUuid": None, "isSidechain": False, "userType": "external", "cwd": "/tmp/demo", "sessionId": CLAUDE_ID,
       "version": "2.1.29", "type": "user", "message": {"role": "user", "content": "Say hi"}, "uuid": U1,
       "timestamp": "2026-02-02T05:25:37.961Z"}),
    '{"type":"user","message":{"role"',
    J({"parentUuid": U1, "isSidechain": False, "userType": "external", "cwd": "/tmp/demo", "sessionId": CLAUDE_ID,
       "version": "2.1.29", "type": "assistant",
       "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                   "content": [{"type": "text", "text": "hi"}], "stop_reason": "end_turn",
                   "usage": {"input_tokens": 3, "output_tokens": 1}},
       "uuid": U2, "timestamp": "2026-02-02T05:25:39.000Z"}),
]) + "\n"
CLAUDE_TORN = NOT_JSON

# The native session (docs/import-claude.md#the-tree): the rows' uuids are the entry ids, each
# entry names the source row it came from, usage in pi's form.
CLAUDE_SESSION_FILE = "sessions/--tmp-demo--/2026-02-02T05-25-37-961Z_%s.jsonl" % CLAUDE_ID
CLAUDE_SESSION = [
    J({"type": "session", "version": 3, "id": CLAUDE_ID, "timestamp": "2026-02-02T05:25:37.961Z", "cwd": "/tmp/demo"}),
    J({"type": "message", "id": U1, "parentId": None, "timestamp": "2026-02-02T05:25:37.961Z",
       "message": {"role": "user", "content": "Say hi", "timestamp": 1770009937961},
       "sourceRows": [{"file": CLAUDE_FILE, "line": 1, "uuid": U1}]}),
    J({"type": "message", "id": U2, "parentId": U1, "timestamp": "2026-02-02T05:25:39.000Z",
       "message": {"role": "assistant", "content": [{"type": "text", "text": "hi"}], "api": "anthropic-messages",
                   "provider": "anthropic", "model": "claude-sonnet-4-5",
                   "usage": {"input": 3, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 4,
                             "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
                   "stopReason": "stop", "responseId": "msg_1", "timestamp": 1770009939000},
       "sourceRows": [{"file": CLAUDE_FILE, "line": 3, "uuid": U2}]}),
]

MA_ID = "3f1c2a4e-8b7d-4e21-9a35-0c6f1d2b7e90"
MA_META = {"id": MA_ID, "agentDir": "/tmp/demo", "title": "Fix", "createdAt": "2026-02-10T09:00:00.000Z",
           "lastActiveAt": "2026-02-10T09:05:00.000Z", "stats": {"messageCount": 2}}
MA_INDEX = J([MA_META]) + "\n"
MA_ROWS = (J({"id": "m1", "role": "user", "content": "The build fails.", "timestamp": "2026-02-10T09:00:01.000Z"}) + "\n" +
           J({"id": "m2", "role": "assistant", "content": "Fixed.", "timestamp": "2026-02-10T09:00:05.000Z"}) + "\n")

GW_ID = "4ab09157-4770-4cc8-a762-6e86a25cfa13"
GW_DIR = "source/gateway/agents/main/sessions"
GW_INDEX = J({"agent:main:main": {"sessionId": GW_ID, "updatedAt": 1772246597629,
                                  "sessionFile": "/home/u/.openclaw/agents/main/sessions/%s.jsonl" % GW_ID}}) + "\n"
GW_ROWS = (J({"type": "session", "version": 3, "id": GW_ID, "timestamp": "2026-02-28T02:43:17.628Z", "cwd": "/tmp/demo"}) +
           "\n" + J({"type": "message", "id": "5b24a573", "parentId": None, "timestamp": "2026-02-28T02:43:18.000Z",
                     "message": {"role": "user", "content": "hello", "timestamp": 1772246598000}}) + "\n")
GW_SESSION_FILE = "sessions/--tmp-demo--/2026-02-28T02-43-17-628Z_%s.jsonl" % GW_ID


def write(path, raw):
    return {"op": "write_file", "path": path, "raw": raw}


def session(source_file, sid, file, created, read, imported=0, custom=0, already=0, skipped=0):
    return {"sourceFile": source_file, "sessionId": sid, "sessionFile": file, "created": created, "rowsRead": read,
            "imported": imported, "keptAsCustom": custom, "alreadyImported": already, "skipped": skipped}


def report(kind, root, sessions, skipped_rows=(), dry=False):
    """The report (docs/import.md#the-report): totals are the sums over the sessions."""
    r = {"source": kind, "root": root, "dryRun": dry}
    for k in ("rowsRead", "imported", "keptAsCustom", "alreadyImported", "skipped"):
        r[k] = sum(s[k] for s in sessions)
    r["sessions"] = list(sessions)
    r["skippedRows"] = list(skipped_rows)
    r["notes"] = []
    return J(r)


def import_step(kind, path, want, dry_run=False, **more):
    step = {"op": "import", "kind": kind, "path": path, "dry_run": dry_run, "json": want}
    step.update(more)
    return step


def claude_report(sessionfile, created, dry=False, first=True):
    skipped = [{"file": CLAUDE_FILE, "line": 2, "reason": CLAUDE_TORN}]
    counts = dict(imported=2) if first else dict(already=2)
    return report("claude", "{root}/" + CLAUDE_DIR,
                  [session(CLAUDE_FILE, CLAUDE_ID, sessionfile, created, 3, skipped=1, **counts)], skipped, dry)


def myagents_report(created, dry=False, first=True):
    root = "{root}/source/myagents"
    target = "" if dry else "{root}/sessions/--tmp-demo--/2026-02-10T09-00-00-000Z_%s.jsonl" % MA_ID
    rows = dict(imported=2) if first else dict(already=2)
    keys = dict(imported=1) if first else dict(already=1)
    return report("myagents", root, [
        session(root + "/sessions/%s.jsonl" % MA_ID, MA_ID, target, created, 2, **rows),
        session(root + "/sessions.json", "", "{root}/sessions.json", False, 1, **keys)], dry=dry)


def gateway_report(created, dry=False, first=True):
    d = "{root}/" + GW_DIR
    target = "" if dry else "{root}/" + GW_SESSION_FILE
    one = dict(imported=1) if first else dict(already=1)
    return report("gateway", "{root}/source/gateway", [
        session(d + "/%s.jsonl" % GW_ID, GW_ID, target, created, 1, **one),
        session(d + "/sessions.json", "", "{root}/sessions.json", False, 1, **one)], dry=dry)


CLAUDE_LISTING = J({"source": "claude", "root": "{root}/source/claude", "projects": [{
    "dir": "{root}/" + CLAUDE_DIR, "hasIndex": False, "originalPath": "", "transcripts": [{
        "file": CLAUDE_FILE, "kind": "session", "sessionId": CLAUDE_ID, "parentSessionId": "", "agentId": "",
        "cwd": "/tmp/demo", "firstPrompt": "Say hi", "summary": "", "title": "", "rows": 3, "badRows": 1,
        "size": len(CLAUDE_ROWS.encode()), "mtime": 0, "leafUuid": U2, "inIndex": False}],
    "skippedRows": [{"file": CLAUDE_FILE, "line": 2, "reason": CLAUDE_TORN}], "notes": []}]})

MA_LISTING = J({"source": "myagents", "root": "{root}/source/myagents", "index": "{root}/source/myagents/sessions.json",
                "indexLock": "free", "indexRows": 1, "sessions": [{
                    "id": MA_ID, "messagesFile": "{root}/source/myagents/sessions/%s.jsonl" % MA_ID, "legacyFile": None,
                    "legacyBeside": False, "inIndex": True, "line": 1, "title": "Fix", "agentDir": "/tmp/demo",
                    "createdAt": "2026-02-10T09:00:00.000Z", "lastActiveAt": "2026-02-10T09:05:00.000Z",
                    "stats": {"messageCount": 2}}], "problems": [], "notes": []})

GW_LISTING = J({"source": "gateway", "root": "{root}/source/gateway", "agents": [{
    "id": "main", "dir": "{root}/" + GW_DIR, "index": "{root}/%s/sessions.json" % GW_DIR, "indexRows": 1,
    "keys": [{"key": "agent:main:main", "sessionId": GW_ID, "line": 1, "transcript": GW_ID + ".jsonl"}],
    "transcripts": [{"file": GW_ID + ".jsonl", "path": "{root}/%s/%s.jsonl" % (GW_DIR, GW_ID), "sessionId": GW_ID,
                     "threadId": None, "generation": "live", "stamp": None, "size": len(GW_ROWS.encode()), "mtimeMs": 0,
                     "writeLock": False, "keys": ["agent:main:main"]}],
    "problems": [], "notes": []}]})


def pretty_record(key, members):
    """The keyed store's document with one record, as it writes it (two-space indent)."""
    return json.dumps({key: members}, indent=2, ensure_ascii=False) + "\n"


def add_cases(case):
    claude_src = [write(CLAUDE_DIR + "/" + CLAUDE_FILE, CLAUDE_ROWS)]
    case("106_import_claude_project",
         "A Claude Code project directory (it holds *.jsonl) is listed read-only, then imported: each row "
         "becomes an entry whose id is the row's uuid, a torn line is skipped with its line and reason, and "
         "the source is left byte for byte; the projects root above it lists the same project "
         "(docs/import-claude.md, docs/import.md#the-report).",
         steps=claude_src + [
             {"op": "foreign_list", "kind": "claude", "path": "source/claude", "json": CLAUDE_LISTING},
             {"op": "foreign_list", "kind": "claude", "path": CLAUDE_DIR,
              "json": CLAUDE_LISTING.replace('"root":"{root}/source/claude"', '"root":"{root}/%s"' % CLAUDE_DIR)},
             import_step("claude", CLAUDE_DIR, claude_report("{root}/" + CLAUDE_SESSION_FILE, True)),
             {"op": "open", "path": CLAUDE_SESSION_FILE, "flags": ["read_only"]},
             {"op": "check_file", "lines": CLAUDE_SESSION},
             {"op": "check_raw_file", "path": CLAUDE_DIR + "/" + CLAUDE_FILE, "raw": CLAUDE_ROWS},
         ])

    ma_src = [write("source/myagents/sessions.json", MA_INDEX),
              write("source/myagents/sessions/%s.jsonl" % MA_ID, MA_ROWS)]
    case("107_import_myagents_store",
         "A MyAgents store (sessions.json and sessions/<id>.jsonl) is listed, then imported: one session of "
         "two messages, and the key myagents:<id> whose record carries the stats counted from the messages, "
         "the metadata's title, cwd and creation time, and the metadata itself under importedFrom "
         "(docs/import-hosts.md#importing-myagents).",
         steps=ma_src + [
             {"op": "foreign_list", "kind": "myagents", "path": "source/myagents", "json": MA_LISTING},
             import_step("myagents", "source/myagents", myagents_report(True)),
             {"op": "check_stats_document", "raw": pretty_record("myagents:" + MA_ID, {
                 "sessionId": MA_ID,
                 "sessionFile": "{root}/sessions/--tmp-demo--/2026-02-10T09-00-00-000Z_%s.jsonl" % MA_ID,
                 "updatedAt": 1770714005000, "inputTokens": 0, "outputTokens": 0, "cacheRead": 0, "cacheWrite": 0,
                 "totalTokens": 0, "contextTokens": 0, "cost": 0, "compactionCount": 0,
                 "messageCounts": {"user": 1, "assistant": 1}, "toolCalls": 0, "title": "Fix", "cwd": "/tmp/demo",
                 "createdAt": 1770714000000, "importedFrom": {"kind": "myagents", "id": MA_ID, "metadata": MA_META}})},
             {"op": "check_raw_file", "path": "source/myagents/sessions.json", "raw": MA_INDEX},
         ])

    gw_src = [write(GW_DIR + "/sessions.json", GW_INDEX), write(GW_DIR + "/%s.jsonl" % GW_ID, GW_ROWS)]
    case("108_import_gateway_store",
         "A gateway state directory (agents/<id>/sessions/) is listed, then imported: its transcript is a "
         "native session already and is copied byte for byte; its key becomes ours with sessionFile pointing "
         "at the copy and importedFrom added last (docs/import-hosts.md#importing-a-gateway-store).",
         steps=gw_src + [
             {"op": "foreign_list", "kind": "gateway", "path": "source/gateway", "json": GW_LISTING},
             import_step("gateway", "source/gateway", gateway_report(True)),
             {"op": "check_raw_file", "path": GW_SESSION_FILE, "raw": GW_ROWS},
             {"op": "check_stats_document", "raw": pretty_record("agent:main:main", {
                 "sessionId": GW_ID, "updatedAt": 1772246597629, "sessionFile": "{root}/" + GW_SESSION_FILE,
                 "importedFrom": {"kind": "gateway", "agentId": "main",
                                  "sessionFile": "/home/u/.openclaw/agents/main/sessions/%s.jsonl" % GW_ID}})},
         ])

    case("109_import_dry_run_writes_nothing",
         "A dry run of each kind reports what a real import then does (a new session has no sessionFile "
         "yet) and writes nothing: the store root holds only the sources afterwards (docs/import-hosts.md#dry-runs).",
         steps=claude_src + ma_src + gw_src + [
             import_step("claude", CLAUDE_DIR, claude_report("", True, dry=True), dry_run=True),
             import_step("myagents", "source/myagents", myagents_report(True, dry=True), dry_run=True),
             import_step("gateway", "source/gateway", gateway_report(True, dry=True), dry_run=True),
             {"op": "check_store_files", "files": ["source"]},
             import_step("claude", CLAUDE_DIR, claude_report("{root}/" + CLAUDE_SESSION_FILE, True)),
         ])

    case("110_reimport_is_idempotent",
         "Importing the same sources again imports nothing: every row is already imported (the torn line is "
         "still reported), the sessions are continued, not created, and their files are unchanged "
         "(docs/import.md#the-report, docs/import-claude.md#re-imports-and-grown-files).",
         steps=claude_src + ma_src + gw_src + [
             import_step("claude", CLAUDE_DIR, claude_report("{root}/" + CLAUDE_SESSION_FILE, True)),
             import_step("myagents", "source/myagents", myagents_report(True)),
             import_step("gateway", "source/gateway", gateway_report(True)),
             import_step("claude", CLAUDE_DIR, claude_report("{root}/" + CLAUDE_SESSION_FILE, False, first=False)),
             import_step("myagents", "source/myagents", myagents_report(False, first=False)),
             import_step("gateway", "source/gateway", gateway_report(False, first=False)),
             {"op": "check_raw_file", "path": GW_SESSION_FILE, "raw": GW_ROWS},
             {"op": "open", "path": CLAUDE_SESSION_FILE, "flags": ["read_only"]},
             {"op": "check_file", "lines": CLAUDE_SESSION},
             import_step("claude", "source/nowhere", "", expect="XS_ENOTFOUND"),
             import_step("opencode", CLAUDE_DIR, "", expect="XS_EINVAL"),
         ])
