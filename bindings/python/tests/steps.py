"""The conformance operations other than appends (tests/conformance/README.md), registered on
replay.OPS. An operation makes its call and returns a check to run when the call succeeded."""

from __future__ import annotations

import glob
import json
import os
from typing import Any, Dict, List, Optional

from xsession import XsError
from xsession.errors import STATUS_CODES

from conftest import round_trip
from replay import DIALECTS, Check, Mismatch, Runner, Step, op, text_of, write


def text_check(got: str, key: str = "json") -> Check:
    return lambda r, st: r.expect_text(got, text_of(st[key]))


# --- sessions -------------------------------------------------------------------------------
@op("create")
def _create(r: Runner, st: Step) -> Check:
    kw = r.options(st)
    for k in ("session_id", "title", "parent_session"):
        if st.get(k) is not None:
            kw[k] = st[k]
    r.adopt(r.store.create(st["cwd"], **kw))
    return None


def _open_path(r: Runner, path: str, st: Step) -> None:
    kw = r.options(st)
    if "cwd" in st:
        kw["cwd"] = st["cwd"]
    s = r.store.open(path, **kw)
    r.close_current()
    r.s, r.path = s, path


@op("open")
def _open(r: Runner, st: Step) -> Check:
    _open_path(r, os.path.join(r.root, st.get("path", "input.jsonl")), st)
    return None


@op("close")
def _close(r: Runner, st: Step) -> Check:
    r.close_current()
    return None


@op("reopen")
def _reopen(r: Runner, st: Step) -> Check:
    r.close_current()
    _open_path(r, r.path, st)
    return None


@op("set_leaf")
def _set_leaf(r: Runner, st: Step) -> Check:
    r.session.set_leaf(st.get("id"))
    return None


@op("set_title")
def _set_title(r: Runner, st: Step) -> Check:
    r.session.set_title(st.get("title"))
    return None


@op("flush")
def _flush(r: Runner, st: Step) -> Check:
    r.session.flush()
    return None


@op("persist")
def _persist(r: Runner, st: Step) -> Check:
    r.session.persist()
    return None


@op("reload")
def _reload(r: Runner, st: Step) -> Check:
    added = r.session.reload()

    def check(r: Runner, st: Step) -> None:
        if "expect_added" in st and added != st["expect_added"]:
            raise Mismatch(f"reload added {added}, want {st['expect_added']}")

    return check


def _with_id(r: Runner, st: Step) -> Dict[str, Any]:
    kw = r.options(st)
    if st.get("session_id") is not None:
        kw["session_id"] = st["session_id"]
    return kw


@op("fork")
def _fork(r: Runner, st: Step) -> Check:
    r.adopt(r.session.fork(**_with_id(r, st)))
    return None


@op("create_branched")
def _create_branched(r: Runner, st: Step) -> Check:
    r.adopt(r.session.create_branched(st.get("leaf"), **_with_id(r, st)))
    return None


@op("fork_from")
def _fork_from(r: Runner, st: Step) -> Check:
    r.adopt(r.store.fork_from(os.path.join(r.root, st["source"]), st["cwd"], **r.options(st)))
    return None


@op("continue_recent")
def _continue_recent(r: Runner, st: Step) -> Check:
    r.adopt(r.store.continue_recent(st["cwd"], st.get("terminal_id"), **r.options(st)))
    return None


@op("move_to")
def _move_to(r: Runner, st: Step) -> Check:
    r.session.move_to(st["cwd"])
    r.path = r.session.info().path
    return None


@op("write_breadcrumb")
def _breadcrumb(r: Runner, st: Step) -> Check:
    r.store.write_breadcrumb(st["terminal_id"], st["cwd"], os.path.join(r.root, st["path"]))
    return None


@op("blob_put")
def _blob_put(r: Runner, st: Step) -> Check:
    h = r.store.blob_put(text_of(st["data"]).encode())
    return lambda r, st: r.expect_text(h, st.get("expect_hash", h))


@op("write_file")
def _write_file(r: Runner, st: Step) -> Check:
    write(os.path.join(r.root, st["path"]), r.lines_or_raw(st).encode())
    return None


@op("append_to_file")
def _append_to_file(r: Runner, st: Step) -> Check:
    with open(r.path, "ab") as f:
        f.write(text_of(st["raw"]).encode())
    return None


