"""Index: a store's session index and its full-text search (xs_index; docs/search.md), opened by
Store.open_index.

The index is derived data: it is empty until rebuild() or refresh(). Opened with
follow_writes=True it indexes what the store's own sessions write, on a thread of its own shortly
after each write (flush() waits for it); otherwise, and for other processes' writes, refresh()
before searching to see them. Times are ms since the epoch, as elsewhere in the package.
"""

from __future__ import annotations

import ctypes
import enum
from dataclasses import dataclass
from typing import ClassVar, Optional, Tuple, Union

from . import _lib
from ._codec import JsonResult, Results, parse, parse_list, raw_field
from ._handle import Handle
from ._lib import LIB, text_arg
from .options import ImportKind, StrPath, check, path_arg
from .outputs import DamagedFile

INDEX_OPTIONS_VERSION = 1
SEARCH_OPTIONS_VERSION = 1
_LITERAL = 0x1  # XS_SEARCH_LITERAL
_FOLLOW_WRITES = 0x1  # XS_INDEX_FOLLOW_WRITES


def _raw() -> str:
    return raw_field()  # type: ignore[no-any-return]


class Role(str, enum.Enum):
    """What kind of text an indexed entry holds (docs/search.md#what-is-indexed)."""

    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"
    SUMMARY = "summary"  # compaction and branch summaries
    LABEL = "label"


@dataclass(frozen=True, kw_only=True)
class IndexReport(JsonResult):
    """What rebuild() or refresh() did, session files counted by what became of them."""

    files: int
    unchanged: int
    appended: int
    reindexed: int
    added: int
    removed: int
    unreadable: int
    raced: int
    entries: int
    raw: str = _raw()


@dataclass(frozen=True, kw_only=True)
class IndexVerifyReport(JsonResult):
    """Every difference between the index and the files: paths ``missing`` (files without a row),
    ``extra`` (rows without a file) and ``stale`` (files changed since indexed); ``ok`` when none."""

    ok: bool
    files: int
    indexed: int
    missing: Tuple[str, ...]
    extra: Tuple[str, ...]
    stale: Tuple[str, ...]
    raw: str = _raw()


@dataclass(frozen=True, kw_only=True)
class IndexedSession(JsonResult):
    """A session as the index holds it (xs_index_list): ``created`` and ``updated`` are ms since
    the epoch or None, ``modified`` and ``size`` the file's when indexed, ``dialect`` "omp" or
    "pi", ``source_agent`` the agent an imported session came from (None for a native one)."""

    path: str
    id: str
    cwd: str
    title: str | None
    first_prompt: str | None
    created: int | None
    updated: int | None
    modified: int
    size: int
    entries: int
    messages: int
    input_tokens: int
    output_tokens: int
    cost: float
    dialect: str | None
    source_agent: ImportKind | None
    parent_session: str | None
    archived: bool
    leaf_id: str | None


@dataclass(frozen=True, kw_only=True)
class IndexInfo(JsonResult):
    """Facts about an index: ``sessions`` and ``entries`` rows, and the damaged file the open
    kept aside (None when there was none)."""

    path: str
    schema_version: int
    sessions: int
    entries: int
    damaged: DamagedFile | None
    raw: str = _raw()


@dataclass(frozen=True, kw_only=True)
class SearchHit(JsonResult):
    """An entry search() found: ``score`` is bm25's (lower is better), ``on_path`` whether the
    entry is on its session's current branch, ``timestamp`` ms since the epoch or None;
    ``snippet`` holds each match between U+0002 and U+0003 (HIT_START, HIT_END), cuts as "…"."""

    session_id: str
    session_title: str | None
    session_path: str
    cwd: str
    entry_id: str
    role: Role | None
    on_path: bool
    timestamp: int | None
    score: float
    snippet: str

    HIT_START: ClassVar[str] = "\u0002"
    HIT_END: ClassVar[str] = "\u0003"


