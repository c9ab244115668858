"""Session: one open transcript (xs_session)."""

from __future__ import annotations

import ctypes
from ctypes import c_int64, c_uint32
from typing import Any, Optional

from . import _lib
from ._codec import Results, decode, loads, parse, parse_list
from ._handle import Handle
from ._lib import LIB, text_arg
from .entries import Entry, SessionHeader, decode_entry
from .options import (
    CompactionSettings,
    JsonIn,
    ReadFlags,
    StrPath,
    check,
    json_arg,
    opt_json,
    path_arg,
    session_options,
)
from .outputs import (
    CompactionPlan,
    Context,
    Diagnostic,
    Dialect,
    Label,
    RepairReport,
    ResumeCheck,
    SessionInfo,
    Stats,
    TreeNode,
    Usage,
    VerifyReport,
)

_UNSET = -1


def _tri(value: Optional[bool]) -> int:
    return _UNSET if value is None else int(value)


def _flags(resolve_blobs: bool) -> int:
    return int(ReadFlags.RESOLVE_BLOBS if resolve_blobs else ReadFlags.AS_STORED)


class Session(Handle):
    """An open session. Use it as a context manager, or call close(); it may be shared between
    threads (calls are serialised, as the C API does)."""

    _errmsg = LIB.xs_session_errmsg
    _errcode = LIB.xs_session_errcode
    _kind = "session"

    _free = LIB.xs_session_close

    def __init__(self, ptr: int) -> None:
        super().__init__(ptr)

    def close(self) -> None:
        """Flushes, releases the writer lock and frees the handle. Idempotent; raises the final
        flush's error (the handle is closed all the same)."""
        with self._lock:
            if self._ptr is None:
                return
            rc = LIB.xs_session_flush(self._ptr)
            err = self._error(rc) if rc not in (0, -13) else None  # read-only: nothing to flush
            LIB.xs_session_close(self._ptr)
            self._ptr = None
            if err is not None:
                raise err

    # --- lifecycle -------------------------------------------------------------------------
    def flush(self) -> None:
        self._call(LIB.xs_session_flush)

    def persist(self) -> None:
        self._call(LIB.xs_session_persist)

    def reload(self) -> int:
        """Read-only handles: picks up what another process appended; the change in entries."""
        added = c_int64(0)
        self._call(LIB.xs_session_reload, ctypes.byref(added))
        return added.value

    def _new(self, fn: Any, *args: Any) -> "Session":
        out = ctypes.c_void_p()
        self._call(fn, *args, ctypes.byref(out))
        return Session(int(out.value or 0))

    def fork(self, **options: Any) -> "Session":
        """A copy of this session under a new id beside it (session options as keywords)."""
        return self._new(LIB.xs_session_fork, ctypes.byref(session_options(**options)))

    def create_branched(self, leaf_id: Optional[str] = None, **options: Any) -> "Session":
        """A new session holding the path from the root to leaf_id (None: the current leaf)."""
        return self._new(LIB.xs_session_create_branched, text_arg(leaf_id), ctypes.byref(session_options(**options)))

    def move_to(self, cwd: StrPath) -> None:
        self._call(LIB.xs_session_move_to, path_arg(cwd))

    # --- writing ---------------------------------------------------------------------------
    def _append(self, fn: Any, *args: Any) -> str:
        id_out = ctypes.create_string_buffer(_lib.ID_BUFSIZE)
        self._call(fn, *args, id_out)
        return id_out.value.decode("utf-8")

    def append(self, entry: JsonIn) -> str:
        """Appends a whole entry (a JSON object with a string "type"); returns its id."""
        b = json_arg(entry)
        return self._append(LIB.xs_append, b, len(b))

    def append_message(self, message: JsonIn) -> str:
        """Appends a "message" entry (an AgentMessage with a string "role"); returns its id."""
        b = json_arg(message)
        return self._append(LIB.xs_append_message, b, len(b))

    def append_thinking_level(self, level: Optional[str]) -> str:
        return self._append(LIB.xs_append_thinking_level, text_arg(level))

    def append_model_change(self, model: str, role: Optional[str] = None) -> str:
        return self._append(LIB.xs_append_model_change, text_arg(model), text_arg(role))

    def append_compaction(
        self,
        summary: str,
        first_kept_entry_id: str,
        tokens_before: int,
        *,
        short_summary: Optional[str] = None,
        details: JsonIn = None,
        preserve_data: JsonIn = None,
        from_extension: Optional[bool] = None,
    ) -> str:
        """Appends a "compaction" entry. details/preserve_data None = absent (JSON null: "null")."""
        c = _lib.CompactionC()
        check(LIB.xs_compaction_init(ctypes.byref(c), 1))
        s = summary.encode("utf-8")
        c.summary, c.summary_len = s, len(s)
        if short_summary is not None:
            ss = short_summary.encode("utf-8")
            c.short_summary, c.short_summary_len = ss, len(ss)
        c.first_kept_entry_id = text_arg(first_kept_entry_id)
        c.tokens_before = tokens_before
        c.details_json, c.details_len = opt_json(details, details is not None)
        c.preserve_data_json, c.preserve_data_len = opt_json(preserve_data, preserve_data is not None)
        c.from_extension = _tri(from_extension)
        return self._append(LIB.xs_append_compaction, ctypes.byref(c))

    def append_custom(self, custom_type: str, data: JsonIn = None) -> str:
        """Appends a "custom" entry (extension state). data None = absent (JSON null: "null")."""
        d, n = opt_json(data, data is not None)
        return self._append(LIB.xs_append_custom, text_arg(custom_type), d, n)

    def append_custom_message(
        self,
        custom_type: str,
        content: JsonIn,
        *,
        display: bool = True,
        details: JsonIn = None,
        attribution: Optional[str] = None,
    ) -> str:
        """Appends a "custom_message". content is JSON text (str) or a list of content blocks."""
        m = _lib.CustomMessageC()
        check(LIB.xs_custom_message_init(ctypes.byref(m), 1))
        m.display = int(display)
        m.custom_type = text_arg(custom_type)
        c = json_arg(content)
        m.content_json, m.content_len = c, len(c)
        m.details_json, m.details_len = opt_json(details, details is not None)
        m.attribution = text_arg(attribution)
        return self._append(LIB.xs_append_custom_message, ctypes.byref(m))

    def append_label(self, target_id: str, label: Optional[str]) -> str:
        """Labels target_id (None clears its label)."""
        return self._append(LIB.xs_append_label, text_arg(target_id), text_arg(label))

    def append_ttsr_injection(self, rules: JsonIn) -> str:
        b = json_arg(rules)
        return self._append(LIB.xs_append_ttsr_injection, b, len(b))

    def append_session_init(self, system_prompt: str, task: str, tools: JsonIn, output_schema: JsonIn = None) -> str:
        si = _lib.SessionInitEntryC()
        check(LIB.xs_session_init_entry_init(ctypes.byref(si), 1))
        sp, t, tl = system_prompt.encode("utf-8"), task.encode("utf-8"), json_arg(tools)
        si.system_prompt, si.system_prompt_len = sp, len(sp)
        si.task, si.task_len = t, len(t)
        si.tools_json, si.tools_len = tl, len(tl)
        si.output_schema_json, si.output_schema_len = opt_json(output_schema, output_schema is not None)
        return self._append(LIB.xs_append_session_init, ctypes.byref(si))

    def append_mode_change(self, mode: str, data: JsonIn = None) -> str:
        d, n = opt_json(data, data is not None)
        return self._append(LIB.xs_append_mode_change, text_arg(mode), d, n)

    def append_session_info(self, name: str) -> str:
        """pi dialect: pi's title entry."""
        b = name.encode("utf-8")
        return self._append(LIB.xs_append_session_info, b, len(b))

    def branch_with_summary(
        self, from_id: Optional[str], summary: str, *, details: JsonIn = None, from_extension: Optional[bool] = None
    ) -> str:
        """Moves the leaf to from_id (None: a new root) and appends a "branch_summary" there."""
        s = summary.encode("utf-8")
        d, n = opt_json(details, details is not None)
        return self._append(
            LIB.xs_session_branch_with_summary, text_arg(from_id), s, len(s), d, n, _tri(from_extension)
        )

    def set_leaf(self, entry_id: Optional[str]) -> None:
        """Moves the leaf (None: no leaf; the next append starts a new root). Writes nothing."""
        self._call(LIB.xs_session_set_leaf, text_arg(entry_id))

    def set_title(self, title: Optional[str]) -> None:
        b = text_arg(title)
        self._call(LIB.xs_session_set_title, b, len(b) if b is not None else 0)

    # --- reading ---------------------------------------------------------------------------
    @property
    def dialect(self) -> Dialect:
        d = c_uint32(0)
        self._call(LIB.xs_session_dialect, ctypes.byref(d))
        return Dialect(d.value)

    @property
    def leaf(self) -> Optional[str]:
        """The leaf's id; None when the leaf is none."""
        b = self._read(LIB.xs_session_leaf)
        return b.decode("utf-8") if b else None

    def build_context(self, leaf_id: Optional[str] = None) -> Context:
        """The context the model sees for the path ending at leaf_id (None: the leaf)."""
        return parse(Context, self._read(LIB.xs_build_context, text_arg(leaf_id)))

    def header(self) -> SessionHeader:
        return parse(SessionHeader, self._read(LIB.xs_session_header))

    def entries(self, *, resolve_blobs: bool = False) -> Results[Entry]:
        """Every entry in file order."""
        return parse_list(Entry, self._read(LIB.xs_session_entries, _flags(resolve_blobs)))

    def entry(self, entry_id: str, *, resolve_blobs: bool = False) -> Entry:
        """One entry; its exact line is ``entry.line``."""
        text = self._read(LIB.xs_session_entry, text_arg(entry_id), _flags(resolve_blobs))
        e = decode_entry(loads(text))
        object.__setattr__(e, "line", text.decode("utf-8"))
        return e

    def path(self, entry_id: Optional[str] = None, *, resolve_blobs: bool = False) -> Results[Entry]:
        """The entries from the root down to entry_id (None: the leaf)."""
        return parse_list(Entry, self._read(LIB.xs_session_path, text_arg(entry_id), _flags(resolve_blobs)))

    def children(self, entry_id: str, *, resolve_blobs: bool = False) -> Results[Entry]:
        return parse_list(Entry, self._read(LIB.xs_session_children, text_arg(entry_id), _flags(resolve_blobs)))

    def tree(self, *, resolve_blobs: bool = False) -> Results[TreeNode]:
        """The whole tree, flat, depth-first pre-order."""
        return parse_list(TreeNode, self._read(LIB.xs_session_tree, _flags(resolve_blobs)))

    def labels(self) -> Results[Label]:
        return parse_list(Label, self._read(LIB.xs_session_labels))

    def diagnostics(self) -> Results[Diagnostic]:
        return parse_list(Diagnostic, self._read(LIB.xs_session_diagnostics))

    def info(self) -> SessionInfo:
        return parse(SessionInfo, self._read(LIB.xs_session_info))

    def usage(self) -> Usage:
        return parse(Usage, self._read(LIB.xs_session_usage))

    def stats(self) -> Stats:
        return parse(Stats, self._read(LIB.xs_session_stats))

    def verify(self) -> VerifyReport:
        return parse(VerifyReport, self._read(LIB.xs_session_verify))

    def repair(self, *, quarantine: bool = False) -> RepairReport:
        return parse(RepairReport, self._read(LIB.xs_session_repair, 1 if quarantine else 0))

    def resume_check(self, leaf_id: Optional[str] = None) -> ResumeCheck:
        return parse(ResumeCheck, self._read(LIB.xs_session_resume_check, text_arg(leaf_id)))

    def compaction_plan(
        self, leaf_id: Optional[str] = None, settings: Optional[CompactionSettings] = None
    ) -> CompactionPlan:
        s = (settings or CompactionSettings()).to_c()
        return parse(CompactionPlan, self._read(LIB.xs_compaction_plan, text_arg(leaf_id), ctypes.byref(s)))


_ = decode  # re-exported for users who decode stored JSON themselves
