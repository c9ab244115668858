"""The session index and search: rebuild, refresh, verify, list, info, search and its filters,
refusals, lifetime, threads and asyncio, following the store's writes and flush, over sessions
written through the binding."""

from __future__ import annotations

import asyncio
import ctypes
import pathlib
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from typing import Iterator

import pytest

import xsession
from xsession import Role, aio
from xsession._lib import IndexOptionsC, SearchOptionsC
from conftest import round_trip

T0 = 1767225600000  # 2026-01-01T00:00:00Z
MINUTE = 60000


def write_session(st: xsession.Store, n: int, cwd: str, prompt: str, answer: str) -> str:
    """Session "s<n>" in cwd, its clock starting n minutes after T0: a prompt and an answer."""
    options = dict(clock_start_ms=T0 + n * MINUTE, clock_step_ms=1000, id_seed=7 + n, session_id=f"s{n}")
    with st.create(cwd, **options) as s:
        s.append_message({"role": "user", "content": prompt, "timestamp": 1})
        s.append_message(
            {
                "role": "assistant",
                "content": [{"type": "text", "text": answer}],
                "api": "x",
                "provider": "p",
                "model": "m",
                "usage": {"input": 10, "output": 5, "cacheRead": 0, "cacheWrite": 0, "cost": {"total": 0.25}},
                "stopReason": "stop",
                "timestamp": 2,
            }
        )
        return s.info().path


def report(**counts: int) -> str:
    names = ("files", "unchanged", "appended", "reindexed", "added", "removed", "unreadable", "raced", "entries")
    return "{" + ",".join(f'"{k}":{counts.get(k, 0)}' for k in names) + "}"


@pytest.fixture
def index(store: xsession.Store) -> Iterator[xsession.Index]:
    with store.open_index() as ix:
        yield ix


@pytest.fixture
def two(store: xsession.Store, index: xsession.Index) -> xsession.Index:
    """Two sessions, s1 in /w/app and s2 in /w/lib, rebuilt into the index."""
    write_session(store, 1, "/w/app", "deploy the staging server", "staging is deployed")
    write_session(store, 2, "/w/lib", "write a unit test", "the test passes")
    index.rebuild()
    return index


def test_options_layout_matches_the_header() -> None:
    # xsession.h, 64-bit: xs_index_options 0,4,8,16 (size 24); xs_search_options 0,4,8,16,24,32,40
    # (size 48). p is a pointer's size; the int64 since_ms sits at the next multiple of 8.
    p = ctypes.sizeof(ctypes.c_void_p)
    index = [getattr(IndexOptionsC, f).offset for f, _ in IndexOptionsC._fields_]
    assert index == [0, 4, 8, 8 + p] and ctypes.sizeof(IndexOptionsC) == 16 + p
    since = 8 + 2 * p
    search = [getattr(SearchOptionsC, f).offset for f, _ in SearchOptionsC._fields_]
    assert search == [0, 4, 8, 8 + p, since, since + 8, since + 8 + p]
    assert ctypes.sizeof(SearchOptionsC) == (since + 8 + p + 4 + 7) // 8 * 8  # limit's end, padded to 8
    if p == 8:
        assert index == [0, 4, 8, 16] and search == [0, 4, 8, 16, 24, 32, 40]
        assert (ctypes.sizeof(IndexOptionsC), ctypes.sizeof(SearchOptionsC)) == (24, 48)


def test_rebuild_report_and_info(tmp_path: pathlib.Path, store: xsession.Store, index: xsession.Index) -> None:
    write_session(store, 1, "/w/app", "deploy the staging server", "staging is deployed")
    write_session(store, 2, "/w/lib", "write a unit test", "the test passes")
    path = tmp_path / "store" / "index.db"
    empty = round_trip(index.info())
    assert empty.raw == f'{{"path":"{path}","schemaVersion":2,"sessions":0,"entries":0,"damaged":null}}'
    rebuilt = round_trip(index.rebuild())
    assert rebuilt.raw == report(files=2, added=2, entries=4)
    assert rebuilt == xsession.IndexReport(
        files=2, unchanged=0, appended=0, reindexed=0, added=2, removed=0, unreadable=0, raced=0, entries=4
    )
    info = round_trip(index.info())
    assert info == xsession.IndexInfo(path=str(path), schema_version=2, sessions=2, entries=4, damaged=None)
    # Rebuilding again reads everything again: the same counts, nothing "unchanged".
    assert index.rebuild().raw == report(files=2, added=2, entries=4)


