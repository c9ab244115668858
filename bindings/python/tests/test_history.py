"""The prompt history: add, flush, search, recent, info, refusals, threads and asyncio."""

from __future__ import annotations

import asyncio
import ctypes
import pathlib
from concurrent.futures import ThreadPoolExecutor
from typing import Iterator

import pytest

import xsession
from xsession import aio
from xsession._lib import HistoryOptionsC
from conftest import round_trip


@pytest.fixture
def history(store: xsession.Store) -> Iterator[xsession.History]:
    with store.open_history() as h:
        yield h


def test_options_layout_matches_the_header() -> None:
    # xsession.h, 64-bit: version 0, flags 4, path 8, busy_timeout_ms 16, max_prompt_bytes 20; size 24.
    p = ctypes.sizeof(ctypes.c_void_p)
    offsets = [getattr(HistoryOptionsC, f).offset for f, _ in HistoryOptionsC._fields_]
    assert offsets == [0, 4, 8, 8 + p, 12 + p] and ctypes.sizeof(HistoryOptionsC) == 16 + p


def test_add_flush_search_recent_and_info(tmp_path: pathlib.Path, history: xsession.History) -> None:
    history.add("deploy the staging server", "/w/app", 1000)
    history.add("write a unit test", None, 2000)
    history.flush()
    recent = round_trip(history.recent())
    assert recent.raw == (
        '[{"id":2,"prompt":"write a unit test","createdAt":2000,"cwd":null},'
        '{"id":1,"prompt":"deploy the staging server","createdAt":1000,"cwd":"/w/app"}]'
    )
    assert recent == (
        xsession.HistoryItem(id=2, prompt="write a unit test", created_at=2000, cwd=None),
        xsession.HistoryItem(id=1, prompt="deploy the staging server", created_at=1000, cwd="/w/app"),
    )
    hits = round_trip(history.search("stag*"))
    assert len(hits) == 1 and hits[0].id == 1 and hits[0].cwd == "/w/app" and hits[0].created_at == 1000
    assert hits[0].snippet == "deploy the \u0002staging\u0003 server"
    assert hits[0].snippet == f"deploy the {xsession.HistoryHit.HIT_START}staging{xsession.HistoryHit.HIT_END} server"
    assert isinstance(hits[0].score, float) and hits[0].score < 0  # bm25: lower is better
    assert '"snippet":"deploy the \\u0002staging\\u0003 server"}]' in hits.raw
    info = round_trip(history.info())
    assert info.raw == (
        f'{{"path":"{tmp_path}/store/history.db","schemaVersion":3,"count":2,"pending":0,'
        '"synchronous":"normal","damaged":null}'
    )
    assert (info.count, info.pending, info.synchronous, info.damaged) == (2, 0, "normal", None)


def test_only_committed_prompts_are_found(history: xsession.History) -> None:
    history.add("queued prompt", None, 1)
    history.flush()
    assert [h.prompt for h in history.search("queued")] == ["queued prompt"]
    assert history.info().pending == 0


def test_recent_order_limit_and_cwd_filter(history: xsession.History) -> None:
    for i, cwd in enumerate(["/a", "/b", "/a", None, "/a"]):
        history.add(f"prompt number {i}", cwd, 1000 + i)
    history.flush()
    assert [r.prompt for r in history.recent()] == [f"prompt number {i}" for i in (4, 3, 2, 1, 0)]
    assert [r.id for r in history.recent(limit=2)] == [5, 4]
    assert [r.prompt for r in history.recent("/a")] == ["prompt number 4", "prompt number 2", "prompt number 0"]
    assert [r.cwd for r in history.recent("/b")] == ["/b"]
    assert history.recent("/nowhere") == () and history.recent("/nowhere").raw == "[]"
    assert sorted(h.id for h in history.search("number", "/a")) == [1, 3, 5]
    assert history.search("number", "/elsewhere").raw == "[]"
    with pytest.raises(xsession.InvalidArgumentError):
        history.recent(limit=10001)


