"""Conformance cases of session stats and their key binding (docs/session-stats.md), 86-91. The
expected numbers are added up here from the messages' usage, by the rules of that document; the
documents' bytes are laid out as JSON.stringify(doc, null, 2) + "\\n" (json.dumps indent=2)."""
import json

from casekit import J, Ids, entry, file_name, header, ms, opts


def doc(obj):
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def reply(inp, out, cr, cw, cost, tools=0, total=None, stop=None):
    """An assistant message with `tools` toolCall blocks and the usage given."""
    usage = {"input": inp, "output": out, "cacheRead": cr, "cacheWrite": cw}
    if total is not None:
        usage["totalTokens"] = total
    usage["cost"] = {"input": 0, "total": cost}
    m = {"role": "assistant",
         "content": [{"type": "text", "text": "ok"}] +
                    [{"type": "toolCall", "id": "c%d" % i, "name": "bash", "arguments": {}} for i in range(tools)],
         "usage": usage}
    if stop is not None:
        m["stopReason"] = stop
    return m


USER = {"role": "user", "content": "go"}


def result(call):
    return {"role": "toolResult", "toolCallId": call, "toolName": "bash",
            "content": [{"type": "text", "text": "done"}], "isError": False}


def usage_sums(replies):
    """The whole-file counters of docs/session-stats.md#counters over assistant messages."""
    s = {k: sum(r["usage"][u] for r in replies) for k, u in
         (("inputTokens", "input"), ("outputTokens", "output"), ("cacheRead", "cacheRead"),
          ("cacheWrite", "cacheWrite"))}
    s["totalTokens"] = s["inputTokens"] + s["outputTokens"] + s["cacheRead"] + s["cacheWrite"]
    return s


def context_of(r):
    """docs/session-stats.md#context-tokens for a reply the walk stops at."""
    u = r["usage"]
    return u.get("totalTokens") or u["input"] + u["output"] + u["cacheRead"] + u["cacheWrite"]


def stats(replies, context, roles, tools, compactions=0, cost=None):
    s = usage_sums(replies)
    s["contextTokens"] = context
    total_cost = sum(r["usage"]["cost"]["total"] for r in replies)
    s["cost"] = cost if cost is not None else total_cost
    s["compactionCount"] = compactions
    s["messageCounts"] = roles
    s["toolCalls"] = tools
    return s


def record(sid, file, tick, st):
    r = {"sessionId": sid, "sessionFile": file, "updatedAt": ms(tick)}
    r.update(st)
    return r


