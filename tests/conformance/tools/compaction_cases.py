"""Conformance cases of compaction planning (docs/compaction-planning.md), written by hand like the
others. The plan's token estimates follow docs/compaction-planning.md#token-estimates: an assistant
message's usage.output, else the stored line's bytes / 4 rounded up; the lines are spelled out
here with casekit's envelope (docs/format.md#entries), so every number below is computed from
the bytes the engine must write, not read back from it."""
from casekit import J, Ids, ctx, entry, ms, opts
from keys_cases import doc


def tokens(line, message):
    usage = message.get("usage") if message.get("role") == "assistant" else None
    if usage and usage.get("output", 0) > 0:
        return usage["output"]
    return (len(line.encode()) + 3) // 4


def plan(needed, first_kept, to_summarise, before, kept):
    return J({"needed": needed, "firstKeptEntryId": first_kept, "toSummarise": to_summarise,
              "tokensBefore": before, "keptTokens": kept})


def add_cases(case):
    ids = Ids(81)
    ids.session()
    compaction_id = ids.entry()
    msgs = [
        ("u1", {"role": "user", "content": "q" * 400}),
        ("a1", {"role": "assistant", "content": [{"type": "toolCall", "id": "c1", "name": "read", "arguments": {}}],
                "usage": {"input": 10, "output": 100}}),
        ("t1", {"role": "toolResult", "toolCallId": "c1", "content": [{"type": "text", "text": "r" * 200}]}),
        ("a2", {"role": "assistant", "content": "done", "usage": {"input": 20, "output": 300}}),
        ("u2", {"role": "user", "content": "next"}),
        ("a3", {"role": "assistant", "content": "ok", "usage": {"input": 30, "output": 50}}),
    ]
    est = {}
    parent = None
    for tick, (id_, m) in enumerate(msgs, start=1):
        est[id_] = tokens(entry("message", id_, parent, tick, message=m), m)
        parent = id_
    order = [i for i, _ in msgs]
    total = sum(est.values())
    # Walking back from a3, keep_recent is reached inside the tool exchange (at t1), which may not
    # start a context: the cut moves back to the assistant message that made the call.
    keep = est["a3"] + est["u2"] + est["a2"] + 1
    kept_from_a1 = total - est["u1"]
    appends = [{"op": "append", "entry": J({"type": "message", "id": i, "message": m}), "expect_id": i} for i, m in msgs]
    case("81_compaction_plan_keeps_a_tool_result_with_its_call",
         "xs_compaction_plan keeps at least keep_recent_tokens of the newest path entries and cuts only "
         "where a context may start, never between a tool call and its result; a path that fits needs "
         "no compaction; a plan may be made at any leaf; the compaction written at the cut gives the "
         "summary and the kept entries as context (docs/compaction-planning.md#where-to-cut).",
         options=opts(81, flags=["no_defer"]),
         steps=[{"op": "create", "cwd": "/w"}] + appends + [
             {"op": "compaction_plan", "settings": {"keep_recent_tokens": keep},
              "plan": plan(True, "a1", ["u1"], total, kept_from_a1)},
             {"op": "compaction_plan", "settings": {"keep_recent_tokens": 0},
              "plan": plan(True, "a3", order[:-1], total, est["a3"])},
             {"op": "compaction_plan", "settings": {"keep_recent_tokens": 10 ** 9},
              "plan": plan(False, None, [], total, 0)},
             {"op": "compaction_plan", "leaf": "a2", "settings": {"keep_recent_tokens": est["a2"]},
              "plan": plan(True, "a2", ["u1", "a1", "t1"], est["u1"] + est["a1"] + est["t1"] + est["a2"], est["a2"])},
             {"op": "compaction_plan", "leaf": "nope", "expect": "XS_ENOTFOUND"},
             {"op": "compaction_plan", "settings": {"keep_recent_tokens": -1}, "expect": "XS_EINVAL"},
             {"op": "append_compaction", "summary": "S", "first_kept_entry_id": "a1", "tokens_before": total,
              "expect_id": compaction_id},
             {"op": "check_context", "context": ctx(compaction_id, [
                 J({"role": "compactionSummary", "summary": "S", "tokensBefore": total, "timestamp": ms(7)})]
                 + [J(m) for _, m in msgs[1:]])},
         ])

    window = {"context_window": 200000}
    case("82_should_compact_and_flush_memory_thresholds",
         "Compact when contextTokens > contextWindow - max(reserveTokens, reserveFloor) (defaults 16384 "
         "and 20000); the memory flush runs softThresholdTokens (4000) earlier, once per compaction "
         "cycle; bad settings are refused (docs/compaction-planning.md#when).",
         steps=[
             {"op": "check_should_compact", "settings": window, "context_tokens": 180000, "result": False},
             {"op": "check_should_compact", "settings": window, "context_tokens": 180001, "result": True},
             {"op": "check_should_compact", "settings": {"context_window": 200000, "reserve_floor": 0},
              "context_tokens": 183616, "result": False},
             {"op": "check_should_compact", "settings": {"context_window": 200000, "reserve_floor": 0},
              "context_tokens": 183617, "result": True},
             {"op": "check_should_compact", "settings": {"context_window": 200000, "reserve_tokens": 30000},
              "context_tokens": 170001, "result": True},
             {"op": "check_should_flush_memory", "settings": window, "context_tokens": 176000,
              "compaction_count": 0, "last_flush_compaction_count": -1, "result": False},
             {"op": "check_should_flush_memory", "settings": window, "context_tokens": 176001,
              "compaction_count": 0, "last_flush_compaction_count": -1, "result": True},
             {"op": "check_should_flush_memory", "settings": window, "context_tokens": 176001,
              "compaction_count": 0, "last_flush_compaction_count": 0, "result": False},
             {"op": "check_should_flush_memory", "settings": window, "context_tokens": 190000,
              "compaction_count": 1, "last_flush_compaction_count": 0, "result": True},
             {"op": "check_should_compact", "settings": {}, "context_tokens": 1, "expect": "XS_EINVAL"},
             {"op": "check_should_compact", "settings": window, "context_tokens": -1, "expect": "XS_EINVAL"},
             {"op": "check_should_compact", "settings": {"context_window": 200000, "version": 99},
              "context_tokens": 1, "expect": "XS_EVERSION"},
             {"op": "check_should_flush_memory", "settings": window, "context_tokens": 1,
              "compaction_count": 0, "last_flush_compaction_count": -2, "expect": "XS_EINVAL"},
         ])

    rec = {"sessionId": "s1", "compactionCount": 2}
    case("83_keys_claim_memory_flush_once_per_cycle",
         "xs_keys_claim_memory_flush decides from the key's record and marks it under the lock: true "
         "once per compaction cycle past the soft threshold (memoryFlushAt, memoryFlushCompactionCount "
         "written), false otherwise with the document untouched; a missing record or counts that are not "
         "whole numbers are refused (docs/compaction-planning.md#when).",
         steps=[
             {"op": "keys_put", "key": "agent:a:main", "record": J(rec)},
             {"op": "keys_claim_memory_flush", "key": "agent:a:main", "settings": window, "context_tokens": 1000,
              "now_ms": 5, "result": False},
             {"op": "check_keys_file", "raw": doc({"agent:a:main": rec})},
             {"op": "keys_claim_memory_flush", "key": "agent:a:main", "settings": window, "context_tokens": 176001,
              "now_ms": 1767225600000, "result": True},
             {"op": "check_keys_file", "raw": doc({"agent:a:main": dict(rec, memoryFlushAt=1767225600000,
                                                                        memoryFlushCompactionCount=2)})},
             {"op": "keys_claim_memory_flush", "key": "agent:a:main", "settings": window, "context_tokens": 190000,
              "now_ms": 1767225601000, "result": False},
             {"op": "keys_patch", "key": "agent:a:main", "patch": J({"compactionCount": 3})},
             {"op": "keys_claim_memory_flush", "key": "agent:a:main", "settings": window, "context_tokens": 190000,
              "now_ms": 1767225602000, "result": True},
             {"op": "check_keys_file", "raw": doc({"agent:a:main": {"sessionId": "s1", "compactionCount": 3,
                                                                    "memoryFlushAt": 1767225602000,
                                                                    "memoryFlushCompactionCount": 3}})},
             {"op": "keys_claim_memory_flush", "key": "nobody", "settings": window, "context_tokens": 190000,
              "now_ms": 1, "expect": "XS_ENOTFOUND"},
             {"op": "keys_patch", "key": "agent:a:main", "patch": J({"compactionCount": 3.5})},
             {"op": "keys_claim_memory_flush", "key": "agent:a:main", "settings": window, "context_tokens": 190000,
              "now_ms": 1, "expect": "XS_EINVAL"},
             {"op": "keys_claim_memory_flush", "key": "agent:a:main", "settings": {}, "context_tokens": 190000,
              "now_ms": 1, "expect": "XS_EINVAL"},
             {"op": "check_keys_file", "raw": doc({"agent:a:main": {"sessionId": "s1", "compactionCount": 3.5,
                                                                    "memoryFlushAt": 1767225602000,
                                                                    "memoryFlushCompactionCount": 3}})},
         ])

