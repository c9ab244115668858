#!/usr/bin/env python3
"""Writes tests/conformance/cases/*.json.

Each case below states its steps and its expected bytes by hand, from the rules in docs/
(format.md, context.md, decisions.md; each description names the section it proves); nothing here
runs the engine. Run this script after editing a case and commit both the script and the JSON it
writes:

    python3 tests/conformance/tools/gen_cases.py

--check writes nothing and exits 1 when the committed cases differ from what this script writes
(a case edited by hand, or the script edited without regenerating).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from casekit import J, Ids, ctx, entry, entry_after, file_bytes, header, ms, opts, ts  # noqa: E402

CASES = {}


def case(name, description, steps, options=None, **inputs):
    c = {"description": description}
    if options is not None:
        c["options"] = options
    c.update(inputs)
    c["steps"] = steps
    CASES[name] = c


def msg(role, content, **more):
    m = {"role": role, "content": content}
    m.update(more)
    return J(m)


USER = msg("user", "hi", timestamp=1)
ASSISTANT = J({"role": "assistant", "content": [{"type": "text", "text": "hello"}], "provider": "anthropic",
               "model": "claude-sonnet-4-5", "timestamp": 2})

# ------------------------------------------------------------------------------------------------
# Persistence and the bytes we write
# ------------------------------------------------------------------------------------------------

ids = Ids(1)
sid, e1, e2, e3 = ids.session(), ids.entry(), ids.entry(), ids.entry()
case("01_deferred_until_first_assistant",
     "Nothing is written until the first assistant message; then header and every buffered entry "
     "are written together and later entries are appended "
     "(docs/decisions.md#deferred-first-write).",
     options=opts(1),
     steps=[
         {"op": "create", "cwd": "/work/app"},
         {"op": "append_message", "message": USER, "expect_id": e1},
         {"op": "check_file", "exists": False},
         {"op": "check_info", "fields": {"persisted": False, "entryCount": 1, "leafId": e1}},
         {"op": "append_message", "message": ASSISTANT, "expect_id": e2},
         {"op": "check_file", "lines": [
             header(sid, 0, "/work/app"),
             entry("message", e1, None, 1, message=json.loads(USER)),
             entry("message", e2, e1, 2, message=json.loads(ASSISTANT))]},
         {"op": "append_thinking_level", "level": "low", "expect_id": e3},
         {"op": "check_file", "lines": [
             header(sid, 0, "/work/app"),
             entry("message", e1, None, 1, message=json.loads(USER)),
             entry("message", e2, e1, 2, message=json.loads(ASSISTANT)),
             entry("thinking_level_change", e3, e2, 3, thinkingLevel="low")]},
         {"op": "check_info", "fields": {"persisted": True, "entryCount": 3, "leafId": e3, "version": 3}},
     ])

ids = Ids(2)
sid, e1 = ids.session(), ids.entry()
case("02_no_defer_writes_at_once",
     "XS_SESSION_NO_DEFER writes the header at creation and every entry as it is appended.",
     options=opts(2, flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "C:\\work\\app"},
         {"op": "check_file", "lines": [header(sid, 0, "C:\\work\\app")]},
         {"op": "append_message", "message": USER, "expect_id": e1},
         {"op": "check_file", "lines": [header(sid, 0, "C:\\work\\app"),
                                        entry("message", e1, None, 1, message=json.loads(USER))]},
         {"op": "check_info", "fields": {"cwd": "C:\\work\\app", "persisted": True}},
     ])

case("03_header_fields_and_session_id",
     "Header key order type, version, id, timestamp, cwd, title, parentSession; a caller-chosen "
     "session id is validated ([A-Za-z0-9_-], 1-64 chars).",
     options=opts(3, flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/w", "session_id": "../escape", "expect": "XS_EINVAL"},
         {"op": "create", "cwd": "/w", "session_id": "my-session_01", "title": "Plan \"v2\"",
          "parent_session": "/old/2025-01-01T00-00-00-000Z_x.jsonl"},
         {"op": "check_header", "json": header("my-session_01", 0, "/w", "Plan \"v2\"",
                                               "/old/2025-01-01T00-00-00-000Z_x.jsonl")},
         {"op": "check_file", "lines": [header("my-session_01", 0, "/w", "Plan \"v2\"",
                                               "/old/2025-01-01T00-00-00-000Z_x.jsonl")]},
         {"op": "check_info", "fields": {"id": "my-session_01", "title": "Plan \"v2\"",
                                         "parentSession": "/old/2025-01-01T00-00-00-000Z_x.jsonl",
                                         "leafId": None, "entryCount": 0}},
     ])

ids = Ids(4)
sid = ids.session()
e = [ids.entry() for _ in range(14)]
typed_lines = [
    header(sid, 0, "/w"),
    entry("model_change", e[0], None, 1, model="anthropic/claude-sonnet-4-5", role="default"),
    entry("model_change", e[1], e[0], 2, model="openai/gpt-4o"),
    entry("thinking_level_change", e[2], e[1], 3, thinkingLevel=None),
    entry("compaction", e[3], e[2], 4, summary="S", shortSummary="s", firstKeptEntryId=e[0], tokensBefore=1234,
          details={"readFiles": ["a.ts"]}, fromExtension=False, preserveData={"hookState": True}),
    entry_after("custom", e[4], e[3], 5, customType="my-ext", data={"state": 1}),
    entry_after("custom", e[5], e[4], 6, customType="my-ext"),
    entry_after("custom_message", e[6], e[5], 7, customType="note", content="Injected", display=True,
                details={"debug": False}, attribution="agent"),
    entry("label", e[7], e[6], 8, targetId=e[0], label="checkpoint"),
    entry("label", e[8], e[7], 9, targetId=e[0]),
    entry("ttsr_injection", e[9], e[8], 10, injectedRules=["ruleA", "ruleB"]),
    entry("session_init", e[10], e[9], 11, systemPrompt="You are terse.", task="Fix it", tools=["read", "edit"],
          outputSchema={"type": "object"}),
    entry("mode_change", e[11], e[10], 12, mode="plan", data={"planFile": "/tmp/plan.md"}),
    entry("mode_change", e[12], e[11], 13, mode="none"),
    entry("branch_summary", e[13], e[1], 14, fromId=e[1], summary="Abandoned path", details={"note": "optional"},
          fromExtension=True),
]
case("04_typed_appends_key_order",
     "Every typed append writes its entry type's key order (docs/format.md#entries): envelope "
     "first, except custom and custom_message whose id/parentId/timestamp follow the payload; "
     "optional fields only when given; custom_message's attribution defaults to \"agent\".",
     options=opts(4, flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/w"},
         {"op": "append_model_change", "model": "anthropic/claude-sonnet-4-5", "role": "default", "expect_id": e[0]},
         {"op": "append_model_change", "model": "openai/gpt-4o", "expect_id": e[1]},
         {"op": "append_thinking_level", "level": None, "expect_id": e[2]},
         {"op": "append_compaction", "summary": "S", "short_summary": "s", "first_kept_entry_id": e[0],
          "tokens_before": 1234, "details": "{\"readFiles\": [\"a.ts\"]}", "from_extension": False,
          "preserve_data": "{\"hookState\":true}", "expect_id": e[3]},
         {"op": "append_custom", "custom_type": "my-ext", "data": "{\"state\":1}", "expect_id": e[4]},
         {"op": "append_custom", "custom_type": "my-ext", "expect_id": e[5]},
         {"op": "append_custom_message", "custom_type": "note", "content": "\"Injected\"", "display": True,
          "details": "{\"debug\":false}", "expect_id": e[6]},
         {"op": "append_label", "target_id": e[0], "label": "checkpoint", "expect_id": e[7]},
         {"op": "append_label", "target_id": e[0], "expect_id": e[8]},
         {"op": "append_ttsr_injection", "rules": "[\"ruleA\",\"ruleB\"]", "expect_id": e[9]},
         {"op": "append_session_init", "system_prompt": "You are terse.", "task": "Fix it",
          "tools": "[\"read\",\"edit\"]", "output_schema": "{\"type\":\"object\"}", "expect_id": e[10]},
         {"op": "append_mode_change", "mode": "plan", "data": "{\"planFile\":\"/tmp/plan.md\"}", "expect_id": e[11]},
         {"op": "append_mode_change", "mode": "none", "expect_id": e[12]},
         {"op": "branch_with_summary", "from_id": e[1], "summary": "Abandoned path",
          "details": "{\"note\":\"optional\"}", "from_extension": True, "expect_id": e[13]},
         {"op": "check_file", "lines": typed_lines},
         {"op": "check_leaf", "id": e[13]},
     ])

ids = Ids(5)
sid, e1 = ids.session(), ids.entry()
RAW_MSG_IN = ('{ "role" : "user",\n "content" : "a\\u0041\\/b \\"q\\" \u00e9 \U0001F600",\t"n": [1.0, 1e2, -0, 0.5E-3, '
              '18446744073709551616],"nested":{ "k" : [ true , false , null ] } }')
RAW_MSG_OUT = ('{"role":"user","content":"a\\u0041\\/b \\"q\\" \u00e9 \U0001F600","n":[1.0,1e2,-0,0.5E-3,'
               '18446744073709551616],"nested":{"k":[true,false,null]}}')
case("05_caller_json_minified_token_for_token",
     "Caller JSON is validated and stored minified with every token kept byte for byte: escapes as "
     "written (\\u0041, \\/), numbers as written (1.0, 1e2, -0, 2^64); the context splices the "
     "stored bytes (docs/format.md#caller-json).",
     options=opts(5, flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/w"},
         {"op": "append_message", "message": RAW_MSG_IN, "expect_id": e1},
         {"op": "check_file", "lines": [header(sid, 0, "/w"),
                                        '{"type":"message","id":"%s","parentId":null,"timestamp":"%s","message":%s}'
                                        % (e1, ts(1), RAW_MSG_OUT)]},
         {"op": "check_context", "context": ctx(e1, [RAW_MSG_OUT])},
         {"op": "check_entry", "id": e1,
          "json": '{"type":"message","id":"%s","parentId":null,"timestamp":"%s","message":%s}' % (e1, ts(1), RAW_MSG_OUT)},
     ])

ids = Ids(6)
sid, e1, e2, e3, e4 = ids.session(), ids.entry(), ids.entry(), ids.entry(), ids.entry()
NASTY = "T\"\\\b\f\n\r\t\u0001\u001f\u007f\u2028\u00e9\U0001F600/"
case("06_generated_strings_escaped_like_json_stringify",
     "Text we receive as plain strings (title, model, label, summary) is escaped exactly as "
     "JSON.stringify escapes: \\\" \\\\ \\b \\f \\n \\r \\t, other controls as lowercase \\u00xx, "
     "nothing else (DEL, U+2028, non-ASCII and '/' stay raw).",
     options=opts(6, flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/w", "title": NASTY},
         {"op": "append_model_change", "model": NASTY, "expect_id": e1},
         {"op": "append_label", "target_id": e1, "label": NASTY, "expect_id": e2},
         {"op": "branch_with_summary", "from_id": e1, "summary": NASTY, "expect_id": e3},
         {"op": "append_thinking_level", "level": NASTY, "expect_id": e4},
         {"op": "check_file", "lines": [
             header(sid, 0, "/w", NASTY),
             entry("model_change", e1, None, 1, model=NASTY),
             entry("label", e2, e1, 2, targetId=e1, label=NASTY),
             entry("branch_summary", e3, e1, 3, fromId=e1, summary=NASTY),
             entry("thinking_level_change", e4, e3, 4, thinkingLevel=NASTY)]},
     ])

ids = Ids(7)
sid = ids.session()
g = [ids.entry() for _ in range(6)]
G_USER = J({"role": "user", "content": "q"})
case("07_generic_append_any_type",
     "xs_append writes type, then id, parentId and timestamp, then the caller's members (kept in "
     "their order, minified; custom and custom_message put the envelope after them); unknown types "
     "are stored and ignored by the context; service_tier_change and mcp_tool_selection feed the "
     "context (docs/format.md#entries, docs/context.md#state).",
     options=opts(7, flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/w"},
         {"op": "append", "entry": '{"type":"message","message":{"role":"user","content":"q"}}', "expect_id": g[0]},
         {"op": "append", "entry": '{"type": "custom", "customType": "x", "data": [1, 2]}', "expect_id": g[1]},
         {"op": "append", "entry": '{"type":"service_tier_change","serviceTier":"flex"}', "expect_id": g[2]},
         {"op": "append", "entry": '{"zeta":true,"type":"my_extension_event","payload":{"a":1}}', "expect_id": g[3]},
         {"op": "append", "entry": '{"type":"mcp_tool_selection","selectedToolNames":["t1","t2"]}', "expect_id": g[4]},
         {"op": "append", "entry": '{"type":"message","message":{"role":"toolResult","toolCallId":"c1","content":[]}}',
          "expect_id": g[5]},
         {"op": "check_file", "lines": [
             header(sid, 0, "/w"),
             entry("message", g[0], None, 1, message=json.loads(G_USER)),
             entry_after("custom", g[1], g[0], 2, customType="x", data=[1, 2]),
             entry("service_tier_change", g[2], g[1], 3, serviceTier="flex"),
             '{"type":"my_extension_event","id":"%s","parentId":"%s","timestamp":"%s","zeta":true,"payload":{"a":1}}'
             % (g[3], g[2], ts(4)),
             entry("mcp_tool_selection", g[4], g[3], 5, selectedToolNames=["t1", "t2"]),
             entry("message", g[5], g[4], 6, message={"role": "toolResult", "toolCallId": "c1", "content": []})]},
         {"op": "check_context", "context": ctx(g[5], [G_USER, '{"role":"toolResult","toolCallId":"c1","content":[]}'],
                                                extra=',"serviceTier":"flex","selectedMCPToolNames":["t1","t2"],'
                                                      '"hasPersistedMCPToolSelection":true')},
     ])

ids = Ids(8)
sid, first = ids.session(), ids.entry()
OWN = '{"type":"message","id":"user-1","timestamp":"2020-05-05T05:05:05.555Z","message":{"role":"user","content":"x"}}'
case("08_generic_append_ids_and_timestamps",
     "An entry may bring its own id (validated: [A-Za-z0-9_-], 1-64 chars, unique) and its own "
     "string timestamp; it may not bring a parentId (the leaf decides).",
     options=opts(8, flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/w"},
         {"op": "append", "entry": OWN, "expect_id": "user-1"},
         {"op": "append", "entry": OWN, "expect": "XS_EEXISTS"},
         {"op": "append", "entry": '{"type":"custom","customType":"c","id":"../etc"}', "expect": "XS_EINVAL"},
         {"op": "append", "entry": '{"type":"custom","customType":"c","id":"a/b"}', "expect": "XS_EINVAL"},
         {"op": "append", "entry": '{"type":"custom","customType":"c","id":"%s"}' % ("x" * 65), "expect": "XS_EINVAL"},
         {"op": "append", "entry": '{"type":"custom","customType":"c","id":""}', "expect": "XS_EINVAL"},
         {"op": "append", "entry": '{"type":"custom","customType":"c","id":123}', "expect": "XS_EINVAL"},
         {"op": "append", "entry": '{"type":"custom","customType":"c","parentId":"user-1"}', "expect": "XS_EINVAL"},
         {"op": "append", "entry": '{"type":"custom","customType":"c","parentId":null}', "expect": "XS_EINVAL"},
         {"op": "append", "entry": '{"type":"custom","customType":"c","timestamp":5}', "expect": "XS_EINVAL"},
         {"op": "append", "entry": '{"type":"custom","customType":"c","id":"%s"}' % ("y" * 64), "expect_id": "y" * 64},
         {"op": "append", "entry": '{"type":"thinking_level_change","thinkingLevel":"high"}', "expect_id": first},
         {"op": "check_file", "lines": [
             header(sid, 0, "/w"),
             '{"type":"message","id":"user-1","parentId":null,"timestamp":"2020-05-05T05:05:05.555Z",'
             '"message":{"role":"user","content":"x"}}',
             entry_after("custom", "y" * 64, "user-1", 1, customType="c"),
             entry("thinking_level_change", first, "y" * 64, 2, thinkingLevel="high")]},
     ])

ids = Ids(9)
sid, ok1 = ids.session(), ids.entry()
NUL_ESCAPE = '{"role":"user","content":"an escaped \\u0000 is text"}'
case("09_bad_input_is_refused_and_changes_nothing",
     "Malformed JSON and valid JSON of the wrong shape get XS_EINVAL (a label's unknown target "
     "XS_ENOTFOUND); the session is unchanged after each refusal.",
     options=opts(9, flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/w"},
         {"op": "append", "entry": "[1,2]", "expect": "XS_EINVAL"},
         {"op": "append", "entry": '{"message":{"role":"user"}}', "expect": "XS_EINVAL"},
         {"op": "append", "entry": '{"type":7}', "expect": "XS_EINVAL"},
         {"op": "append", "entry": '{"type":"message","message":"hi"}', "expect": "XS_EINVAL"},
         {"op": "append", "entry": '{"type":"message"}', "expect": "XS_EINVAL"},
         {"op": "append", "entry": '{"type":"session","id":"x"}', "expect": "XS_EINVAL"},
         {"op": "append", "entry": '{"type":"label","targetId":"nope"}', "expect": "XS_ENOTFOUND"},
         {"op": "append", "entry": '{"type":"compaction","summary":"s"}', "expect": "XS_EINVAL"},
         {"op": "append", "entry": "not json", "expect": "XS_EINVAL"},
         {"op": "append", "entry": '{"type":"custom","customType":"c"} trailing', "expect": "XS_EINVAL"},
         {"op": "append", "entry": "", "expect": "XS_EINVAL"},
         {"op": "append", "entry": '{"type":"custom","customType":"c",}', "expect": "XS_EINVAL"},
         {"op": "append_message", "message": '{"content":"no role"}', "expect": "XS_EINVAL"},
         {"op": "append_message", "message": '"a string"', "expect": "XS_EINVAL"},
         {"op": "append_message", "message": '{"role":"user","content":"unterminated}', "expect": "XS_EINVAL"},
         {"op": "append_custom_message", "custom_type": "c", "content": "42", "expect": "XS_EINVAL"},
         {"op": "append_ttsr_injection", "rules": "[\"a\",1]", "expect": "XS_EINVAL"},
         {"op": "append_ttsr_injection", "rules": "{\"a\":1}", "expect": "XS_EINVAL"},
         {"op": "check_file", "lines": [header(sid, 0, "/w")]},
         {"op": "check_leaf", "id": None},
         {"op": "append_message", "message": NUL_ESCAPE, "expect_id": ok1},
         {"op": "check_file", "lines": [header(sid, 0, "/w"),
                                        '{"type":"message","id":"%s","parentId":null,"timestamp":"%s","message":%s}'
                                        % (ok1, ts(1), NUL_ESCAPE)]},
     ])

# ------------------------------------------------------------------------------------------------
# Loading: lenient, reported, byte-preserving
# ------------------------------------------------------------------------------------------------

H10 = J({"type": "session", "version": 3, "id": "s10", "timestamp": ts(0), "cwd": "/w"})
U10 = entry("message", "u1", None, 1, message={"role": "user", "content": "one"})
A10 = entry("message", "a1", "u1", 2, message={"role": "assistant", "content": "two"})
bad10 = [
    (b'{"type":"message","id":"bad1",', "invalid_json"),
    (b'{"type":"message","id":"x\xff","parentId":"u1","message":{"role":"user","content":"bad utf8"}}', "invalid_utf8"),
    (b'{"type":"message","id":"n1","message":{"role":"user","content":"a\x00b"}}', "nul_byte"),
    (b"[1,2,3]", "not_object"),
    (b'{"id":"t1","parentId":"u1"}', "no_type"),
    (b'{"type":"message","parentId":"u1","message":{"role":"user","content":"no id"}}', "no_id"),
]
lines10 = [H10.encode(), U10.encode()] + [b for b, _ in bad10] + [
    b"", J({"type": "session", "version": 3, "id": "other", "timestamp": ts(0), "cwd": "/x"}).encode(), A10.encode()]
bytes10 = b"".join(l + b"\n" for l in lines10)
offsets, pos = [], 0
for l in lines10:
    offsets.append(pos)
    pos += len(l) + 1
diag10 = [{"line": 3 + i, "offset": offsets[2 + i], "code": code} for i, (_, code) in enumerate(bad10)]
diag10.append({"line": 10, "offset": offsets[9], "code": "extra_header"})
ids = Ids(10)
n10 = ids.entry()
A10B = J({"role": "assistant", "content": "three"})
case("10_load_skips_and_reports_bad_lines",
     "Lines that cannot be entries are skipped and reported with line, byte offset and a code "
     "(invalid JSON, invalid UTF-8, NUL byte, not an object, no type, no id in v3, a second "
     "header); blank lines are ignored; the entries around them load; a writable open and an "
     "append keep every skipped line byte for byte (docs/decisions.md#2-report-do-not-just-skip).",
     options=opts(10),
     input_hex=bytes10.hex(),
     steps=[
         {"op": "open", "flags": ["read_only"]},
         {"op": "check_diagnostics", "expected": diag10},
         {"op": "check_entries", "json": "[%s,%s]" % (U10, A10)},
         {"op": "check_context", "context": ctx("a1", [J({"role": "user", "content": "one"}),
                                                      J({"role": "assistant", "content": "two"})])},
         {"op": "check_info", "fields": {"entryCount": 2, "leafId": "a1", "diagnostics": 7}},
         {"op": "reopen", "flags": []},
         {"op": "append_message", "message": A10B, "expect_id": n10},
         {"op": "check_file", "raw_hex": (bytes10 + entry("message", n10, "a1", 0, message=json.loads(A10B)).encode()
                                         + b"\n").hex()},
     ])

H11 = J({"type": "session", "version": 3, "id": "s11", "timestamp": ts(0), "cwd": "/w"})
U11 = entry("message", "u1", None, 1, message={"role": "user", "content": "x"})
case("11_garbage_before_header",
     "A header that is not on physical line 1 is still found, as pi finds it; the unparseable "
     "lines before it are reported as before_header (docs/format.md#reading-a-file).",
     input=["garbage, not json", "", H11, U11],
     steps=[
         {"op": "open", "flags": ["read_only"]},
         {"op": "check_header", "json": H11},
         {"op": "check_entries", "json": "[%s]" % U11},
         {"op": "check_diagnostics", "expected": [{"line": 1, "offset": 0, "code": "before_header"}]},
     ])

case("12_no_header_read_only",
     "A read-only open of a file whose first JSON value is not a session header gives "
     "XS_ENOHEADER and writes nothing; a missing file gives XS_ENOTFOUND.",
     input=[entry("message", "m1", None, 1, message={"role": "user", "content": "x"}),
            J({"type": "session", "version": 3, "id": "late", "timestamp": ts(0), "cwd": "/w"})],
     steps=[
         {"op": "open", "path": "missing.jsonl", "flags": ["read_only"], "expect": "XS_ENOTFOUND"},
         {"op": "open", "path": "missing.jsonl", "flags": [], "expect": "XS_ENOTFOUND"},
         {"op": "open", "flags": ["read_only"], "expect": "XS_ENOHEADER"},
     ])

RAW13 = '{"type":"message","id":"m1"}\nsecond line, not json\n'
ids = Ids(13)
sid13 = ids.session()
case("13_no_header_writable_preserves_bytes",
     "A writable open of a file without a header first preserves its bytes as "
     "<file>.corrupt-<time>, then writes a fresh session there (the agents overwrite it instead: "
     "docs/decisions.md#1-no-silent-data-loss-on-a-bad-file). The copy takes the first clock tick, "
     "the new header the second, with the cwd the caller gave (never an empty one: without a cwd "
     "it is the process's, docs/dialects.md and tests/core/session/dialect_test.cc).",
     options=opts(13),
     input_raw=RAW13,
     steps=[
         {"op": "open", "cwd": "/w"},
         {"op": "check_preserved", "raw": RAW13},
         {"op": "check_file", "lines": [header(sid13, 1, "/w")]},
         {"op": "check_diagnostics", "expected": [{"line": 0, "offset": 0, "code": "corrupt_file_preserved"}]},
         {"op": "check_info", "fields": {"id": sid13, "entryCount": 0, "version": 3}},
     ])

ids = Ids(14)
sid14 = ids.session()
case("14_empty_file_writable",
     "An empty file opened for writing becomes a fresh session at once (nothing to preserve), "
     "with the caller's cwd; opened read-only it has no header.",
     options=opts(14),
     input_raw="",
     steps=[
         {"op": "open", "flags": ["read_only"], "expect": "XS_ENOHEADER"},
         {"op": "open", "cwd": "/w"},
         {"op": "check_file", "lines": [header(sid14, 0, "/w")]},
         {"op": "check_diagnostics", "expected": []},
     ])

H15 = J({"type": "session", "version": 3, "id": "s15", "timestamp": ts(0), "cwd": "/w"})
U15 = entry("message", "u1", None, 1, message={"role": "user", "content": "q"})
TORN = '{"type":"message","id":"a1","parentId":"u1","message":{"role":"assis'
RAW15 = H15 + "\n" + U15 + "\n" + TORN
ids = Ids(15)
n15 = ids.entry()
case("15_torn_tail_gets_a_newline_before_the_next_append",
     "A last line without a newline is reported as an incomplete tail; the next append writes "
     "'\\n' first so the new entry is never glued onto the fragment (which would lose both), and "
     "the fragment stays in the file (docs/decisions.md#torn-tail).",
     options=opts(15),
     input_raw=RAW15,
     steps=[
         {"op": "open"},
         {"op": "check_diagnostics", "expected": [{"line": 3, "offset": len(H15) + len(U15) + 2, "code": "incomplete_tail"}]},
         {"op": "append_message", "message": ASSISTANT, "expect_id": n15},
         {"op": "check_file", "raw": RAW15 + "\n" + entry("message", n15, "u1", 0, message=json.loads(ASSISTANT)) + "\n"},
         {"op": "reopen", "flags": ["read_only"]},
         {"op": "check_context", "context": ctx(n15, [J({"role": "user", "content": "q"}), ASSISTANT],
                                                models={"default": "anthropic/claude-sonnet-4-5"})},
     ])

H16 = J({"type": "session", "version": 3, "id": "s16", "timestamp": ts(0), "cwd": "/w"})
M16 = '{"role":"user","content":"cut emoji \\ud83d and \\udc00 alone","big":18446744073709551616,"tiny":1e-400,"huge":1e400}'
L16 = '{"type":"message","id":"u1","parentId":null,"timestamp":"%s","message":%s}' % (ts(1), M16)
ids = Ids(16)
n16 = ids.entry()
M16B = '{"role":"assistant","content":"x\\ud800y","n":-1e999,"digits":%s}' % ("9" * 400)
case("16_lone_surrogates_and_huge_numbers_are_valid",
     "Lone-surrogate escapes (which JSON.stringify writes) and numbers of any magnitude (2^64, "
     "1e400, 1e-400: JSON.parse accepts them) are valid JSON: such lines load, contexts keep their "
     "bytes, and the API accepts them too (docs/decisions.md#what-we-accept-on-read).",
     options=opts(16),
     input=[H16, L16],
     steps=[
         {"op": "open"},
         {"op": "check_diagnostics", "expected": []},
         {"op": "check_context", "context": ctx("u1", [M16])},
         {"op": "append_message", "message": M16B, "expect_id": n16},
         {"op": "check_file", "lines": [H16, L16,
                                        '{"type":"message","id":"%s","parentId":"u1","timestamp":"%s","message":%s}'
                                        % (n16, ts(0), M16B)]},
         {"op": "check_context", "context": ctx(n16, [M16, M16B])},
     ])

H17 = J({"type": "session", "version": 3, "id": "s17", "timestamp": ts(0), "cwd": "/w"})
U17 = entry("message", "u1", None, 1, message={"role": "user", "content": "q"})
A17a = entry("message", "a1", "u1", 2, message={"role": "assistant", "content": "first"})
A17b = entry("message", "a1", "u1", 3, message={"role": "assistant", "content": "second"})
U17b = entry("message", "u2", "a1", 4, message={"role": "user", "content": "more"})
case("17_duplicate_ids_later_wins",
     "A later entry with an id already seen replaces the earlier one in the id lookup; both lines "
     "stay in the file and the duplicate is reported (docs/format.md#reading-a-file).",
     input=[H17, U17, A17a, A17b, U17b],
     steps=[
         {"op": "open", "flags": ["read_only"]},
         {"op": "check_diagnostics", "expected": [{"line": 4, "offset": len(H17) + len(U17) + len(A17a) + 3,
                                                   "code": "duplicate_id"}]},
         {"op": "check_entry", "id": "a1", "json": A17b},
         {"op": "check_context", "context": ctx("u2", [J({"role": "user", "content": "q"}),
                                                      J({"role": "assistant", "content": "second"}),
                                                      J({"role": "user", "content": "more"})])},
         {"op": "check_entries", "json": "[%s,%s,%s,%s]" % (U17, A17a, A17b, U17b)},
     ])

H18 = J({"type": "session", "version": 3, "id": "s18", "timestamp": ts(0), "cwd": "/w"})
U18 = entry("message", "u1", None, 1, message={"role": "user", "content": "crlf"})
case("18_crlf_line_endings",
     "Only '\\n' ends a line; a trailing '\\r' is JSON whitespace, so CRLF files load (as "
     "JSON.parse accepts them) and the '\\r' stays part of the stored line.",
     input_raw=H18 + "\r\n" + U18 + "\r\n",
     steps=[
         {"op": "open", "flags": ["read_only"]},
         {"op": "check_diagnostics", "expected": []},
         {"op": "check_entry", "id": "u1", "json": U18 + "\r"},
         {"op": "check_context", "context": ctx("u1", [J({"role": "user", "content": "crlf"})])},
     ])

H19 = J({"type": "session", "version": 3, "id": "s19", "timestamp": ts(0), "cwd": "/w"})
OK19 = entry("message", "ok", None, 1, message={"role": "user", "content": ["fits"]})
LONG19 = entry("message", "long", "ok", 2, message={"role": "user", "content": "x" * 150})
DEEP19 = entry("message", "deep", "ok", 3, message={"role": "user", "content": [["too deep"]]})
ids = Ids(19)
n19 = ids.entry()
case("19_limits_on_load_and_append",
     "max_line_bytes and max_depth (the root is depth 1) bound what is loaded (too_long, too_deep: "
     "skipped and reported) and what is appended (XS_ELIMIT). A message sits one level below its "
     "entry, so it gets one level less.",
     options=opts(19, max_line_bytes=200, max_depth=4),
     input=[H19, OK19, LONG19, DEEP19],
     steps=[
         {"op": "open"},
         {"op": "check_diagnostics", "expected": [
             {"line": 3, "offset": len(H19) + len(OK19) + 2, "code": "too_long"},
             {"line": 4, "offset": len(H19) + len(OK19) + len(LONG19) + 3, "code": "too_deep"}]},
         {"op": "check_entries", "json": "[%s]" % OK19},
         {"op": "append_message", "message": J({"role": "user", "content": "y" * 200}), "expect": "XS_ELIMIT"},
         {"op": "append_message", "message": J({"role": "user", "content": [["z"]]}), "expect": "XS_ELIMIT"},
         {"op": "append", "entry": J({"type": "custom", "customType": "c", "data": [[[1]]]}), "expect": "XS_ELIMIT"},
         {"op": "append_message", "message": J({"role": "user", "content": ["z"]}), "expect_id": n19},
         {"op": "check_file", "lines": [H19, OK19, LONG19, DEEP19,
                                        entry("message", n19, "ok", 0, message={"role": "user", "content": ["z"]})]},
     ])

# ------------------------------------------------------------------------------------------------
# The tree: parents, branches, roots, labels, order
# ------------------------------------------------------------------------------------------------


def gmsg(id_, role, content):
    """A generic xs_append of a message entry with a chosen id."""
    return J({"type": "message", "id": id_, "message": {"role": role, "content": content}})


def node(id_, parent, depth, children, line, label=None, label_ts=None):
    n = '{"id":%s,"parentId":%s,"depth":%d,"children":%s' % (J(id_), J(parent), depth, J(children))
    if label is not None:
        n += ',"label":%s,"labelTimestamp":%s' % (J(label), J(label_ts))
    return n + ',"entry":%s}' % line


ids = Ids(20)
sid20 = ids.session()
L20 = {
    "u1": entry("message", "u1", None, 1, message={"role": "user", "content": "q1"}),
    "a1": entry("message", "a1", "u1", 2, message={"role": "assistant", "content": "r1"}),
    "u2": entry("message", "u2", "a1", 3, message={"role": "user", "content": "q2"}),
    "u3": entry("message", "u3", "a1", 4, message={"role": "user", "content": "q2 again"}),
    "r2": entry("message", "r2", None, 5, message={"role": "user", "content": "new root"}),
}
case("20_branch_reset_and_several_roots",
     "Appends go under the leaf; set_leaf to an entry moves the leaf only; set_leaf to none makes "
     "the next append a new root, so a file can hold several roots. Reopening puts the leaf at the last entry in "
     "file order: the leaf is not stored (docs/decisions.md#handles-and-the-leaf).",
     options=opts(20, flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/w"},
         {"op": "append", "entry": gmsg("u1", "user", "q1"), "expect_id": "u1"},
         {"op": "append", "entry": gmsg("a1", "assistant", "r1"), "expect_id": "a1"},
         {"op": "append", "entry": gmsg("u2", "user", "q2"), "expect_id": "u2"},
         {"op": "set_leaf", "id": "a1"},
         {"op": "check_leaf", "id": "a1"},
         {"op": "append", "entry": gmsg("u3", "user", "q2 again"), "expect_id": "u3"},
         {"op": "set_leaf", "id": None},
         {"op": "check_leaf", "id": None},
         {"op": "append", "entry": gmsg("r2", "user", "new root"), "expect_id": "r2"},
         {"op": "check_file", "lines": [header(sid20, 0, "/w")] + list(L20.values())},
         {"op": "check_tree", "json": "[%s]" % ",".join([
             node("u1", None, 0, ["a1"], L20["u1"]), node("a1", "u1", 1, ["u2", "u3"], L20["a1"]),
             node("u2", "a1", 2, [], L20["u2"]), node("u3", "a1", 2, [], L20["u3"]),
             node("r2", None, 0, [], L20["r2"])])},
         {"op": "check_children", "id": "a1", "json": "[%s,%s]" % (L20["u2"], L20["u3"])},
         {"op": "check_children", "id": "u2", "json": "[]"},
         {"op": "check_path", "id": "u2", "json": "[%s,%s,%s]" % (L20["u1"], L20["a1"], L20["u2"])},
         {"op": "check_path", "json": "[%s]" % L20["r2"]},
         {"op": "check_context", "leaf": "u3", "context": ctx("u3", [
             J({"role": "user", "content": "q1"}), J({"role": "assistant", "content": "r1"}),
             J({"role": "user", "content": "q2 again"})])},
         {"op": "set_leaf", "id": "u2"},
         {"op": "reopen", "flags": ["read_only"]},
         {"op": "check_leaf", "id": "r2"},
     ])

case("21_unknown_ids_are_not_found",
     "Every call that names an entry answers XS_ENOTFOUND for an unknown id, and changes nothing; "
     "an unknown explicit leaf for the context too, where the agents fall back to the last entry "
     "(docs/decisions.md#9-an-unknown-leaf-is-not-found).",
     options=opts(21, flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/w"},
         {"op": "append", "entry": gmsg("u1", "user", "q"), "expect_id": "u1"},
         {"op": "set_leaf", "id": "nope", "expect": "XS_ENOTFOUND"},
         {"op": "set_leaf", "id": "", "expect": "XS_ENOTFOUND"},
         {"op": "branch_with_summary", "from_id": "nope", "summary": "s", "expect": "XS_ENOTFOUND"},
         {"op": "append_label", "target_id": "nope", "label": "x", "expect": "XS_ENOTFOUND"},
         {"op": "check_context", "leaf": "nope", "context": "", "expect": "XS_ENOTFOUND"},
         {"op": "check_path", "id": "nope", "json": "", "expect": "XS_ENOTFOUND"},
         {"op": "check_children", "id": "nope", "json": "", "expect": "XS_ENOTFOUND"},
         {"op": "check_entry", "id": "../u1", "json": "", "expect": "XS_ENOTFOUND"},
         {"op": "check_leaf", "id": "u1"},
         {"op": "check_entries", "json": "[%s]" % entry("message", "u1", None, 1, message={"role": "user", "content": "q"})},
     ])

ids = Ids(22)
sid22, b1, b2 = ids.session(), ids.entry(), ids.entry()
U22 = entry("message", "u1", None, 1, message={"role": "user", "content": "q"})
case("22_branch_with_summary",
     "branch_with_summary from null writes a root summary with fromId \"root\"; from an entry it "
     "is that entry's child. An empty summary is written but produces no context message "
     "(docs/context.md#messages).",
     options=opts(22, flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/w"},
         {"op": "append", "entry": gmsg("u1", "user", "q"), "expect_id": "u1"},
         {"op": "branch_with_summary", "from_id": None, "summary": "Start over", "expect_id": b1},
         {"op": "check_context", "context": ctx(b1, [J({"role": "branchSummary", "summary": "Start over",
                                                         "fromId": "root", "timestamp": ms(2)})])},
         {"op": "branch_with_summary", "from_id": "u1", "summary": "", "expect_id": b2},
         {"op": "check_context", "context": ctx(b2, [J({"role": "user", "content": "q"})])},
         {"op": "check_file", "lines": [header(sid22, 0, "/w"), U22,
                                        entry("branch_summary", b1, None, 2, fromId="root", summary="Start over"),
                                        entry("branch_summary", b2, "u1", 3, fromId="u1", summary="")]},
     ])

ids = Ids(23)
sid23 = ids.session()
l = [ids.entry() for _ in range(7)]
U23 = entry("message", "u1", None, 1, message={"role": "user", "content": "q"})
A23 = entry("message", "a1", "u1", 2, message={"role": "assistant", "content": "r"})
lab = [("a1", "first"), ("a1", "second"), ("u1", "q"), ("u1", None), ("u1", "again"), ("a1", ""), ("a1", "back")]
label_lines = []
parent = "a1"
for i, (target, text) in enumerate(lab):
    payload = {"targetId": target}
    if text is not None:
        payload["label"] = text
    label_lines.append(entry("label", l[i], parent, 3 + i, **payload))
    parent = l[i]
label_steps = []
for i, (target, text) in enumerate(lab):
    st = {"op": "append_label", "target_id": target, "expect_id": l[i]}
    if text is not None:
        st["label"] = text
    label_steps.append(st)
tree23 = [node("u1", None, 0, ["a1"], U23, "again", ts(7)), node("a1", "u1", 1, [l[0]], A23, "back", ts(9))]
for i in range(7):
    tree23.append(node(l[i], "a1" if i == 0 else l[i - 1], 2 + i, [l[i + 1]] if i < 6 else [], label_lines[i]))
LABELS23 = J([{"targetId": "u1", "label": "again", "timestamp": ts(7)},
              {"targetId": "a1", "label": "back", "timestamp": ts(9)}])
case("23_labels_global_last_wins",
     "Labels are global: the last label entry in file order wins, a falsy label (absent or \"\") "
     "clears, a cleared and re-set label moves to the end of the insertion order (JavaScript Map). "
     "A label entry is a child of the leaf and moves it; labels never reach the context "
     "(docs/format.md#reading-a-file).",
     options=opts(23, flags=["no_defer"]),
     steps=[{"op": "create", "cwd": "/w"},
            {"op": "append", "entry": gmsg("u1", "user", "q"), "expect_id": "u1"},
            {"op": "append", "entry": gmsg("a1", "assistant", "r"), "expect_id": "a1"}] + label_steps + [
         {"op": "check_labels", "json": LABELS23},
         {"op": "check_leaf", "id": l[6]},
         {"op": "check_context", "context": ctx(l[6], [J({"role": "user", "content": "q"}),
                                                       J({"role": "assistant", "content": "r"})])},
         {"op": "check_tree", "json": "[%s]" % ",".join(tree23)},
         {"op": "check_file", "lines": [header(sid23, 0, "/w"), U23, A23] + label_lines},
         {"op": "reopen", "flags": ["read_only"]},
         {"op": "check_labels", "json": LABELS23},
     ])

H24 = J({"type": "session", "version": 3, "id": "s24", "timestamp": ts(0), "cwd": "/w"})
R24 = entry("message", "r", None, 1, message={"role": "user", "content": "root"})
C24 = {
    "c1": entry("message", "c1", "r", "2026-01-01T00:00:05.000Z", message={"role": "assistant", "content": "1"}),
    "c2": entry("message", "c2", "r", "2026-01-01T00:00:03.000Z", message={"role": "assistant", "content": "2"}),
    "c3": entry("message", "c3", "r", "2026-01-01T00:00:05.000Z", message={"role": "assistant", "content": "3"}),
    "c4": entry("message", "c4", "r", "not a date", message={"role": "assistant", "content": "4"}),
    "c5": entry("message", "c5", "r", "2026-01-01T01:00:04.000+01:00", message={"role": "assistant", "content": "5"}),
}
case("24_tree_children_sorted_by_time",
     "The tree lists children oldest first by their timestamp (Date order, so a +01:00 offset "
     "counts), ties keeping file order (a stable sort); an unparseable timestamp sorts first. The "
     "direct children (xs_session_children) stay in file order.",
     input=[H24, R24] + list(C24.values()),
     steps=[
         {"op": "open", "flags": ["read_only"]},
         {"op": "check_tree", "json": "[%s]" % ",".join(
             [node("r", None, 0, ["c4", "c2", "c5", "c1", "c3"], R24)] +
             [node(c, "r", 1, [], C24[c]) for c in ["c4", "c2", "c5", "c1", "c3"]])},
         {"op": "check_children", "id": "r", "json": "[%s]" % ",".join(C24.values())},
     ])

H25 = J({"type": "session", "version": 3, "id": "s25", "timestamp": ts(0), "cwd": "/w"})
L25 = [
    entry("message", "u1", None, 1, message={"role": "user", "content": "u1"}),
    entry("message", "o1", "missing", 2, message={"role": "user", "content": "orphan"}),
    entry("message", "x1", "x2", 3, message={"role": "user", "content": "x1"}),
    entry("message", "x2", "x1", 4, message={"role": "user", "content": "x2"}),
    entry("message", "s1", "s1", 5, message={"role": "user", "content": "self"}),
]
off25 = [len(H25) + 1]
for ln in L25:
    off25.append(off25[-1] + len(ln) + 1)
case("25_orphans_and_parent_cycles",
     "An entry whose parent is missing is an orphan root; its context is its own path "
     "(docs/context.md#the-path). A parent cycle (and a self-parent) would make a walk up the "
     "parents loop for ever: the link that closes it is cut, the entry becomes a root, and it is "
     "reported (docs/decisions.md#6-parent-cycles-are-cut).",
     input=[H25] + L25,
     steps=[
         {"op": "open", "flags": ["read_only"]},
         {"op": "check_diagnostics", "expected": [{"line": 5, "offset": off25[3], "code": "parent_cycle"},
                                                  {"line": 6, "offset": off25[4], "code": "parent_cycle"}]},
         {"op": "check_tree", "json": "[%s]" % ",".join([
             node("u1", None, 0, [], L25[0]), node("o1", None, 0, [], L25[1]), node("x2", None, 0, ["x1"], L25[3]),
             node("x1", "x2", 1, [], L25[2]), node("s1", None, 0, [], L25[4])])},
         {"op": "check_context", "leaf": "o1", "context": ctx("o1", [J({"role": "user", "content": "orphan"})])},
         {"op": "check_path", "id": "x1", "json": "[%s,%s]" % (L25[3], L25[2])},
         {"op": "check_context", "context": ctx("s1", [J({"role": "user", "content": "self"})])},
     ])

ids = Ids(26)
sid26, u26, a26, v26 = ids.session(), ids.entry(), ids.entry(), ids.entry()
L26 = [header(sid26, 0, "/w"),
       entry("message", u26, None, 1, message=json.loads(USER)),
       entry("message", a26, u26, 2, message=json.loads(ASSISTANT)),
       entry("message", v26, u26, 3, message={"role": "user", "content": "edited question"})]
case("26_reopen_gives_the_same_session",
     "What was written reads back identically: entries, header, and the leaf at the last entry in "
     "file order (the in-memory leaf is not persisted: docs/decisions.md#handles-and-the-leaf).",
     options=opts(26),
     steps=[
         {"op": "create", "cwd": "/w"},
         {"op": "append_message", "message": USER, "expect_id": u26},
         {"op": "append_message", "message": ASSISTANT, "expect_id": a26},
         {"op": "set_leaf", "id": u26},
         {"op": "append_message", "message": J({"role": "user", "content": "edited question"}), "expect_id": v26},
         {"op": "set_leaf", "id": a26},
         {"op": "close"},
         {"op": "reopen", "flags": ["read_only"]},
         {"op": "check_file", "lines": L26},
         {"op": "check_header", "json": L26[0]},
         {"op": "check_entries", "json": "[%s]" % ",".join(L26[1:])},
         {"op": "check_leaf", "id": v26},
         {"op": "check_info", "fields": {"persisted": True, "readOnly": True, "entryCount": 3}},
     ])

# ------------------------------------------------------------------------------------------------
# Migrations v1 -> v2 -> v3 (docs/format.md#migration)
# ------------------------------------------------------------------------------------------------

V1H = {"type": "session", "id": "v1-session", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/w"}
V1U = {"type": "message", "timestamp": "2025-01-01T00:00:01.000Z", "message": {"role": "user", "content": "q"}}
V1A = {"type": "message", "timestamp": "2025-01-01T00:00:02.000Z",
       "message": {"role": "assistant", "content": "a", "provider": "p", "model": "m"}}
ids = Ids(27)
i1, i2 = ids.entry(), ids.entry()
case("27_v1_migrates_in_memory_on_a_read_only_open",
     "A read-only open migrates v1 in memory (ids and a linear parent chain; version 3) and writes "
     "nothing: a viewer never changes what it views (docs/decisions.md#migration).",
     options=opts(27),
     input=[J(V1H), J(V1U), J(V1A)],
     steps=[
         {"op": "open", "flags": ["read_only"]},
         {"op": "check_header", "json": J(dict(V1H, version=3))},
         {"op": "check_entries", "json": "[%s,%s]" % (J(dict(V1U, id=i1, parentId=None)), J(dict(V1A, id=i2, parentId=i1)))},
         {"op": "check_file", "raw": file_bytes([J(V1H), J(V1U), J(V1A)])},
         {"op": "check_info", "fields": {"version": 3, "leafId": i2}},
         {"op": "check_context", "context": ctx(i2, [J(V1U["message"]), J(V1A["message"])], models={"default": "p/m"})},
     ])

H28 = {"type": "session", "id": "old1", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/w",
       "provider": "anthropic", "modelId": "claude", "thinkingLevel": "off"}
U28 = {"type": "message", "timestamp": "2025-01-01T00:00:01.000Z", "message": {"role": "user", "content": "q"}}
A28 = {"type": "message", "timestamp": "2025-01-01T00:00:02.000Z",
       "message": {"role": "assistant", "content": [{"type": "text", "text": "a"}], "provider": "anthropic", "model": "claude"}}
BAD28 = "garbage line"
HK28 = {"type": "message", "timestamp": "2025-01-01T00:00:03.000Z",
        "message": {"role": "hookMessage", "customType": "lint", "content": "ok", "display": True, "timestamp": 3}}
TL28 = {"type": "thinking_level_change", "timestamp": "2025-01-01T00:00:04.000Z", "thinkingLevel": "high"}
C28 = {"type": "compaction", "timestamp": "2025-01-01T00:00:05.000Z", "summary": "S", "firstKeptEntryIndex": 2,
       "tokensBefore": 100}
U28b = {"type": "message", "timestamp": "2025-01-01T00:00:06.000Z", "message": {"role": "user", "content": "next"}}
ids = Ids(28)
m = [ids.entry() for _ in range(6)]
HK28_OUT = dict(HK28, message=dict(HK28["message"], role="custom"))
C28_OUT = {"type": "compaction", "timestamp": "2025-01-01T00:00:05.000Z", "summary": "S", "tokensBefore": 100,
           "id": m[4], "parentId": m[3], "firstKeptEntryId": m[1]}
MIGRATED28 = [J(dict(H28, version=3)), J(dict(U28, id=m[0], parentId=None)), J(dict(A28, id=m[1], parentId=m[0])),
              BAD28, J(dict(HK28_OUT, id=m[2], parentId=m[1])), J(dict(TL28, id=m[3], parentId=m[2])), J(C28_OUT),
              J(dict(U28b, id=m[5], parentId=m[4]))]
case("28_v1_migration_rewrites_on_a_writable_open",
     "A writable open rewrites a migrated file at once, atomically. Changed entries keep their "
     "keys in order and get id, parentId (and firstKeptEntryId) appended; firstKeptEntryIndex "
     "counts the header as index 0 and only parsed lines; hookMessage becomes custom; the header "
     "gets version 3 at the end; the unparseable line stays byte for byte "
     "(docs/format.md#migration).",
     options=opts(28),
     input=[J(H28), J(U28), J(A28), BAD28, J(HK28), J(TL28), J(C28), J(U28b)],
     steps=[
         {"op": "open"},
         {"op": "check_file", "lines": MIGRATED28},
         {"op": "check_diagnostics", "expected": [
             {"line": 4, "offset": len(J(H28)) + len(J(U28)) + len(J(A28)) + 3, "code": "invalid_json"}]},
         {"op": "check_context", "context": ctx(m[5], [
             J({"role": "compactionSummary", "summary": "S", "tokensBefore": 100, "timestamp": 1735689605000}),
             J(A28["message"]), J(HK28_OUT["message"]), J(U28b["message"])],
             thinking='"high"', models={"default": "anthropic/claude"})},
         {"op": "reopen"},
         {"op": "check_file", "lines": MIGRATED28},
     ])


def v1c(n, index, tick):
    return {"type": "compaction", "timestamp": "2025-01-01T00:00:%02d.000Z" % tick, "summary": n,
            "firstKeptEntryIndex": index, "tokensBefore": 1}


V29 = [{"type": "message", "timestamp": "2025-01-01T00:00:01.000Z", "message": {"role": "user", "content": "q"}},
       v1c("header", 0, 2), v1c("past the end", 99, 3), v1c("forward", 9, 4), v1c("fraction", 1.5, 5),
       v1c("string", "2", 6), v1c("negative", -1, 7), v1c("first user", 1, 8),
       {"type": "message", "timestamp": "2025-01-01T00:00:09.000Z", "message": {"role": "user", "content": "end"}}]
ids = Ids(29)
n29 = [ids.entry() for _ in range(len(V29))]
out29 = []
for k, e in enumerate(V29):
    o = dict(e)
    idx = o.get("firstKeptEntryIndex")
    if o["type"] == "compaction" and not isinstance(idx, str):
        del o["firstKeptEntryIndex"]
    o["id"] = n29[k]
    o["parentId"] = n29[k - 1] if k else None
    if e.get("summary") == "first user":
        o["firstKeptEntryId"] = n29[0]
    out29.append(J(o))
case("29_v1_first_kept_entry_index_edges",
     "firstKeptEntryIndex becomes firstKeptEntryId only when it is a whole number naming an "
     "earlier entry (index 0 is the header; past the end, forward, fractional and negative indices "
     "name nothing) and is removed whenever it is a number; a non-numeric value is left alone "
     "(docs/format.md#migration).",
     options=opts(29),
     input=[J({"type": "session", "id": "s29", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/w"})] + [J(e) for e in V29],
     steps=[
         {"op": "open", "flags": ["read_only"]},
         {"op": "check_entries", "json": "[%s]" % ",".join(out29)},
     ])

H30 = '{"type":"session","version":2,"id":"v2s","timestamp":"2025-06-01T00:00:00.000Z","cwd":"/w"}'
U30 = '{"type": "message", "id": "u1", "parentId": null, "timestamp": "2025-06-01T00:00:01.000Z", "message": {"role": "user", "content": "q"}}'
HK30 = ('{"type":"message","id":"h1","parentId":"u1","timestamp":"2025-06-01T00:00:02.000Z",'
        '"message":{"role" : "hookMessage","customType":"ci","content":"green","display":false}}')
HK30_OUT = ('{"type":"message","id":"h1","parentId":"u1","timestamp":"2025-06-01T00:00:02.000Z",'
            '"message":{"role" : "custom","customType":"ci","content":"green","display":false}}')
case("30_v2_to_v3_changes_only_what_it_must",
     "v2 -> v3 renames the hookMessage role to custom (that value only: the other bytes of the "
     "line, spacing included, stay) and sets the header's existing version to 3 in place; "
     "untouched lines keep their exact bytes: a rewrite re-serialises only what changed "
     "(docs/format.md#migration).",
     input=[H30, U30, HK30],
     steps=[
         {"op": "open"},
         {"op": "check_file", "lines": [H30.replace('"version":2', '"version":3'), U30, HK30_OUT]},
         {"op": "check_context", "context": ctx("h1", [
             '{"role": "user", "content": "q"}', '{"role" : "custom","customType":"ci","content":"green","display":false}'])},
     ])

RAW31 = ('{"type":"session","version":3,"id":"s31","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}\n'
         '{ "type" : "message" , "id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"spaced"} }\n')
case("31_current_files_are_not_rewritten",
     "Opening a v3 file for writing changes nothing on disk, however it is spaced.",
     input_raw=RAW31,
     steps=[
         {"op": "open"},
         {"op": "check_file", "raw": RAW31},
         {"op": "check_context", "context": ctx("u1", ['{"role":"user","content":"spaced"}'])},
     ])

# ------------------------------------------------------------------------------------------------
# The context (docs/context.md)
# ------------------------------------------------------------------------------------------------

EMPTY = ctx(None, [])
ids = Ids(32)
sid32, u32 = ids.session(), ids.entry()
case("32_empty_contexts",
     "No entries, or a leaf set to none, give the empty context; an explicit leaf gives that path.",
     options=opts(32),
     steps=[
         {"op": "create", "cwd": "/w"},
         {"op": "check_context", "context": EMPTY},
         {"op": "check_leaf", "id": None},
         {"op": "check_path", "json": "[]"},
         {"op": "append_message", "message": USER, "expect_id": u32},
         {"op": "check_context", "context": ctx(u32, [USER])},
         {"op": "set_leaf", "id": None},
         {"op": "check_context", "context": EMPTY},
         {"op": "check_path", "json": "[]"},
         {"op": "check_context", "leaf": u32, "context": ctx(u32, [USER])},
     ])


def gen(obj):
    return J(obj)


A33 = {"role": "assistant", "content": "r", "provider": "openai", "model": "gpt-4o"}
steps33 = [
    ("mc1", {"type": "model_change", "id": "mc1", "model": "anthropic/claude-a"}),
    ("t1", {"type": "thinking_level_change", "id": "t1", "thinkingLevel": "high"}),
    ("u1", {"type": "message", "id": "u1", "message": {"role": "user", "content": "q"}}),
    ("a1", {"type": "message", "id": "a1", "message": A33}),
    ("mc2", {"type": "model_change", "id": "mc2", "model": "anthropic/claude-b", "role": "default"}),
    ("mc3", {"type": "model_change", "id": "mc3", "model": "x/small", "role": "smol"}),
    ("mc4", {"type": "model_change", "id": "mc4", "provider": "google", "modelId": "gemini"}),
    ("t2", {"type": "thinking_level_change", "id": "t2", "thinkingLevel": None}),
    ("t3", {"type": "thinking_level_change", "id": "t3", "thinkingLevel": "medium"}),
]
MSGS33 = [J({"role": "user", "content": "q"}), J(A33)]
case("33_thinking_level_and_models",
     "thinkingLevel comes from the last change on the path (null means \"off\"); models from "
     "model_change (role defaults to \"default\"; pi's provider/modelId form too) and from "
     "assistant messages (provider/model), later ones overriding earlier ones "
     "(docs/context.md#state).",
     options=opts(33, flags=["no_defer"]),
     steps=[{"op": "create", "cwd": "/w"}] + [{"op": "append", "entry": gen(e), "expect_id": i} for i, e in steps33] + [
         {"op": "check_context", "context": ctx("t3", MSGS33, thinking='"medium"',
                                                models={"default": "google/gemini", "smol": "x/small"})},
         {"op": "check_context", "leaf": "t2", "context": ctx("t2", MSGS33, thinking='"off"',
                                                              models={"default": "google/gemini", "smol": "x/small"})},
         {"op": "check_context", "leaf": "a1", "context": ctx("a1", MSGS33, thinking='"high"',
                                                              models={"default": "openai/gpt-4o"})},
         {"op": "check_context", "leaf": "mc2", "context": ctx("mc2", MSGS33, thinking='"high"',
                                                               models={"default": "anthropic/claude-b"})},
         {"op": "check_context", "leaf": "mc1", "context": ctx("mc1", [], models={"default": "anthropic/claude-a"})},
     ])


def um(id_, text):
    return {"op": "append", "entry": gmsg(id_, "user", text), "expect_id": id_}


def am(id_, text):
    return {"op": "append", "entry": gmsg(id_, "assistant", text), "expect_id": id_}


def mu(text):
    return J({"role": "user", "content": text})


def ma(text):
    return J({"role": "assistant", "content": text})


def summary_msg(summary, tokens, tick, short=None, payload=None):
    m = {"role": "compactionSummary", "summary": summary}
    if short is not None:
        m["shortSummary"] = short
    m["tokensBefore"] = tokens
    if payload is not None:
        m["providerPayload"] = payload
    m["timestamp"] = ms(tick)
    return J(m)


ids = Ids(34)
ids.session()
c34 = ids.entry()
case("34_compaction_keeps_from_first_kept_entry",
     "With a compaction on the path the context is its summary, then the path from "
     "firstKeptEntryId up to the compaction, then everything after it "
     "(docs/context.md#compaction).",
     options=opts(34, flags=["no_defer"]),
     steps=[{"op": "create", "cwd": "/w"}, um("u1", "q1"), am("a1", "r1"), um("u2", "q2"), am("a2", "r2"),
            {"op": "append_compaction", "summary": "S1", "first_kept_entry_id": "u2", "tokens_before": 500,
             "expect_id": c34},
            um("u3", "q3"), am("a3", "r3"),
            {"op": "check_context", "context": ctx("a3", [summary_msg("S1", 500, 5), mu("q2"), ma("r2"), mu("q3"), ma("r3")])},
            {"op": "check_context", "leaf": c34, "context": ctx(c34, [summary_msg("S1", 500, 5), mu("q2"), ma("r2")])},
            ])

ids = Ids(35)
ids.session()
c1, c2, c3 = ids.entry(), ids.entry(), ids.entry()
case("35_latest_compaction_wins_and_bogus_kept_ids",
     "Only the last compaction on the path counts; earlier ones vanish even inside the kept range. "
     "A firstKeptEntryId that is not on the path keeps nothing before the compaction. A leaf on a "
     "branch from before the compaction sees the full history (docs/context.md#compaction).",
     options=opts(35, flags=["no_defer"]),
     steps=[{"op": "create", "cwd": "/w"}, um("u1", "q1"), am("a1", "r1"), um("u2", "q2"), am("a2", "r2"),
            {"op": "append_compaction", "summary": "first summary", "short_summary": "fs", "first_kept_entry_id": "a1",
             "tokens_before": 100, "expect_id": c1},
            um("u3", "q3"), am("a3", "r3"),
            {"op": "append_compaction", "summary": "second summary", "first_kept_entry_id": "a2", "tokens_before": 200,
             "expect_id": c2},
            um("u4", "q4"),
            {"op": "check_context", "context": ctx("u4", [summary_msg("second summary", 200, 8), ma("r2"), mu("q3"),
                                                          ma("r3"), mu("q4")])},
            {"op": "check_context", "leaf": "a3", "context": ctx("a3", [
                summary_msg("first summary", 100, 5, short="fs"), ma("r1"), mu("q2"), ma("r2"), mu("q3"), ma("r3")])},
            {"op": "set_leaf", "id": "a1"}, um("u5", "q5"),
            {"op": "check_context", "context": ctx("u5", [mu("q1"), ma("r1"), mu("q5")])},
            {"op": "set_leaf", "id": "a3"},
            {"op": "append_compaction", "summary": "bogus keep", "first_kept_entry_id": "nope", "tokens_before": 5,
             "expect_id": c3},
            um("u6", "q6"),
            {"op": "check_context", "context": ctx("u6", [summary_msg("bogus keep", 5, 11), mu("q6")])},
            ])

ids = Ids(36)
ids.session()
cm36, cu36, si36 = ids.entry(), ids.entry(), ids.entry()
case("36_constructed_messages",
     "custom_message entries become role \"custom\" messages whether displayed or not; "
     "branch_summary entries with a non-empty summary become role \"branchSummary\"; custom and "
     "session_init entries never reach the context (docs/context.md#messages; key orders in "
     "docs/context.md#constructed-messages).",
     options=opts(36, flags=["no_defer"]),
     steps=[{"op": "create", "cwd": "/w"}, um("u1", "q"),
            {"op": "append_custom_message", "custom_type": "note", "content": '"plain"', "display": False,
             "details": '{"k":1}', "expect_id": cm36},
            {"op": "append_custom", "custom_type": "state", "data": "[1]", "expect_id": cu36},
            {"op": "append_session_init", "system_prompt": "sys", "task": "t", "tools": "[]", "expect_id": si36},
            {"op": "append", "entry": J({"type": "custom_message", "id": "pi1", "customType": "pi",
                                        "content": [{"type": "text", "text": "block"}], "display": True}),
             "expect_id": "pi1"},
            {"op": "append", "entry": J({"type": "branch_summary", "id": "bs0", "fromId": "u1", "summary": ""}),
             "expect_id": "bs0"},
            {"op": "append", "entry": J({"type": "branch_summary", "id": "bs1", "fromId": "x", "summary": "kept summary",
                                        "details": {"d": 1}}), "expect_id": "bs1"},
            {"op": "check_context", "context": ctx("bs1", [
                mu("q"),
                J({"role": "custom", "customType": "note", "content": "plain", "display": False, "details": {"k": 1},
                   "attribution": "agent", "timestamp": ms(2)}),
                J({"role": "custom", "customType": "pi", "content": [{"type": "text", "text": "block"}], "display": True,
                   "timestamp": ms(5)}),
                J({"role": "branchSummary", "summary": "kept summary", "fromId": "x", "timestamp": ms(7)})])},
            ])

ids = Ids(37)
ids.session()
t1_, t2_, m1_, m2_ = ids.entry(), ids.entry(), ids.entry(), ids.entry()
case("37_ttsr_rules_mode_service_tier_mcp",
     "injectedTtsrRules collects unique rule names in first-seen order; mode and modeData come "
     "from the last mode_change (no data: no modeData); serviceTier from the last "
     "service_tier_change (null unsets it); an mcp_tool_selection sets selectedMCPToolNames and "
     "hasPersistedMCPToolSelection (docs/context.md#state).",
     options=opts(37, flags=["no_defer"]),
     steps=[{"op": "create", "cwd": "/w"}, um("u1", "q"),
            {"op": "append_ttsr_injection", "rules": '["a","b"]', "expect_id": t1_},
            {"op": "append_ttsr_injection", "rules": '["b","c"]', "expect_id": t2_},
            {"op": "append_mode_change", "mode": "plan", "data": '{"f":1}', "expect_id": m1_},
            {"op": "check_context", "context": ctx(m1_, [mu("q")], rules=["a", "b", "c"], mode='"plan"',
                                                   extra=',"modeData":{"f":1}')},
            {"op": "append_mode_change", "mode": "review", "expect_id": m2_},
            {"op": "append", "entry": '{"type":"service_tier_change","id":"st1","serviceTier":"priority"}', "expect_id": "st1"},
            {"op": "check_context", "context": ctx("st1", [mu("q")], rules=["a", "b", "c"], mode='"review"',
                                                   extra=',"serviceTier":"priority"')},
            {"op": "append", "entry": '{"type":"service_tier_change","id":"st2","serviceTier":null}', "expect_id": "st2"},
            {"op": "append", "entry": '{"type":"mcp_tool_selection","id":"mcp","selectedToolNames":[]}', "expect_id": "mcp"},
            {"op": "check_context", "context": ctx("mcp", [mu("q")], rules=["a", "b", "c"], mode='"review"',
                                                   extra=',"selectedMCPToolNames":[],"hasPersistedMCPToolSelection":true')},
            ])

ids = Ids(38)
ids.session()
r38, r38b = ids.entry(), ids.entry()
PRESERVE38 = '{"openaiRemoteCompaction":{"provider":"openai","replacementHistory":[{"type":"message","role":"user","content":"x"}]}}'
case("38_openai_remote_compaction",
     "A compaction whose preserveData.openaiRemoteCompaction has a non-empty provider and a "
     "replacementHistory array carries them as providerPayload and keeps nothing before it; an "
     "empty provider is ignored (docs/context.md#compaction).",
     options=opts(38, flags=["no_defer"]),
     steps=[{"op": "create", "cwd": "/w"}, um("u1", "q1"), am("a1", "r1"), um("u2", "q2"),
            {"op": "append_compaction", "summary": "remote", "first_kept_entry_id": "u1", "tokens_before": 9,
             "preserve_data": PRESERVE38, "expect_id": r38},
            um("u3", "q3"),
            {"op": "check_context", "context": ctx("u3", [
                summary_msg("remote", 9, 4, payload={"type": "openaiResponsesHistory", "provider": "openai",
                                                     "items": [{"type": "message", "role": "user", "content": "x"}]}),
                mu("q3")])},
            {"op": "set_leaf", "id": "u2"},
            {"op": "append_compaction", "summary": "local", "first_kept_entry_id": "u2", "tokens_before": 3,
             "preserve_data": '{"openaiRemoteCompaction":{"provider":"","replacementHistory":[]}}', "expect_id": r38b},
            {"op": "check_context", "context": ctx(r38b, [summary_msg("local", 3, 6), mu("q2")])},
            ])

H39 = J({"type": "session", "version": 3, "id": "s39", "timestamp": ts(0), "cwd": "/w"})
L39 = [entry_after("custom_message", "c1", None, "yesterday", customType="t", content="bad time", display=True),
       entry("branch_summary", "b1", "c1", "2026-01-01T00:00:00Z", fromId="c1", summary="no millis"),
       entry_after("custom_message", "c2", "b1", "2026-01-01T01:00:00.123+01:00", customType="t", content="offset",
                   display=True)]
case("39_timestamps_of_constructed_messages",
     "Constructed messages carry Date.parse(entry.timestamp) in ms: seconds without a fraction and "
     "±hh:mm offsets parse; anything else is NaN, which JSON.stringify writes as null "
     "(docs/context.md#constructed-messages). Custom messages without attribution are pi's: the "
     "context has pi's model member (docs/dialects.md#detection).",
     input=[H39] + L39,
     steps=[
         {"op": "open", "flags": ["read_only"]},
         {"op": "check_context", "context": ctx("c2", [
             '{"role":"custom","customType":"t","content":"bad time","display":true,"timestamp":null}',
             J({"role": "branchSummary", "summary": "no millis", "fromId": "c1", "timestamp": 1767225600000}),
             J({"role": "custom", "customType": "t", "content": "offset", "display": True, "timestamp": 1767225600123})],
             model=None)},
     ])

ids = Ids(40)
sid40 = ids.session()
ids = Ids(40)
sid40b, u40, a40 = ids.session(), ids.entry(), ids.entry()
case("40_set_title_rewrites_the_header",
     "set_title rewrites the file atomically with only the header changed: a new title goes before "
     "parentSession, an existing one is replaced in place, null removes it. Before the first write "
     "the title simply lands in the header that is written later (docs/format.md#the-header).",
     options=opts(40),
     steps=[
         {"op": "create", "cwd": "/w", "parent_session": "p-1", "flags": ["no_defer"]},
         {"op": "check_file", "lines": [header(sid40, 0, "/w", parent="p-1")]},
         {"op": "set_title", "title": "New"},
         {"op": "check_file", "lines": [header(sid40, 0, "/w", title="New", parent="p-1")]},
         {"op": "set_title", "title": "Second \"t\""},
         {"op": "check_file", "lines": [header(sid40, 0, "/w", title="Second \"t\"", parent="p-1")]},
         {"op": "check_info", "fields": {"title": "Second \"t\""}},
         {"op": "set_title", "title": None},
         {"op": "check_file", "lines": [header(sid40, 0, "/w", parent="p-1")]},
         {"op": "check_info", "fields": {"title": None}},
         {"op": "create", "cwd": "/d"},
         {"op": "set_title", "title": "Draft"},
         {"op": "check_file", "exists": False},
         {"op": "check_header", "json": header(sid40b, 0, "/d", title="Draft")},
         {"op": "append_message", "message": USER, "expect_id": u40},
         {"op": "append_message", "message": ASSISTANT, "expect_id": a40},
         {"op": "check_file", "lines": [header(sid40b, 0, "/d", title="Draft"),
                                        entry("message", u40, None, 1, message=json.loads(USER)),
                                        entry("message", a40, u40, 2, message=json.loads(ASSISTANT))]},
     ])

A41a = {"role": "assistant", "content": "x", "usage": {"input": 10, "output": 5, "cacheRead": 1, "cacheWrite": 2,
                                                        "cost": {"total": 0.1}}}
A41b = {"role": "assistant", "content": "y", "usage": {"input": 20, "output": 7, "cacheRead": 0, "cacheWrite": 0,
                                                        "premiumRequests": 1, "cost": {"input": 0.05, "total": 0.2}}}
U41 = {"role": "user", "content": "z", "usage": {"input": 1000}}
A41c = {"role": "assistant", "content": "no usage"}
case("41_usage_statistics",
     "Usage totals add input, output, cacheRead, cacheWrite, premiumRequests and cost.total over "
     "every assistant message in the file, on every branch; numbers are written as JavaScript "
     "writes them (0.1 + 0.2).",
     options=opts(41, flags=["no_defer"]),
     steps=[{"op": "create", "cwd": "/w"}, um("u1", "q"),
            {"op": "append", "entry": J({"type": "message", "id": "a1", "message": A41a}), "expect_id": "a1"},
            {"op": "set_leaf", "id": "u1"},
            {"op": "append", "entry": J({"type": "message", "id": "a2", "message": A41b}), "expect_id": "a2"},
            {"op": "append", "entry": J({"type": "message", "id": "u2", "message": U41}), "expect_id": "u2"},
            {"op": "append", "entry": J({"type": "message", "id": "a3", "message": A41c}), "expect_id": "a3"},
            {"op": "check_usage", "json": '{"input":30,"output":12,"cacheRead":1,"cacheWrite":2,"premiumRequests":1,'
                                          '"cost":0.30000000000000004,"assistantMessages":3}'},
            ])

H43 = J({"type": "session", "version": 3, "id": "s43", "timestamp": ts(0), "cwd": "/w"})
U43 = entry("message", "u1", None, 1, message={"role": "user", "content": "q"})
A43 = entry("message", "a1", "u1", 2, message={"role": "assistant", "content": "r"})
case("42_read_only_refuses_writes",
     "A read-only handle refuses every write with XS_EREADONLY and never touches the file; "
     "navigation (set_leaf) works, flush is a no-op.",
     options=opts(42),
     input=[H43, U43, A43],
     steps=[
         {"op": "open", "flags": ["read_only"]},
         {"op": "append_message", "message": USER, "expect": "XS_EREADONLY"},
         {"op": "append", "entry": '{"type":"custom","customType":"c"}', "expect": "XS_EREADONLY"},
         {"op": "append_label", "target_id": "u1", "label": "x", "expect": "XS_EREADONLY"},
         {"op": "branch_with_summary", "from_id": "u1", "summary": "s", "expect": "XS_EREADONLY"},
         {"op": "set_title", "title": "t", "expect": "XS_EREADONLY"},
         {"op": "persist", "expect": "XS_EREADONLY"},
         {"op": "set_leaf", "id": "u1"},
         {"op": "check_leaf", "id": "u1"},
         {"op": "flush"},
         {"op": "check_file", "lines": [H43, U43, A43]},
     ])

PIH = J({"type": "session", "version": 3, "id": "0194a1b2-7410-70f4-a995-bfaf6656e553", "timestamp": ts(0), "cwd": "/w"})
PI = [entry("model_change", "aaaa0001", None, 1, provider="anthropic", modelId="claude-opus-4-5"),
      entry("session_info", "aaaa0002", "aaaa0001", 2, name="First name"),
      entry("message", "aaaa0003", "aaaa0002", 3, message={"role": "user", "content": "run ls"}),
      entry("message", "aaaa0004", "aaaa0003", 4, message={"role": "bashExecution", "command": "ls", "output": "a\nb",
                                                            "exitCode": 0}),
      entry("message", "aaaa0005", "aaaa0004", 5, message={"role": "toolResult", "toolCallId": "t1", "content": []}),
      entry("session_info", "aaaa0006", "aaaa0005", 6, name="  Second name  ")]
case("43_pi_forms",
     "pi's forms are read: model_change {provider, modelId}, roles such as bashExecution and "
     "toolResult, UUID session ids, and session_info names (the last one, trimmed) as the title "
     "when the header has none (docs/format.md#pi-and-oh-my-pi, "
     "docs/decisions.md#what-we-accept-on-read). The file is pi's, so its context has pi's model "
     "(docs/dialects.md#the-context-in-the-pi-dialect).",
     input=[PIH] + PI,
     steps=[
         {"op": "open", "flags": ["read_only"]},
         {"op": "check_info", "fields": {"id": "0194a1b2-7410-70f4-a995-bfaf6656e553", "title": "Second name"}},
         {"op": "check_context", "context": ctx("aaaa0006", [
             J({"role": "user", "content": "run ls"}),
             J({"role": "bashExecution", "command": "ls", "output": "a\nb", "exitCode": 0}),
             J({"role": "toolResult", "toolCallId": "t1", "content": []})],
             models={"default": "anthropic/claude-opus-4-5"},
             model={"provider": "anthropic", "modelId": "claude-opus-4-5"})},
         {"op": "check_info", "fields": {"dialect": "pi"}},
     ])

H44 = J({"type": "session", "version": 3, "id": "s44", "timestamp": ts(0), "cwd": "/w"})
L44 = [entry("message", "m1", None, 1, message="a string, not an object"),
       entry("message", "m2", "m1", 2, message={"role": "user", "content": "ok"})]
case("44_message_that_is_not_an_object",
     "A stored message entry whose message is not an object stays in the tree (and the file) but "
     "contributes no context message: the messages array only ever holds objects.",
     input=[H44] + L44,
     steps=[
         {"op": "open", "flags": ["read_only"]},
         {"op": "check_diagnostics", "expected": []},
         {"op": "check_path", "json": "[%s]" % ",".join(L44)},
         {"op": "check_context", "context": ctx("m2", [J({"role": "user", "content": "ok"})])},
     ])

ids = Ids(45)
sid45, u45, v45 = ids.session(), ids.entry(), ids.entry()
case("45_persist_ends_the_deferral",
     "xs_session_persist writes a deferred session at once; later entries are appended as they "
     "come (docs/format.md#writing).",
     options=opts(45),
     steps=[
         {"op": "create", "cwd": "/w"},
         {"op": "append_message", "message": USER, "expect_id": u45},
         {"op": "check_file", "exists": False},
         {"op": "persist"},
         {"op": "check_file", "lines": [header(sid45, 0, "/w"), entry("message", u45, None, 1, message=json.loads(USER))]},
         {"op": "append_message", "message": mu("second"), "expect_id": v45},
         {"op": "check_file", "lines": [header(sid45, 0, "/w"), entry("message", u45, None, 1, message=json.loads(USER)),
                                        entry("message", v45, u45, 2, message={"role": "user", "content": "second"})]},
         {"op": "persist"},
     ])


# ------------------------------------------------------------------------------------------------
# Size rules and blobs (docs/format.md#size-rules, docs/decisions.md#3-blobs)
# ------------------------------------------------------------------------------------------------

import base64  # noqa: E402
import hashlib  # noqa: E402

NOTICE = "\\n\\n[Session persistence truncated large content]"  # as it stands inside a JSON string


def rep(unit, times):
    return {"repeat": unit, "times": times}


ids = Ids(46)
sid46, e46 = ids.session(), ids.entry()
MSG46 = ['{"role":"toolResult","toolCallId":"t","content":[{"type":"text","text":"', rep("ab", 250005),
         '"}],"emoji":"', rep("\\ud83d\\ude00", 250001), '","exact":"', rep("c", 500000),
         '","details":{"thinkingSignature":"', rep("s", 500001),
         '","partialJson":"{\\"a\\"","nested":{"jsonlEvents":[1,2],"keep":true}},"output":{"content":"',
         rep("l\\n", 250001), '","lineCount":999},"other":{"content":"x","lineCount":7}}']
# 499,953 units survive, then the notice; a surrogate pair that would be split loses its first half;
# the changed object's lineCount counts the kept newlines, the notice's two, plus one.
STORED46 = ['{"role":"toolResult","toolCallId":"t","content":[{"type":"text","text":"', rep("ab", 249976),
            "a" + NOTICE + '"}],"emoji":"', rep("\\ud83d\\ude00", 249976), NOTICE + '","exact":"', rep("c", 500000),
            '","details":{"thinkingSignature":"","nested":{"keep":true}},"output":{"content":"', rep("l\\n", 249976),
            "l" + NOTICE + '","lineCount":249979},"other":{"content":"x","lineCount":7}}']
case("46_size_rules_truncate_and_strip",
     "Before an entry is written: strings over 500,000 UTF-16 units keep 499,953 units (never half "
     "a surrogate pair; escapes kept as written) plus the notice; *Signature keys become \"\"; "
     "partialJson and jsonlEvents members go; an object that changed recomputes lineCount; a "
     "string of exactly 500,000 units and unchanged objects stay as they are "
     "(docs/format.md#size-rules).",
     options=opts(46, flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/w"},
         {"op": "append_message", "message": MSG46, "expect_id": e46},
         {"op": "check_file", "lines": [header(sid46, 0, "/w"),
                                        ['{"type":"message","id":"%s","parentId":null,"timestamp":"%s","message":' % (e46, ts(1))]
                                        + STORED46 + ["}"]]},
         {"op": "check_context", "context": ['{"leafId":"%s","messages":[' % e46] + STORED46 +
          ['],"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none"}']},
     ])

PNG = ("PNGDATA-" * 200).encode()
B64 = base64.b64encode(PNG).decode()
H_PNG = hashlib.sha256(PNG).hexdigest()
URL = "data:image/png;base64,iVBORw0KGgo="
H_URL = hashlib.sha256(URL.encode()).hexdigest()
MSG47 = J({"role": "user", "content": [{"type": "text", "text": "look"}, {"type": "image", "data": B64, "mimeType": "image/png"},
                                       {"type": "image", "data": "dGlueQ==", "mimeType": "image/png"}],
           "attachment": {"image_url": URL}, "details": {"images": [{"type": "image", "data": B64}]}})
STORED47 = J({"role": "user", "content": [{"type": "text", "text": "look"},
                                          {"type": "image", "data": "blob:sha256:" + H_PNG, "mimeType": "image/png"},
                                          {"type": "image", "data": "dGlueQ==", "mimeType": "image/png"}],
              "attachment": {"image_url": "blob:sha256:" + H_URL}, "details": {"images": [{"type": "image", "data": B64}]}})
ids = Ids(47)
sid47, e47 = ids.session(), ids.entry()
LINE47 = '{"type":"message","id":"%s","parentId":null,"timestamp":"%s","message":%s}' % (e47, ts(1), STORED47)
case("47_images_move_to_blobs",
     "A base64 image of 1024+ chars in a `content` array is stored in the blob store under the "
     "SHA-256 of its decoded bytes and referenced as blob:sha256:<hex>; an image data URL under "
     "image_url is stored whole; small images and images under other keys stay inline "
     "(docs/format.md#size-rules). Entries read as stored show the refs; the context, and entries "
     "read with XS_READ_RESOLVE_BLOBS, show the original data (docs/format.md#blob-refs).",
     options=opts(47, flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/w"},
         {"op": "append_message", "message": MSG47, "expect_id": e47},
         {"op": "check_file", "lines": [header(sid47, 0, "/w"), LINE47]},
         {"op": "check_entry", "id": e47, "json": LINE47},
         {"op": "check_entry", "id": e47, "resolve_blobs": True,
          "json": '{"type":"message","id":"%s","parentId":null,"timestamp":"%s","message":%s}' % (e47, ts(1), MSG47)},
         {"op": "check_entries", "resolve_blobs": True,
          "json": '[{"type":"message","id":"%s","parentId":null,"timestamp":"%s","message":%s}]' % (e47, ts(1), MSG47)},
         {"op": "check_context", "context": ctx(e47, [MSG47])},
         {"op": "check_blob", "hash": H_PNG, "data": PNG.decode()},
         {"op": "check_blob", "hash": H_URL, "data": URL},
         {"op": "reopen", "flags": ["read_only"]},
         {"op": "check_context", "context": ctx(e47, [MSG47])},
     ])

MISSING = "0" * 64
BADBYTES = b"the right name, the wrong bytes"
H_BAD = hashlib.sha256(b"what it should have been").hexdigest()
H48 = J({"type": "session", "version": 3, "id": "s48", "timestamp": ts(0), "cwd": "/w"})
M48 = J({"role": "user", "content": [{"type": "image", "data": "blob:sha256:" + MISSING},
                                     {"type": "image", "data": "blob:sha256:" + H_BAD}]})
case("48_missing_and_damaged_blobs_are_reported",
     "A blob that is missing, or whose bytes do not match its name, leaves its ref in place in the "
     "context and is reported (missing_blob, corrupt_blob); reading goes on and the session is not "
     "poisoned (docs/decisions.md#3-blobs).",
     input=[H48, '{"type":"message","id":"m1","parentId":null,"timestamp":"%s","message":%s}' % (ts(1), M48)],
     steps=[
         {"op": "write_file", "path": "blobs/" + H_BAD, "raw": BADBYTES.decode()},
         {"op": "open", "flags": ["read_only"]},
         {"op": "check_context", "context": ctx("m1", [M48])},
         {"op": "check_diagnostics", "expected": [{"line": 0, "code": "missing_blob"}, {"line": 0, "code": "corrupt_blob"}]},
         {"op": "check_blob", "hash": MISSING, "data": "", "expect": "XS_ENOTFOUND"},
         {"op": "check_blob", "hash": H_BAD, "data": "", "expect": "XS_ECORRUPT"},
         {"op": "check_blob", "hash": "../" + MISSING[3:], "data": "", "expect": "XS_EINVAL"},
     ])

case("49_blob_put_is_content_addressed",
     "xs_blob_put stores bytes under their SHA-256 (lowercase hex); putting them again is harmless.",
     steps=[
         {"op": "blob_put", "data": "hello", "expect_hash": hashlib.sha256(b"hello").hexdigest()},
         {"op": "blob_put", "data": "hello", "expect_hash": hashlib.sha256(b"hello").hexdigest()},
         {"op": "check_blob", "hash": hashlib.sha256(b"hello").hexdigest(), "data": "hello"},
     ])

# ------------------------------------------------------------------------------------------------
# New files from old ones and moving (docs/format.md#new-files-from-old-ones)
# ------------------------------------------------------------------------------------------------

ids = Ids(50)
sid50, u50, a50 = ids.session(), ids.entry(), ids.entry()
L50 = [entry("message", u50, None, 1, message=json.loads(USER)), entry("message", a50, u50, 2, message=json.loads(ASSISTANT))]
case("50_fork",
     "fork writes a copy with a new id beside the original: the header keeps cwd and title and "
     "gets parentSession = the old session id; every entry is kept as it was "
     "(docs/format.md#new-files-from-old-ones).",
     options=opts(50),
     steps=[
         {"op": "create", "cwd": "/w", "title": "Plan"},
         {"op": "append_message", "message": USER, "expect_id": u50},
         {"op": "append_message", "message": ASSISTANT, "expect_id": a50},
         {"op": "fork", "session_id": "forked-1"},
         {"op": "check_file", "lines": [header("forked-1", 0, "/w", title="Plan", parent=sid50)] + L50},
         {"op": "check_info", "fields": {"id": "forked-1", "parentSession": sid50, "persisted": True, "leafId": a50}},
     ])

ids = Ids(51)
sid51 = ids.session()
branched51 = Ids(51)  # the new file's own sequence: its id was given, so labels take the first ids
lab51, lab51b = branched51.entry(), branched51.entry()
U51 = entry("message", "u1", None, 1, message={"role": "user", "content": "q1"})
A51 = entry("message", "a1", "u1", 2, message={"role": "assistant", "content": "r1"})
case("51_create_branched_session",
     "create_branched(leaf) writes the path from the root to the leaf without its label entries, "
     "then fresh label entries for labels of entries on that path (stamped now); parentSession is "
     "the old file's path. An entry whose parent was a dropped label is re-linked to the entry "
     "before it, so its context is not cut short "
     "(docs/decisions.md#7-a-branched-session-keeps-its-chain).",
     options=opts(51, flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/w"},
         um("u1", "q1"), am("a1", "r1"),
         {"op": "append", "entry": J({"type": "label", "id": "l1", "targetId": "a1", "label": "good"}), "expect_id": "l1"},
         um("u2", "q2"),
         {"op": "append", "entry": J({"type": "label", "id": "l2", "targetId": "u1", "label": "start"}), "expect_id": "l2"},
         am("a2", "r2"),
         {"op": "set_leaf", "id": "a1"}, um("u3", "other"),
         {"op": "append", "entry": J({"type": "label", "id": "l3", "targetId": "u3", "label": "elsewhere"}), "expect_id": "l3"},
         {"op": "create_branched", "leaf": "a2", "session_id": "branched-1"},
         {"op": "check_file", "lines": [
             J({"type": "session", "version": 3, "id": "branched-1", "timestamp": ts(0), "cwd": "/w",
                "parentSession": "{root}/sessions/--w--/%s_%s.jsonl" % (ts(0).replace(":", "-").replace(".", "-"), sid51)}),
             U51, A51,
             entry("message", "u2", "a1", 4, message={"role": "user", "content": "q2"}),
             entry("message", "a2", "u2", 6, message={"role": "assistant", "content": "r2"}),
             entry("label", lab51, "a2", 1, targetId="a1", label="good"),
             entry("label", lab51b, lab51, 2, targetId="u1", label="start")]},
     ])

H52 = {"type": "session", "id": "src", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/old", "title": "Source"}
V52 = [{"type": "message", "timestamp": "2025-01-01T00:00:01.000Z", "message": {"role": "user", "content": "q"}},
       {"type": "message", "timestamp": "2025-01-01T00:00:02.000Z", "message": {"role": "assistant", "content": "a"}}]
mig52 = Ids(52)
m52 = [mig52.entry(), mig52.entry()]
case("52_fork_from_another_file",
     "fork_from(source, cwd) copies another session file, migrated in memory, into a new session "
     "for cwd: new id, parentSession = the source's id, title kept; the source is not touched "
     "(docs/format.md#new-files-from-old-ones).",
     options=opts(52),
     steps=[
         {"op": "write_file", "path": "elsewhere/src.jsonl", "lines": [J(H52)] + [J(v) for v in V52]},
         {"op": "fork_from", "source": "elsewhere/src.jsonl", "cwd": "/target", "flags": [], "expect": "XS_OK"},
         {"op": "check_info", "fields": {"cwd": "/target", "title": "Source", "parentSession": "src", "persisted": True,
                                         "entryCount": 2}},
         {"op": "check_entries", "json": "[%s,%s]" % (J(dict(V52[0], id=m52[0], parentId=None)),
                                                      J(dict(V52[1], id=m52[1], parentId=m52[0])))},
     ])

ids = Ids(53)
sid53, u53 = ids.session(), ids.entry()
NAME53 = "%s_%s.jsonl" % (ts(0).replace(":", "-").replace(".", "-"), sid53)
case("53_move_to_another_cwd",
     "move_to(cwd) renames the file into the new cwd's session directory and rewrites the header's "
     "cwd in place; later appends go to the moved file (docs/format.md#new-files-from-old-ones).",
     options=opts(53, flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/a"},
         {"op": "append_message", "message": USER, "expect_id": u53},
         {"op": "move_to", "cwd": "/b/c"},
         {"op": "check_info", "fields": {"cwd": "/b/c"}},
         {"op": "check_file", "lines": [header(sid53, 0, "/b/c"), entry("message", u53, None, 1, message=json.loads(USER))]},
         {"op": "append_thinking_level", "level": "high"},
         {"op": "open", "path": "sessions/--a--/" + NAME53, "flags": ["read_only"], "expect": "XS_ENOTFOUND"},
         {"op": "open", "path": "sessions/--b-c--/" + NAME53, "flags": ["read_only"]},
         {"op": "check_info", "fields": {"entryCount": 2, "cwd": "/b/c"}},
     ])

H54 = J({"type": "session", "version": 3, "id": "s54", "timestamp": ts(0), "cwd": "/w"})
U54 = entry("message", "u1", None, 1, message={"role": "user", "content": "q"})
A54 = entry("message", "a1", "u1", 2, message={"role": "assistant", "content": "r"})
A54b = entry("message", "a2", "a1", 3, message={"role": "assistant", "content": "more"})
case("54_reload_picks_up_the_new_tail",
     "A read-only handle reloads what another process appended, reading only the new bytes; a last "
     "line still being written is reported as an incomplete tail and read again next time; the "
     "leaf moves to the last entry (docs/decisions.md#reload).",
     input=[H54, U54],
     steps=[
         {"op": "open", "flags": ["read_only"]},
         {"op": "reload", "expect_added": 0},
         {"op": "append_to_file", "raw": A54 + "\n" + A54b[:40]},
         {"op": "reload", "expect_added": 1},
         {"op": "check_leaf", "id": "a1"},
         {"op": "check_diagnostics", "expected": [{"line": 4, "offset": len(H54) + len(U54) + len(A54) + 3,
                                                   "code": "incomplete_tail"}]},
         {"op": "append_to_file", "raw": A54b[40:] + "\n"},
         {"op": "reload", "expect_added": 1},
         {"op": "check_diagnostics", "expected": []},
         {"op": "check_entries", "json": "[%s,%s,%s]" % (U54, A54, A54b)},
         {"op": "check_leaf", "id": "a2"},
         {"op": "reopen", "flags": []},
         {"op": "reload", "expect": "XS_EMISUSE"},
     ])

case("55_list_and_resolve",
     "Listing reads each file's header and first prompt; with a cwd only sessions whose header "
     "names it are listed. An id, file name or id prefix resolves case-insensitively to one file; "
     "a prefix of several is ambiguous (docs/format.md#finding-sessions).",
     options=opts(55, flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/p", "session_id": "alpha-1", "title": "First"},
         {"op": "append_message", "message": USER},
         {"op": "create", "cwd": "/p", "session_id": "alpha-2"},
         {"op": "create", "cwd": "/q", "session_id": "beta-1"},
         {"op": "check_list", "cwd": "/p", "expected": [
             {"path": "sessions/--p--/2026-01-01T00-00-00-000Z_alpha-1.jsonl", "id": "alpha-1", "cwd": "/p",
              "title": "First", "firstMessage": "hi", "version": 3, "needsMigration": False},
             {"path": "sessions/--p--/2026-01-01T00-00-00-000Z_alpha-2.jsonl", "id": "alpha-2", "title": None,
              "firstMessage": None}]},
         {"op": "check_list", "expected": [{"id": "alpha-1"}, {"id": "alpha-2"}, {"id": "beta-1"}]},
         {"op": "check_list", "cwd": "/p", "full": True, "expected": [{"id": "alpha-1", "messageCount": 1, "entryCount": 1},
                                                                       {"id": "alpha-2", "messageCount": 0}]},
         {"op": "check_resolve", "query": "beta", "path": "sessions/--q--/2026-01-01T00-00-00-000Z_beta-1.jsonl"},
         {"op": "check_resolve", "query": "ALPHA-2", "path": "sessions/--p--/2026-01-01T00-00-00-000Z_alpha-2.jsonl"},
         {"op": "check_resolve", "query": "alpha", "path": "", "expect": "XS_EAMBIGUOUS"},
         {"op": "check_resolve", "query": "zzz", "path": "", "expect": "XS_ENOTFOUND"},
         {"op": "check_list", "cwd": "/nobody", "expected": []},
     ])

case("56_continue_recent_prefers_the_terminal",
     "continue-recent opens the session this terminal last used (its breadcrumb, when it names "
     "this cwd and an existing file), else the newest for the cwd, else a new session "
     "(docs/format.md#finding-sessions).",
     options=opts(56, flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/p", "session_id": "older"},
         {"op": "create", "cwd": "/p", "session_id": "newer"},
         {"op": "write_breadcrumb", "terminal_id": "tty1", "cwd": "/p",
          "path": "sessions/--p--/2026-01-01T00-00-00-000Z_older.jsonl"},
         {"op": "continue_recent", "cwd": "/p", "terminal_id": "tty1"},
         {"op": "check_info", "fields": {"id": "older"}},
         {"op": "continue_recent", "cwd": "/elsewhere", "terminal_id": "tty1", "flags": []},
         {"op": "check_info", "fields": {"cwd": "/elsewhere", "persisted": False, "entryCount": 0}},
         {"op": "write_breadcrumb", "terminal_id": "../x", "cwd": "/p", "path": "x", "expect": "XS_EINVAL"},
     ])


def case_text(c):
    return json.dumps(c, indent=1, ensure_ascii=False) + "\n"


def check(out):
    """The case files that differ from what main() would write, or are extra or missing."""
    on_disk = {n[:-5] for n in os.listdir(out) if n.endswith(".json")}
    differ = sorted(on_disk ^ set(CASES))
    for name, c in CASES.items():
        if name in on_disk:
            with open(os.path.join(out, name + ".json"), encoding="utf-8") as f:
                if f.read() != case_text(c):
                    differ.append(name)
    return differ


def main():
    out = os.path.join(os.path.dirname(__file__), "..", "cases")
    if sys.argv[1:] == ["--check"]:
        differ = check(out)
        for name in differ:
            print("differs from gen_cases.py: %s.json" % name)
        print("%d cases checked, %d differ" % (len(CASES), len(differ)))
        sys.exit(1 if differ else 0)
    if sys.argv[1:]:
        sys.exit("usage: gen_cases.py [--check]")
    os.makedirs(out, exist_ok=True)
    for old in os.listdir(out):
        if old.endswith(".json"):
            os.remove(os.path.join(out, old))
    for name, c in CASES.items():
        with open(os.path.join(out, name + ".json"), "w", encoding="utf-8") as f:
            f.write(case_text(c))
    print("wrote %d cases to %s" % (len(CASES), os.path.normpath(out)))


if __name__ == "__main__":
    main()
