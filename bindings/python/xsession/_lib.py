"""The C library through ctypes: loading, the option structs and every XS_API prototype.

Only this module touches ctypes prototypes; the rest of the package calls ``LIB.xs_*`` with the
argument types declared here. ctypes releases the GIL during every foreign call.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    c_char_p,
    c_int,
    c_int32,
    c_int64,
    c_size_t,
    c_uint32,
    c_uint64,
    c_void_p,
)
from typing import Any, Callable, Optional

status = c_int32
ID_BUFSIZE = 65
HASH_BUFSIZE = 65
OK = 0
EBUFS = -7


def _candidates() -> list[str]:
    """Where the library is looked for: $XSESSION_LIBRARY, the package directory, the system."""
    found: list[str] = []
    env = os.environ.get("XSESSION_LIBRARY")
    if env:
        found.append(env)
    here = os.path.dirname(os.path.abspath(__file__))
    for name in ("libxsession.so.0", "libxsession.so", "libxsession.dylib", "xsession.dll"):
        path = os.path.join(here, name)
        if os.path.exists(path):
            found.append(path)
    system = ctypes.util.find_library("xsession")
    if system:
        found.append(system)
    found.append("libxsession.so.0")
    return found


def _load() -> ctypes.CDLL:
    errors = []
    for candidate in _candidates():
        try:
            return ctypes.CDLL(candidate)
        except OSError as e:
            errors.append(f"{candidate}: {e}")
            if candidate == os.environ.get("XSESSION_LIBRARY"):
                break  # an explicit choice that fails is not silently replaced by another library
    raise ImportError("cannot load libxsession (set XSESSION_LIBRARY to its path): " + "; ".join(errors))


class ResetPolicyC(Structure):
    _fields_ = [("version", c_uint32), ("daily_hour", c_int32), ("idle_minutes", c_int64), ("time_zone", c_char_p)]


class StoreOptionsC(Structure):
    _fields_ = [
        ("version", c_uint32),
        ("flags", c_uint32),
        ("keys_path", c_char_p),
        ("reset_policy", POINTER(ResetPolicyC)),
    ]


class SessionOptionsC(Structure):
    _fields_ = [
        ("version", c_uint32),
        ("flags", c_uint32),
        ("max_line_bytes", c_uint64),
        ("max_depth", c_uint32),
        ("dialect", c_uint32),
        ("clock_start_ms", c_int64),
        ("clock_step_ms", c_int64),
        ("id_seed", c_uint64),
        ("cwd", c_char_p),
        ("session_id", c_char_p),
        ("title", c_char_p),
        ("parent_session", c_char_p),
        ("key", c_char_p),
    ]


class GcOptionsC(Structure):
    _fields_ = [("version", c_uint32), ("flags", c_uint32), ("grace_ms", c_int64), ("now_ms", c_int64)]


class ListOptionsC(Structure):
    _fields_ = [("version", c_uint32), ("flags", c_uint32), ("limit", c_uint64), ("cwd", c_char_p)]


ARCHIVE_PROGRESS = CFUNCTYPE(None, c_uint64, c_uint64, c_void_p)


class ArchiveOptionsC(Structure):
    _fields_ = [
        ("version", c_uint32),
        ("flags", c_uint32),
        ("older_than_ms", c_int64),
        ("now_ms", c_int64),
        ("progress", ARCHIVE_PROGRESS),
        ("progress_user", c_void_p),
    ]


IMPORT_PROGRESS = ARCHIVE_PROGRESS  # the same shape: void (*)(uint64_t done, uint64_t total, void *user)


class ImportOptionsC(Structure):
    _fields_ = [
        ("version", c_uint32),
        ("flags", c_uint32),
        ("target_cwd", c_char_p),
        ("fallback_cwd", c_char_p),
        ("lock_wait_ms", c_int64),
        ("now_ms", c_int64),
        ("progress", IMPORT_PROGRESS),  # version 2
        ("progress_user", c_void_p),
    ]


class CompactionC(Structure):
    _fields_ = [
        ("version", c_uint32),
        ("from_extension", c_int32),
        ("summary", c_char_p),
        ("summary_len", c_size_t),
        ("short_summary", c_char_p),
        ("short_summary_len", c_size_t),
        ("first_kept_entry_id", c_char_p),
        ("tokens_before", c_int64),
        ("details_json", c_char_p),
        ("details_len", c_size_t),
        ("preserve_data_json", c_char_p),
        ("preserve_data_len", c_size_t),
    ]


class CompactionSettingsC(Structure):
    _fields_ = [
        ("version", c_uint32),
        ("context_window", c_int64),
        ("reserve_tokens", c_int64),
        ("reserve_floor", c_int64),
        ("keep_recent_tokens", c_int64),
        ("soft_threshold_tokens", c_int64),
    ]


class CustomMessageC(Structure):
    _fields_ = [
        ("version", c_uint32),
        ("display", c_int32),
        ("custom_type", c_char_p),
        ("content_json", c_char_p),
        ("content_len", c_size_t),
        ("details_json", c_char_p),
        ("details_len", c_size_t),
        ("attribution", c_char_p),
    ]


class SessionInitEntryC(Structure):
    _fields_ = [
        ("version", c_uint32),
        ("reserved", c_uint32),
        ("system_prompt", c_char_p),
        ("system_prompt_len", c_size_t),
        ("task", c_char_p),
        ("task_len", c_size_t),
        ("tools_json", c_char_p),
        ("tools_len", c_size_t),
        ("output_schema_json", c_char_p),
        ("output_schema_len", c_size_t),
    ]


class HistoryOptionsC(Structure):
    _fields_ = [
        ("version", c_uint32),
        ("flags", c_uint32),
        ("path", c_char_p),
        ("busy_timeout_ms", c_uint32),
        ("max_prompt_bytes", c_uint32),
    ]


class IndexOptionsC(Structure):
    _fields_ = [("version", c_uint32), ("flags", c_uint32), ("path", c_char_p), ("busy_timeout_ms", c_uint32)]


class SearchOptionsC(Structure):
    _fields_ = [
        ("version", c_uint32),
        ("flags", c_uint32),
        ("cwd", c_char_p),
        ("role", c_char_p),
        ("since_ms", c_int64),
        ("session_id", c_char_p),
        ("limit", c_uint32),
    ]


class ExportOptionsC(Structure):
    _fields_ = [("version", c_uint32), ("flags", c_uint32)]


class ImportBundleOptionsC(Structure):
    _fields_ = [
        ("version", c_uint32),
        ("flags", c_uint32),
        ("cwd_map", POINTER(c_char_p)),  # pairs old0, new0, old1, new1...
        ("cwd_map_len", c_size_t),  # strings, not pairs
    ]


class HtmlOptionsC(Structure):
    _fields_ = [("version", c_uint32), ("flags", c_uint32)]


# xs_keys_update_fn(void *user, const char *current, size_t len, const char **new_json, size_t *new_len)
KEYS_UPDATE_FN = CFUNCTYPE(status, c_void_p, c_void_p, c_size_t, POINTER(c_void_p), POINTER(c_size_t))

P = c_void_p  # an opaque handle
S = c_char_p  # NUL-terminated text, or (pointer, length) text passed as bytes
Z = c_size_t
OUT = POINTER(c_size_t)
BUF = c_void_p  # an output buffer (a ctypes string buffer or NULL)

_PROTOTYPES: dict[str, tuple[Any, list[Any]]] = {
    "xs_version": (None, [POINTER(c_int), POINTER(c_int), POINTER(c_int)]),
    "xs_status_str": (c_char_p, [status]),
    "xs_store_options_init": (status, [POINTER(StoreOptionsC), c_uint32]),
    "xs_session_options_init": (status, [POINTER(SessionOptionsC), c_uint32]),
    "xs_store_new": (P, []),
    "xs_store_open": (status, [P, S, POINTER(StoreOptionsC)]),
    "xs_store_free": (None, [P]),
    "xs_store_errcode": (status, [P]),
    "xs_store_errmsg": (c_char_p, [P]),
    "xs_store_session_dir": (status, [P, S, BUF, Z, OUT]),
    "xs_blob_put": (status, [P, S, Z, c_char_p]),
    "xs_blob_get": (status, [P, S, BUF, Z, OUT]),
    "xs_blob_list": (status, [P, c_uint32, BUF, Z, OUT]),
    "xs_gc_options_init": (status, [POINTER(GcOptionsC), c_uint32]),
    "xs_blob_gc": (status, [P, POINTER(GcOptionsC), BUF, Z, OUT]),
    "xs_list_options_init": (status, [POINTER(ListOptionsC), c_uint32]),
    "xs_store_list": (status, [P, POINTER(ListOptionsC), BUF, Z, OUT]),
    "xs_store_resolve": (status, [P, S, S, BUF, Z, OUT]),
    "xs_store_write_breadcrumb": (status, [P, S, S, S]),
    "xs_archive_options_init": (status, [POINTER(ArchiveOptionsC), c_uint32]),
    "xs_store_archive": (status, [P, POINTER(ArchiveOptionsC), BUF, Z, OUT]),
    "xs_store_prune": (status, [P, POINTER(ArchiveOptionsC), BUF, Z, OUT]),
    "xs_import_options_init": (status, [POINTER(ImportOptionsC), c_uint32]),
    "xs_import": (status, [P, S, S, POINTER(ImportOptionsC), BUF, Z, OUT]),
    "xs_foreign_list": (status, [P, S, S, POINTER(ImportOptionsC), BUF, Z, OUT]),
    "xs_keys_get": (status, [P, S, BUF, Z, OUT]),
    "xs_keys_list": (status, [P, S, BUF, Z, OUT]),
    "xs_keys_put": (status, [P, S, S, Z]),
    "xs_keys_patch": (status, [P, S, S, Z]),
    "xs_keys_delete": (status, [P, S]),
    "xs_keys_update": (status, [P, S, KEYS_UPDATE_FN, c_void_p]),
    "xs_reset_policy_init": (status, [POINTER(ResetPolicyC), c_uint32]),
    "xs_store_session_for_key": (
        status,
        [P, S, c_int64, POINTER(ResetPolicyC), c_uint32, POINTER(SessionOptionsC), POINTER(P), POINTER(c_uint32)],
    ),
    "xs_reset_reason_str": (c_char_p, [c_uint32]),
    "xs_session_create": (status, [P, S, POINTER(SessionOptionsC), POINTER(P)]),
    "xs_session_open": (status, [P, S, POINTER(SessionOptionsC), POINTER(P)]),
    "xs_session_continue_recent": (status, [P, S, S, POINTER(SessionOptionsC), POINTER(P)]),
    "xs_session_fork_from": (status, [P, S, S, POINTER(SessionOptionsC), POINTER(P)]),
    "xs_session_fork": (status, [P, POINTER(SessionOptionsC), POINTER(P)]),
    "xs_session_create_branched": (status, [P, S, POINTER(SessionOptionsC), POINTER(P)]),
    "xs_session_move_to": (status, [P, S]),
    "xs_session_reload": (status, [P, POINTER(c_int64)]),
    "xs_session_close": (None, [P]),
    "xs_session_errcode": (status, [P]),
    "xs_session_errmsg": (c_char_p, [P]),
    "xs_session_flush": (status, [P]),
    "xs_session_persist": (status, [P]),
    "xs_append": (status, [P, S, Z, c_char_p]),
    "xs_append_message": (status, [P, S, Z, c_char_p]),
    "xs_append_thinking_level": (status, [P, S, c_char_p]),
    "xs_append_model_change": (status, [P, S, S, c_char_p]),
    "xs_compaction_init": (status, [POINTER(CompactionC), c_uint32]),
    "xs_append_compaction": (status, [P, POINTER(CompactionC), c_char_p]),
    "xs_compaction_settings_init": (status, [POINTER(CompactionSettingsC), c_uint32]),
    "xs_should_compact": (status, [POINTER(CompactionSettingsC), c_int64, POINTER(c_int)]),
    "xs_should_flush_memory": (status, [POINTER(CompactionSettingsC), c_int64, c_int64, c_int64, POINTER(c_int)]),
    "xs_compaction_plan": (status, [P, S, POINTER(CompactionSettingsC), BUF, Z, OUT]),
    "xs_keys_claim_memory_flush": (
        status,
        [P, S, POINTER(CompactionSettingsC), c_int64, c_int64, POINTER(c_int)],
    ),
    "xs_append_custom": (status, [P, S, S, Z, c_char_p]),
    "xs_custom_message_init": (status, [POINTER(CustomMessageC), c_uint32]),
    "xs_append_custom_message": (status, [P, POINTER(CustomMessageC), c_char_p]),
    "xs_append_label": (status, [P, S, S, c_char_p]),
    "xs_append_ttsr_injection": (status, [P, S, Z, c_char_p]),
    "xs_session_init_entry_init": (status, [POINTER(SessionInitEntryC), c_uint32]),
    "xs_append_session_init": (status, [P, POINTER(SessionInitEntryC), c_char_p]),
    "xs_append_mode_change": (status, [P, S, S, Z, c_char_p]),
    "xs_session_branch_with_summary": (status, [P, S, S, Z, S, Z, c_int32, c_char_p]),
    "xs_session_set_leaf": (status, [P, S]),
    "xs_session_set_title": (status, [P, S, Z]),
    "xs_append_session_info": (status, [P, S, Z, c_char_p]),
    "xs_session_dialect": (status, [P, POINTER(c_uint32)]),
    "xs_build_context": (status, [P, S, BUF, Z, OUT]),
    "xs_session_header": (status, [P, BUF, Z, OUT]),
    "xs_session_entries": (status, [P, c_uint32, BUF, Z, OUT]),
    "xs_session_entry": (status, [P, S, c_uint32, BUF, Z, OUT]),
    "xs_session_path": (status, [P, S, c_uint32, BUF, Z, OUT]),
    "xs_session_children": (status, [P, S, c_uint32, BUF, Z, OUT]),
    "xs_session_tree": (status, [P, c_uint32, BUF, Z, OUT]),
    "xs_session_labels": (status, [P, BUF, Z, OUT]),
    "xs_session_leaf": (status, [P, BUF, Z, OUT]),
    "xs_session_diagnostics": (status, [P, BUF, Z, OUT]),
    "xs_session_info": (status, [P, BUF, Z, OUT]),
    "xs_session_usage": (status, [P, BUF, Z, OUT]),
    "xs_session_stats": (status, [P, BUF, Z, OUT]),
    "xs_keys_fix_stats": (status, [P, S, BUF, Z, OUT]),
    "xs_session_verify": (status, [P, BUF, Z, OUT]),
    "xs_session_repair": (status, [P, c_uint32, BUF, Z, OUT]),
    "xs_session_resume_check": (status, [P, S, BUF, Z, OUT]),
    "xs_history_options_init": (status, [POINTER(HistoryOptionsC), c_uint32]),
    "xs_history_open": (status, [P, POINTER(HistoryOptionsC), POINTER(P)]),
    "xs_history_close": (status, [P]),
    "xs_history_errcode": (status, [P]),
    "xs_history_errmsg": (c_char_p, [P]),
    "xs_history_add": (status, [P, S, Z, S, c_int64]),
    "xs_history_flush": (status, [P]),
    "xs_history_search": (status, [P, S, S, c_uint32, c_uint32, BUF, Z, OUT]),
    "xs_history_recent": (status, [P, S, c_uint32, BUF, Z, OUT]),
    "xs_history_info": (status, [P, BUF, Z, OUT]),
    "xs_index_options_init": (status, [POINTER(IndexOptionsC), c_uint32]),
    "xs_index_open": (status, [P, POINTER(IndexOptionsC), POINTER(P)]),
    "xs_index_close": (None, [P]),
    "xs_index_errcode": (status, [P]),
    "xs_index_errmsg": (c_char_p, [P]),
    "xs_index_rebuild": (status, [P, BUF, Z, OUT]),
    "xs_index_refresh": (status, [P, BUF, Z, OUT]),
    "xs_index_flush": (status, [P]),
    "xs_index_verify": (status, [P, BUF, Z, OUT]),
    "xs_index_list": (status, [P, S, c_uint32, BUF, Z, OUT]),
    "xs_index_info": (status, [P, BUF, Z, OUT]),
    "xs_search_options_init": (status, [POINTER(SearchOptionsC), c_uint32]),
    "xs_search": (status, [P, S, POINTER(SearchOptionsC), BUF, Z, OUT]),
    "xs_export_options_init": (status, [POINTER(ExportOptionsC), c_uint32]),
    "xs_export": (status, [P, POINTER(c_char_p), Z, S, POINTER(ExportOptionsC), BUF, Z, OUT]),
    "xs_import_bundle_options_init": (status, [POINTER(ImportBundleOptionsC), c_uint32]),
    "xs_import_bundle": (status, [P, S, POINTER(ImportBundleOptionsC), BUF, Z, OUT]),
    "xs_html_options_init": (status, [POINTER(HtmlOptionsC), c_uint32]),
    "xs_export_html": (status, [P, POINTER(c_char_p), Z, S, POINTER(HtmlOptionsC), BUF, Z, OUT]),
}


def _bind(lib: ctypes.CDLL) -> None:
    for name, (restype, argtypes) in _PROTOTYPES.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes


LIB = _load()
_bind(LIB)


def read_buffer(call: Callable[[Any, int, Any], int], first: int = 4096) -> tuple[int, bytes]:
    """Runs ``call(buf, cap, out_len)`` until the result fits: (status, bytes).

    The first try uses a small buffer; on XS_EBUFS the retry gets exactly the size the library
    asked for (the handle keeps the result, so the retry copies rather than recomputes; a change
    in between may ask again, hence the loop)."""
    cap = first
    while True:
        buf = ctypes.create_string_buffer(cap) if cap else None
        out_len = c_size_t(0)
        rc = call(buf, cap, ctypes.byref(out_len))
        if rc == EBUFS and out_len.value > cap:
            cap = out_len.value
            continue
        if rc != OK:
            return rc, b""
        return rc, (ctypes.string_at(buf, out_len.value) if buf is not None and out_len.value else b"")


def text_arg(value: Optional[str]) -> Optional[bytes]:
    """A NUL-terminated text argument (None stays NULL)."""
    return None if value is None else no_nul(value.encode("utf-8"))


def no_nul(b: bytes) -> bytes:
    """C would see a NUL-terminated argument cut at an inner NUL: refuse it instead (XS_EINVAL)."""
    if b"\0" in b:
        from .errors import InvalidArgumentError

        raise InvalidArgumentError(-3, "a NUL byte inside a NUL-terminated argument")
    return b