@op("session_for_key")
def _session_for_key(r: Runner, st: Step) -> Check:
    r.close_current()
    kw = _with_id(r, st)
    if "id_seed" in st:
        kw["id_seed"] = st["id_seed"]
    policy = r.policy(st["policy"]) if "policy" in st else None
    s, reason = r.store.session_for_key(st["key"], st["now_ms"], policy=policy, force=st.get("force", False), **kw)
    r.adopt(s)

    def check(r: Runner, st: Step) -> None:
        if "expect_reason" in st and str(reason) != st["expect_reason"]:
            raise Mismatch(f"reason {reason}, want {st['expect_reason']}")

    return check


# --- checks ---------------------------------------------------------------------------------
@op("check_file")
def _check_file(r: Runner, st: Step) -> Check:
    path = r.path or r.session.info().path
    exists = os.path.exists(path)
    if st.get("exists") is False:
        if exists:
            raise Mismatch(f"{path} should not exist yet")
        return None
    with open(path, "rb") as f:
        got = f.read()
    if "raw_hex" in st:
        want = bytes.fromhex(st["raw_hex"])
    elif "raw" in st:
        want = text_of(st["raw"]).encode()
    else:
        want = r.lines_or_raw(st).replace("{root}", r.root).encode()
    if got != want:
        raise Mismatch(f"file {path}\ngot\n{got!r}\nwant\n{want!r}")
    return None


@op("check_context")
def _check_context(r: Runner, st: Step) -> Check:
    ctx = round_trip(r.session.build_context(st.get("leaf")))
    return text_check(ctx.raw, "context")


@op("check_dialect")
def _check_dialect(r: Runner, st: Step) -> Check:
    got = r.session.dialect
    if got != DIALECTS[st["dialect"]]:
        raise Mismatch(f"dialect {got!r}, want {st['dialect']}")
    return None


@op("check_leaf")
def _check_leaf(r: Runner, st: Step) -> Check:
    got = r.session.leaf
    if got != st.get("id"):
        raise Mismatch(f"leaf {got!r}, want {st.get('id')!r}")
    return None


@op("check_header")
def _check_header(r: Runner, st: Step) -> Check:
    return text_check(round_trip(r.session.header()).raw)


def _entries_check(got: Any) -> Check:
    for e in got:
        round_trip(e, e.raw)
    return text_check(round_trip(got).raw)


@op("check_entries")
def _check_entries(r: Runner, st: Step) -> Check:
    return _entries_check(r.session.entries(resolve_blobs=st.get("resolve_blobs", False)))


@op("check_entry")
def _check_entry(r: Runner, st: Step) -> Check:
    e = r.session.entry(st["id"], resolve_blobs=st.get("resolve_blobs", False))
    return text_check(round_trip(e, e.line).line)


@op("check_path")
def _check_path(r: Runner, st: Step) -> Check:
    return _entries_check(r.session.path(st.get("id"), resolve_blobs=st.get("resolve_blobs", False)))


@op("check_children")
def _check_children(r: Runner, st: Step) -> Check:
    return _entries_check(r.session.children(st["id"], resolve_blobs=st.get("resolve_blobs", False)))


@op("check_tree")
def _check_tree(r: Runner, st: Step) -> Check:
    return text_check(round_trip(r.session.tree(resolve_blobs=st.get("resolve_blobs", False))).raw)


@op("check_labels")
def _check_labels(r: Runner, st: Step) -> Check:
    return text_check(round_trip(r.session.labels()).raw)


@op("check_usage")
def _check_usage(r: Runner, st: Step) -> Check:
    return text_check(round_trip(r.session.usage()).raw)


@op("check_info")
def _check_info(r: Runner, st: Step) -> Check:
    info = round_trip(r.session.info())
    r.same_fields("info", json.loads(info.raw), st["fields"])
    return None


@op("check_diagnostics")
def _check_diagnostics(r: Runner, st: Step) -> Check:
    diags = round_trip(r.session.diagnostics())
    got, want = json.loads(diags.raw), st["expected"]
    if len(got) != len(want):
        raise Mismatch(f"{len(got)} diagnostics, want {len(want)}: {diags.raw}")
    for g, w in zip(got, want):
        r.same_fields("diagnostic", g, w)
    return None


