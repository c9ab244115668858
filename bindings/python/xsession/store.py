"""Store: a root directory of sessions, blobs, breadcrumbs and the keyed document (xs_store)."""

from __future__ import annotations

import ctypes
import os
import threading
from ctypes import c_int, c_size_t, c_uint32, c_void_p
from typing import Any, Callable, Optional, Union

from . import _lib
from ._codec import Results, loads, parse, parse_list
from ._handle import Handle
from ._lib import LIB, text_arg
from .errors import XsError, error_for
from .history import History, history_options
from .index import Index, index_options
from .imports import ForeignListing, ImportReport, decode_listing
from .bundles import (
    BundleExportReport,
    BundleImportReport,
    CwdMap,
    HtmlReport,
    ImportBundleOptions,
    Names,
    SessionNames,
    export_options,
    html_options,
)
from .options import (
    CompactionSettings,
    ImportKind,
    JsonIn,
    ResetPolicy,
    ResetReason,
    StrPath,
    check,
    json_arg,
    path_arg,
    session_options,
)
from .outputs import (
    ArchiveReport,
    BlobList,
    Dialect,
    FixStatsReport,
    GcReport,
    KeyEntry,
    KeyRecord,
    PruneReport,
    SessionListing,
)
from .session import Session

#: What a keys_update function returns: the new record (JSON text or a mapping), or None to remove it.
UpdateResult = Optional[JsonIn]


