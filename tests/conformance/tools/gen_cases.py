#!/usr/bin/env python3
"""Writes tests/conformance/cases/*.json.

Each case below states its steps and its expected bytes by hand, from the rules in docs/
(format.md, context.md, decisions.md, dialects.md; each names the section it proves); nothing here
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
import archive_cases  # noqa: E402
import bundle_cases  # noqa: E402
import compaction_cases  # noqa: E402
import import_cases  # noqa: E402
import keys_cases  # noqa: E402
import library_cases  # noqa: E402
import reset_cases  # noqa: E402
import search_cases  # noqa: E402
import stats_cases  # noqa: E402
from casekit import (J, Ids, ctx, entry, entry_after, file_bytes, file_name, header, js_trim, ms, opts,  # noqa: E402
                     pi_branch_summary, pi_compaction, pi_ctx, pi_custom_message, pi_header, pi_model_change,
                     session_info, ts)

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
    ("t2", {"type": "thinking_level_change", "id": "t2", "thinkingLevel": None}),
    ("t3", {"type": "thinking_level_change", "id": "t3", "thinkingLevel": "medium"}),
]
MSGS33 = [J({"role": "user", "content": "q"}), J(A33)]
case("33_thinking_level_and_models",
     "thinkingLevel comes from the last change on the path (null means \"off\"); models from "
     "model_change (role defaults to \"default\") and from assistant messages (provider/model), "
     "later ones overriding earlier ones (docs/context.md#state). pi's provider/modelId form, which "
     "an omp session does not write (docs/dialects.md), is read in case 43.",
     options=opts(33, flags=["no_defer"]),
     steps=[{"op": "create", "cwd": "/w"}] + [{"op": "append", "entry": gen(e), "expect_id": i} for i, e in steps33] + [
         {"op": "check_context", "context": ctx("t3", MSGS33, thinking='"medium"',
                                                models={"default": "anthropic/claude-b", "smol": "x/small"})},
         {"op": "check_context", "leaf": "t2", "context": ctx("t2", MSGS33, thinking='"off"',
                                                              models={"default": "anthropic/claude-b", "smol": "x/small"})},
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
     "(docs/context.md#constructed-messages).",
     input=[H39] + L39,
     steps=[
         {"op": "open", "flags": ["read_only"]},
         {"op": "check_context", "context": ctx("c2", [
             '{"role":"custom","customType":"t","content":"bad time","display":true,"timestamp":null}',
             J({"role": "branchSummary", "summary": "no millis", "fromId": "c1", "timestamp": 1767225600000}),
             J({"role": "custom", "customType": "t", "content": "offset", "display": True, "timestamp": 1767225600123})])},
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

# ------------------------------------------------------------------------------------------------
# The pi dialect (docs/dialects.md): what a session whose dialect is pi writes, refuses and reads
# ------------------------------------------------------------------------------------------------

PI_ASSISTANT = J({"role": "assistant", "content": [{"type": "text", "text": "hello"}], "provider": "anthropic",
                  "model": "claude-sonnet-4-5", "timestamp": 2})


def pam(id_, text, provider="p", model="m"):
    """A generic xs_append of an assistant message with a provider and a model."""
    return {"op": "append", "entry": J({"type": "message", "id": id_, "message": json.loads(pa(text, provider, model))}),
            "expect_id": id_}


def pa(text, provider="p", model="m"):
    return J({"role": "assistant", "content": text, "provider": provider, "model": model})


def custom_msg(custom_type, content, display, tick, details=None):
    """A constructed custom message of a pi-dialect entry: no attribution (docs/context.md#constructed-messages)."""
    m = {"role": "custom", "customType": custom_type, "content": content, "display": display}
    if details is not None:
        m["details"] = details
    m["timestamp"] = ms(tick)
    return J(m)


PI_EMPTY = pi_ctx(None, [])

ids = Ids(57)
sid57 = ids.uuid7(ms(0))
e = [ids.entry() for _ in range(16)]
U57, A57 = json.loads(USER), json.loads(PI_ASSISTANT)
L57 = [
    pi_header(sid57, 0, "/w"),
    entry("message", e[0], None, 1, message=U57),
    pi_model_change(e[1], e[0], 2, "anthropic", "claude-sonnet-4-5"),
    entry("thinking_level_change", e[2], e[1], 3, thinkingLevel="high"),
    entry("message", e[3], e[2], 4, message=A57),
    entry("thinking_level_change", e[4], e[3], 5, thinkingLevel=None),
    pi_model_change(e[5], e[4], 6, "openrouter", "anthropic/claude"),
    pi_compaction(e[6], e[5], 7, "S", e[0], 1234, details={"readFiles": ["a.ts"]}, from_hook=True),
    pi_compaction(e[7], e[6], 8, "T", e[3], 5),
    pi_branch_summary(e[8], e[3], 9, e[3], "Abandoned path", details={"note": 1}, from_hook=False),
    entry_after("custom", e[9], e[8], 10, customType="my-ext", data={"state": 1}),
    entry_after("custom", e[10], e[9], 11, customType="my-ext"),
    pi_custom_message(e[11], e[10], 12, "note", "Injected", True, details={"debug": False}),
    pi_custom_message(e[12], e[11], 13, "note", [{"type": "text", "text": "block"}], False),
    entry("label", e[13], e[12], 14, targetId=e[0], label="checkpoint"),
    entry("label", e[14], e[13], 15, targetId=e[0]),
    session_info(e[15], e[14], 16, "My session"),
]
case("57_pi_new_session_writes_pi_forms",
     "A new session forced to the pi dialect (xs_session_options.dialect) writes every typed entry in "
     "pi 0.73.1's form and key order (docs/dialects.md#what-the-pi-dialect-writes): a header without "
     "title and a UUIDv7 id (the header's ms, then the seeded draws), model_change as provider + "
     "modelId split at the first '/', compaction and branch_summary with fromHook, custom_message "
     "without attribution, session_info with its name trimmed; nothing is written before the first "
     "assistant message (pi's deferral); xs_session_info reports dialect \"pi\" and the "
     "session_info name as the title (docs/dialects.md#which-dialect-a-session-writes).",
     options=opts(57, dialect="pi"),
     steps=[
         {"op": "create", "cwd": "/w"},
         {"op": "check_dialect", "dialect": "pi"},
         {"op": "append_message", "message": USER, "expect_id": e[0]},
         {"op": "append_model_change", "model": "anthropic/claude-sonnet-4-5", "expect_id": e[1]},
         {"op": "append_thinking_level", "level": "high", "expect_id": e[2]},
         {"op": "check_file", "exists": False},
         {"op": "check_info", "fields": {"persisted": False, "dialect": "pi", "entryCount": 3}},
         {"op": "append_message", "message": PI_ASSISTANT, "expect_id": e[3]},
         {"op": "check_file", "lines": L57[:5]},
         {"op": "append_thinking_level", "level": None, "expect_id": e[4]},
         {"op": "append_model_change", "model": "openrouter/anthropic/claude", "expect_id": e[5]},
         {"op": "append_compaction", "summary": "S", "first_kept_entry_id": e[0], "tokens_before": 1234,
          "details": "{\"readFiles\": [\"a.ts\"]}", "from_extension": True, "expect_id": e[6]},
         {"op": "append_compaction", "summary": "T", "first_kept_entry_id": e[3], "tokens_before": 5,
          "expect_id": e[7]},
         {"op": "branch_with_summary", "from_id": e[3], "summary": "Abandoned path", "details": "{\"note\":1}",
          "from_extension": False, "expect_id": e[8]},
         {"op": "append_custom", "custom_type": "my-ext", "data": "{\"state\":1}", "expect_id": e[9]},
         {"op": "append_custom", "custom_type": "my-ext", "expect_id": e[10]},
         {"op": "append_custom_message", "custom_type": "note", "content": "\"Injected\"", "display": True,
          "details": "{\"debug\":false}", "expect_id": e[11]},
         {"op": "append_custom_message", "custom_type": "note", "content": '[{"type":"text","text":"block"}]',
          "display": False, "expect_id": e[12]},
         {"op": "append_label", "target_id": e[0], "label": "checkpoint", "expect_id": e[13]},
         {"op": "append_label", "target_id": e[0], "expect_id": e[14]},
         {"op": "append_session_info", "name": " \t My session\n ", "expect_id": e[15]},
         {"op": "check_file", "lines": L57},
         {"op": "check_header", "json": L57[0]},
         {"op": "check_leaf", "id": e[15]},
         {"op": "check_info", "fields": {"id": sid57, "dialect": "pi", "title": "My session", "persisted": True,
                                         "version": 3, "entryCount": 16}},
         {"op": "check_dialect", "dialect": "pi"},
     ])

ids = Ids(58)
sid58 = ids.uuid7(ms(0))
s58a, s58b = ids.entry(), ids.entry()
omp58 = Ids(58).session()
RAW_NAME58 = ("\u00a0\ufeff\t\n\r\u000b\u000c \u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000"
              "Two \t words\u0085\u200b\u3000\u00a0 \n")
NAME58 = "Two \t words\u0085\u200b"
assert js_trim(RAW_NAME58) == NAME58
case("58_store_default_pi_and_session_info_trim",
     "A store opened with XS_STORE_DIALECT_PI makes new sessions pi (docs/dialects.md#which-dialect-a-session-writes, "
     "rule 3), continue_recent's new session included; a forced omp dialect still wins over it (rule 1). "
     "xs_append_session_info trims the name as JavaScript's trim() does: tabs, newlines, U+000B, "
     "U+000C, U+00A0, U+FEFF, U+2028, U+2029 and every space separator go, U+0085 and U+200B stay; a "
     "name of white space only clears the title (docs/dialects.md#what-the-pi-dialect-writes).",
     options=opts(58, flags=["no_defer"]),
     store_dialect="pi",
     steps=[
         {"op": "create", "cwd": "/s"},
         {"op": "check_dialect", "dialect": "pi"},
         {"op": "check_file", "lines": [pi_header(sid58, 0, "/s")]},
         {"op": "append_session_info", "name": RAW_NAME58, "expect_id": s58a},
         {"op": "check_info", "fields": {"title": NAME58, "dialect": "pi"}},
         {"op": "append_session_info", "name": " \u3000\t", "expect_id": s58b},
         {"op": "check_info", "fields": {"title": None}},
         {"op": "check_file", "lines": [pi_header(sid58, 0, "/s"), session_info(s58a, None, 1, NAME58),
                                        session_info(s58b, s58a, 2, "")]},
         {"op": "continue_recent", "cwd": "/fresh"},
         {"op": "check_dialect", "dialect": "pi"},
         {"op": "check_file", "lines": [pi_header(sid58, 0, "/fresh")]},
         {"op": "create", "cwd": "/o", "dialect": "omp"},
         {"op": "check_dialect", "dialect": "omp"},
         {"op": "check_info", "fields": {"dialect": "omp", "id": omp58}},
         {"op": "check_file", "lines": [header(omp58, 0, "/o")]},
     ])

ids = Ids(59)
sid59, g59 = ids.uuid7(ms(0)), [ids.entry() for _ in range(3)]
CM59 = '{"type":"custom_message","customType":"n","content":"x","display":true}'
case("59_pi_refuses_what_pi_cannot_read",
     "In the pi dialect a line pi would drop or misread is never written: the typed omp-only calls "
     "(ttsr_injection, session_init, mode_change), a model_change role (even \"default\"), a "
     "compaction's shortSummary or preserveData and a custom message's attribution (even \"agent\") are "
     "refused with XS_EDIALECT; through xs_append the five omp-only types, a model_change with "
     "\"model\", a custom_message with attribution, a compaction or branch_summary with fromExtension, a "
     "compaction with shortSummary or preserveData too. A model without a '/' or with nothing on one "
     "side of it is XS_EINVAL. A refused call changes nothing: no id, no timestamp, no line "
     "(docs/dialects.md#what-the-pi-dialect-writes). pi's own forms pass through xs_append.",
     options=opts(59, dialect="pi", flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/w"},
         {"op": "append_ttsr_injection", "rules": "[\"a\"]", "expect": "XS_EDIALECT"},
         {"op": "append_session_init", "system_prompt": "s", "task": "t", "tools": "[]", "expect": "XS_EDIALECT"},
         {"op": "append_mode_change", "mode": "plan", "expect": "XS_EDIALECT"},
         {"op": "append_model_change", "model": "a/b", "role": "default", "expect": "XS_EDIALECT"},
         {"op": "append_model_change", "model": "a/b", "role": "smol", "expect": "XS_EDIALECT"},
         {"op": "append_compaction", "summary": "S", "short_summary": "s", "first_kept_entry_id": "x",
          "tokens_before": 1, "expect": "XS_EDIALECT"},
         {"op": "append_compaction", "summary": "S", "first_kept_entry_id": "x", "tokens_before": 1,
          "preserve_data": "{}", "expect": "XS_EDIALECT"},
         {"op": "append_custom_message", "custom_type": "n", "content": "\"x\"", "attribution": "user",
          "expect": "XS_EDIALECT"},
         {"op": "append_custom_message", "custom_type": "n", "content": "\"x\"", "attribution": "agent",
          "expect": "XS_EDIALECT"},
         {"op": "append", "entry": '{"type":"ttsr_injection","injectedRules":["a"]}', "expect": "XS_EDIALECT"},
         {"op": "append", "entry": '{"type":"session_init","systemPrompt":"s","task":"t","tools":[]}',
          "expect": "XS_EDIALECT"},
         {"op": "append", "entry": '{"type":"mode_change","mode":"plan"}', "expect": "XS_EDIALECT"},
         {"op": "append", "entry": '{"type":"service_tier_change","serviceTier":"flex"}', "expect": "XS_EDIALECT"},
         {"op": "append", "entry": '{"type":"mcp_tool_selection","selectedToolNames":[]}', "expect": "XS_EDIALECT"},
         {"op": "append", "entry": '{"type":"model_change","model":"a/b"}', "expect": "XS_EDIALECT"},
         {"op": "append", "entry": '{"type":"model_change","provider":"a","modelId":"b","model":"a/b"}',
          "expect": "XS_EDIALECT"},
         {"op": "append", "entry": '{"type":"custom_message","customType":"n","content":"x","display":true,'
                                   '"attribution":"agent"}', "expect": "XS_EDIALECT"},
         {"op": "append", "entry": '{"type":"compaction","summary":"s","firstKeptEntryId":"x","tokensBefore":1,'
                                   '"fromExtension":true}', "expect": "XS_EDIALECT"},
         {"op": "append", "entry": '{"type":"compaction","summary":"s","shortSummary":"t","firstKeptEntryId":"x",'
                                   '"tokensBefore":1}', "expect": "XS_EDIALECT"},
         {"op": "append", "entry": '{"type":"compaction","summary":"s","firstKeptEntryId":"x","tokensBefore":1,'
                                   '"preserveData":{}}', "expect": "XS_EDIALECT"},
         {"op": "append", "entry": '{"type":"branch_summary","fromId":"root","summary":"s","fromExtension":false}',
          "expect": "XS_EDIALECT"},
         {"op": "append_model_change", "model": "gpt", "expect": "XS_EINVAL"},
         {"op": "append_model_change", "model": "/x", "expect": "XS_EINVAL"},
         {"op": "append_model_change", "model": "x/", "expect": "XS_EINVAL"},
         {"op": "check_file", "lines": [pi_header(sid59, 0, "/w")]},
         {"op": "check_leaf", "id": None},
         {"op": "check_info", "fields": {"entryCount": 0, "dialect": "pi"}},
         {"op": "append", "entry": '{"type":"compaction","summary":"s","firstKeptEntryId":"x","tokensBefore":1,'
                                   '"fromHook":true}', "expect_id": g59[0]},
         {"op": "append", "entry": '{"type":"model_change","provider":"a","modelId":"b"}', "expect_id": g59[1]},
         {"op": "append", "entry": CM59, "expect_id": g59[2]},
         {"op": "check_file", "lines": [
             pi_header(sid59, 0, "/w"),
             pi_compaction(g59[0], None, 1, "s", "x", 1, from_hook=True),
             pi_model_change(g59[1], g59[0], 2, "a", "b"),
             pi_custom_message(g59[2], g59[1], 3, "n", "x", True)]},
     ])

ids = Ids(60)
sid60, m60 = ids.session(), ids.entry()
case("60_omp_refuses_session_info",
     "In the omp dialect pi's forms are refused with XS_EDIALECT and change nothing: "
     "xs_append_session_info (omp keeps the title in the header: xs_session_set_title), and through "
     "xs_append a session_info, a model_change without model, a compaction or branch_summary with "
     "fromHook; so a reopen never reads the file as pi's (docs/dialects.md#what-the-pi-dialect-writes).",
     options=opts(60, flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/w"},
         {"op": "check_dialect", "dialect": "omp"},
         {"op": "append_session_info", "name": "x", "expect": "XS_EDIALECT"},
         {"op": "check_file", "lines": [header(sid60, 0, "/w")]},
         {"op": "append", "entry": '{"type":"session_info","name":"Named"}', "expect": "XS_EDIALECT"},
         {"op": "append", "entry": '{"type":"model_change","provider":"a","modelId":"b"}', "expect": "XS_EDIALECT"},
         {"op": "append", "entry": '{"type":"compaction","summary":"s","firstKeptEntryId":"x","tokensBefore":1,'
                                   '"fromHook":false}', "expect": "XS_EDIALECT"},
         {"op": "append", "entry": '{"type":"branch_summary","fromId":"root","summary":"s","fromHook":true}',
          "expect": "XS_EDIALECT"},
         {"op": "check_file", "lines": [header(sid60, 0, "/w")]},
         {"op": "check_info", "fields": {"dialect": "omp", "entryCount": 0}},
         {"op": "append_model_change", "model": "a/b", "expect_id": m60},
         {"op": "set_title", "title": "Header title"},
         {"op": "check_info", "fields": {"title": "Header title"}},
         {"op": "check_dialect", "dialect": "omp"},
         {"op": "check_file", "lines": [header(sid60, 0, "/w", title="Header title"),
                                        entry("model_change", m60, None, 1, model="a/b")]},
     ])

ids = Ids(61)
sid61, t61 = ids.uuid7(ms(0)), [ids.entry() for _ in range(3)]
H61 = pi_header(sid61, 0, "/w", parent="/old/2025-01-01T00-00-00-000Z_x.jsonl")
case("61_pi_set_title_appends_session_info",
     "In the pi dialect xs_session_set_title appends a session_info entry (trimmed, as "
     "xs_append_session_info) and never rewrites the header; a NULL title appends an empty name, "
     "which clears the title (docs/dialects.md#what-the-pi-dialect-writes). session_info entries give "
     "the context nothing.",
     options=opts(61, dialect="pi", flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/w", "parent_session": "/old/2025-01-01T00-00-00-000Z_x.jsonl"},
         {"op": "check_file", "lines": [H61]},
         {"op": "set_title", "title": "  New  "},
         {"op": "check_file", "lines": [H61, session_info(t61[0], None, 1, "New")]},
         {"op": "check_info", "fields": {"title": "New", "entryCount": 1, "leafId": t61[0]}},
         {"op": "set_title", "title": "Second \"t\""},
         {"op": "check_info", "fields": {"title": "Second \"t\""}},
         {"op": "set_title", "title": None},
         {"op": "check_info", "fields": {"title": None}},
         {"op": "check_header", "json": H61},
         {"op": "check_file", "lines": [H61, session_info(t61[0], None, 1, "New"),
                                        session_info(t61[1], t61[0], 2, "Second \"t\""),
                                        session_info(t61[2], t61[1], 3, "")]},
         {"op": "check_context", "context": pi_ctx(t61[2], [])},
     ])

ids = Ids(62)
sid62, t62, u62, a62 = ids.uuid7(ms(0)), ids.entry(), ids.entry(), ids.entry()
case("62_pi_title_option_is_the_first_entry",
     "A title in the options of a new pi-dialect session becomes its first entry, a session_info, "
     "not a header field; it waits for the first assistant message with the rest "
     "(docs/dialects.md#what-the-pi-dialect-writes).",
     options=opts(62, dialect="pi"),
     steps=[
         {"op": "create", "cwd": "/w", "title": "Plan"},
         {"op": "check_file", "exists": False},
         {"op": "check_info", "fields": {"title": "Plan", "entryCount": 1, "leafId": t62}},
         {"op": "check_header", "json": pi_header(sid62, 0, "/w")},
         {"op": "append_message", "message": USER, "expect_id": u62},
         {"op": "append_message", "message": PI_ASSISTANT, "expect_id": a62},
         {"op": "check_file", "lines": [pi_header(sid62, 0, "/w"), session_info(t62, None, 1, "Plan"),
                                        entry("message", u62, t62, 2, message=U57),
                                        entry("message", a62, u62, 3, message=A57)]},
     ])

ids = Ids(63)
sid63, e63 = ids.uuid7(ms(0)), ids.entry()
MSG63 = ['{"role":"toolResult","toolCallId":"t","content":[{"type":"text","text":"', rep("ab", 300000),
         '"},{"type":"image","data":"', B64, '","mimeType":"image/png"}],"attachment":{"image_url":"', URL,
         '"},"details":{"thinkingSignature":"', rep("s", 500001),
         '","partialJson":"{\\"a\\"","jsonlEvents":[1],"lineCount":9,"content":"x"}}']
case("63_pi_no_size_rules",
     "The pi dialect applies no size rules (docs/dialects.md#what-the-pi-dialect-writes): a "
     "600,000-character string, a 500,001-character thinkingSignature, partialJson and jsonlEvents "
     "members, a base64 image of 1024+ characters in `content` and an image data URL all stay inline "
     "and unchanged, and nothing goes to the blob store (compare cases 46 and 47 in the omp dialect).",
     options=opts(63, dialect="pi", flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/w"},
         {"op": "append_message", "message": MSG63, "expect_id": e63},
         {"op": "check_file", "lines": [pi_header(sid63, 0, "/w"),
                                        ['{"type":"message","id":"%s","parentId":null,"timestamp":"%s","message":'
                                         % (e63, ts(1))] + MSG63 + ["}"]]},
         {"op": "check_blob", "hash": H_PNG, "data": "", "expect": "XS_ENOTFOUND"},
         {"op": "check_blob", "hash": H_URL, "data": "", "expect": "XS_ENOTFOUND"},
         {"op": "check_context", "context": ['{"leafId":"%s","messages":[' % e63] + MSG63 +
          ['],"thinkingLevel":"off","model":null,"models":{},"injectedTtsrRules":[],"mode":"none"}']},
     ])

H64 = J({"type": "session", "version": 3, "id": "ctx-model", "timestamp": ts(0), "cwd": "/w"})
A64 = {"role": "assistant", "content": "r", "provider": "openai", "model": "gpt-4o"}
L64 = [
    entry("message", "u1", None, 1, message={"role": "user", "content": "q"}),
    entry("model_change", "mc1", "u1", 2, model="openrouter/x/y"),
    entry("model_change", "mc2", "mc1", 3, model="small/s", role="smol"),
    entry("message", "a1", "mc2", 4, message=A64),
    entry("model_change", "mc3", "a1", 5, model="c/d", role="default"),
    pi_model_change("mc4", "mc3", 6, "google", "gemini"),
    entry("thinking_level_change", "tl", "mc4", 7, thinkingLevel="high"),
]
n64 = Ids(64).entry()
M64 = [mu("q"), J(A64)]
case("64_pi_context_model",
     "The context of a pi-dialect session adds pi's \"model\" after thinkingLevel: null until a model "
     "setter; a pi model_change gives its provider and modelId as stored, an assistant message its "
     "provider and model, an omp model_change without a role or with role \"default\" its model split "
     "at the first '/' (a \"smol\" role sets only models); the last setter on the path wins. The rest "
     "is the omp shape, models included (docs/dialects.md#the-context-in-the-pi-dialect).",
     options=opts(64, dialect="pi"),
     input=[H64] + L64,
     steps=[
         {"op": "open"},
         {"op": "check_dialect", "dialect": "pi"},
         {"op": "check_context", "leaf": "u1", "context": pi_ctx("u1", [mu("q")])},
         {"op": "check_context", "leaf": "mc1", "context": pi_ctx("mc1", [mu("q")], model=("openrouter", "x/y"),
                                                                  models={"default": "openrouter/x/y"})},
         {"op": "check_context", "leaf": "mc2", "context": pi_ctx(
             "mc2", [mu("q")], model=("openrouter", "x/y"), models={"default": "openrouter/x/y", "smol": "small/s"})},
         {"op": "check_context", "leaf": "a1", "context": pi_ctx(
             "a1", M64, model=("openai", "gpt-4o"), models={"default": "openai/gpt-4o", "smol": "small/s"})},
         {"op": "check_context", "leaf": "mc3", "context": pi_ctx(
             "mc3", M64, model=("c", "d"), models={"default": "c/d", "smol": "small/s"})},
         {"op": "check_context", "leaf": "mc4", "context": pi_ctx(
             "mc4", M64, model=("google", "gemini"), models={"default": "google/gemini", "smol": "small/s"})},
         {"op": "check_context", "context": pi_ctx(
             "tl", M64, thinking='"high"', model=("google", "gemini"),
             models={"default": "google/gemini", "smol": "small/s"})},
         {"op": "append_model_change", "model": "openrouter/anthropic/claude", "expect_id": n64},
         {"op": "check_context", "context": pi_ctx(
             n64, M64, thinking='"high"', model=("openrouter", "anthropic/claude"),
             models={"default": "openrouter/anthropic/claude", "smol": "small/s"})},
         {"op": "check_file", "lines": [H64] + L64 + [pi_model_change(n64, "tl", 0, "openrouter", "anthropic/claude")]},
     ])

ids = Ids(65)
ids.uuid7(ms(0))
cm65, c65, cm65b, b65 = ids.entry(), ids.entry(), ids.entry(), ids.entry()
case("65_pi_context_messages",
     "In the pi dialect the context's messages follow docs/context.md: the last compaction's summary "
     "(no shortSummary), then its kept range (custom messages included), then what follows; branch "
     "summaries; custom messages without attribution, displayed or not; the model from the last "
     "assistant (docs/dialects.md#the-context-in-the-pi-dialect).",
     options=opts(65, dialect="pi", flags=["no_defer"]),
     steps=[{"op": "create", "cwd": "/w"}, um("u1", "q1"), pam("a1", "r1"), um("u2", "q2"), pam("a2", "r2"),
            {"op": "append_custom_message", "custom_type": "note", "content": '"plain"', "display": False,
             "details": '{"k":1}', "expect_id": cm65},
            {"op": "append_compaction", "summary": "S1", "first_kept_entry_id": "u2", "tokens_before": 500,
             "details": '{"readFiles":[]}', "from_extension": True, "expect_id": c65},
            um("u3", "q3"),
            {"op": "append_custom_message", "custom_type": "note", "content": '[{"type":"text","text":"b"}]',
             "expect_id": cm65b},
            pam("a3", "r3", provider="q", model="n"),
            {"op": "check_context", "context": pi_ctx("a3", [
                summary_msg("S1", 500, 6), mu("q2"), pa("r2"), custom_msg("note", "plain", False, 5, details={"k": 1}),
                mu("q3"), custom_msg("note", [{"type": "text", "text": "b"}], True, 8), pa("r3", "q", "n")],
                model=("q", "n"), models={"default": "q/n"})},
            {"op": "branch_with_summary", "from_id": "a2", "summary": "went back", "expect_id": b65},
            {"op": "check_context", "context": pi_ctx(b65, [
                mu("q1"), pa("r1"), mu("q2"), pa("r2"),
                J({"role": "branchSummary", "summary": "went back", "fromId": "a2", "timestamp": ms(10)})],
                model=("p", "m"), models={"default": "p/m"})},
            ])

# Detection (docs/dialects.md#detection). A neutral file shows neither dialect; each probe adds one line.
HN = J({"type": "session", "version": 3, "id": "plain", "timestamp": ts(0), "cwd": "/w"})
UN = entry("message", "u1", None, 1, message={"role": "user", "content": "q"})


def probe(name, lines, dialect):
    """Writes d/<name>.jsonl and opens it read-only: its dialect as detected."""
    return [{"op": "write_file", "path": "d/%s.jsonl" % name, "lines": lines},
            {"op": "open", "path": "d/%s.jsonl" % name, "flags": ["read_only"]},
            {"op": "check_dialect", "dialect": dialect}]


def marked(line):
    return [HN, UN, line]


PI_MARKS = {
    "pi_model_change": pi_model_change("m", "u1", 2, "a", "b"),
    "session_info": session_info("m", "u1", 2, "Name"),
    "compaction_from_hook": pi_compaction("m", "u1", 2, "s", "u1", 1, from_hook=True),
    "branch_summary_from_hook": pi_branch_summary("m", "u1", 2, "u1", "s", from_hook=False),
}
UUID66 = "d703a1a9-1b7b-4fb1-b512-c9738b1fe617"
NEUTRAL66 = [HN, UN, entry_after("custom", "c1", "u1", 2, customType="x"),
             entry("label", "l1", "c1", 3, targetId="u1", label="x"),
             entry("thinking_level_change", "t1", "l1", 4, thinkingLevel="low"),
             entry("compaction", "k1", "t1", 5, summary="s", firstKeptEntryId="u1", tokensBefore=1),
             entry("branch_summary", "b1", "k1", 6, fromId="k1", summary="s"),
             entry("message", "a1", "b1", 7, message={"role": "assistant", "content": "r"})]
n66 = Ids(66).entry()
steps66 = []
for name, line in PI_MARKS.items():
    steps66 += probe(name, marked(line), "pi")
steps66 += probe("uuid_header", [J({"type": "session", "version": 3, "id": UUID66, "timestamp": ts(0), "cwd": "/w"}),
                                  UN], "pi")
steps66 += probe("neutral", NEUTRAL66, "omp")
steps66 += probe("custom_message_without_attribution", marked(pi_custom_message("m", "u1", 2, "t", "c", True)), "omp")
steps66 += [
    {"op": "check_info", "fields": {"dialect": "omp"}},
    {"op": "open", "path": "d/session_info.jsonl"},
    {"op": "append_model_change", "model": "p/m", "expect_id": n66},
    {"op": "check_file", "lines": marked(PI_MARKS["session_info"]) + [pi_model_change(n66, "m", 0, "p", "m")]},
    {"op": "open", "path": "d/neutral.jsonl"},
    {"op": "append_model_change", "model": "p/m", "expect_id": n66},
    {"op": "check_file", "lines": NEUTRAL66 + [entry("model_change", n66, "a1", 0, model="p/m")]},
]
case("66_detect_pi_from_its_marks",
     "An existing file opened with XS_DIALECT_AUTO writes in the dialect its lines show "
     "(docs/dialects.md#detection): a model_change with provider and modelId and no model, a "
     "session_info, a compaction or branch_summary with fromHook (false too) are pi's; with no mark a "
     "UUID-shaped header id is pi's. A file that shows neither (a plain id; custom, label, "
     "thinking_level_change, compaction and branch_summary without the marked keys, and a "
     "custom_message without attribution, are no marks) takes the store's default, omp here. A "
     "writable open then appends in the detected form.",
     options=opts(66),
     steps=steps66)

OMP_MARKS = {
    "omp_model_change": entry("model_change", "m", "u1", 2, model="a/b"),
    "model_change_with_both": entry("model_change", "m", "u1", 2, provider="a", modelId="b", model="a/b"),
    "ttsr_injection": entry("ttsr_injection", "m", "u1", 2, injectedRules=["r"]),
    "session_init": entry("session_init", "m", "u1", 2, systemPrompt="s", task="t", tools=[]),
    "mode_change": entry("mode_change", "m", "u1", 2, mode="plan"),
    "service_tier_change": entry("service_tier_change", "m", "u1", 2, serviceTier=None),
    "mcp_tool_selection": entry("mcp_tool_selection", "m", "u1", 2, selectedToolNames=[]),
    "compaction_from_extension": entry("compaction", "m", "u1", 2, summary="s", firstKeptEntryId="u1",
                                       tokensBefore=1, fromExtension=False),
    "compaction_short_summary": entry("compaction", "m", "u1", 2, summary="s", shortSummary="t",
                                      firstKeptEntryId="u1", tokensBefore=1),
    "compaction_preserve_data": entry("compaction", "m", "u1", 2, summary="s", firstKeptEntryId="u1",
                                      tokensBefore=1, preserveData={}),
    "branch_summary_from_extension": entry("branch_summary", "m", "u1", 2, fromId="u1", summary="s",
                                           fromExtension=True),
    "custom_message_with_attribution": entry_after("custom_message", "m", "u1", 2, customType="t", content="c",
                                                   display=True, attribution="agent"),
}
n67 = Ids(67).entry()
steps67 = []
for name, line in OMP_MARKS.items():
    steps67 += probe(name, marked(line), "omp")
steps67 += probe("titled_header", [J({"type": "session", "version": 3, "id": "plain", "timestamp": ts(0), "cwd": "/w",
                                      "title": "T"}), UN], "omp")
steps67 += probe("hex_header", [J({"type": "session", "version": 3, "id": "0123456789abcdef", "timestamp": ts(0),
                                   "cwd": "/w"}), UN], "omp")
steps67 += probe("neutral", NEUTRAL66, "pi")
steps67 += [
    {"op": "check_info", "fields": {"dialect": "pi"}},
    {"op": "open", "path": "d/ttsr_injection.jsonl"},
    {"op": "append_model_change", "model": "p/m", "expect_id": n67},
    {"op": "check_file", "lines": marked(OMP_MARKS["ttsr_injection"]) + [entry("model_change", n67, "m", 0, model="p/m")]},
    {"op": "open", "path": "d/neutral.jsonl"},
    {"op": "append_model_change", "model": "p/m", "expect_id": n67},
    {"op": "check_file", "lines": NEUTRAL66 + [pi_model_change(n67, "a1", 0, "p", "m")]},
]
case("67_detect_omp_from_its_marks",
     "In a store whose default is pi (XS_STORE_DIALECT_PI), a file shows omp by its marks "
     "(docs/dialects.md#detection): a model_change with model (with provider and modelId beside it "
     "too), the omp-only types ttsr_injection, session_init, mode_change, service_tier_change and "
     "mcp_tool_selection, a compaction with fromExtension, shortSummary or preserveData, a "
     "branch_summary with fromExtension, a custom_message with attribution; with no mark, a header "
     "title or a 16-hex id. A file that shows neither takes the store's default, pi here. A writable "
     "open then appends in the detected form.",
     options=opts(67),
     store_dialect="pi",
     steps=steps67)

HU68 = J({"type": "session", "version": 3, "id": UUID66, "timestamp": ts(0), "cwd": "/w"})
HX68 = J({"type": "session", "version": 3, "id": "0123456789abcdef", "timestamp": ts(0), "cwd": "/w"})
PI_LAST68 = [HX68, UN, entry("ttsr_injection", "t1", "u1", 2, injectedRules=["r"]),
             pi_model_change("m1", "t1", 3, "a", "b"), entry("message", "u2", "m1", 4, message={"role": "user", "content": "x"})]
OMP_LAST68 = [HU68, UN, session_info("s1", "u1", 2, "N"), pi_model_change("m1", "s1", 3, "a", "b"),
              entry_after("custom_message", "c1", "m1", 4, customType="t", content="c", display=True, attribution="agent"),
              entry_after("custom", "x1", "c1", 5, customType="x")]
n68 = Ids(68).entry()
case("68_detect_last_mark_wins_and_forcing",
     "The last line in file order that carries a mark decides, whatever came before it and whatever "
     "the header says (docs/dialects.md#detection): an omp file continued by pi is pi, a pi file "
     "continued by omp is omp. A dialect forced by the caller wins over the file (rule 1 of "
     "docs/dialects.md#which-dialect-a-session-writes), and the appends take its forms.",
     options=opts(68),
     steps=probe("pi_last", PI_LAST68, "pi") + probe("omp_last", OMP_LAST68, "omp") + [
         {"op": "open", "path": "d/pi_last.jsonl", "flags": ["read_only"], "dialect": "omp"},
         {"op": "check_dialect", "dialect": "omp"},
         {"op": "open", "path": "d/pi_last.jsonl", "dialect": "omp"},
         {"op": "check_info", "fields": {"dialect": "omp"}},
         {"op": "append_model_change", "model": "p/m", "expect_id": n68},
         {"op": "check_file", "lines": PI_LAST68 + [entry("model_change", n68, "u2", 0, model="p/m")]},
         {"op": "open", "path": "d/omp_last.jsonl", "dialect": "pi"},
         {"op": "check_dialect", "dialect": "pi"},
         {"op": "append_model_change", "model": "p/m", "expect_id": n68},
         {"op": "check_file", "lines": OMP_LAST68 + [pi_model_change(n68, "x1", 0, "p", "m")]},
     ])

PI_UUID69 = "019b1f0e-3a2c-7d41-9c55-2f1e0d3c4b5a"
A69 = {"role": "assistant", "content": [{"type": "text", "text": "hi"}], "api": "anthropic-messages",
       "provider": "anthropic", "model": "claude-opus-4-5",
       "usage": {"input": 10, "output": 2, "cacheRead": 0, "cacheWrite": 0,
                 "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
       "stopReason": "stop", "timestamp": 1766000002000}
IN69 = [
    J({"type": "session", "version": 3, "id": PI_UUID69, "timestamp": "2025-12-17T19:33:20.000Z", "cwd": "/home/u/proj"}),
    pi_model_change("a1b2c3d4", None, "2025-12-17T19:33:20.100Z", "anthropic", "claude-opus-4-5"),
    entry("message", "b2c3d4e5", "a1b2c3d4", "2025-12-17T19:33:21.000Z",
          message={"role": "user", "content": [{"type": "text", "text": "hello"}], "timestamp": 1766000001000}),
    entry("message", "c3d4e5f6", "b2c3d4e5", "2025-12-17T19:33:22.000Z", message=A69),
    session_info("d4e5f6a7", "c3d4e5f6", "2025-12-17T19:33:23.000Z", "Old name"),
    pi_custom_message("e5f6a7b8", "d4e5f6a7", "2025-12-17T19:33:24.000Z", "ext", "ctx note", False),
    entry("label", "f6a7b8c9", "e5f6a7b8", "2025-12-17T19:33:25.000Z", targetId="b2c3d4e5", label="start"),
    entry("thinking_level_change", "0a1b2c3d", "f6a7b8c9", "2025-12-17T19:33:26.000Z", thinkingLevel="medium"),
]
ids = Ids(69)
n69 = [ids.entry() for _ in range(6)]
A69b = J({"role": "assistant", "content": "ok", "provider": "openai", "model": "gpt-5"})
case("69_continue_a_pi_file_in_pi_forms",
     "A pi v3 file (UUID header id, pi's model_change, session_info, custom_message without "
     "attribution) opened with XS_DIALECT_AUTO is continued in pi's forms, byte for byte as pi would "
     "write them; the title is the last session_info name and the context carries pi's model "
     "(docs/dialects.md#which-dialect-a-session-writes, #what-the-pi-dialect-writes, "
     "#the-context-in-the-pi-dialect).",
     options=opts(69),
     input=IN69,
     steps=[
         {"op": "open"},
         {"op": "check_dialect", "dialect": "pi"},
         {"op": "check_info", "fields": {"dialect": "pi", "title": "Old name", "id": PI_UUID69}},
         {"op": "append_message", "message": mu("next"), "expect_id": n69[0]},
         {"op": "append_message", "message": A69b, "expect_id": n69[1]},
         {"op": "append_model_change", "model": "google/gemini-2.5-pro", "expect_id": n69[2]},
         {"op": "append_compaction", "summary": "Done so far", "first_kept_entry_id": n69[0], "tokens_before": 4321,
          "details": '{"readFiles":[],"modifiedFiles":["a.ts"]}', "from_extension": False, "expect_id": n69[3]},
         {"op": "append_custom_message", "custom_type": "ext", "content": '"again"', "expect_id": n69[4]},
         {"op": "append_session_info", "name": "Renamed  ", "expect_id": n69[5]},
         {"op": "check_file", "lines": IN69 + [
             entry("message", n69[0], "0a1b2c3d", 0, message={"role": "user", "content": "next"}),
             entry("message", n69[1], n69[0], 1, message=json.loads(A69b)),
             pi_model_change(n69[2], n69[1], 2, "google", "gemini-2.5-pro"),
             pi_compaction(n69[3], n69[2], 3, "Done so far", n69[0], 4321,
                           details={"readFiles": [], "modifiedFiles": ["a.ts"]}, from_hook=False),
             pi_custom_message(n69[4], n69[3], 4, "ext", "again", True),
             session_info(n69[5], n69[4], 5, "Renamed")]},
         {"op": "check_info", "fields": {"title": "Renamed", "entryCount": 13}},
         {"op": "check_context", "context": pi_ctx(n69[5], [
             summary_msg("Done so far", 4321, 3), mu("next"), A69b, custom_msg("ext", "again", True, 4)],
             thinking='"medium"', model=("google", "gemini-2.5-pro"), models={"default": "google/gemini-2.5-pro"})},
     ])

H70 = {"type": "session", "id": "d703a1a9-1b7b-4fb1-b512-c9738b1fe617", "timestamp": "2025-11-20T23:33:50.805Z",
       "cwd": "/Users/u/proj", "provider": "anthropic", "modelId": "claude-sonnet-4-5", "thinkingLevel": "off"}
V70 = [
    {"type": "message", "timestamp": "2025-11-20T23:33:01.550Z",
     "message": {"role": "user", "content": [{"type": "text", "text": "/mode"}], "timestamp": 1763681581544}},
    {"type": "message", "timestamp": "2025-11-20T23:33:02.351Z",
     "message": {"role": "assistant", "content": [], "api": "openai-responses", "provider": "openai",
                 "model": "gpt-5.1-codex", "stopReason": "aborted", "timestamp": 1763681581545}},
    {"type": "model_change", "timestamp": "2025-11-20T23:33:07.814Z", "provider": "anthropic",
     "modelId": "claude-sonnet-4-5"},
    {"type": "thinking_level_change", "timestamp": "2025-11-20T23:33:08.000Z", "thinkingLevel": "high"},
    {"type": "message", "timestamp": "2025-11-20T23:33:50.804Z",
     "message": {"role": "user", "content": [{"type": "text", "text": "read the docs"}], "timestamp": 1763681630791}},
]
ids = Ids(70)
m70 = [ids.entry() for _ in range(len(V70))]
n70a, n70b = ids.entry(), ids.entry()
MIG70 = [J(dict(H70, version=3))] + [J(dict(v, id=m70[k], parentId=m70[k - 1] if k else None)) for k, v in enumerate(V70)]
case("70_pi_v1_file_migrated_and_continued",
     "A v1 file as pi wrote it (UUID header id with provider/modelId/thinkingLevel, entries without "
     "ids, a model_change with provider and modelId) is migrated on a writable open "
     "(docs/format.md#migration), detected from its lines as loaded as pi, and continued in pi's "
     "forms (docs/dialects.md#detection).",
     options=opts(70),
     input=[J(H70)] + [J(v) for v in V70],
     steps=[
         {"op": "open"},
         {"op": "check_file", "lines": MIG70},
         {"op": "check_dialect", "dialect": "pi"},
         {"op": "append_model_change", "model": "openai/gpt-5", "expect_id": n70a},
         {"op": "append_session_info", "name": "v1 continued", "expect_id": n70b},
         {"op": "check_file", "lines": MIG70 + [pi_model_change(n70a, m70[4], 0, "openai", "gpt-5"),
                                                session_info(n70b, n70a, 1, "v1 continued")]},
         {"op": "check_context", "context": pi_ctx(n70b, [J(V70[0]["message"]), J(V70[1]["message"]),
                                                          J(V70[4]["message"])],
                                                   thinking='"high"', model=("openai", "gpt-5"),
                                                   models={"default": "openai/gpt-5"})},
         {"op": "check_info", "fields": {"dialect": "pi", "title": "v1 continued", "version": 3}},
     ])

IN71 = [J({"type": "session", "version": 3, "id": PI_UUID69, "timestamp": "2025-12-17T19:33:20.000Z", "cwd": "/w"}),
        entry("message", "u1", None, "2025-12-17T19:33:21.000Z", message={"role": "user", "content": "q"}),
        entry("message", "a1", "u1", "2025-12-17T19:33:22.000Z", message=A69),
        session_info("s1", "a1", "2025-12-17T19:33:23.000Z", "Source")]
fork71 = Ids(71).uuid7(ms(0))
case("71_pi_fork_and_fork_from",
     "A fork and a fork from a file take the dialect of the session they copy, without forcing: a pi "
     "file (detected) gives pi copies, whose headers name the source by its path in parentSession, "
     "as pi's createBranchedSession and forkFrom do, carry no title and get a UUIDv7 id; the entries "
     "are copied as they are (docs/dialects.md#which-dialect-a-session-writes, rule 4, and "
     "#what-the-pi-dialect-writes).",
     options=opts(71),
     input=IN71,
     steps=[
         {"op": "open"},
         {"op": "check_dialect", "dialect": "pi"},
         {"op": "fork"},
         {"op": "check_dialect", "dialect": "pi"},
         {"op": "check_file", "lines": [pi_header(fork71, 0, "/w", parent="{root}/input.jsonl")] + IN71[1:]},
         {"op": "check_info", "fields": {"id": fork71, "title": "Source", "persisted": True, "leafId": "s1"}},
         {"op": "fork_from", "source": "input.jsonl", "cwd": "/target"},
         {"op": "check_dialect", "dialect": "pi"},
         {"op": "check_file", "lines": [pi_header(fork71, 0, "/target", parent="{root}/input.jsonl")] + IN71[1:]},
         {"op": "check_info", "fields": {"id": fork71, "cwd": "/target", "persisted": True, "entryCount": 3}},
     ])

SRC72 = "{root}/sessions/--w--/" + file_name(0, "src-b")
br72 = Ids(72)
lab72a, lab72b = br72.entry(), br72.entry()
br72 = Ids(72)
lab72c, a72 = br72.entry(), br72.entry()
U72 = entry("message", "u1", None, 1, message={"role": "user", "content": "q1"})
A72 = entry("message", "a1", "u1", 2, message=json.loads(pa("r1")))
case("72_pi_create_branched_session",
     "A branched session of a pi session is pi (docs/dialects.md#which-dialect-a-session-writes, rule "
     "4), names its source by path, and follows pi's createBranchedSession "
     "(docs/dialects.md#what-the-pi-dialect-writes): its re-created labels keep the timestamps of the "
     "original label entries (taking no clock tick), and it is written at once only when its path "
     "holds an assistant message, otherwise at the first one. Entries whose parent was a dropped label "
     "are re-linked as in docs/format.md#new-files-from-old-ones.",
     options=opts(72, dialect="pi"),
     steps=[
         {"op": "create", "cwd": "/w", "session_id": "src-b", "flags": ["no_defer"]},
         um("u1", "q1"), pam("a1", "r1"),
         {"op": "append", "entry": J({"type": "label", "id": "l1", "targetId": "a1", "label": "good"}), "expect_id": "l1"},
         um("u2", "q2"),
         {"op": "append", "entry": J({"type": "label", "id": "l2", "targetId": "u1", "label": "start"}), "expect_id": "l2"},
         pam("a2", "r2"),
         {"op": "set_leaf", "id": "a1"}, um("u3", "other"),
         {"op": "append", "entry": J({"type": "label", "id": "l3", "targetId": "u3", "label": "elsewhere"}),
          "expect_id": "l3"},
         {"op": "create_branched", "leaf": "a2", "session_id": "branched-1", "dialect": "auto"},
         {"op": "check_dialect", "dialect": "pi"},
         {"op": "check_file", "lines": [
             pi_header("branched-1", 0, "/w", parent=SRC72), U72, A72,
             entry("message", "u2", "a1", 4, message={"role": "user", "content": "q2"}),
             entry("message", "a2", "u2", 6, message=json.loads(pa("r2"))),
             entry("label", lab72a, "a2", 3, targetId="a1", label="good"),
             entry("label", lab72b, lab72a, 5, targetId="u1", label="start")]},
         {"op": "open", "path": "sessions/--w--/" + file_name(0, "src-b")},
         {"op": "create_branched", "leaf": "u1", "session_id": "branched-2"},
         {"op": "check_file", "exists": False},
         {"op": "check_info", "fields": {"persisted": False, "dialect": "pi", "entryCount": 2}},
         {"op": "append_message", "message": PI_ASSISTANT, "expect_id": a72},
         {"op": "check_file", "lines": [
             pi_header("branched-2", 0, "/w", parent=SRC72), U72,
             entry("label", lab72c, "u1", 5, targetId="u1", label="start"),
             entry("message", a72, lab72c, 1, message=A57)]},
     ])

ids = Ids(73)
sid73 = ids.session()
pi73 = Ids(73).uuid7(ms(1))
RAW73 = "not a session\n"
case("73_headerless_open_takes_the_options_cwd",
     "A writable open of an empty file, or of a file without a header, writes a fresh header whose cwd "
     "is xs_session_options.cwd (docs/format.md#reading-a-file; xsession.h, xs_session_options.cwd), "
     "in the dialect asked for: a pi one gets pi's header and a UUIDv7 id from the tick after the "
     "corrupt copy's. Without options.cwd the header takes the process's working directory, which a "
     "case cannot know: the C++ tests prove that one.",
     options=opts(73, cwd="/from/options"),
     input_raw="",
     steps=[
         {"op": "open"},
         {"op": "check_file", "lines": [header(sid73, 0, "/from/options")]},
         {"op": "check_info", "fields": {"cwd": "/from/options", "dialect": "omp"}},
         {"op": "write_file", "path": "junk.jsonl", "raw": RAW73},
         {"op": "open", "path": "junk.jsonl", "dialect": "pi"},
         {"op": "check_preserved", "raw": RAW73},
         {"op": "check_dialect", "dialect": "pi"},
         {"op": "check_file", "lines": [pi_header(pi73, 1, "/from/options")]},
         {"op": "check_info", "fields": {"id": pi73, "cwd": "/from/options"}},
     ])

ids = Ids(74)
ids.uuid7(ms(0))
mc74, t74 = ids.entry(), ids.entry()
case("74_pi_empty_context_of_a_null_leaf",
     "In the pi dialect the leaf set to none gives pi's empty context (pi's buildSessionContext(entries, "
     "null)): no messages, thinkingLevel \"off\", model null, whatever the session holds; the next "
     "append starts a new root whose context owes nothing to the other branch "
     "(docs/dialects.md#the-context-in-the-pi-dialect).",
     options=opts(74, dialect="pi", flags=["no_defer"]),
     steps=[
         {"op": "create", "cwd": "/w"},
         {"op": "check_context", "context": PI_EMPTY},
         {"op": "append_model_change", "model": "a/b", "expect_id": mc74},
         {"op": "append_thinking_level", "level": "high", "expect_id": t74},
         um("u1", "q"),
         {"op": "check_context", "context": pi_ctx("u1", [mu("q")], thinking='"high"', model=("a", "b"),
                                                   models={"default": "a/b"})},
         {"op": "set_leaf", "id": None},
         {"op": "check_context", "context": PI_EMPTY},
         {"op": "check_path", "json": "[]"},
         {"op": "check_leaf", "id": None},
         um("r2", "new root"),
         {"op": "check_context", "context": pi_ctx("r2", [mu("new root")])},
         {"op": "check_context", "leaf": "u1", "context": pi_ctx("u1", [mu("q")], thinking='"high"', model=("a", "b"),
                                                                 models={"default": "a/b"})},
     ])

SRC75 = "{root}/sessions/--w--/" + file_name(0, "src-c")
ids = Ids(75)
bid75, lab75, n75 = ids.session(), ids.entry(), ids.entry()
case("75_branched_session_continues_the_clock_and_ids",
     "A branched session made under a fixed clock with an id seed (omp dialect) keeps one clock and one "
     "id sequence: its header takes a tick and its generated id the first draw, its re-created label "
     "the next of each, and its first append the next again, so that append's timestamp is not the "
     "header's and its id is not the first 8 characters of the session id (tests/conformance/README.md: "
     "a fixed clock advances once per timestamp taken; docs/format.md#new-files-from-old-ones).",
     options=opts(75),
     steps=[
         {"op": "create", "cwd": "/w", "session_id": "src-c", "flags": ["no_defer"]},
         um("u1", "q1"), am("a1", "r1"),
         {"op": "append", "entry": J({"type": "label", "id": "l1", "targetId": "u1", "label": "start"}), "expect_id": "l1"},
         {"op": "create_branched", "leaf": "a1"},
         {"op": "append_message", "message": mu("next"), "expect_id": n75},
         {"op": "check_info", "fields": {"id": bid75}},
         {"op": "check_file", "lines": [
             header(bid75, 0, "/w", parent=SRC75),
             entry("message", "u1", None, 1, message={"role": "user", "content": "q1"}),
             entry("message", "a1", "u1", 2, message={"role": "assistant", "content": "r1"}),
             entry("label", lab75, "a1", 1, targetId="u1", label="start"),
             entry("message", n75, lab75, 2, message={"role": "user", "content": "next"})]},
     ])

ids = Ids(76)
bid76, n76 = ids.uuid7(ms(0)), ids.entry()
case("76_pi_branched_session_continues_the_clock_and_ids",
     "The same in the pi dialect: the branched session's UUIDv7 takes the header's tick and the first "
     "two draws, and its first append the next tick and the next draw, so it is neither stamped like "
     "the header nor named after the session id "
     "(docs/dialects.md#what-the-pi-dialect-writes; tests/conformance/README.md).",
     options=opts(76, dialect="pi"),
     steps=[
         {"op": "create", "cwd": "/w", "session_id": "src-c", "flags": ["no_defer"]},
         um("u1", "q1"), pam("a1", "r1"),
         {"op": "create_branched", "leaf": "a1"},
         {"op": "check_file", "lines": [
             pi_header(bid76, 0, "/w", parent="{root}/sessions/--w--/" + file_name(0, "src-c")),
             entry("message", "u1", None, 1, message={"role": "user", "content": "q1"}),
             entry("message", "a1", "u1", 2, message=json.loads(pa("r1")))]},
         {"op": "append_message", "message": mu("next"), "expect_id": n76},
         {"op": "check_info", "fields": {"id": bid76, "dialect": "pi"}},
         {"op": "check_file", "lines": [
             pi_header(bid76, 0, "/w", parent="{root}/sessions/--w--/" + file_name(0, "src-c")),
             entry("message", "u1", None, 1, message={"role": "user", "content": "q1"}),
             entry("message", "a1", "u1", 2, message=json.loads(pa("r1"))),
             entry("message", n76, "a1", 1, message={"role": "user", "content": "next"})]},
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


keys_cases.add_cases(case)
compaction_cases.add_cases(case)
library_cases.add_cases(case)
stats_cases.add_cases(case)
archive_cases.add_cases(case)
reset_cases.add_cases(case)
import_cases.add_cases(case)
search_cases.add_cases(case)
bundle_cases.add_cases(case)


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
