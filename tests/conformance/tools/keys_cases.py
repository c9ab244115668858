"""Conformance cases of the keyed session store (docs/keyed-store.md), written by hand like the
others: each document's bytes are spelled out as JSON.stringify(doc, null, 2) + "\\n" lays them out
(json.dumps with indent=2 gives the same layout for these values)."""
import json


def doc(obj):
    """The document's exact bytes for a dict of records (insertion order)."""
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def J(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def add_cases(case):
    case("77_keys_put_patch_get_list_delete",
         "The keyed store's document: put adds a record at the end, patch merges as RFC 7386 (null "
         "removes, objects merge, fields keep their places, new ones go last), tokens keep their "
         "spelling, get and list answer minified in document order, delete removes "
         "(docs/keyed-store.md#operations).",
         steps=[
             {"op": "check_keys_get", "key": "agent:main:main", "expect": "XS_ENOTFOUND"},
             {"op": "keys_put", "key": "agent:main:main",
              "record": '{ "sessionId": "s1", "updatedAt": 1767225600000, "cost": 1.50 }'},
             {"op": "keys_put", "key": "cron:nightly", "record": J({"sessionId": "s2", "chatType": "direct"})},
             {"op": "check_keys_file", "raw": '{\n  "agent:main:main": {\n    "sessionId": "s1",\n'
                                              '    "updatedAt": 1767225600000,\n    "cost": 1.50\n  },\n'
                                              '  "cron:nightly": {\n    "sessionId": "s2",\n'
                                              '    "chatType": "direct"\n  }\n}\n'},
             {"op": "keys_patch", "key": "agent:main:main",
              "patch": J({"cost": None, "title": "T", "origin": {"label": "x", "to": None}})},
             {"op": "check_keys_get", "key": "agent:main:main",
              "json": '{"sessionId":"s1","updatedAt":1767225600000,"title":"T","origin":{"label":"x"}}'},
             {"op": "keys_patch", "key": "agent:main:main", "patch": J({"origin": {"to": "y"}, "updatedAt": 5})},
             {"op": "check_keys_list", "prefix": "agent:",
              "json": J([{"key": "agent:main:main", "record": {"sessionId": "s1", "updatedAt": 5, "title": "T",
                                                               "origin": {"label": "x", "to": "y"}}}])},
             {"op": "check_keys_list",
              "json": J([{"key": "agent:main:main", "record": {"sessionId": "s1", "updatedAt": 5, "title": "T",
                                                               "origin": {"label": "x", "to": "y"}}},
                         {"key": "cron:nightly", "record": {"sessionId": "s2", "chatType": "direct"}}])},
             {"op": "keys_delete", "key": "agent:main:main"},
             {"op": "keys_delete", "key": "agent:main:main", "expect": "XS_ENOTFOUND"},
             {"op": "check_keys_file", "raw": doc({"cron:nightly": {"sessionId": "s2", "chatType": "direct"}})},
             {"op": "keys_patch", "key": "hook:1", "patch": J({"sessionId": "s3", "n": None})},
             {"op": "check_keys_get", "key": "hook:1", "json": J({"sessionId": "s3"})},
         ])

    case("78_keys_update_decides_under_the_lock",
         "xs_keys_update's callback sees the record (or none), and its answer is applied: a new record, "
         "none (removed), or a status that cancels and is returned with nothing written; a result that "
         "is not a record is refused (docs/keyed-store.md#operations).",
         steps=[
             {"op": "keys_update", "key": "k", "expect_current": None, "result": J({"sessionId": "a", "n": 1})},
             {"op": "keys_update", "key": "k", "expect_current": J({"sessionId": "a", "n": 1}),
              "cancel": "XS_ECONFLICT", "expect": "XS_ECONFLICT"},
             {"op": "keys_update", "key": "k", "result": J({"n": 2}), "expect": "XS_EINVAL"},
             {"op": "check_keys_file", "raw": doc({"k": {"sessionId": "a", "n": 1}})},
             {"op": "keys_update", "key": "k", "expect_current": J({"sessionId": "a", "n": 1}), "result": None},
             {"op": "check_keys_file", "raw": "{}\n"},
             {"op": "keys_update", "key": "gone", "expect_current": None, "result": None},
             {"op": "check_keys_file", "raw": "{}\n"},
         ])

    before = doc({"k": {"sessionId": "s"}})
    case("79_keys_bad_input_leaves_the_document",
         "Bad keys (empty, '/', '\\\\', control characters, over 256 bytes), records that are not objects, "
         "lack a string sessionId or give a known field the wrong type, and malformed patches get "
         "XS_EINVAL, and the document stays byte for byte (docs/keyed-store.md#keys, #records).",
         steps=[
             {"op": "keys_put", "key": "k", "record": J({"sessionId": "s"})},
             {"op": "keys_put", "key": "", "record": J({"sessionId": "s"}), "expect": "XS_EINVAL"},
             {"op": "keys_put", "key": "a/b", "record": J({"sessionId": "s"}), "expect": "XS_EINVAL"},
             {"op": "keys_put", "key": "a\\b", "record": J({"sessionId": "s"}), "expect": "XS_EINVAL"},
             {"op": "keys_put", "key": "tab\there", "record": J({"sessionId": "s"}), "expect": "XS_EINVAL"},
             {"op": "keys_put", "key": "k" * 257, "record": J({"sessionId": "s"}), "expect": "XS_EINVAL"},
             {"op": "keys_put", "key": "k", "record": "[1]", "expect": "XS_EINVAL"},
             {"op": "keys_put", "key": "k", "record": J({"title": "no id"}), "expect": "XS_EINVAL"},
             {"op": "keys_put", "key": "k", "record": J({"sessionId": 7}), "expect": "XS_EINVAL"},
             {"op": "keys_put", "key": "k", "record": J({"sessionId": "s", "updatedAt": "today"}),
              "expect": "XS_EINVAL"},
             {"op": "keys_put", "key": "k", "record": J({"sessionId": "s", "inputTokens": True}),
              "expect": "XS_EINVAL"},
             {"op": "keys_patch", "key": "k", "patch": '{"sessionId":', "expect": "XS_EINVAL"},
             {"op": "keys_patch", "key": "k", "patch": J({"sessionId": None}), "expect": "XS_EINVAL"},
             {"op": "keys_patch", "key": "k", "patch": J({"cost": "free"}), "expect": "XS_EINVAL"},
             {"op": "check_keys_file", "raw": before},
         ])

    damaged = '{"k":{"sessionId":"s"'
    case("80_keys_damaged_document_is_moved_aside",
         "A document that is not a JSON object is never written over: a read reports XS_ECORRUPT and "
         "changes nothing; the first change moves it aside as sessions.json.corrupt-<time> with its "
         "bytes and reports XS_ECORRUPT; the next change starts an empty document "
         "(docs/keyed-store.md#concurrency-and-crashes).",
         steps=[
             {"op": "write_file", "path": "sessions.json", "raw": damaged},
             {"op": "check_keys_get", "key": "k", "expect": "XS_ECORRUPT"},
             {"op": "check_keys_list", "expect": "XS_ECORRUPT"},
             {"op": "check_keys_file", "raw": damaged},
             {"op": "keys_put", "key": "k", "record": J({"sessionId": "new"}), "expect": "XS_ECORRUPT"},
             {"op": "check_keys_file", "exists": False},
             {"op": "check_keys_preserved", "raw": damaged},
             {"op": "keys_put", "key": "k", "record": J({"sessionId": "new"})},
             {"op": "check_keys_file", "raw": doc({"k": {"sessionId": "new"}})},
         ])