def test_search_finds_a_prompt_with_its_snippet(store: xsession.Store, two: xsession.Index) -> None:
    with store.open("s1", read_only=True) as s:
        path = s.info().path
        prompt, answer = (e.id for e in s.entries())
    hits = round_trip(two.search("staging"))
    # bm25 ranks the shorter answer first; the clock gave the header T0 + 1 min, then 1 s a line.
    assert [(h.entry_id, h.role, h.timestamp) for h in hits] == [
        (answer, Role.ASSISTANT, T0 + MINUTE + 2000),
        (prompt, Role.USER, T0 + MINUTE + 1000),
    ]
    assert hits[0].score < hits[1].score < 0  # bm25: lower is better
    user = hits[1]
    assert user == xsession.SearchHit(
        session_id="s1",
        session_title=None,
        session_path=path,
        cwd="/w/app",
        entry_id=prompt,
        role=Role.USER,
        on_path=True,
        timestamp=T0 + MINUTE + 1000,
        score=user.score,
        snippet="deploy the \u0002staging\u0003 server",
    )
    assert user.snippet == f"deploy the {xsession.SearchHit.HIT_START}staging{xsession.SearchHit.HIT_END} server"
    assert hits[0].snippet == "\u0002staging\u0003 is deployed"
    assert '"snippet":"deploy the \\u0002staging\\u0003 server"}]' in hits.raw
    assert isinstance(user.score, float) and user.role == "user"


def test_each_filter_changes_the_result(two: xsession.Index) -> None:
    def found(query: str, **filters: object) -> list[tuple[str, str | None]]:
        return [(h.session_id, h.role and h.role.value) for h in two.search(query, **filters)]

    assert sorted(found("staging")) == [("s1", "assistant"), ("s1", "user")]
    assert found("staging", role=Role.ASSISTANT) == [("s1", "assistant")]
    assert found("staging", role="user") == [("s1", "user")]  # the role's text works too
    assert found("staging", cwd="/w/lib") == []
    assert sorted(found("test OR staging", cwd="/w/lib")) == [("s2", "assistant"), ("s2", "user")]
    assert sorted(found("test OR staging")) == [("s1", "assistant"), ("s1", "user"), ("s2", "assistant"), ("s2", "user")]
    assert sorted(found("test OR staging", session_id="s1")) == [("s1", "assistant"), ("s1", "user")]
    assert sorted(found("test OR staging", since_ms=T0 + 2 * MINUTE)) == [("s2", "assistant"), ("s2", "user")]
    assert len(found("test OR staging", limit=3)) == 3
    assert len(found("test", session_id="s2", limit=1)) == 1
    # literal: plain words, the last one a prefix; as FTS5 syntax "unit te" needs the whole word.
    assert found("unit te", literal=True) == [("s2", "user")]
    assert found("unit te") == []
    assert found('"unit', literal=True) == [("s2", "user")]


def test_refresh_and_verify(store: xsession.Store, index: xsession.Index) -> None:
    first = write_session(store, 1, "/w/app", "first prompt", "first answer")
    before = round_trip(index.verify())
    assert before == xsession.IndexVerifyReport(ok=False, files=1, indexed=0, missing=(first,), extra=(), stale=())
    assert before.raw == f'{{"ok":false,"files":1,"indexed":0,"missing":["{first}"],"extra":[],"stale":[]}}'
    assert round_trip(index.refresh()).raw == report(files=1, added=1, entries=2)
    assert index.refresh().raw == report(files=1, unchanged=1)
    after = round_trip(index.verify())
    assert after.raw == '{"ok":true,"files":1,"indexed":1,"missing":[],"extra":[],"stale":[]}' and after.ok
    assert index.search("second") == () and index.search("second").raw == "[]"
    write_session(store, 2, "/w/app", "second prompt", "second answer")
    assert index.verify().ok is False
    assert index.refresh() == xsession.IndexReport(
        files=2, unchanged=1, appended=0, reindexed=0, added=1, removed=0, unreadable=0, raced=0, entries=2
    )
    assert [h.session_id for h in index.search("second")] == ["s2", "s2"]


