"""asyncio wrappers: each blocking call runs in a worker thread (asyncio.to_thread), so the event
loop keeps running while the library does I/O; ctypes releases the GIL for the call.

    async with aio.AsyncStore(root) as st:
        async with await st.create("/p") as s:
            await s.append_message({"role": "user", "content": "hi"})
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any, Awaitable, Callable, Optional, TypeVar

from .options import StrPath
from .session import Session
from .store import Store

T = TypeVar("T")


def _off_loop(fn: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    @functools.wraps(fn)
    async def run(*args: Any, **kwargs: Any) -> T:
        return await asyncio.to_thread(fn, *args, **kwargs)

    return run


class AsyncSession:
    """A Session whose methods are coroutines. ``.sync`` is the underlying Session."""

    def __init__(self, session: Session) -> None:
        self.sync = session

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.sync, name)
        return _off_loop(attr) if callable(attr) else attr

    async def close(self) -> None:
        await asyncio.to_thread(self.sync.close)

    async def __aenter__(self) -> "AsyncSession":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def leaf(self) -> Optional[str]:
        return await asyncio.to_thread(lambda: self.sync.leaf)


class AsyncStore:
    """A Store whose methods are coroutines; session-making methods give AsyncSessions."""

    def __init__(self, root: Optional[StrPath], **options: Any) -> None:
        self.sync = Store(root, **options)

    async def __aenter__(self) -> "AsyncStore":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        self.sync.close()

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.sync, name)
        return _off_loop(attr) if callable(attr) else attr

    async def create(self, cwd: StrPath, **options: Any) -> AsyncSession:
        return AsyncSession(await asyncio.to_thread(self.sync.create, cwd, **options))

    async def open(self, path_or_id: StrPath, **options: Any) -> AsyncSession:
        return AsyncSession(await asyncio.to_thread(self.sync.open, path_or_id, **options))

    async def continue_recent(self, cwd: StrPath, terminal_id: Optional[str] = None, **options: Any) -> AsyncSession:
        return AsyncSession(await asyncio.to_thread(self.sync.continue_recent, cwd, terminal_id, **options))

    async def fork_from(self, source_path: StrPath, target_cwd: StrPath, **options: Any) -> AsyncSession:
        return AsyncSession(await asyncio.to_thread(self.sync.fork_from, source_path, target_cwd, **options))

    def close(self) -> None:
        self.sync.close()