class Store(Handle):
    """The store rooted at ``root`` (None with in_memory=True). ``with Store(root) as st:``."""

    _errmsg = LIB.xs_store_errmsg
    _errcode = LIB.xs_store_errcode
    _kind = "store"

    def __init__(
        self,
        root: Optional[StrPath],
        *,
        in_memory: bool = False,
        dialect: Dialect = Dialect.AUTO,
        keys_path: Optional[StrPath] = None,
        reset_policy: Optional[ResetPolicy] = None,
    ) -> None:
        ptr = LIB.xs_store_new()
        if not ptr:
            raise MemoryError("xs_store_new")
        super().__init__(ptr)
        o = _lib.StoreOptionsC()
        check(LIB.xs_store_options_init(ctypes.byref(o), 3))
        o.flags = (0x1 if in_memory else 0) | (0x2 if dialect == Dialect.PI else 0)
        o.keys_path = path_arg(keys_path)
        policy = reset_policy.to_c() if reset_policy is not None else None
        o.reset_policy = ctypes.pointer(policy) if policy is not None else None
        try:
            self._call(LIB.xs_store_open, path_arg(root), ctypes.byref(o))
        except BaseException:
            self.close()
            raise

    _free = LIB.xs_store_free

    def close(self) -> None:
        """Releases the handle (idempotent). Sessions opened from it stay usable."""
        with self._lock:
            if self._ptr is not None:
                self._free(self._ptr)
                self._ptr = None

    # --- sessions --------------------------------------------------------------------------
    def _session(self, fn: Any, *args: Any) -> Session:
        out = c_void_p()
        self._call(fn, *args, ctypes.byref(out))
        return Session(int(out.value or 0))

    def create(self, cwd: StrPath, **options: Any) -> Session:
        """A new session for cwd (written at the first assistant message unless no_defer=True).
        Keywords: the session options (read_only, create, no_defer, sync, max_line_bytes,
        max_depth, dialect, clock_start_ms, clock_step_ms, id_seed, session_id, title,
        parent_session, key)."""
        return self._session(LIB.xs_session_create, path_arg(cwd), ctypes.byref(session_options(**options)))

    def open(self, path_or_id: StrPath, **options: Any) -> Session:
        """Opens a session file, or a session by id or id prefix."""
        return self._session(LIB.xs_session_open, path_arg(path_or_id), ctypes.byref(session_options(**options)))

    def continue_recent(self, cwd: StrPath, terminal_id: Optional[str] = None, **options: Any) -> Session:
        o = session_options(**options)
        return self._session(LIB.xs_session_continue_recent, path_arg(cwd), text_arg(terminal_id), ctypes.byref(o))

    def fork_from(self, source_path: StrPath, target_cwd: StrPath, **options: Any) -> Session:
        o = session_options(**options)
        return self._session(LIB.xs_session_fork_from, path_arg(source_path), path_arg(target_cwd), ctypes.byref(o))

    def session_for_key(
        self,
        key: str,
        now_ms: int = 0,
        /,
        *,
        policy: Optional[ResetPolicy] = None,
        force: bool = False,
        **options: Any,
    ) -> tuple[Session, ResetReason]:
        """The current session of a key (docs/reset-policies.md) and why it is that one; now_ms 0
        is the system clock. The session options may include their own key (its stats' record)."""
        reason = c_uint32(0)
        p = policy.to_c() if policy is not None else None
        out = c_void_p()
        self._call(
            LIB.xs_store_session_for_key,
            text_arg(key),
            now_ms,
            ctypes.byref(p) if p is not None else None,
            1 if force else 0,
            ctypes.byref(session_options(**options)),
            ctypes.byref(out),
            ctypes.byref(reason),
        )
        return Session(int(out.value or 0)), ResetReason(reason.value)

    # --- prompt history --------------------------------------------------------------------
    def open_history(
        self,
        *,
        path: Optional[StrPath] = None,
        sync: bool = False,
        busy_timeout_ms: Optional[int] = None,
        max_prompt_bytes: Optional[int] = None,
    ) -> History:
        """The store's prompt history (docs/history.md), created if missing: <root>/history.db
        unless path names another file (required for an in-memory store). sync=True: a flushed
        prompt survives power loss too. None keeps the library's default (busy timeout 5000 ms,
        prompts up to 1 MiB). The History is independent of the store once open."""
        o = history_options(path=path, sync=sync, busy_timeout_ms=busy_timeout_ms, max_prompt_bytes=max_prompt_bytes)
        out = c_void_p()
        self._call(LIB.xs_history_open, ctypes.byref(o), ctypes.byref(out))
        return History(int(out.value or 0))

    # --- session index and search ------------------------------------------------------------
    def open_index(
        self, *, path: Optional[StrPath] = None, busy_timeout_ms: Optional[int] = None, follow_writes: bool = False
    ) -> Index:
        """The store's session index (docs/search.md), created if missing: <root>/index.db unless
        path names another file (required for an in-memory store). busy_timeout_ms None keeps the
        library's 5000 ms. A new index is empty until Index.rebuild or Index.refresh. follow_writes:
        while the Index is open, what this store's sessions write is indexed shortly after, without
        a refresh (Index.flush waits for it). The Index is independent of the store once open."""
        o = index_options(path=path, busy_timeout_ms=busy_timeout_ms, follow_writes=follow_writes)
        out = c_void_p()
        self._call(LIB.xs_index_open, ctypes.byref(o), ctypes.byref(out))
        return Index(int(out.value or 0))

    # --- discovery -------------------------------------------------------------------------
    def session_dir(self, cwd: StrPath) -> str:
        return os.fsdecode(self._read(LIB.xs_store_session_dir, path_arg(cwd)))

    def list(self, cwd: Optional[StrPath] = None, *, full: bool = False, limit: int = 0) -> Results[SessionListing]:
        """The store's sessions, newest first."""
        o = _lib.ListOptionsC()
        check(LIB.xs_list_options_init(ctypes.byref(o), 1))
        o.flags, o.limit, o.cwd = (1 if full else 0), limit, path_arg(cwd)
        return parse_list(SessionListing, self._read(LIB.xs_store_list, ctypes.byref(o)))

    def resolve(self, query: str, cwd: Optional[StrPath] = None) -> str:
        """The path of the session an id, file name or prefix names (os.fsdecode of the raw path)."""
        return os.fsdecode(self._read(LIB.xs_store_resolve, text_arg(query), path_arg(cwd)))

    def write_breadcrumb(self, terminal_id: str, cwd: StrPath, session_path: StrPath) -> None:
        self._call(LIB.xs_store_write_breadcrumb, text_arg(terminal_id), path_arg(cwd), path_arg(session_path))

    # --- blobs -----------------------------------------------------------------------------
    def blob_put(self, data: bytes) -> str:
        """Stores bytes; returns their SHA-256 (lowercase hex)."""
        out = ctypes.create_string_buffer(_lib.HASH_BUFSIZE)
        self._call(LIB.xs_blob_put, bytes(data), len(data), out)
        return out.value.decode()

    def blob_get(self, sha256: str) -> bytes:
        return self._read(LIB.xs_blob_get, text_arg(sha256))

    def blob_list(self, *, verify: bool = False) -> BlobList:
        return parse(BlobList, self._read(LIB.xs_blob_list, 1 if verify else 0))

    def blob_gc(self, *, dry_run: bool = False, grace_ms: Optional[int] = None, now_ms: int = 0) -> GcReport:
        o = _lib.GcOptionsC()
        check(LIB.xs_gc_options_init(ctypes.byref(o), 1))
        o.flags = 1 if dry_run else 0
        if grace_ms is not None:
            o.grace_ms = grace_ms
        o.now_ms = now_ms
        return parse(GcReport, self._read(LIB.xs_blob_gc, ctypes.byref(o)))

    # --- retention -------------------------------------------------------------------------
    def _archive_options(
        self, older_than_ms: Optional[int], now_ms: int, dry_run: bool, progress: Optional[Callable[[int, int], None]]
    ) -> tuple[_lib.ArchiveOptionsC, Any]:
        o = _lib.ArchiveOptionsC()
        check(LIB.xs_archive_options_init(ctypes.byref(o), 1))
        if older_than_ms is not None:
            o.older_than_ms = older_than_ms
        o.now_ms, o.flags = now_ms, (1 if dry_run else 0)
        cb = _progress_fn(self, progress)
        if cb is not None:
            o.progress = cb
        return o, cb

    def archive(
        self,
        older_than_ms: Optional[int],
        *,
        now_ms: int = 0,
        dry_run: bool = False,
        progress: Optional[Callable[[int, int], None]] = None,
    ) -> ArchiveReport:
        """Archives sessions idle longer than older_than_ms (docs/retention.md)."""
        o, keep = self._archive_options(older_than_ms, now_ms, dry_run, progress)
        report = parse(ArchiveReport, self._read(LIB.xs_store_archive, ctypes.byref(o)))
        del keep
        return report

    def prune(self, older_than_ms: Optional[int], *, now_ms: int = 0, dry_run: bool = False) -> PruneReport:
        """Deletes archives older than older_than_ms; never a live session."""
        o, _ = self._archive_options(older_than_ms, now_ms, dry_run, None)
        return parse(PruneReport, self._read(LIB.xs_store_prune, ctypes.byref(o)))

    # --- import ----------------------------------------------------------------------------
    def _import_options(
        self,
        dry_run: bool,
        target_cwd: Optional[StrPath],
        fallback_cwd: Optional[StrPath],
        lock_wait_ms: Optional[int],
        now_ms: Optional[int],
        progress: Optional[Callable[[int, int], None]] = None,
    ) -> tuple[_lib.ImportOptionsC, Any]:
        o = _lib.ImportOptionsC()
        check(LIB.xs_import_options_init(ctypes.byref(o), 2))
        o.flags = 1 if dry_run else 0
        o.target_cwd, o.fallback_cwd = path_arg(target_cwd), path_arg(fallback_cwd)
        if lock_wait_ms is not None:
            o.lock_wait_ms = lock_wait_ms
        if now_ms is not None:
            o.now_ms = now_ms
        cb = _progress_fn(self, progress)
        if cb is not None:
            o.progress = cb
        return o, cb

    def import_store(
        self,
        kind: Union[ImportKind, str],
        source_path: StrPath,
        *,
        dry_run: bool = False,
        target_cwd: Optional[StrPath] = None,
        fallback_cwd: Optional[StrPath] = None,
        lock_wait_ms: Optional[int] = None,
        now_ms: Optional[int] = None,
        progress: Optional[Callable[[int, int], None]] = None,
    ) -> ImportReport:
        """Imports another agent's store ("claude", "myagents", "gateway", "codex"; docs/import.md).
        progress(done, total) counts bytes of the source's transcripts (docs/import.md#progress):
        0 first, the total last, on the calling thread while the store is busy."""
        o, keep = self._import_options(dry_run, target_cwd, fallback_cwd, lock_wait_ms, now_ms, progress)
        text = self._read(LIB.xs_import, _kind_arg(kind), path_arg(source_path), ctypes.byref(o))
        del keep
        return parse(ImportReport, text)

    def foreign_list(
        self, kind: Union[ImportKind, str], source_path: StrPath, *, lock_wait_ms: Optional[int] = None,
        now_ms: Optional[int] = None,
    ) -> ForeignListing:  # fmt: skip
        """What a foreign store holds, read only."""
        o, _ = self._import_options(False, None, None, lock_wait_ms, now_ms)
        text = self._read(LIB.xs_foreign_list, _kind_arg(kind), path_arg(source_path), ctypes.byref(o))
        listing = decode_listing(loads(text))
        object.__setattr__(listing, "raw", text.decode("utf-8"))
        return listing

    # --- bundles and pages (docs/bundles.md, docs/html-view.md) ----------------------------------
    def export(
        self, session_ids: SessionNames, path: StrPath, *, lineage: bool = True, gzip: bool = False
    ) -> BundleExportReport:
        """Writes a bundle of the named sessions (ids, id prefixes or file paths) to path, with
        the sessions they descend from unless lineage=False; zstd unless gzip=True."""
        names, o = Names(session_ids), export_options(lineage, gzip)
        text = self._read(LIB.xs_export, names.array, names.count, path_arg(path), ctypes.byref(o))
        return parse(BundleExportReport, text)

    def import_bundle(
        self, path: StrPath, *, cwd_map: Optional[CwdMap] = None, rename: bool = False, dry_run: bool = False
    ) -> BundleImportReport:
        """Imports a bundle. cwd_map {old: new} (or (old, new) pairs, the first that applies
        wins) moves sessions to another cwd; rename=True gives a session whose id the store holds
        with other content a new id (else ExistsError); dry_run=True checks and writes nothing."""
        o = ImportBundleOptions(cwd_map, rename, dry_run)
        return parse(BundleImportReport, self._read(LIB.xs_import_bundle, path_arg(path), ctypes.byref(o.struct)))

    def export_html(self, session_ids: SessionNames, path: StrPath) -> HtmlReport:
        """Writes the sessions' pages: one session, path is the page; several, path is a
        directory that gets "<id>.html" for each and an index.html."""
        names, o = Names(session_ids), html_options()
        text = self._read(LIB.xs_export_html, names.array, names.count, path_arg(path), ctypes.byref(o))
        return parse(HtmlReport, text)

    # --- keyed store -----------------------------------------------------------------------
    def keys_get(self, key: str) -> KeyRecord:
        """The record of key (NotFoundError when there is none)."""
        return parse(KeyRecord, self._read(LIB.xs_keys_get, text_arg(key)))

    def keys_list(self, prefix: Optional[str] = None) -> Results[KeyEntry]:
        return parse_list(KeyEntry, self._read(LIB.xs_keys_list, text_arg(prefix)))

    def keys_put(self, key: str, record: JsonIn) -> None:
        b = json_arg(record)
        self._call(LIB.xs_keys_put, text_arg(key), b, len(b))

    def keys_patch(self, key: str, patch: JsonIn) -> None:
        """Merges a JSON merge patch (RFC 7386) into the record."""
        b = json_arg(patch)
        self._call(LIB.xs_keys_patch, text_arg(key), b, len(b))

    def keys_delete(self, key: str) -> None:
        self._call(LIB.xs_keys_delete, text_arg(key))

    def keys_update(self, key: str, fn: Callable[[Optional[str]], UpdateResult]) -> None:
        """Runs fn(current record text, or None) once under the document's lock and stores what it
        returns (None removes the record). fn raising XsError cancels with its code; any other
        exception cancels and is raised again."""
        keep: list[Any] = []
        raised: list[BaseException] = []

        def trampoline(_user: Any, current: Any, length: int, new_json: Any, new_len: Any) -> int:
            try:
                text = ctypes.string_at(current, length).decode("utf-8") if current else None
                result = fn(text)
                if result is None:
                    new_json[0] = None
                    new_len[0] = 0
                else:
                    b = json_arg(result)
                    buf = ctypes.create_string_buffer(b, len(b))
                    keep.append(buf)
                    new_json[0] = ctypes.cast(buf, c_void_p).value
                    new_len[0] = len(b)
                return 0
            except XsError as e:
                return e.code if e.code != 0 else -1
            except BaseException as e:
                raised.append(e)
                return -1

        cb = _lib.KEYS_UPDATE_FN(trampoline)
        with self._lock:
            rc = LIB.xs_keys_update(self._live(), text_arg(key), cb, None)
            if raised:
                raise raised[0]
            if rc != 0:
                raise self._error(rc)

    def keys_fix_stats(self, prefix: Optional[str] = None) -> FixStatsReport:
        return parse(FixStatsReport, self._read(LIB.xs_keys_fix_stats, text_arg(prefix)))

    def keys_claim_memory_flush(
        self, key: str, settings: CompactionSettings, context_tokens: int, now_ms: int = 0
    ) -> bool:
        """Whether to run the memory flush now, claimed under the document's lock."""
        run = c_int(0)
        s = settings.to_c()
        self._call(
            LIB.xs_keys_claim_memory_flush, text_arg(key), ctypes.byref(s), context_tokens, now_ms, ctypes.byref(run)
        )
        return bool(run.value)


