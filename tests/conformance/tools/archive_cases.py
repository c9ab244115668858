"""Conformance cases of retention (docs/retention.md): archive, archived sessions listed and opened
read-only, prune. Session files are written by hand (write_file) under the store's sessions
directory, so their bytes and sizes are known here; the archives' compressed bytes are not compared
(zlib's output is its own business), only what the library makes of them."""
from casekit import J, ctx, entry, file_bytes, file_name, header, ms, opts

DAY = 86400000
NOW = ms(0) + 31 * DAY  # a month and a day after the sessions' first tick
FAR = 4102444800000  # 2100-01-01: every archive written by a test run is older than a day then
CENTURY = 100 * 365 * DAY

USER = J({"role": "user", "content": "hi"})
ASSISTANT = J({"role": "assistant", "content": "hello"})


def session(sid, cwd="/w", stamp=None):
    """(path relative to the root, lines) of a session with one exchange; `stamp` the entries' time
    (default: the first ticks of the fixed clock)."""
    d = "sessions/--%s--/" % cwd.strip("/")
    lines = [header(sid, 0, cwd),
             entry("message", sid + "-u", None, stamp or 1, message={"role": "user", "content": "hi"}),
             entry("message", sid + "-a", sid + "-u", stamp or 2, message={"role": "assistant", "content": "hello"})]
    return d + file_name(0, sid), lines


def size(lines):
    return len(file_bytes(lines).encode())


def write(path, lines):
    return {"op": "write_file", "path": path, "lines": lines}


def archive(archived, skipped=(), dry_run=False, now=NOW, older=30 * DAY):
    return {"op": "archive", "older_than_ms": older, "now_ms": now, "dry_run": dry_run,
            "archived": list(archived), "skipped": list(skipped)}


def exists(path, yes=True):
    return {"op": "check_path_exists", "path": path, "exists": yes}


