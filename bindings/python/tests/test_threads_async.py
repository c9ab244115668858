"""A Session and a Store shared between threads, and the asyncio wrappers."""

from __future__ import annotations

import asyncio
import pathlib
import threading
from concurrent.futures import ThreadPoolExecutor

import xsession
from xsession import aio


def test_one_session_shared_by_writers_and_readers(store: xsession.Store) -> None:
    writers, per = 6, 40
    with store.create("/p", no_defer=True) as s:
        errors: list[BaseException] = []
        stop = threading.Event()

        def write(n: int) -> list[str]:
            return [s.append_message({"role": "user", "content": f"{n}-{i}"}) for i in range(per)]

        def read() -> None:
            while not stop.is_set():
                try:
                    ctx = s.build_context()
                    assert all(m.role == "user" for m in ctx.messages)
                    s.tree()
                except BaseException as e:  # noqa: BLE001 - collected for the assertion below
                    errors.append(e)
                    return

        readers = [threading.Thread(target=read) for _ in range(2)]
        for t in readers:
            t.start()
        with ThreadPoolExecutor(writers) as pool:
            ids = [i for batch in pool.map(write, range(writers)) for i in batch]
        stop.set()
        for t in readers:
            t.join()
        assert not errors, errors
        assert len(set(ids)) == writers * per
        entries = s.entries()
        assert len(entries) == writers * per
        # Every append took the leaf as its parent: one chain, in file order.
        assert [e.parent_id for e in entries[1:]] == [e.id for e in entries[:-1]]
        assert s.stats().message_counts == {"user": writers * per}


def test_errors_stay_with_their_call_across_threads(store: xsession.Store) -> None:
    with store.create("/p", no_defer=True) as s:
        s.append_message({"role": "user", "content": "x"})

        def bad(_: int) -> str:
            try:
                s.set_leaf("missing")
            except xsession.NotFoundError as e:
                return e.message
            return "no error"

        def good(_: int) -> None:
            s.append_message({"role": "user", "content": "y"})

        with ThreadPoolExecutor(4) as pool:
            futures = [pool.submit(bad if i % 2 else good, i) for i in range(40)]
            messages = [f.result() for f in futures[1::2]]
        assert all(m and m != "no error" for m in messages), messages


def count(record: str | None) -> int:
    import json

    return int(json.loads(record or "{}")["n"])


def test_keyed_store_from_threads_and_handles(tmp_path: pathlib.Path) -> None:
    root = tmp_path / "st"
    stores = [xsession.Store(root) for _ in range(3)]
    stores[0].keys_put("k", {"sessionId": "s", "n": 0})

    def bump(i: int) -> None:
        import json

        for _ in range(10):
            stores[i % 3].keys_update("k", lambda cur: json.dumps({**json.loads(cur or "{}"), "n": count(cur) + 1}))

    with ThreadPoolExecutor(6) as pool:
        list(pool.map(bump, range(6)))
    assert stores[1].keys_get("k").extra["n"] == 60
    for st in stores:
        st.close()


def test_asyncio_agent_loop(tmp_path: pathlib.Path) -> None:
    async def main() -> list[str]:
        async with aio.AsyncStore(tmp_path / "st") as st:
            async with await st.create("/p") as s:
                q = await s.append_message({"role": "user", "content": "Why?"})
                await s.append_message({"role": "assistant", "content": [{"type": "text", "text": "Because."}]})
                await s.branch_with_summary(q, "Tried one answer.")
                ctx = await s.build_context()
                assert await s.leaf() == ctx.leaf_id
                listed = await st.list()
                assert len(listed) == 1 and await s.dialect() is xsession.Dialect.OMP
                async with await s.fork() as f:
                    assert len(await f.entries()) == 3
                path = (await s.info()).path
            async with await st.open(path, read_only=True) as again:
                assert [type(e).__name__ for e in await again.entries()][-1] == "BranchSummaryEntry"
            assert again.closed
            return [m.role for m in ctx.messages]

    assert asyncio.run(main()) == ["user", "branchSummary"]