def _progress_fn(store: Store, progress: Optional[Callable[[int, int], None]]) -> Any:
    """progress as the C callback of archive and import options (None stays None), during which
    calls on store raise MisuseError; the caller keeps the result alive until the call returns."""
    if progress is None:
        return None
    fn = progress

    def trampoline(done: int, total: int, _user: Any) -> None:
        store._callback_thread = threading.get_ident()
        try:
            fn(done, total)
        except Exception:  # a callback cannot raise through C; progress is advisory
            pass
        finally:
            store._callback_thread = None

    return _lib.ARCHIVE_PROGRESS(trampoline)


def _kind_arg(kind: Union[ImportKind, str]) -> bytes:
    """The kind as given: an unknown one is the library's to refuse (XS_EINVAL)."""
    return (kind.value if isinstance(kind, ImportKind) else kind).encode("utf-8")


def should_compact(settings: CompactionSettings, context_tokens: int) -> bool:
    out = c_int(0)
    s = settings.to_c()
    rc = LIB.xs_should_compact(ctypes.byref(s), context_tokens, ctypes.byref(out))
    if rc != 0:
        raise error_for(rc)
    return bool(out.value)


def should_flush_memory(
    settings: CompactionSettings, context_tokens: int, compaction_count: int, last_flush_compaction_count: int
) -> bool:
    out = c_int(0)
    s = settings.to_c()
    rc = LIB.xs_should_flush_memory(
        ctypes.byref(s), context_tokens, compaction_count, last_flush_compaction_count, ctypes.byref(out)
    )
    if rc != 0:
        raise error_for(rc)
    return bool(out.value)


_ = c_size_t