def add_cases(case):
    p1, l1 = session("arch1")
    p2, l2 = session("young1", stamp="2026-01-20T00:00:00.000Z")
    case("98_archive_then_open_read_only",
         "archive compresses a session idle for longer than the limit (its last entry's timestamp) to "
         "<file>.jsonl.gz and removes the original; a younger one stays. Opening the archive, even "
         "without the read_only flag, gives a read-only handle with the same entries and context, "
         "info says archived, and the id resolves to it (docs/retention.md#reading-an-archive).",
         options=opts(98),
         steps=[
             write(p1, l1), write(p2, l2),
             archive([{"path": p1, "bytes": size(l1)}]),
             exists(p1, False), exists(p1 + ".gz"), exists(p2),
             {"op": "open", "path": p1 + ".gz", "flags": []},
             {"op": "check_entries", "json": "[%s,%s]" % (l1[1], l1[2])},
             {"op": "check_context", "context": ctx("arch1-a", [USER, ASSISTANT])},
             {"op": "check_info", "fields": {"archived": True, "readOnly": True, "entryCount": 2, "id": "arch1"}},
             {"op": "check_resolve", "query": "arch1", "path": p1 + ".gz"},
             archive([]),
         ])

    p3, l3 = session("arch3", cwd="/v")
    case("99_archive_listing_marks_archives",
         "Archived sessions stay in the listing, marked archived, with their header and first prompt; "
         "live ones are marked false. continue_recent in a directory whose only session is archived "
         "starts a new, writable session (docs/retention.md#reading-an-archive).",
         options=opts(99),
         steps=[
             write(p1, l1), write(p2, l2), write(p3, l3),
             archive([{"path": p3, "bytes": size(l3)}, {"path": p1, "bytes": size(l1)}]),  # path order
             {"op": "check_list", "expected": [
                 {"path": p3 + ".gz", "id": "arch3", "archived": True},
                 {"path": p1 + ".gz", "id": "arch1", "archived": True, "firstMessage": "hi"},
                 {"path": p2, "id": "young1", "archived": False}]},
             {"op": "check_list", "cwd": "/v", "full": True,
              "expected": [{"id": "arch3", "archived": True, "entryCount": 2, "messageCount": 2}]},
             {"op": "continue_recent", "cwd": "/v"},
             {"op": "check_info", "fields": {"archived": False, "readOnly": False, "entryCount": 0}},
         ])

    pa, la = session("old-a")
    pb, lb = session("old-b", cwd="/x")
    case("100_archive_dry_run_lists_what_a_real_run_archives",
         "A dry run reports exactly the sessions a real run then archives (gzBytes 0) and changes "
         "nothing (docs/retention.md#archiving).",
         options=opts(100),
         steps=[
             write(pa, la), write(pb, lb), write(p2, l2),
             archive([{"path": pa, "bytes": size(la), "gzBytes": 0}, {"path": pb, "bytes": size(lb), "gzBytes": 0}],
                     dry_run=True),
             exists(pa), exists(pb), exists(pa + ".gz", False), exists(pb + ".gz", False),
             archive([{"path": pa, "bytes": size(la)}, {"path": pb, "bytes": size(lb)}]),
             exists(pa, False), exists(pb, False), exists(pa + ".gz"), exists(pb + ".gz"),
         ])

    case("101_archive_skips_a_live_writer",
         "A session another handle has open for writing (its writer lock held) is skipped with reason "
         "\"writer\", in a dry run and a real run, and left as it is; once closed it is archived "
         "(docs/retention.md#archiving).",
         options=opts(101),
         steps=[
             write(p1, l1),
             {"op": "open", "path": p1, "flags": []},
             archive([], [{"path": p1, "reason": "writer"}], dry_run=True),
             archive([], [{"path": p1, "reason": "writer"}]),
             {"op": "check_file", "lines": l1},
             {"op": "close"},
             archive([{"path": p1, "bytes": size(l1)}]),
         ])

    case("102_prune_deletes_only_archives_and_a_dry_run_lists_them",
         "prune deletes only archives whose file is older than the limit; its dry run lists exactly "
         "what the real run deletes; a live session, however old, is never touched "
         "(docs/retention.md#pruning).",
         options=opts(102),
         steps=[
             write(p1, l1), write(pb, lb), write(p2, l2),
             archive([{"path": p1, "bytes": size(l1)}, {"path": pb, "bytes": size(lb)}]),
             {"op": "prune", "older_than_ms": CENTURY, "now_ms": FAR, "pruned": []},
             {"op": "prune", "older_than_ms": DAY, "now_ms": FAR, "dry_run": True,
              "pruned": [{"path": p1 + ".gz"}, {"path": pb + ".gz"}]},
             exists(p1 + ".gz"), exists(pb + ".gz"),
             {"op": "prune", "older_than_ms": DAY, "now_ms": FAR, "pruned": [{"path": p1 + ".gz"}, {"path": pb + ".gz"}]},
             exists(p1 + ".gz", False), exists(pb + ".gz", False), exists(p2),
             {"op": "prune", "older_than_ms": 0, "now_ms": FAR, "pruned": []},
             exists(p2),
         ])

    case("103_archived_session_refuses_every_write",
         "On an archived session every write is XS_EREADONLY (appends, labels, title); reading, "
         "navigation and a reload of the unchanged archive work (docs/retention.md#reading-an-archive).",
         options=opts(103),
         steps=[
             write(p1, l1),
             archive([{"path": p1, "bytes": size(l1)}]),
             {"op": "open", "path": p1 + ".gz", "flags": ["read_only"]},
             {"op": "append_message", "message": USER, "expect": "XS_EREADONLY"},
             {"op": "append_custom", "custom_type": "x", "expect": "XS_EREADONLY"},
             {"op": "append_label", "target_id": "arch1-u", "label": "l", "expect": "XS_EREADONLY"},
             {"op": "set_title", "title": "t", "expect": "XS_EREADONLY"},
             {"op": "set_leaf", "id": "arch1-u"},
             {"op": "check_context", "context": ctx("arch1-u", [USER])},
             {"op": "reload", "expect_added": 0},
             {"op": "check_entries", "json": "[%s,%s]" % (l1[1], l1[2])},
         ])

    case("104_archive_and_prune_need_a_limit",
         "archive and prune refuse options without an age limit (older_than_ms unset or negative) with "
         "XS_EINVAL, and change nothing (docs/retention.md).",
         options=opts(104),
         steps=[
             write(p1, l1),
             {"op": "archive", "now_ms": NOW, "expect": "XS_EINVAL"},
             {"op": "archive", "older_than_ms": -5, "now_ms": NOW, "expect": "XS_EINVAL"},
             {"op": "prune", "now_ms": FAR, "expect": "XS_EINVAL"},
             exists(p1), exists(p1 + ".gz", False),
         ])

    bad = "sessions/--w--/" + file_name(0, "bad1") + ".gz"
    case("105_a_damaged_archive_is_corrupt_not_a_session",
         "A .jsonl.gz that is not gzip opens with XS_ECORRUPT and is not listed; an archive beside its "
         "original (a run that stopped before removing it) is hidden: the live file is listed and "
         "resolved (docs/retention.md#limits, #archiving).",
         options=opts(105),
         steps=[
             {"op": "write_file", "path": bad, "raw": "plain text, not gzip\n"},
             {"op": "open", "path": bad, "flags": ["read_only"], "expect": "XS_ECORRUPT"},
             write(p1, l1),
             archive([{"path": p1, "bytes": size(l1)}]),
             write(p1, l1),
             {"op": "check_list", "expected": [{"path": p1, "id": "arch1", "archived": False}]},
             {"op": "check_resolve", "query": "arch1", "path": p1},
             archive([{"path": p1, "bytes": size(l1)}]),
             {"op": "check_list", "expected": [{"path": p1 + ".gz", "archived": True}]},
         ])