@op("check_preserved")
def _check_preserved(r: Runner, st: Step) -> Check:
    found = glob.glob(glob.escape(r.path) + ".corrupt-*")
    if len(found) != 1:
        raise Mismatch(f"found {len(found)} preserved copies of {r.path}")
    with open(found[0], "rb") as f:
        if f.read() != text_of(st["raw"]).encode():
            raise Mismatch("preserved copy differs")
    return None


@op("check_blob")
def _check_blob(r: Runner, st: Step) -> Check:
    got = r.store.blob_get(st["hash"])
    return lambda r, st: r.expect_text(got.decode(), text_of(st["data"]))


@op("check_resolve")
def _check_resolve(r: Runner, st: Step) -> Check:
    got = r.store.resolve(st["query"], st.get("cwd"))
    return lambda r, st: r.expect_text(r.rel(got), st["path"])


@op("check_list")
def _check_list(r: Runner, st: Step) -> Check:
    listing = round_trip(r.store.list(st.get("cwd"), full=st.get("full", False), limit=st.get("limit", 0)))
    got = sorted(json.loads(listing.raw), key=lambda m: r.rel(m["path"]))
    want = st["expected"]
    if len(got) != len(want):
        raise Mismatch(f"{len(got)} sessions listed, want {len(want)}: {listing.raw}")
    for g, w in zip(got, want):
        g["path"] = r.rel(g["path"])
        r.same_fields("list", g, w)
    return None


# --- keyed store ----------------------------------------------------------------------------
@op("keys_put")
def _keys_put(r: Runner, st: Step) -> Check:
    r.store.keys_put(st["key"], text_of(st["record"]))
    return None


@op("keys_patch")
def _keys_patch(r: Runner, st: Step) -> Check:
    r.store.keys_patch(st["key"], text_of(st["patch"]))
    return None


@op("keys_delete")
def _keys_delete(r: Runner, st: Step) -> Check:
    r.store.keys_delete(st["key"])
    return None


@op("keys_update")
def _keys_update(r: Runner, st: Step) -> Check:
    seen: List[Optional[str]] = []

    def fn(current: Optional[str]) -> Optional[str]:
        seen.append(current)
        if "cancel" in st:
            raise XsError(STATUS_CODES[st["cancel"]])
        return None if st.get("result") is None else text_of(st["result"])

    try:
        r.store.keys_update(st["key"], fn)
    finally:
        if "expect_current" in st:
            want = None if st["expect_current"] is None else text_of(st["expect_current"])
            if seen != [want]:
                raise Mismatch(f"the function was given {seen}, want {want!r}")
    return None


@op("check_keys_get")
def _check_keys_get(r: Runner, st: Step) -> Check:
    return text_check(round_trip(r.store.keys_get(st["key"])).raw)


@op("check_keys_list")
def _check_keys_list(r: Runner, st: Step) -> Check:
    return text_check(round_trip(r.store.keys_list(st.get("prefix"))).raw)


def _document(r: Runner) -> Optional[bytes]:
    try:
        with open(os.path.join(r.root, "sessions.json"), "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


@op("check_keys_file")
def _check_keys_file(r: Runner, st: Step) -> Check:
    got = _document(r)
    if st.get("exists") is False:
        if got is not None:
            raise Mismatch(f"sessions.json exists: {got!r}")
        return None
    if got != text_of(st["raw"]).encode():
        raise Mismatch(f"sessions.json\ngot\n{got!r}\nwant\n{text_of(st['raw'])}")
    return None


@op("check_keys_preserved")
def _check_keys_preserved(r: Runner, st: Step) -> Check:
    found = glob.glob(os.path.join(glob.escape(r.root), "sessions.json.corrupt-*"))
    if len(found) != 1:
        raise Mismatch(f"found {len(found)} preserved copies of sessions.json")
    with open(found[0], "rb") as f:
        if f.read() != text_of(st["raw"]).encode():
            raise Mismatch("preserved document differs")
    return None


def _rooted_document(r: Runner, st: Step) -> Check:
    got, want = _document(r), r.rooted(st, "raw").encode()
    if got != want:
        raise Mismatch(f"sessions.json\ngot\n{got!r}\nwant\n{want!r}")
    return None


OPS_DOC = {"check_stats_document": _rooted_document, "check_keys_file_rooted": _rooted_document}
for _name, _fn in OPS_DOC.items():
    op(_name)(_fn)


import steps_library  # noqa: E402,F401  (the session library's and import's operations)
