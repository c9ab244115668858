"""Lifecycle, errors, paths and the typed outputs the conformance cases do not reach."""

from __future__ import annotations

import asyncio
import ctypes
import json
import os
import pathlib


import pytest

import xsession
from xsession import ABSENT, Dialect, ResetReason
from xsession.errors import STATUS_CODES
from conftest import round_trip

USER = {"role": "user", "content": "hi"}
REPLY = {
    "role": "assistant",
    "content": [{"type": "text", "text": "hello"}, {"type": "toolCall", "id": "t1", "name": "bash"}],
    "usage": {"input": 10, "output": 5, "cacheRead": 1, "cacheWrite": 2, "cost": {"total": 0.25}},
}
FIXED = dict(clock_start_ms=1767225600000, clock_step_ms=1000, id_seed=7)


def test_with_blocks_close_and_close_is_idempotent(tmp_path: pathlib.Path) -> None:
    with xsession.Store(tmp_path) as st:
        with st.create("/p", **FIXED) as s:
            first = s.append_message(USER)
            s.append_message(REPLY)
        assert s.closed
        s.close()  # again: nothing happens
        with pytest.raises(xsession.MisuseError) as e:
            s.append_message(USER)
        assert e.value.code == -4
        with st.open(s_path := st.list()[0].path, read_only=True) as again:
            assert again.entries()[0].id == first
            assert again.info().read_only is True
            assert again.info().path == s_path
    assert st.closed
    st.close()
    with pytest.raises(xsession.MisuseError):
        st.list()


def test_a_session_outlives_its_store(tmp_path: pathlib.Path) -> None:
    st = xsession.Store(tmp_path)
    s = st.create("/p", no_defer=True)
    st.close()
    s.append_message(USER)
    assert [m.role for m in s.build_context().messages] == ["user"]
    s.close()


def test_errors_carry_code_and_message(tmp_path: pathlib.Path, store: xsession.Store) -> None:
    with pytest.raises(xsession.NotFoundError) as nf:
        store.open(str(tmp_path / "missing.jsonl"))
    assert nf.value.code == -5 and nf.value.message and isinstance(nf.value, LookupError)
    with store.create("/p", no_defer=True) as s:
        with pytest.raises(xsession.InvalidArgumentError) as bad:
            s.append_message("{not json")
        assert bad.value.code == -3 and isinstance(bad.value, ValueError)
        assert s.last_status == -3
        s.append({"type": "note", "id": "mine"})
        with pytest.raises(xsession.ExistsError):
            s.append({"type": "note", "id": "mine"})
        with pytest.raises(xsession.NotFoundError):
            s.set_leaf("nope")
        with pytest.raises(xsession.LockedError):
            store.open(s.info().path)
        with store.open(s.info().path, read_only=True) as ro:
            with pytest.raises(xsession.ReadOnlyError):
                ro.append_message(USER)
    unknown = xsession.error_for(-1234, "later")
    assert type(unknown) is xsession.XsError and unknown.code == -1234
    assert xsession.status_str(-5).startswith("XS_ENOTFOUND")


def test_paths_bytes_pathlike_and_non_utf8(tmp_path: pathlib.Path) -> None:
    root = os.fsencode(tmp_path) + b"/st\xff\xfe"
    with xsession.Store(root) as st:
        with st.create(b"/proj", no_defer=True) as s:
            s.append_message(USER)
            path = st.resolve(s.info().id)
            assert os.path.exists(path) and os.fsencode(path).startswith(root)
        with st.open(pathlib.Path(path)) as s2:
            assert s2.header().cwd == "/proj"
        with pytest.raises(xsession.InvalidArgumentError):  # header text must be UTF-8
            st.create(b"/proj\xff")
    with pytest.raises(xsession.InvalidArgumentError):
        xsession.Store(tmp_path / "x\0y")


