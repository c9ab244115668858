"""Conformance cases of reset policies (docs/reset-policies.md): xs_store_session_for_key decides,
under the keyed document's lock, whether a key continues its session or starts a new one, and the
document's bytes and the new header's bytes are spelled out here. Times are exact: each call passes
the time of its message. "{root}" in a document stands for the store's directory."""
import calendar
import json
from datetime import datetime

from casekit import Ids, J, entry, file_name, header, ms, opts, pi_header

KEY = "agent:main:main"
T0 = ms(0)  # 2026-01-01T00:00:00Z, 08:00 in Shanghai
ASSISTANT = J({"role": "assistant", "content": [{"type": "text", "text": "hello"}], "provider": "anthropic",
               "model": "claude-sonnet-4-5", "timestamp": 2})


def utc_ms(text):
    """Epoch ms of an ISO UTC time "YYYY-MM-DDTHH:MM:SS.mmm"."""
    d = datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%f")
    return calendar.timegm(d.timetuple()) * 1000 + d.microsecond // 1000


def doc(obj):
    """The document's exact bytes: JSON.stringify(doc, null, 2) + "\\n"."""
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def in_work(sid, tick=0):
    return "{root}/sessions/--work--/" + file_name(tick, sid)


def stats(**counts):
    """A bound session's stats fields in the order it writes them (docs/session-stats.md#binding-a-session-to-a-key),
    zero but for `counts`: what a record gains from the session xs_store_session_for_key returns."""
    out = {"inputTokens": 0, "outputTokens": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
           "contextTokens": 0, "cost": 0, "compactionCount": 0, "messageCounts": {}, "toolCalls": 0}
    out.update(counts)
    return out


def assistant_line(id_, tick):
    return entry("message", id_, None, tick, message=json.loads(ASSISTANT))