def test_literal_queries_take_quotes_and_operators_as_text(history: xsession.History) -> None:
    history.add('fix the flaky "login" test', "/w", 1)
    history.add("explain NOT and OR in queries", "/w", 2)
    history.flush()
    assert [h.id for h in history.search('"login" te', literal=True)] == [1]
    assert [h.id for h in history.search("NOT OR", literal=True)] == [2]
    # "AND" is a word to find (prompt 2 has "and"), not an operator: prompt 1 has no "and".
    assert [h.id for h in history.search("login AND", literal=True)] == []
    assert [h.id for h in history.search("queries AND", literal=True)] == [2]
    # The same texts as FTS5 syntax: a phrase, an operator, then operators missing operands.
    assert [h.id for h in history.search('"login" test')] == [1]
    assert [h.id for h in history.search("login AND test")] == [1]
    with pytest.raises(xsession.InvalidArgumentError) as e:
        history.search("NOT OR")
    assert e.value.code == -3 and e.value.message.startswith("bad history query: ")


@pytest.mark.parametrize(
    "query, message",
    [
        ('"open', "bad history query: unterminated string"),
        ("a AND", 'bad history query: fts5: syntax error near ""'),
    ],
)
def test_a_bad_query_is_refused_with_sqlites_words(history: xsession.History, query: str, message: str) -> None:
    with pytest.raises(xsession.InvalidArgumentError) as e:
        history.search(query)
    assert e.value.code == -3 and e.value.message == message
    assert history.last_status == -3
    assert history.search("fine") == ()
    assert history.last_status == 0


@pytest.mark.parametrize(
    "prompt, message",
    [
        ("", "the prompt is empty"),
        ("a\0b", "the prompt contains a NUL byte"),
        (b"\xc0\xaf", "the prompt is not valid UTF-8"),
        ("lone \udcff surrogate", "the prompt is not valid UTF-8"),  # surrogateescape: byte 0xff
    ],
)
def test_bad_prompts_are_refused(history: xsession.History, prompt: str | bytes, message: str) -> None:
    with pytest.raises(xsession.InvalidArgumentError) as e:
        history.add(prompt)
    assert (e.value.code, e.value.message) == (-3, message)
    history.flush()
    assert history.info().count == 0


def test_other_refusals(history: xsession.History) -> None:
    with pytest.raises(xsession.InvalidArgumentError):
        history.add("x", b"/bad\xff")  # cwd must be UTF-8
    with pytest.raises(xsession.InvalidArgumentError):
        history.add("x", None, -5)
    with pytest.raises(xsession.InvalidArgumentError):
        history.search("")
    with pytest.raises(xsession.InvalidArgumentError):
        history.search("x", limit=10001)


def test_prompt_limit(store: xsession.Store) -> None:
    with store.open_history(max_prompt_bytes=8) as h:
        h.add("12345678")
        with pytest.raises(xsession.LimitError) as e:
            h.add("123456789")
        assert (e.value.code, e.value.message) == (-15, "the prompt has 9 bytes; the limit is 8")
    with store.open_history() as h:  # the default: 1 MiB
        with pytest.raises(xsession.LimitError) as e:
            h.add("p" * (1048576 + 1))
        assert e.value.message == "the prompt has 1048577 bytes; the limit is 1048576"
        h.add("p" * 1048576)
        h.flush()
        assert [len(r.prompt) for r in h.recent()] == [1048576, 8]


def test_consecutive_duplicates_are_skipped(history: xsession.History) -> None:
    history.add("same", "/a", 1)
    history.add("same", "/a", 2)  # skipped
    history.add("same", "/b", 3)  # another cwd: kept
    history.add("other", "/b", 4)
    history.add("same", "/b", 5)  # not consecutive: kept
    history.flush()
    assert [(r.cwd, r.created_at) for r in history.recent()] == [("/b", 5), ("/b", 4), ("/b", 3), ("/a", 1)]