def test_typed_session_outputs(store: xsession.Store) -> None:
    with store.create("/p", title="T", **FIXED) as s:
        u = s.append_message(USER)
        a = s.append_message(REPLY)
        s.append_label(u, "start")
        s.append_model_change("anthropic/claude", "default")
        s.append_thinking_level("high")
        s.append_custom("ext", {"k": [1, 2]})
        s.append({"type": "service_tier_change", "serviceTier": "flex", "extraField": True})
        entries = round_trip(s.entries())
        kinds = [type(e).__name__ for e in entries]
        assert kinds == ["MessageEntry", "MessageEntry", "LabelEntry", "ModelChangeEntry",
                         "ThinkingLevelChangeEntry", "CustomEntry", "GenericEntry"]  # fmt: skip
        for e in entries:
            round_trip(e, e.raw)
        generic = entries[-1]
        assert generic.type == "service_tier_change" and generic.raw["extraField"] is True
        assert isinstance(entries[0], xsession.MessageEntry) and entries[0].message.text == "hi"
        assert isinstance(entries[3], xsession.ModelChangeEntry) and entries[3].role == "default"
        one = s.entry(a)
        assert one.line == json.dumps(one.raw, separators=(",", ":"), ensure_ascii=False)
        ctx = round_trip(s.build_context())
        assert ctx.leaf_id == entries[-1].id and ctx.thinking_level == "high"
        assert ctx.models == {"default": "anthropic/claude"} and ctx.model is ABSENT
        tree = round_trip(s.tree())
        assert tree[0].label == "start" and tree[0].children == (a,) and tree[1].depth == 1
        assert round_trip(s.labels())[0].target_id == u
        usage = round_trip(s.usage())
        assert (usage.input, usage.output, usage.cost, usage.assistant_messages) == (10, 5, 0.25, 1)
        stats = round_trip(s.stats())
        assert stats.tool_calls == 1 and stats.message_counts == {"user": 1, "assistant": 1}
        info = round_trip(s.info())
        assert info.title == "T" and info.dialect == "omp" and info.entry_types["message"] == 2
        resume = round_trip(s.resume_check())
        assert resume.pending_tool_calls[0].tool_call_id == "t1" and resume.orphans == ()
        plan = round_trip(s.compaction_plan(settings=xsession.CompactionSettings(keep_recent_tokens=1)))
        assert isinstance(plan.needed, bool)
        assert round_trip(s.header()).title == "T"
        assert s.dialect is Dialect.OMP
    listing = round_trip(store.list(full=True))
    assert listing[0].message_count == 2 and listing[0].first_prompt == "hi"


def test_upkeep_reports(tmp_path: pathlib.Path, store: xsession.Store) -> None:
    with store.create("/p", no_defer=True) as s:
        s.append_message(USER)
        path = s.info().path
    with open(path, "ab") as f:
        f.write(b"{broken\n{\"type\":\"message\"")  # a bad line and a torn tail
    with store.open(path) as s:
        diags = round_trip(s.diagnostics())
        assert [d.code for d in diags] == ["invalid_json", "incomplete_tail"]
        report = round_trip(s.verify())
        assert [p.code for p in report.problems] == ["invalid_json", "incomplete_tail"]
        repaired = round_trip(s.repair(quarantine=True))
        assert repaired.quarantine is not ABSENT and repaired.quarantine is not None
        assert repaired.quarantine.lines == 2
        assert round_trip(s.repair()).quarantine is ABSENT


def test_blobs_gc_and_retention(store: xsession.Store) -> None:
    h = store.blob_put(b"\0binary\xff")
    assert store.blob_get(h) == b"\0binary\xff"
    blobs = round_trip(store.blob_list(verify=True))
    assert blobs.count == 1 and blobs.blobs[0].hash == h and blobs.blobs[0].problem is None
    assert round_trip(store.blob_list()).blobs[0].problem is ABSENT
    gc = round_trip(store.blob_gc(dry_run=True, grace_ms=0))
    assert gc.dry_run and [d.name for d in gc.deleted] == [h]
    with store.create("/p", no_defer=True) as s:
        s.append_message(USER)
    seen: list[tuple[int, int]] = []
    busy: list[str] = []

    def progress(done: int, total: int) -> None:
        seen.append((done, total))
        try:
            store.list()  # the store is busy with the archive: refused, not a deadlock
        except xsession.MisuseError as e:
            busy.append(e.message)

    report = round_trip(store.archive(0, now_ms=4102444800000, progress=progress))
    assert len(report.archived) == 1 and seen[-1] == (1, 1)
    assert busy == ["a progress callback may not call its store (it is busy with the call)"] * len(seen)
    pruned = round_trip(store.prune(0, now_ms=4102444800000, dry_run=True))
    assert len(pruned.pruned) == 1 and pruned.dry_run
    with pytest.raises(xsession.InvalidArgumentError):
        store.archive(None)


