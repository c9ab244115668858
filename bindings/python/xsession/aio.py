"""asyncio wrappers: each blocking call runs in a worker thread (asyncio.to_thread), so the event
loop keeps running while the library does I/O; ctypes releases the GIL for the call.

    async with aio.AsyncStore(root) as st:
        async with await st.create("/p") as s:
            await s.append_message({"role": "user", "content": "hi"})

Each method has the signature of the Session, Store, History or Index method it wraps (``.sync``
is that object), and returns an awaitable of its result.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any, Callable, Concatenate, Coroutine, Generic, Optional, ParamSpec, TypeVar

from .options import StrPath
from .outputs import Dialect
from ._handle import Handle
from .history import History
from .index import Index
from .session import Session
from .store import Store

P = ParamSpec("P")
R = TypeVar("R")
S = TypeVar("S")
H = TypeVar("H", bound=Handle)
W = TypeVar("W", bound="_Closing[Any]")


Co = Coroutine[Any, Any, R]


def _threaded(method: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[Any, P], Co[R]]:
    """method of the sync class as a coroutine method of its wrapper (whose ``.sync`` is an S)."""

    async def run(self: Any, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return await asyncio.to_thread(functools.partial(method, self.sync, *args, **kwargs))

    return run


_session = _store = _history = _index = _threaded


async def _made(fn: Callable[..., Session], *args: Any, **kwargs: Any) -> "AsyncSession":
    return AsyncSession(await asyncio.to_thread(functools.partial(fn, *args, **kwargs)))


class _Closing(Generic[H]):
    """What the wrappers of closable handles share: ``sync``, ``closed`` and ``async with``, whose
    exit closes the handle in a worker thread (a close flushes: it may wait for the disk)."""

    def __init__(self, sync: H) -> None:
        self.sync = sync

    async def __aenter__(self: W) -> W:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await asyncio.to_thread(self.sync.close)

    @property
    def closed(self) -> bool:
        return self.sync.closed


class AsyncSession(_Closing[Session]):
    """A Session whose calls are coroutines."""

    async def leaf(self) -> Optional[str]:
        return await asyncio.to_thread(lambda: self.sync.leaf)

    async def dialect(self) -> Dialect:
        return await asyncio.to_thread(lambda: self.sync.dialect)

    close = _session(Session.close)
    flush = _session(Session.flush)
    persist = _session(Session.persist)
    reload = _session(Session.reload)

    async def fork(self, **options: Any) -> "AsyncSession":
        return await _made(self.sync.fork, **options)

    async def create_branched(self, leaf_id: Optional[str] = None, **options: Any) -> "AsyncSession":
        return await _made(self.sync.create_branched, leaf_id, **options)

    move_to = _session(Session.move_to)
    append = _session(Session.append)
    append_message = _session(Session.append_message)
    append_thinking_level = _session(Session.append_thinking_level)
    append_model_change = _session(Session.append_model_change)
    append_compaction = _session(Session.append_compaction)
    append_custom = _session(Session.append_custom)
    append_custom_message = _session(Session.append_custom_message)
    append_label = _session(Session.append_label)
    append_ttsr_injection = _session(Session.append_ttsr_injection)
    append_session_init = _session(Session.append_session_init)
    append_mode_change = _session(Session.append_mode_change)
    append_session_info = _session(Session.append_session_info)
    branch_with_summary = _session(Session.branch_with_summary)
    set_leaf = _session(Session.set_leaf)
    set_title = _session(Session.set_title)
    build_context = _session(Session.build_context)
    header = _session(Session.header)
    entries = _session(Session.entries)
    entry = _session(Session.entry)
    path = _session(Session.path)
    children = _session(Session.children)
    tree = _session(Session.tree)
    labels = _session(Session.labels)
    diagnostics = _session(Session.diagnostics)
    info = _session(Session.info)
    usage = _session(Session.usage)
    stats = _session(Session.stats)
    verify = _session(Session.verify)
    repair = _session(Session.repair)
    resume_check = _session(Session.resume_check)
    compaction_plan = _session(Session.compaction_plan)


class AsyncHistory(_Closing[History]):
    """A History whose calls are coroutines (flush, search and close may wait for the disk)."""

    close = _history(History.close)
    add = _history(History.add)
    flush = _history(History.flush)
    search = _history(History.search)
    recent = _history(History.recent)
    info = _history(History.info)


class AsyncIndex(_Closing[Index]):
    """An Index whose calls are coroutines (rebuild, refresh, verify, search and list read the
    disk and may wait for another writer's lock; flush waits for the index's thread)."""

    close = _index(Index.close)
    rebuild = _index(Index.rebuild)
    refresh = _index(Index.refresh)
    flush = _index(Index.flush)
    verify = _index(Index.verify)
    list = _index(Index.list)
    info = _index(Index.info)
    search = _index(Index.search)


class AsyncStore:
    """A Store whose calls are coroutines; the calls that make sessions give AsyncSessions."""

    def __init__(self, root: Optional[StrPath], **options: Any) -> None:
        self.sync = Store(root, **options)

    async def __aenter__(self) -> "AsyncStore":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        self.sync.close()

    def close(self) -> None:
        self.sync.close()

    async def session_for_key(self, key: str, now_ms: int = 0, /, **kwargs: Any) -> tuple[AsyncSession, Any]:
        s, reason = await asyncio.to_thread(self.sync.session_for_key, key, now_ms, **kwargs)
        return AsyncSession(s), reason

    async def create(self, cwd: StrPath, **options: Any) -> AsyncSession:
        return await _made(self.sync.create, cwd, **options)

    async def open(self, path_or_id: StrPath, **options: Any) -> AsyncSession:
        return await _made(self.sync.open, path_or_id, **options)

    async def continue_recent(self, cwd: StrPath, terminal_id: Optional[str] = None, **options: Any) -> AsyncSession:
        return await _made(self.sync.continue_recent, cwd, terminal_id, **options)

    async def fork_from(self, source_path: StrPath, target_cwd: StrPath, **options: Any) -> AsyncSession:
        return await _made(self.sync.fork_from, source_path, target_cwd, **options)

    async def open_history(self, **options: Any) -> AsyncHistory:
        return AsyncHistory(await asyncio.to_thread(functools.partial(self.sync.open_history, **options)))

    async def open_index(self, **options: Any) -> AsyncIndex:
        return AsyncIndex(await asyncio.to_thread(functools.partial(self.sync.open_index, **options)))

    session_dir = _store(Store.session_dir)
    list = _store(Store.list)
    resolve = _store(Store.resolve)
    write_breadcrumb = _store(Store.write_breadcrumb)
    blob_put = _store(Store.blob_put)
    blob_get = _store(Store.blob_get)
    blob_list = _store(Store.blob_list)
    blob_gc = _store(Store.blob_gc)
    archive = _store(Store.archive)
    prune = _store(Store.prune)
    import_store = _store(Store.import_store)
    foreign_list = _store(Store.foreign_list)
    export = _store(Store.export)
    import_bundle = _store(Store.import_bundle)
    export_html = _store(Store.export_html)
    keys_get = _store(Store.keys_get)
    keys_list = _store(Store.keys_list)
    keys_put = _store(Store.keys_put)
    keys_patch = _store(Store.keys_patch)
    keys_delete = _store(Store.keys_delete)
    keys_update = _store(Store.keys_update)
    keys_fix_stats = _store(Store.keys_fix_stats)
    keys_claim_memory_flush = _store(Store.keys_claim_memory_flush)