def test_close_is_idempotent_and_a_closed_history_refuses(store: xsession.Store) -> None:
    h = store.open_history()
    h.add("kept at close", None, 7)
    h.close()  # flushes
    assert h.closed
    h.close()
    with pytest.raises(xsession.MisuseError) as e:
        h.add("late")
    assert e.value.code == -4 and e.value.message == "the history is closed"
    with store.open_history() as again:
        assert again.recent().raw == '[{"id":1,"prompt":"kept at close","createdAt":7,"cwd":null}]'
        # The file's last row counts as the previous prompt of a new handle's first add.
        again.add("kept at close", None, 8)
        again.flush()
        assert again.info().count == 1


def test_options_sync_path_and_the_in_memory_store(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "elsewhere" / "h.db"
    with xsession.Store(tmp_path / "st") as st:
        with st.open_history(path=path, sync=True, busy_timeout_ms=100) as h:
            info = round_trip(h.info())
            assert (info.path, info.synchronous) == (str(path), "full")
    assert path.exists() and not (tmp_path / "st" / "history.db").exists()
    with xsession.Store(None, in_memory=True) as mem:
        with pytest.raises(xsession.InvalidArgumentError) as e:
            mem.open_history()
        assert e.value.message == "an in-memory store keeps no history.db: name a path in the options"
        with mem.open_history(path=tmp_path / "mem.db") as h:
            assert h.info().count == 0
    with pytest.raises(xsession.MisuseError):
        mem.open_history(path=tmp_path / "mem.db")


def test_a_damaged_file_is_kept_aside(tmp_path: pathlib.Path, store: xsession.Store) -> None:
    path = tmp_path / "store" / "history.db"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(b"garbage that is not a database")
    with store.open_history() as h:
        info = round_trip(h.info())
        assert info.damaged is not None and info.damaged.path.startswith(f"{path}.damaged-")
        assert info.damaged.reason and info.count == 0
        assert pathlib.Path(info.damaged.path).read_bytes() == b"garbage that is not a database"
        h.add("fresh", None, 1)
        h.flush()
        assert h.recent().raw == '[{"id":1,"prompt":"fresh","createdAt":1,"cwd":null}]'


def test_two_handles_and_threads_share_one_file(store: xsession.Store) -> None:
    with store.open_history() as a, store.open_history() as b:
        def add(n: int) -> None:
            for i in range(25):
                (a if n % 2 else b).add(f"thread {n} prompt {i}", f"/t{n}", 1 + i)

        with ThreadPoolExecutor(4) as pool:
            list(pool.map(add, range(4)))
        a.flush()
        b.flush()
        assert a.info().count == 100 and b.info().count == 100
        assert [r.created_at for r in b.recent("/t3", limit=100)] == list(range(25, 0, -1))
        assert {h.cwd for h in a.search('"thread 2"', limit=100)} == {"/t2"}


def test_history_outlives_its_store(tmp_path: pathlib.Path) -> None:
    st = xsession.Store(tmp_path / "st")
    h = st.open_history()
    st.close()
    h.add("after the store closed", None, 1)
    h.flush()
    assert [r.prompt for r in h.recent()] == ["after the store closed"]
    h.close()


def test_asyncio(tmp_path: pathlib.Path) -> None:
    async def main() -> list[str]:
        async with aio.AsyncStore(tmp_path / "st") as st:
            async with await st.open_history(max_prompt_bytes=64) as h:
                await h.add("refactor the parser", "/p", 1)
                await h.add("refactor the lexer", "/p", 2)
                await h.flush()
                hits = await h.search("refactor lex*")
                assert [x.id for x in hits] == [2] and (await h.info()).count == 2
                with pytest.raises(xsession.LimitError):
                    await h.add("x" * 65)
                recent = await h.recent("/p")
            assert h.closed
            return [r.prompt for r in recent]

    assert asyncio.run(main()) == ["refactor the lexer", "refactor the parser"]