def test_keyed_store_and_session_for_key(store: xsession.Store) -> None:
    store.keys_put("agent:a:main", {"sessionId": "s1", "title": None, "custom": {"x": 1}})
    rec = round_trip(store.keys_get("agent:a:main"))
    assert rec.session_id == "s1" and rec.title is None and rec.cwd is ABSENT and rec.extra == {"custom": {"x": 1}}
    store.keys_patch("agent:a:main", {"title": "t"})
    store.keys_update("agent:a:main", lambda cur: json.dumps({**json.loads(cur or "{}"), "chatType": "dm"}))
    entries = round_trip(store.keys_list("agent:"))
    assert entries[0].record.chat_type == "dm" and entries[0].record.title == "t"
    with pytest.raises(xsession.NotFoundError):
        store.keys_update("agent:a:main", lambda cur: (_ for _ in ()).throw(xsession.NotFoundError(-5)))
    with pytest.raises(ZeroDivisionError):
        store.keys_update("agent:a:main", lambda cur: str(1 / 0))
    store.keys_delete("agent:a:main")
    with pytest.raises(xsession.NotFoundError):
        store.keys_get("agent:a:main")
    s, why = store.session_for_key("cron:job", 1767225600000)
    with s:
        assert why is ResetReason.NEW and str(why) == "new"
        s.append_message(USER)
        s.append_message(REPLY)
    s, why = store.session_for_key("cron:job", 1767225601000, force=True)
    s.close()
    assert why is ResetReason.FORCED
    assert round_trip(store.keys_fix_stats()).checked == 1
    assert store.keys_claim_memory_flush("cron:job", xsession.CompactionSettings(context_window=1000), 990) is True
    assert xsession.should_compact(xsession.CompactionSettings(context_window=100000), 99000) is True


def test_import_and_foreign_list(tmp_path: pathlib.Path, store: xsession.Store) -> None:
    src = tmp_path / "myagents"
    (src / "sessions").mkdir(parents=True)
    (src / "sessions.json").write_text("[]")
    listing = round_trip(store.foreign_list("myagents", src))
    assert isinstance(listing, xsession.MyAgentsListing) and listing.sessions == ()
    report = round_trip(store.import_store(xsession.ImportKind.MYAGENTS, src, dry_run=True))
    assert report.dry_run and report.source == "myagents"
    with pytest.raises(xsession.InvalidArgumentError):
        store.import_store("nonsense", src)


CLAUDE_ID = "11111111-2222-4333-8444-555555555555"
CLAUDE_ROWS = [
    {"parentUuid": None, "cwd": "/tmp/demo", "sessionId": CLAUDE_ID, "type": "user",
     "message": {"role": "user", "content": "Say hi"}, "uuid": "aaaaaaaa-0000-4000-8000-000000000001",
     "timestamp": "2026-02-02T05:25:37.961Z"},
    {"parentUuid": "aaaaaaaa-0000-4000-8000-000000000001", "cwd": "/tmp/demo", "sessionId": CLAUDE_ID,
     "type": "assistant", "message": {"id": "msg_1", "type": "message", "role": "assistant",
     "content": [{"type": "text", "text": "hi"}]}, "uuid": "aaaaaaaa-0000-4000-8000-000000000002",
     "timestamp": "2026-02-02T05:25:39.000Z"},
]  # fmt: skip


def claude_project(tmp_path: pathlib.Path) -> tuple[pathlib.Path, int]:
    """A Claude Code project directory holding one conversation (a user and an assistant row),
    and the size of its one transcript: the total an import's progress counts to."""
    project = tmp_path / "source" / "-tmp-demo"
    project.mkdir(parents=True)
    transcript = project / f"{CLAUDE_ID}.jsonl"
    transcript.write_text("".join(json.dumps(row) + "\n" for row in CLAUDE_ROWS))
    return project, transcript.stat().st_size


def assert_progress(calls: list[tuple[int, int]], total: int) -> None:
    """docs/import.md#progress: (0, total) first, (total, total) last, done never decreasing."""
    assert calls[0] == (0, total) and calls[-1] == (total, total), calls
    assert all(t == total for _, t in calls) and all(a[0] <= b[0] for a, b in zip(calls, calls[1:])), calls


