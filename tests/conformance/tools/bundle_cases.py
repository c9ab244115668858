"""Conformance cases of portable bundles (docs/bundles.md): sessions written by hand (write_file)
into the case's own store, exported to a bundle, imported into a second store the case names
(use_store) or into the same one, and read back there with the ordinary checks. A bundle's own size
is zstd's business and not compared; every other member of the reports is."""
import hashlib

from casekit import J, entry, file_bytes, file_name, header, ts

CWD = "/w/app"
DIR = "sessions/--w-app--/"
PARENT_FILE, CHILD_FILE = file_name(0, "bndl-parent"), file_name(3, "bndl-child")
PARENT, CHILD = DIR + PARENT_FILE, DIR + CHILD_FILE
BLOB = "lexer notes"
BLOB_HASH = hashlib.sha256(BLOB.encode()).hexdigest()
KEY, KEY_RECORD = "agent:lexer", J({"sessionId": "bndl-child", "chatType": "direct"})


def user(id_, parent, tick, text):
    return entry("message", id_, parent, tick, message={"role": "user", "content": text})


def assistant(id_, parent, tick, text):
    return entry("message", id_, parent, tick, message={"role": "assistant", "content": [{"type": "text", "text": text}]})


PARENT_LINES = [header("bndl-parent", 0, CWD, title="Lexer"),
                user("p1", None, 1, "plan the lexer"),
                assistant("p2", "p1", 2, "tokens first")]
# A fork of the parent (an id link, oh-my-pi's way) that references a blob.
CHILD_LINES = [header("bndl-child", 3, CWD, parent="bndl-parent"),
               user("c1", None, 4, "the notes: blob:sha256:" + BLOB_HASH),
               assistant("c2", "c1", 5, "read them")]
# Another session with the parent's id and other bytes: what a clash meets in the target.
OTHER_PARENT_LINES = [header("bndl-parent", 0, CWD, title="Lexer"), user("p1", None, 1, "something else")]
# A session of the target's own, which a refused import leaves as it was.
OTHER_FILE = file_name(6, "bndl-other")
OTHER_LINES = [header("bndl-other", 6, CWD), user("o1", None, 7, "unrelated")]


def write(path, lines):
    return {"op": "write_file", "path": path, "lines": lines}


SOURCE = [write(PARENT, PARENT_LINES), write(CHILD, CHILD_LINES),
          {"op": "blob_put", "data": BLOB, "expect_hash": BLOB_HASH},
          {"op": "keys_put", "key": KEY, "record": KEY_RECORD}]


def size(lines):
    return len(file_bytes(lines).encode())


def exported(id_, path, lines, lineage, parent, parent_in_bundle):
    return {"id": id_, "path": "{root}/" + path, "cwd": CWD, "archived": False, "lineage": lineage,
            "bytes": size(lines), "parentSession": parent, "parentInBundle": parent_in_bundle}


CHILD_OUT = exported("bndl-child", CHILD, CHILD_LINES, False, "bndl-parent", True)
PARENT_OUT = exported("bndl-parent", PARENT, PARENT_LINES, True, None, False)


def export_both(bundle="lexer.xsb"):
    """The child and, as its lineage, the parent."""
    return {"op": "export_bundle", "sessions": ["bndl-child"], "bundle": bundle,
            "report": {"path": "{bundles}/" + bundle, "compression": "zstd", "sessions": [CHILD_OUT, PARENT_OUT],
                       "blobs": [{"hash": BLOB_HASH, "bytes": len(BLOB)}], "missingBlobs": [], "keys": [KEY]}}


def placed(id_, path, action, new_id=None, cwd=CWD, old_cwd=None):
    return {"id": id_, "newId": new_id, "path": "{root}/" + path, "cwd": cwd, "oldCwd": old_cwd, "archived": False,
            "action": action}


def imported(action, sessions, dry_run=False, bundle="lexer.xsb", keys=True):
    return {"dryRun": dry_run, "bundle": "{bundles}/" + bundle, "sourceRoot": "{root:main}", "sessions": sessions,
            "blobs": [{"hash": BLOB_HASH, "action": action}],
            "keys": [{"key": KEY, "action": action}] if keys else []}


BOTH_LISTED = [{"path": PARENT, "id": "bndl-parent"}, {"path": CHILD, "id": "bndl-child"}]


def renamed_id(old_id, lines):
    """docs/bundles.md#renaming: the first 16 hex digits of SHA-256("xsession-bundle rename\\n" +
    old id + "\\n" + hex SHA-256 of the bytes it would have had under the old id)."""
    digest = hashlib.sha256(file_bytes(lines).encode()).hexdigest()
    return hashlib.sha256(("xsession-bundle rename\n%s\n%s" % (old_id, digest)).encode()).hexdigest()[:16]