def add_cases(case):
    ids = Ids(1)
    sid, e1 = ids.session(), ids.entry()
    case("92_key_session_first_call_then_continued",
         "The first call for a key starts a session (reason new) and records sessionId, sessionFile, "
         "createdAt and updatedAt = the message's time; the next call continues it (reason continued), "
         "reopening its file, and only updatedAt changes (docs/reset-policies.md#what-a-call-does).",
         options=opts(1, cwd="/work"),
         steps=[
             {"op": "session_for_key", "key": KEY, "now_ms": T0, "expect_reason": "new"},
             {"op": "check_header", "json": header(sid, 0, "/work")},
             {"op": "check_keys_file_rooted", "raw": doc({KEY: {"sessionId": sid, "sessionFile": in_work(sid),
                                                                "createdAt": T0, "updatedAt": T0}})},
             {"op": "append_message", "message": ASSISTANT, "expect_id": e1},
             {"op": "session_for_key", "key": KEY, "now_ms": T0 + 60000, "expect_reason": "continued"},
             {"op": "check_file", "lines": [header(sid, 0, "/work"), assistant_line(e1, 1)]},
             # The session is bound to the key: its reply wrote its stats
             # (docs/session-stats.md#binding-a-session-to-a-key).
             {"op": "check_keys_file_rooted", "raw": doc({KEY: dict({"sessionId": sid, "sessionFile": in_work(sid),
                                                                     "createdAt": T0, "updatedAt": T0 + 60000},
                                                                    **stats(messageCounts={"assistant": 1}))})},
         ])

    four = utc_ms("2026-01-01T20:00:00.000")  # 04:00 in Shanghai (UTC+8)
    old = [J({"type": "session", "version": 3, "id": "old1", "timestamp": "2025-12-31T00:00:00.000Z", "cwd": "/work"}),
           J({"type": "message", "id": "u1", "parentId": None, "timestamp": "2025-12-31T00:00:01.000Z",
              "message": {"role": "user", "content": "hi"}})]
    host = {"sessionId": "old1", "updatedAt": T0, "chatType": "direct", "inputTokens": 120, "outputTokens": 30,
            "cost": 0.5, "compactionCount": 2, "origin": {"label": "x"}}
    shanghai = {"daily_hour": 4, "time_zone": "Asia/Shanghai"}
    new93 = Ids(2).session()
    case("93_key_session_daily_reset_at_four_in_shanghai",
         "Daily at 04:00 Asia/Shanghai: a session last active at 08:00 continues at 03:59:59.999 the next "
         "morning (openclaw's <document dir>/<sessionId>.jsonl is its file) and is replaced at 04:00:00.000 "
         "(reason daily): the new header's parentSession is the old id, the record keeps the host's fields, "
         "sets the session's counts to an empty session's, lists the old id in previousSessionIds, and the old transcript "
         "stays byte for byte (docs/reset-policies.md#the-record).",
         options=opts(1, cwd="/work"),
         steps=[
             {"op": "write_file", "path": "old1.jsonl", "raw": "".join(l + "\n" for l in old)},
             {"op": "keys_put", "key": KEY, "record": J(host)},
             {"op": "session_for_key", "key": KEY, "now_ms": four - 1, "policy": shanghai,
              "expect_reason": "continued"},
             {"op": "check_header", "json": old[0]},
             # The continued session, bound to the key, finds the record without its counts and writes
             # them once: the transcript's (one user message, no usage) replace the host's numbers.
             {"op": "check_keys_file_rooted",
              "raw": doc({KEY: dict(host, updatedAt=four - 1, inputTokens=0, outputTokens=0, cost=0, compactionCount=0,
                                    sessionFile="{root}/old1.jsonl", cacheRead=0, cacheWrite=0, totalTokens=0,
                                    contextTokens=0, messageCounts={"user": 1}, toolCalls=0)})},
             {"op": "session_for_key", "key": KEY, "now_ms": four, "policy": shanghai, "id_seed": 2,
              "expect_reason": "daily"},
             {"op": "check_header", "json": header(new93, 0, "/work", parent="old1")},
             {"op": "check_keys_file_rooted",
              "raw": doc({KEY: {"sessionId": new93, "updatedAt": four, "chatType": "direct", "inputTokens": 0,
                                "outputTokens": 0, "cost": 0, "compactionCount": 0, "origin": {"label": "x"},
                                "sessionFile": in_work(new93), "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
                                "contextTokens": 0, "messageCounts": {}, "toolCalls": 0, "createdAt": four,
                                "previousSessionIds": ["old1"]}})},
             {"op": "open", "path": "old1.jsonl", "flags": ["read_only"]},
             {"op": "check_file", "lines": old},
         ])

    est4 = utc_ms("2026-03-07T09:00:00.000")  # 04:00 EST (UTC-5) on March 7
    edt4 = utc_ms("2026-03-08T08:00:00.000")  # 04:00 EDT (UTC-4) on March 8: the clocks jumped at 07:00Z
    ny = {"daily_hour": 4, "time_zone": "America/New_York"}
    ny_idle = dict(ny, idle_minutes=60)
    new94, idle94 = Ids(2).session(), Ids(3).session()
    case("94_key_session_new_york_across_dst_and_idle",
         "Daily at 04:00 America/New_York across the March DST change (the day is 23 hours long): a "
         "session last active at 04:00 EST on March 7 continues until 07:59:59.999Z on March 8 (its "
         "missing file starts again under its id and is recorded) and expires at 08:00Z = 04:00 EDT; "
         "with idle 60 minutes added, exactly 60 minutes idle continues and 60 minutes + 1 ms expires "
         "(reason idle) (docs/reset-policies.md#when-a-session-expires).",
         options=opts(1, cwd="/work"),
         steps=[
             {"op": "keys_put", "key": KEY, "record": J({"sessionId": "ny1", "updatedAt": est4})},
             {"op": "session_for_key", "key": KEY, "now_ms": edt4 - 1, "policy": ny, "expect_reason": "continued"},
             {"op": "check_header", "json": header("ny1", 0, "/work")},
             {"op": "check_keys_file_rooted",
              "raw": doc({KEY: {"sessionId": "ny1", "updatedAt": edt4 - 1, "sessionFile": in_work("ny1")}})},
             {"op": "session_for_key", "key": KEY, "now_ms": edt4, "policy": ny, "id_seed": 2,
              "expect_reason": "daily"},
             {"op": "check_header", "json": header(new94, 0, "/work", parent="ny1")},
             {"op": "session_for_key", "key": KEY, "now_ms": edt4 + 3600000, "policy": ny_idle,
              "expect_reason": "continued"},
             {"op": "check_header", "json": header(new94, 0, "/work")},
             {"op": "session_for_key", "key": KEY, "now_ms": edt4 + 7200001, "policy": ny_idle, "id_seed": 3,
              "expect_reason": "idle"},
             {"op": "check_header", "json": header(idle94, 0, "/work", parent=new94)},
             {"op": "check_keys_file_rooted",
              "raw": doc({KEY: {"sessionId": idle94, "updatedAt": edt4 + 7200001, "sessionFile": in_work(idle94),
                                "createdAt": edt4 + 7200001, "previousSessionIds": ["ny1", new94]}})},
         ])

    ids = Ids(1)
    sid95, e95 = ids.session(), ids.entry()
    pids = Ids(5)
    uuid95 = pids.uuid7(ms(0))
    pe95 = pids.entry()
    case("95_key_session_forced_reset_names_the_old_by_path_in_pi",
         "XS_RESET_FORCE (a manual /new) starts a new session whatever the policy (none here) says "
         "(reason forced); in the pi dialect the new header's parentSession is the old session's file "
         "path, as pi's forks name theirs (docs/reset-policies.md#the-new-session).",
         options=opts(1, cwd="/work"),
         steps=[
             {"op": "session_for_key", "key": "cron:nightly", "now_ms": T0, "expect_reason": "new"},
             {"op": "append_message", "message": ASSISTANT, "expect_id": e95},
             {"op": "session_for_key", "key": "cron:nightly", "now_ms": T0 + 1000, "force": True, "dialect": "pi",
              "id_seed": 5, "expect_reason": "forced"},
             {"op": "check_keys_file_rooted",
              "raw": doc({"cron:nightly": dict({"sessionId": uuid95, "sessionFile": in_work(uuid95),
                                                "createdAt": T0 + 1000, "updatedAt": T0 + 1000}, **stats(),
                                               previousSessionIds=[sid95])})},
             {"op": "append_message", "message": ASSISTANT, "expect_id": pe95},
             {"op": "check_file", "lines": [pi_header(uuid95, 0, "/work", parent=in_work(sid95)),
                                            assistant_line(pe95, 1)]},
         ])

    new96, again96 = Ids(2).session(), Ids(3).session()
    case("96_key_session_store_default_policy_and_a_missing_file",
         "The store's default policy (xs_store_options.reset_policy, idle 60 minutes) applies when a call "
         "passes none; a call's own policy replaces it (an empty one never expires). An expired record "
         "whose file is gone is still replaced and named as the parent (docs/reset-policies.md#policies).",
         options=opts(1, cwd="/work"),
         store_reset_policy={"idle_minutes": 60},
         steps=[
             {"op": "keys_put", "key": "hook:1",
              "record": J({"sessionId": "gone", "sessionFile": "gone.jsonl", "updatedAt": T0 - 3600001, "title": "T"})},
             {"op": "session_for_key", "key": "hook:1", "now_ms": T0, "id_seed": 2, "expect_reason": "idle"},
             {"op": "check_header", "json": header(new96, 0, "/work", parent="gone")},
             {"op": "session_for_key", "key": "hook:1", "now_ms": T0 + 7200000, "policy": {},
              "expect_reason": "continued"},
             {"op": "session_for_key", "key": "hook:1", "now_ms": T0 + 4 * 3600000, "id_seed": 3,
              "expect_reason": "idle"},
             {"op": "check_keys_file_rooted",
              "raw": doc({"hook:1": {"sessionId": again96, "sessionFile": in_work(again96),
                                     "updatedAt": T0 + 4 * 3600000, "title": "T", "createdAt": T0 + 4 * 3600000,
                                     "previousSessionIds": ["gone", new96]}})},
         ])

    before = doc({KEY: {"sessionId": "s", "updatedAt": T0}})
    bad = [({"key": "a/b"}, None), ({"key": ""}, None), ({"now_ms": -1}, None),
           ({}, {"daily_hour": 24, "time_zone": "UTC"}), ({}, {"daily_hour": -2}), ({}, {"idle_minutes": -5}),
           ({}, {"daily_hour": 4, "time_zone": "Mars/Olympus_Mons"}), ({}, {"daily_hour": 4, "time_zone": "+25:00"}),
           ({}, {"idle_minutes": 5, "time_zone": "Asia/Shanghai"}), ({"flags": ["read_only"]}, None)]
    steps = [{"op": "keys_put", "key": KEY, "record": J({"sessionId": "s", "updatedAt": T0})}]
    for more, policy in bad:
        step = {"op": "session_for_key", "key": KEY, "now_ms": T0, "expect": "XS_EINVAL"}
        step.update(more)
        if policy is not None:
            step["policy"] = policy
        steps.append(step)
    steps.append({"op": "check_keys_file_rooted", "raw": before})
    case("97_key_session_bad_input_leaves_the_document",
         "A bad key ('/', empty), a negative time, an hour outside 0-23, negative idle minutes, an unknown "
         "time zone or offset, a zone without a daily hour, and a read-only open get XS_EINVAL, and the "
         "document stays byte for byte (docs/reset-policies.md#bad-input).",
         options=opts(1, cwd="/work"), steps=steps)