def test_import_progress_counts_the_transcripts_bytes(tmp_path: pathlib.Path, store: xsession.Store) -> None:
    project, total = claude_project(tmp_path)
    dry: list[tuple[int, int]] = []
    plan = round_trip(store.import_store("claude", project, dry_run=True, progress=lambda d, t: dry.append((d, t))))
    assert plan.dry_run and plan.imported == 2
    assert_progress(dry, total)
    calls: list[tuple[int, int]] = []
    busy: list[int] = []

    def progress(done: int, all_bytes: int) -> None:
        calls.append((done, all_bytes))
        if len(calls) == 1:  # called while the store is busy with the import
            with pytest.raises(xsession.MisuseError) as e:
                store.list()
            busy.append(e.value.code)

    report = round_trip(store.import_store(xsession.ImportKind.CLAUDE, project, progress=progress))
    assert report.imported == 2 and not report.dry_run and report.sessions[0].created
    assert_progress(calls, total)
    assert busy == [STATUS_CODES["XS_EMISUSE"]]


def test_import_progress_that_raises_is_ignored_like_archives(tmp_path: pathlib.Path, store: xsession.Store) -> None:
    project, total = claude_project(tmp_path)
    calls: list[tuple[int, int]] = []

    def progress(done: int, all_bytes: int) -> None:
        calls.append((done, all_bytes))
        raise RuntimeError("progress failed")

    report = round_trip(store.import_store("claude", project, progress=progress))
    assert report.imported == 2  # the import completes and every call is still made
    assert_progress(calls, total)
    assert store.import_store("claude", project).already_imported == 2


def test_foreign_list_never_calls_progress(tmp_path: pathlib.Path, store: xsession.Store) -> None:
    from xsession import _lib
    from xsession.store import _kind_arg

    project, _ = claude_project(tmp_path)
    calls: list[tuple[int, int]] = []
    # foreign_list takes no progress; the options struct the library gets may still hold one
    o, keep = store._import_options(False, None, None, None, None, lambda d, t: calls.append((d, t)))
    text = store._read(_lib.LIB.xs_foreign_list, _kind_arg("claude"), os.fsencode(project), ctypes.byref(o))
    assert json.loads(text)["projects"][0]["transcripts"][0]["rows"] == 2 and calls == []
    del keep
    with pytest.raises(TypeError):
        store.foreign_list("claude", project, progress=lambda d, t: None)  # type: ignore[call-arg]


def test_async_import_reports_progress(tmp_path: pathlib.Path) -> None:
    from xsession import aio

    project, total = claude_project(tmp_path)
    calls: list[tuple[int, int]] = []

    async def main() -> int:
        async with aio.AsyncStore(tmp_path / "st") as st:
            report = await st.import_store("claude", project, progress=lambda d, t: calls.append((d, t)))
            return report.imported

    assert asyncio.run(main()) == 2
    assert_progress(calls, total)


def test_fork_branch_move_and_reload(tmp_path: pathlib.Path, store: xsession.Store) -> None:
    with store.create("/p", no_defer=True) as s:
        u = s.append_message(USER)
        s.append_message(REPLY)
        with s.fork() as f:
            assert f.header().parent_session == s.info().id
        with s.create_branched(u) as b:
            assert len(b.entries()) == 1
        with store.open(s.info().path, read_only=True) as reader:
            s.append_message(USER)
            assert reader.reload() == 1
        s.move_to("/q")
        assert s.info().cwd == "/q"
        assert store.session_dir("/q") == os.path.dirname(s.info().path)
        store.write_breadcrumb("term1", "/q", s.info().path)
    with store.continue_recent("/q", "term1") as again:
        assert again.info().cwd == "/q" and len(again.entries()) == 3
    assert xsession.version() >= (0, 2, 0)




def test_a_dropped_session_releases_its_lock(store: xsession.Store) -> None:
    import gc

    s = store.create("/p", no_defer=True)
    path = s.info().path
    with pytest.raises(xsession.LockedError):
        store.open(path)
    del s
    gc.collect()
    with store.open(path) as again:
        assert again.info().read_only is False