def add_cases(case):
    case("113_bundle_round_trip_into_an_empty_store",
         "An export of a fork carries its parent (lineage), the blob it references and its key record; "
         "imported into an empty store, every session file, the blob and the record are there byte for "
         "byte and read as they were (docs/bundles.md#export, docs/bundles.md#import).",
         steps=SOURCE + [
             export_both(),
             {"op": "use_store", "store": "copy"},
             {"op": "check_list", "expected": []},
             {"op": "import_bundle", "bundle": "lexer.xsb",
              "report": imported("imported", [placed("bndl-child", CHILD, "imported"),
                                              placed("bndl-parent", PARENT, "imported")])},
             {"op": "check_list", "expected": BOTH_LISTED},
             {"op": "open", "path": CHILD},
             {"op": "check_file", "lines": CHILD_LINES},
             {"op": "check_info", "fields": {"id": "bndl-child", "entryCount": 2, "leafId": "c2"}},
             {"op": "open", "path": PARENT},
             {"op": "check_file", "lines": PARENT_LINES},
             {"op": "check_blob", "hash": BLOB_HASH, "data": BLOB},
             {"op": "check_keys_get", "key": KEY, "json": KEY_RECORD},
         ])
    case("114_bundle_imported_again_is_present_and_changes_nothing",
         "Importing a bundle a second time, or into the store it came from, finds every session, blob "
         "and key record already there: each is \"present\" and nothing is written "
         "(docs/bundles.md#idempotence).",
         steps=SOURCE + [
             export_both(),
             {"op": "import_bundle", "bundle": "lexer.xsb",
              "report": imported("present", [placed("bndl-child", CHILD, "present"),
                                             placed("bndl-parent", PARENT, "present")])},
             {"op": "use_store", "store": "copy"},
             {"op": "import_bundle", "bundle": "lexer.xsb", "report": {"sessions": [{"action": "imported"},
                                                                                    {"action": "imported"}]}},
             {"op": "import_bundle", "bundle": "lexer.xsb",
              "report": imported("present", [placed("bndl-child", CHILD, "present"),
                                             placed("bndl-parent", PARENT, "present")])},
             {"op": "check_list", "expected": BOTH_LISTED},
             # Not check_store_files: whether the keyed store leaves a lock file is the storage's
             # business (a file on a disk, none in PostgreSQL).
             {"op": "check_keys_get", "key": KEY, "json": KEY_RECORD},
             {"op": "check_blob", "hash": BLOB_HASH, "data": BLOB},
             {"op": "open", "path": CHILD},
             {"op": "check_file", "lines": CHILD_LINES},
         ])
    new_parent = renamed_id("bndl-parent", PARENT_LINES)
    renamed_file = file_name(0, new_parent)
    child_relinked = [header("bndl-child", 3, CWD, parent=new_parent)] + CHILD_LINES[1:]
    case("115_bundle_id_clash_is_refused_then_renamed",
         "A session id the target holds with other bytes is refused with XS_EEXISTS and nothing is "
         "written; with rename the bundle's copy gets the id derived from the old id and its bytes, "
         "under a file name of that id, and the fork that named it is rewritten to name the new id "
         "(docs/bundles.md#renaming).",
         steps=SOURCE + [
             export_both(),
             {"op": "use_store", "store": "target"},
             write(PARENT, OTHER_PARENT_LINES),
             {"op": "import_bundle", "bundle": "lexer.xsb", "expect": "XS_EEXISTS",
              "message_prefix": "session bndl-parent is already in the store with other content ({root}/" + PARENT +
                                "); import with rename"},
             {"op": "check_list", "expected": [{"path": PARENT, "id": "bndl-parent"}]},
             {"op": "check_store_files", "files": ["sessions"]},
             {"op": "import_bundle", "bundle": "lexer.xsb", "rename": True,
              "report": imported("imported", [placed("bndl-child", CHILD, "imported"),
                                              placed("bndl-parent", DIR + renamed_file, "renamed", new_parent)])},
             {"op": "open", "path": PARENT},
             {"op": "check_file", "lines": OTHER_PARENT_LINES},
             {"op": "open", "path": DIR + renamed_file},
             {"op": "check_file", "lines": [header(new_parent, 0, CWD, title="Lexer")] + PARENT_LINES[1:]},
             {"op": "open", "path": CHILD},
             {"op": "check_file", "lines": child_relinked},
             {"op": "import_bundle", "bundle": "lexer.xsb", "rename": True,
              "report": {"sessions": [{"newId": None, "action": "present"},
                                      {"newId": new_parent, "action": "present"}]}},
         ])
    moved = {"type": "session", "version": 3, "id": "bndl-parent", "timestamp": ts(0),
             "cwd": "/srv/app", "title": "Lexer", "originalCwd": CWD}
    case("116_bundle_cwd_map_moves_sessions_and_keeps_the_original_cwd",
         "A cwd map pair whose old path is a session's cwd or above it gives the session the new path: "
         "it goes to that directory, its header's cwd is rewritten and the old one kept after the "
         "header's other members as originalCwd; the entries are as they were "
         "(docs/bundles.md#import).",
         steps=SOURCE + [
             {"op": "export_bundle", "sessions": ["bndl-parent"], "bundle": "parent.xsb",
              "report": {"sessions": [dict(PARENT_OUT, lineage=False)], "blobs": [], "keys": []}},
             {"op": "use_store", "store": "moved"},
             {"op": "import_bundle", "bundle": "parent.xsb", "cwd_map": [["/elsewhere", "/x"], ["/w", "/srv"]],
              "report": {"sessions": [placed("bndl-parent", "sessions/--srv-app--/" + PARENT_FILE, "imported",
                                             cwd="/srv/app", old_cwd=CWD)], "blobs": [], "keys": []}},
             {"op": "check_list", "expected": [{"path": "sessions/--srv-app--/" + PARENT_FILE, "cwd": "/srv/app"}]},
             {"op": "open", "path": "sessions/--srv-app--/" + PARENT_FILE},
             {"op": "check_header", "json": J(moved)},
             {"op": "check_file", "lines": [J(moved)] + PARENT_LINES[1:]},
         ])
    case("117_bundle_dry_run_writes_nothing",
         "A dry run checks the whole bundle and reports what an import would do, and writes nothing: "
         "the target stays empty (docs/bundles.md#import).",
         steps=SOURCE + [
             export_both(),
             {"op": "use_store", "store": "dry"},
             {"op": "import_bundle", "bundle": "lexer.xsb", "dry_run": True,
              "report": imported("imported", [placed("bndl-child", CHILD, "imported"),
                                              placed("bndl-parent", PARENT, "imported")], dry_run=True)},
             {"op": "check_list", "expected": []},
             {"op": "check_store_files", "files": []},
         ])
    case("118_bundle_without_lineage_carries_only_the_named_sessions",
         "With no_lineage only the named fork travels (its parentSession kept, parentInBundle false), "
         "here gzip-compressed; the import places it alone (docs/bundles.md#export).",
         steps=SOURCE + [
             {"op": "export_bundle", "sessions": ["bndl-child"], "bundle": "child.xsb", "no_lineage": True,
              "gzip": True,
              "report": {"path": "{bundles}/child.xsb", "compression": "gzip",
                         "sessions": [dict(CHILD_OUT, parentInBundle=False)],
                         "blobs": [{"hash": BLOB_HASH, "bytes": len(BLOB)}], "missingBlobs": [], "keys": [KEY]}},
             {"op": "use_store", "store": "copy"},
             {"op": "import_bundle", "bundle": "child.xsb",
              "report": imported("imported", [placed("bndl-child", CHILD, "imported")], bundle="child.xsb")},
             {"op": "check_list", "expected": [{"path": CHILD, "id": "bndl-child"}]},
             {"op": "open", "path": CHILD},
             {"op": "check_file", "lines": CHILD_LINES},
         ])
    case("119_bundle_cut_short_or_flipped_is_refused_and_the_store_unchanged",
         "A bundle cut short, or with one byte changed, is refused with XS_ECORRUPT before anything is "
         "placed: the target holds what it held, and the intact bundle imports afterwards "
         "(docs/bundles.md#what-an-import-refuses).",
         steps=SOURCE + [
             export_both(),
             {"op": "damage_bundle", "bundle": "lexer.xsb", "truncate": 200, "to": "cut.xsb"},
             # The first byte: zstd's magic number. A byte further in lands, after compression, on
             # what the store root's random name makes it: not the same place twice.
             {"op": "damage_bundle", "bundle": "lexer.xsb", "flip": 0, "to": "flipped.xsb"},
             {"op": "use_store", "store": "target"},
             write(DIR + OTHER_FILE, OTHER_LINES),
             {"op": "import_bundle", "bundle": "cut.xsb", "expect": "XS_ECORRUPT",
              "message_prefix": "not a bundle, or a damaged one ("},
             {"op": "import_bundle", "bundle": "flipped.xsb", "expect": "XS_ECORRUPT",
              "message_prefix": "not a bundle, or a damaged one (Unrecognized archive format)"},
             {"op": "check_store_files", "files": ["sessions"]},
             {"op": "check_list", "expected": [{"path": DIR + OTHER_FILE, "id": "bndl-other"}]},
             {"op": "open", "path": DIR + OTHER_FILE},
             {"op": "check_file", "lines": OTHER_LINES},
             {"op": "import_bundle", "bundle": "lexer.xsb", "report": {"sessions": [{"action": "imported"},
                                                                                    {"action": "imported"}]}},
         ])