def index_options(
    *, path: Optional[StrPath] = None, busy_timeout_ms: Optional[int] = None, follow_writes: bool = False
) -> _lib.IndexOptionsC:
    """xs_index_options from keywords; None keeps the library's default (xs_index_options_init)."""
    o = _lib.IndexOptionsC()
    check(LIB.xs_index_options_init(ctypes.byref(o), INDEX_OPTIONS_VERSION))
    o.flags = _FOLLOW_WRITES if follow_writes else 0
    o.path = path_arg(path)
    if busy_timeout_ms is not None:
        o.busy_timeout_ms = busy_timeout_ms
    return o


class Index(Handle):
    """An open session index. Use it as a context manager, or call close(); it may be shared
    between threads (calls are serialised, as the C API requires). It keeps reading the store's
    files after the Store is closed."""

    _errmsg = LIB.xs_index_errmsg
    _errcode = LIB.xs_index_errcode
    _free = LIB.xs_index_close
    _kind = "index"

    def close(self) -> None:
        """Releases the handle (idempotent)."""
        with self._lock:
            if self._ptr is not None:
                LIB.xs_index_close(self._ptr)
                self._ptr = None

    def rebuild(self) -> IndexReport:
        """Makes the index again from nothing: every session, live and archived, read whole."""
        return parse(IndexReport, self._read(LIB.xs_index_rebuild))

    def refresh(self) -> IndexReport:
        """Brings the index up to date: unchanged files are not read, files grown in place only
        from their last indexed byte, others whole; rows of files gone are removed."""
        return parse(IndexReport, self._read(LIB.xs_index_refresh))

    def flush(self) -> None:
        """Waits until what the store's sessions wrote before this call is indexed (opened with
        follow_writes; without it there is nothing to wait for), so a search finds it. An update
        the index's thread could not make is left for the next refresh(); the first such failure
        since the last flush is raised here, once (LockedError, IOFailureError, ...; its message
        starts "indexing what sessions wrote: ")."""
        self._call(LIB.xs_index_flush)

    def verify(self) -> IndexVerifyReport:
        """Every difference between the index and the files, changing nothing (read ``ok``)."""
        return parse(IndexVerifyReport, self._read(LIB.xs_index_verify))

    def list(self, cwd: Optional[StrPath] = None, *, limit: int = 0) -> Results[IndexedSession]:
        """Sessions newest first (file mtime, then creation), from the index alone. cwd None:
        every session. limit 0 = 20, at most 10000."""
        return parse_list(IndexedSession, self._read(LIB.xs_index_list, path_arg(cwd), limit))

    def info(self) -> IndexInfo:
        """The file's path, schema version, row counts and any damaged file kept aside."""
        return parse(IndexInfo, self._read(LIB.xs_index_info))

    def search(
        self,
        query: str,
        *,
        cwd: Optional[StrPath] = None,
        role: Union[Role, str, None] = None,
        since_ms: int = 0,
        session_id: Optional[str] = None,
        limit: int = 0,
        literal: bool = False,
    ) -> Results[SearchHit]:
        """Entries matching query, best first (bm25; ties newest first). query is FTS5 syntax
        (words, "phrases", prefix*, AND/OR/NOT, NEAR), or plain words with literal=True (the last
        one a prefix); a query FTS5 refuses raises InvalidArgumentError ("bad search query: ...").
        Filters: the session's cwd, the entry's role, entries stamped at or after since_ms, one
        session by id. limit 0 = 20, at most 10000. A role outside Role is passed on for the library
        to refuse. The options start from xs_search_options_init's defaults."""
        o = _lib.SearchOptionsC()
        check(LIB.xs_search_options_init(ctypes.byref(o), SEARCH_OPTIONS_VERSION))
        o.flags = _LITERAL if literal else 0
        o.cwd = path_arg(cwd)
        o.role = text_arg(role.value if isinstance(role, Role) else role)
        o.since_ms = since_ms
        o.session_id = text_arg(session_id)
        o.limit = limit
        return parse_list(SearchHit, self._read(LIB.xs_search, text_arg(query), ctypes.byref(o)))


__all__ = ["Index", "Role", "IndexReport", "IndexVerifyReport", "IndexedSession", "IndexInfo", "SearchHit"]