def test_list_order_and_fields(store: xsession.Store, two: xsession.Index) -> None:
    listed = round_trip(two.list())
    assert [s.id for s in listed] == ["s2", "s1"]  # newest first
    s2 = listed[0]
    assert s2 == xsession.IndexedSession(
        path=s2.path,
        id="s2",
        cwd="/w/lib",
        title=None,
        first_prompt="write a unit test",
        created=T0 + 2 * MINUTE,
        updated=T0 + 2 * MINUTE + 2000,  # the answer: the header, then 1 s a line
        modified=s2.modified,
        size=pathlib.Path(s2.path).stat().st_size,
        entries=2,
        messages=2,
        input_tokens=10,
        output_tokens=5,
        cost=0.25,
        dialect="omp",
        source_agent=None,
        parent_session=None,
        archived=False,
        leaf_id=s2.leaf_id,
    )
    assert s2.modified == pathlib.Path(s2.path).stat().st_mtime_ns // 1000000
    with store.open(s2.path, read_only=True) as s:
        assert s2.leaf_id == s.leaf
    assert [s.id for s in two.list("/w/app")] == ["s1"]
    assert [s.id for s in two.list(limit=1)] == ["s2"]
    assert two.list("/nowhere") == () and two.list("/nowhere").raw == "[]"


def test_refusals(store: xsession.Store, index: xsession.Index) -> None:
    with pytest.raises(xsession.InvalidArgumentError) as e:
        index.search("(")
    assert e.value.code == -3 and e.value.message.startswith("bad search query: ")
    assert index.last_status == -3
    assert index.search("fine") == () and index.last_status == 0
    with pytest.raises(xsession.InvalidArgumentError) as e:
        index.search("x", role="robot")
    assert (e.value.code, e.value.message) == (-3, 'role "robot" is none of user, assistant, tool, summary, label')
    with pytest.raises(xsession.InvalidArgumentError):
        index.search("")
    with pytest.raises(xsession.InvalidArgumentError) as e:
        index.search("a\0b")  # C would see "a"
    assert e.value.message == "a NUL byte inside a NUL-terminated argument"
    with pytest.raises(xsession.InvalidArgumentError):
        index.search("x", limit=10001)
    with pytest.raises(xsession.InvalidArgumentError):
        index.search("x", since_ms=-1)
    with pytest.raises(xsession.InvalidArgumentError):
        index.list(limit=10001)


def test_the_in_memory_store_needs_a_path(tmp_path: pathlib.Path) -> None:
    with xsession.Store(None, in_memory=True) as mem:
        with pytest.raises(xsession.InvalidArgumentError) as e:
            mem.open_index()
        assert (e.value.code, e.value.message) == (-3, "an in-memory store keeps no index.db: name a path in the options")
        path = tmp_path / "elsewhere" / "mem-index.db"
        with mem.open_index(path=path, busy_timeout_ms=100) as ix:
            assert ix.refresh().raw == report()
            assert ix.info().path == str(path)
        assert path.exists()
    with pytest.raises(xsession.MisuseError):
        mem.open_index(path=tmp_path / "x.db")


def test_close_twice_and_a_closed_index_refuses(store: xsession.Store) -> None:
    ix = store.open_index()
    ix.close()
    assert ix.closed
    ix.close()
    with pytest.raises(xsession.MisuseError) as e:
        ix.search("x")
    assert (e.value.code, e.value.message) == (-4, "the index is closed")


def test_the_index_outlives_its_store(tmp_path: pathlib.Path) -> None:
    st = xsession.Store(tmp_path / "st")
    write_session(st, 1, "/w/app", "kept after the store closed", "yes")
    ix = st.open_index()
    st.close()
    assert ix.refresh().raw == report(files=1, added=1, entries=2)
    assert [h.role for h in ix.search("closed")] == [Role.USER]
    ix.close()


def test_a_damaged_index_is_kept_aside(tmp_path: pathlib.Path, store: xsession.Store) -> None:
    write_session(store, 1, "/w/app", "a prompt", "an answer")
    path = tmp_path / "store" / "index.db"
    path.write_bytes(b"x" * 4096)
    with store.open_index() as ix:
        info = round_trip(ix.info())
        assert info.damaged is not None and info.damaged.path.startswith(f"{path}.damaged-")
        assert isinstance(info.damaged, xsession.DamagedFile) and info.damaged.reason
        assert pathlib.Path(info.damaged.path).read_bytes() == b"x" * 4096
        assert ix.refresh().added == 1


