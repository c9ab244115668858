"""History: a store's prompt history (xs_history; docs/history.md), opened by Store.open_history.

Adds return at once (a background thread of the handle writes them); flush() waits until they
are committed, and only committed prompts are found by search() and recent().
"""

from __future__ import annotations

import ctypes
from typing import Optional, Union

from . import _lib
from ._codec import Results, parse, parse_list
from ._handle import Handle
from ._lib import LIB, text_arg
from .options import StrPath, check, path_arg
from .outputs import HistoryHit, HistoryInfo, HistoryItem

HISTORY_OPTIONS_VERSION = 1
_SYNC = 0x1  # XS_HISTORY_SYNC
_LITERAL = 0x1  # XS_HISTORY_LITERAL


def history_options(
    *,
    path: Optional[StrPath] = None,
    sync: bool = False,
    busy_timeout_ms: Optional[int] = None,
    max_prompt_bytes: Optional[int] = None,
) -> _lib.HistoryOptionsC:
    """xs_history_options from keywords; None keeps the library's default (xs_history_options_init)."""
    o = _lib.HistoryOptionsC()
    check(LIB.xs_history_options_init(ctypes.byref(o), HISTORY_OPTIONS_VERSION))
    o.flags = _SYNC if sync else 0
    o.path = path_arg(path)
    if busy_timeout_ms is not None:
        o.busy_timeout_ms = busy_timeout_ms
    if max_prompt_bytes is not None:
        o.max_prompt_bytes = max_prompt_bytes
    return o


class History(Handle):
    """An open prompt history. Use it as a context manager, or call close(); it may be shared
    between threads (calls are serialised, as the C API requires)."""

    _errmsg = LIB.xs_history_errmsg
    _errcode = LIB.xs_history_errcode
    _free = LIB.xs_history_close
    _kind = "history"

    def __init__(self, ptr: int) -> None:
        super().__init__(ptr)

    def close(self) -> None:
        """Flushes, stops the writer thread and frees the handle. Idempotent; raises the final
        flush's error with its message (the handle is closed all the same)."""
        with self._lock:
            if self._ptr is None:
                return
            # xs_history_close returns the flush's status but its text dies with the handle:
            # flushing first keeps the message for the exception.
            rc = LIB.xs_history_flush(self._ptr)
            err = self._error(rc) if rc != 0 else None
            closed = LIB.xs_history_close(self._ptr)
            self._ptr = None
            if err is None and closed != 0:
                err = self._error(closed)
            if err is not None:
                raise err

    def add(self, prompt: Union[str, bytes], cwd: Optional[StrPath] = None, time_ms: int = 0) -> None:
        """Queues a prompt typed in cwd (None or "": none) at time_ms (ms since the epoch; 0 = now).
        A prompt equal to this handle's previous one with the same cwd is skipped. The library
        checks the text: empty, a NUL byte or invalid UTF-8 raise InvalidArgumentError, over
        max_prompt_bytes LimitError."""
        b = prompt.encode("utf-8", "surrogateescape") if isinstance(prompt, str) else bytes(prompt)
        self._call(LIB.xs_history_add, b, len(b), path_arg(cwd), time_ms)

    def flush(self) -> None:
        """Waits until every prompt queued before the call is committed (searchable, crash-safe)."""
        self._call(LIB.xs_history_flush)

    def search(
        self, query: str, cwd: Optional[StrPath] = None, *, literal: bool = False, limit: int = 0
    ) -> Results[HistoryHit]:
        """Committed prompts matching query, best first. query is FTS5 syntax (words, "phrases",
        prefix*, AND/OR/NOT, NEAR), or plain words with literal=True (the last one a prefix); a
        query FTS5 refuses raises InvalidArgumentError ("bad history query: ..."). cwd None: every
        prompt. limit 0 = 20, at most 10000."""
        flags = _LITERAL if literal else 0
        return parse_list(HistoryHit, self._read(LIB.xs_history_search, text_arg(query), path_arg(cwd), flags, limit))

    def recent(self, cwd: Optional[StrPath] = None, *, limit: int = 0) -> Results[HistoryItem]:
        """The newest committed prompts, newest first (cwd None: every prompt; limit 0 = 20)."""
        return parse_list(HistoryItem, self._read(LIB.xs_history_recent, path_arg(cwd), limit))

    def info(self) -> HistoryInfo:
        """The file's path, schema version, counts, synchronous mode and any damaged file kept aside."""
        return parse(HistoryInfo, self._read(LIB.xs_history_info))