def add_cases(case):
    r1 = reply(100, 20, 5, 7, 0.25, tools=2, total=132)
    r2 = reply(50, 30, 0, 3, 0.5, tools=1)
    ids = Ids(86)
    u, a1, t1, t2, a2 = (ids.entry() for _ in range(5))
    s86 = stats([r1, r2], context_of(r2), {"user": 1, "assistant": 2, "toolResult": 2, "custom": 1}, 3)
    case("86_stats_counted_by_appends_and_on_reopen",
         "xs_session_stats counts as entries are appended: messages by role (custom messages as "
         "\"custom\"), toolCall blocks, the usage sums of every assistant message, totalTokens their sum, "
         "contextTokens the last reply's usage (totalTokens, else the four counters); the same numbers "
         "after the file is opened again (docs/session-stats.md#counters).",
         options=opts(86),
         steps=[
             {"op": "create", "cwd": "/w", "session_id": "s86"},
             {"op": "check_stats", "json": J(stats([], 0, {}, 0))},
             {"op": "append_message", "message": J(USER), "expect_id": u},
             {"op": "append_message", "message": J(r1), "expect_id": a1},
             {"op": "append_message", "message": J(result("c0")), "expect_id": t1},
             {"op": "append_message", "message": J(result("c1")), "expect_id": t2},
             {"op": "append_message", "message": J(r2), "expect_id": a2},
             {"op": "append_custom_message", "custom_type": "note", "content": J("remember")},
             {"op": "append_thinking_level", "level": "high"},
             {"op": "check_stats", "json": J(s86)},
             {"op": "reopen"},
             {"op": "check_stats", "json": J(s86)},
         ])

    b1 = reply(1000, 1, 0, 0, 1, total=2000)
    err = reply(9, 0, 0, 0, 0, stop="error")
    ids = Ids(87)
    u, a1, a2, b, e, c = (ids.entry() for _ in range(6))
    roles = {"user": 1, "assistant": 3}
    case("87_stats_every_branch_counts_context_follows_the_leaf",
         "Counters cover the whole file, every branch; contextTokens follows the leaf: the last reply on "
         "the current path, skipping replies that ended in an error, and 0 once a compaction is the "
         "newest entry on it (docs/session-stats.md#context-tokens).",
         options=opts(87),
         steps=[
             {"op": "create", "cwd": "/w", "session_id": "s87"},
             {"op": "append_message", "message": J(USER), "expect_id": u},
             {"op": "append_message", "message": J(r1), "expect_id": a1},
             {"op": "append_message", "message": J(r2), "expect_id": a2},
             {"op": "set_leaf", "id": u},
             {"op": "append_message", "message": J(b1), "expect_id": b},
             {"op": "check_stats", "json": J(stats([r1, r2, b1], 2000, roles, 3))},
             {"op": "set_leaf", "id": a2},
             {"op": "check_stats", "json": J(stats([r1, r2, b1], context_of(r2), roles, 3))},
             {"op": "set_leaf", "id": u},
             {"op": "check_stats", "json": J(stats([r1, r2, b1], 0, roles, 3))},
             {"op": "set_leaf", "id": a2},
             {"op": "append_message", "message": J(err), "expect_id": e},
             {"op": "check_stats", "json": J(stats([r1, r2, b1, err], context_of(r2),
                                                   {"user": 1, "assistant": 4}, 3))},
             {"op": "append_compaction", "summary": "sum", "first_kept_entry_id": a2, "tokens_before": 83,
              "expect_id": c},
             {"op": "check_stats", "json": J(stats([r1, r2, b1, err], 0, {"user": 1, "assistant": 4}, 3,
                                                   compactions=1))},
         ])

    file88 = "{root}/sessions/--w--/" + file_name(0, "s88")
    after_reply = record("s88", file88, 2, stats([r1], 132, {"user": 1, "assistant": 1}, 2))
    after_flush = record("s88", file88, 3, stats([r1], 132, {"user": 1, "assistant": 1, "toolResult": 1}, 2))
    case("88_stats_bound_record_written_after_each_reply",
         "A session created with a key writes its stats into the key's record after each assistant "
         "message (not before its file exists, not after a tool result) and on flush; updatedAt is its "
         "last entry's time (docs/session-stats.md#when-the-record-is-written).",
         options=opts(88),
         steps=[
             {"op": "create", "cwd": "/w", "session_id": "s88", "key": "agent:main:main"},
             {"op": "append_message", "message": J(USER)},
             {"op": "check_keys_file", "exists": False},
             {"op": "append_message", "message": J(r1)},
             {"op": "check_stats_document", "raw": doc({"agent:main:main": after_reply})},
             {"op": "append_message", "message": J(result("c0"))},
             {"op": "check_stats_document", "raw": doc({"agent:main:main": after_reply})},
             {"op": "flush"},
             {"op": "check_stats_document", "raw": doc({"agent:main:main": after_flush})},
             {"op": "close"},
             {"op": "check_stats_document", "raw": doc({"agent:main:main": after_flush})},
         ])

    lines = [header("s89", 0, "/w"),
             entry("message", "u1", None, 1, message=USER),
             entry("message", "a1", "u1", 2, message=r2)]
    counted = stats([r2], context_of(r2), {"user": 1, "assistant": 1}, 1)
    host = {"sessionId": "s89", "title": "T", "chatType": "direct"}
    opened = dict(host)
    opened.update({"sessionFile": "{root}/input.jsonl", "updatedAt": ms(2)})
    opened.update(counted)
    stale = dict(opened)
    stale["toolCalls"] = 7
    case("89_stats_open_writes_a_record_without_stats_once",
         "Opening an existing session with a key whose record has no stats writes the load's counts into "
         "it (host fields kept in place); a record that already has this session's stats is not "
         "rewritten by an open, even when wrong (docs/session-stats.md#when-the-record-is-written).",
         options=opts(89),
         input=lines,
         steps=[
             {"op": "keys_put", "key": "cron:job", "record": J(host)},
             {"op": "open", "key": "cron:job"},
             {"op": "check_stats_document", "raw": doc({"cron:job": opened})},
             {"op": "close"},
             {"op": "keys_patch", "key": "cron:job", "patch": J({"toolCalls": 7})},
             {"op": "open", "key": "cron:job"},
             {"op": "check_stats_document", "raw": doc({"cron:job": stale})},
         ])

    rec_a = record("sa", "{root}/sessions/--w--/" + file_name(0, "sa"), 2, stats([r1], 132, {"user": 1, "assistant": 1}, 2))
    case("90_stats_fix_repairs_exactly_the_stale_record",
         "After a crash between an append and its record write the record is behind its transcript; "
         "xs_keys_fix_stats recounts each key's session and rewrites only the stat fields that differ, "
         "reporting them; records in order stay untouched, and a second run changes nothing "
         "(docs/session-stats.md#repair-after-a-crash).",
         options=opts(90),
         steps=[
             {"op": "create", "cwd": "/w", "session_id": "sa", "key": "agent:a"},
             {"op": "append_message", "message": J(USER)},
             {"op": "append_message", "message": J(r1)},
             {"op": "close"},
             {"op": "keys_put", "key": "agent:b", "record": J({"sessionId": "nosuch", "inputTokens": 5})},
             {"op": "keys_patch", "key": "agent:a", "patch": J({"inputTokens": 1, "messageCounts": {"user": 0}})},
             {"op": "keys_fix_stats", "prefix": "agent:",
              "json": J({"checked": 2,
                         "fixed": [{"key": "agent:a", "sessionId": "sa",
                                    "before": {"inputTokens": 1, "messageCounts": {"user": 0, "assistant": 1}},
                                    "after": {"inputTokens": 100, "messageCounts": {"user": 1, "assistant": 1}}}],
                         "skipped": [{"key": "agent:b", "reason": "no session matches \"nosuch\""}]})},
             {"op": "check_stats_document",
              "raw": doc({"agent:a": rec_a, "agent:b": {"sessionId": "nosuch", "inputTokens": 5}})},
             {"op": "keys_fix_stats",
              "json": J({"checked": 2, "fixed": [],
                         "skipped": [{"key": "agent:b", "reason": "no session matches \"nosuch\""}]})},
         ])

    case("91_stats_bad_bindings_write_nothing",
         "A key the keyed store refuses, or a key on a read-only handle, is XS_EINVAL before anything is "
         "written (no session file, no document); xs_keys_fix_stats on a damaged document is "
         "XS_ECORRUPT and leaves it as it is (docs/session-stats.md#binding-a-session-to-a-key).",
         options=opts(91, flags=["no_defer"]),
         input=[header("s91", 0, "/w")],
         steps=[
             {"op": "create", "cwd": "/w", "key": "a/b", "expect": "XS_EINVAL"},
             {"op": "create", "cwd": "/w", "key": "", "expect": "XS_EINVAL"},
             {"op": "create", "cwd": "/w", "key": "k" * 257, "expect": "XS_EINVAL"},
             {"op": "open", "key": "k", "flags": ["read_only"], "expect": "XS_EINVAL"},
             {"op": "check_keys_file", "exists": False},
             {"op": "check_store_files", "files": ["input.jsonl"]},
             {"op": "write_file", "path": "sessions.json", "raw": "{\"k\":"},
             {"op": "keys_fix_stats", "expect": "XS_ECORRUPT"},
             {"op": "check_keys_file", "raw": "{\"k\":"},
         ])