def test_threads_share_one_handle(store: xsession.Store, two: xsession.Index) -> None:
    def work(n: int) -> int:
        if n % 3 == 0:
            return two.refresh().unchanged
        return len(two.search("test OR staging", limit=100))

    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(work, range(24)))
    assert got == [2 if n % 3 == 0 else 4 for n in range(24)]


def test_asyncio(tmp_path: pathlib.Path) -> None:
    async def main() -> list[str]:
        async with aio.AsyncStore(tmp_path / "st") as st:
            write_session(st.sync, 1, "/p", "refactor the parser", "done")
            async with await st.open_index() as ix:
                assert (await ix.verify()).ok is False
                assert (await ix.refresh()).added == 1
                assert (await ix.rebuild()).entries == 2
                hits = await ix.search("refactor pars*", role=Role.USER)
                assert (await ix.info()).sessions == 1
                listed = await ix.list("/p")
            assert ix.closed
            return [h.snippet for h in hits] + [s.id for s in listed]

    assert asyncio.run(main()) == ["\u0002refactor\u0003 the \u0002parser\u0003", "s1"]


# --- following the store's writes (docs/search.md "Kept current") -------------------------------
def test_with_follow_writes_a_flush_makes_a_new_session_searchable(store: xsession.Store) -> None:
    with store.open_index(follow_writes=True) as ix:
        assert ix.rebuild().raw == report()
        write_session(store, 1, "/w/app", "launch the zeppelin", "zeppelin launched")
        # The index's own thread indexes it shortly after; flush waits for it.
        assert ix.flush() is None and ix.last_status == 0
        found = sorted((h.session_id, h.role.value) for h in ix.search("zeppelin") if h.role)
        assert found == [("s1", "assistant"), ("s1", "user")]
        # Nothing left for a refresh to do.
        assert ix.refresh().raw == report(files=1, unchanged=1)


def test_without_follow_writes_only_a_refresh_brings_a_new_session(store: xsession.Store, index: xsession.Index) -> None:
    assert index.rebuild().raw == report()
    write_session(store, 1, "/w/app", "launch the zeppelin", "zeppelin launched")
    index.flush()  # nothing to wait for
    assert index.last_status == 0
    assert index.search("zeppelin") == () and index.search("zeppelin").raw == "[]"
    assert index.refresh().raw == report(files=1, added=1, entries=2)
    assert [h.session_id for h in index.search("zeppelin")] == ["s1", "s1"]


def test_flush_raises_a_failed_update_once_and_a_refresh_makes_it(tmp_path: pathlib.Path, store: xsession.Store) -> None:
    with store.open_index(follow_writes=True, busy_timeout_ms=50) as ix:
        assert ix.rebuild().raw == report()
        # Another connection holds the write lock longer than the index waits for it.
        db = sqlite3.connect(tmp_path / "store" / "index.db", isolation_level=None)
        db.execute("BEGIN IMMEDIATE")
        try:
            write_session(store, 1, "/w/app", "launch the zeppelin", "zeppelin launched")
            with pytest.raises(xsession.LockedError) as e:
                ix.flush()
            assert e.value.code == -10 and e.value.message.startswith("indexing what sessions wrote: "), e.value
            assert ix.last_status == -10
            ix.flush()  # reported once
            assert ix.last_status == 0
        finally:
            db.execute("COMMIT")
            db.close()
        # The failed update is left for the next refresh.
        assert ix.search("zeppelin") == ()
        assert ix.refresh().added == 1
        assert [h.session_id for h in ix.search("zeppelin")] == ["s1", "s1"]
    with pytest.raises(xsession.MisuseError) as closed:
        ix.flush()
    assert closed.value.message == "the index is closed"


def test_asyncio_flush(tmp_path: pathlib.Path) -> None:
    async def main() -> list[str]:
        async with aio.AsyncStore(tmp_path / "st") as st:
            async with await st.open_index(follow_writes=True) as ix:
                write_session(st.sync, 1, "/p", "refactor the parser", "done")
                assert await ix.flush() is None
                return [h.session_id for h in await ix.search("parser")]

    assert asyncio.run(main()) == ["s1"]
