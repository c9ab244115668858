"""Frozen dataclasses for every JSON output of the C API (xsession.h documents each shape).

Each top-level value keeps the exact text it was decoded from in ``raw``; ``to_json()`` gives the
JSON data back (the binding's tests check that it equals what the library returned).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar, Dict, Tuple

from ._codec import ABSENT, Absent, JsonResult, JsonValue, extra_field, opt, raw_field
from .entries import Entry, Message


def _raw() -> str:
    return raw_field()  # type: ignore[no-any-return]


class Dialect(enum.IntEnum):
    """Whose forms a session's lines take (docs/dialects.md)."""

    AUTO = 0
    OMP = 1
    PI = 2

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, kw_only=True)
class Context(JsonResult):
    """What the model sees for a path (xs_build_context; docs/context.md)."""

    leaf_id: str | None
    messages: Tuple[Message, ...]
    thinking_level: str | None
    model: JsonValue = opt(default=ABSENT)  # pi dialect: {"provider","modelId"} or null
    models: Dict[str, str]
    injected_ttsr_rules: Tuple[str, ...]
    mode: str
    mode_data: JsonValue = opt(default=ABSENT)
    service_tier: JsonValue = opt(default=ABSENT)
    selected_mcp_tool_names: JsonValue = opt(json="selectedMCPToolNames", default=ABSENT)
    has_persisted_mcp_tool_selection: bool | None = opt(json="hasPersistedMCPToolSelection")
    raw: str = _raw()


@dataclass(frozen=True, kw_only=True)
class TreeNode(JsonResult):
    id: str
    parent_id: str | None
    depth: int
    children: Tuple[str, ...]
    label: str | None = opt()
    label_timestamp: str | None = opt()
    entry: Entry


@dataclass(frozen=True, kw_only=True)
class Label(JsonResult):
    target_id: str
    label: str
    timestamp: str


@dataclass(frozen=True, kw_only=True)
class Diagnostic(JsonResult):
    line: int
    offset: int
    length: int
    code: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class SessionInfo(JsonResult):
    id: str
    path: str
    cwd: str
    timestamp: str
    title: str | None
    parent_session: str | None
    version: JsonValue
    dialect: str
    entry_count: int
    leaf_id: str | None
    persisted: bool
    read_only: bool
    archived: bool
    diagnostics: int
    entry_types: Dict[str, int]
    raw: str = _raw()


@dataclass(frozen=True, kw_only=True)
class Usage(JsonResult):
    input: float
    output: float
    cache_read: float
    cache_write: float
    premium_requests: float
    cost: float
    assistant_messages: int
    raw: str = _raw()


@dataclass(frozen=True, kw_only=True)
class Stats(JsonResult):
    """The session's counters (docs/session-stats.md)."""

    input_tokens: float
    output_tokens: float
    cache_read: float
    cache_write: float
    total_tokens: float
    context_tokens: float
    cost: float
    compaction_count: int
    message_counts: Dict[str, int]
    tool_calls: int
    raw: str = _raw()


@dataclass(frozen=True, kw_only=True)
class Problem(JsonResult):
    line: int
    offset: int
    length: int
    code: str
    reason: str
    fixable: bool


@dataclass(frozen=True, kw_only=True)
class VerifyReport(JsonResult):
    path: str
    id: str
    file_version: JsonValue
    needs_migration: bool
    lines: int
    entries: int
    blob_refs: int
    problems: Tuple[Problem, ...]
    raw: str = _raw()


@dataclass(frozen=True, kw_only=True)
class Quarantine(JsonResult):
    path: str
    lines: int
    bytes: int


@dataclass(frozen=True, kw_only=True)
class RepairReport(JsonResult):
    """``quarantine``: ABSENT without XS_REPAIR_QUARANTINE, None when nothing moved."""

    path: str
    done: Tuple[Diagnostic, ...]
    quarantine: Quarantine | None | Absent = opt(default=ABSENT)
    raw: str = _raw()


@dataclass(frozen=True, kw_only=True)
class Orphan(JsonResult):
    id: str
    parent_id: str
    line: int


@dataclass(frozen=True, kw_only=True)
class PendingToolCall(JsonResult):
    entry_id: str
    tool_call_id: str
    name: str


@dataclass(frozen=True, kw_only=True)
class ResumeCheck(JsonResult):
    """What an agent must know before it continues (docs/context.md#resume-analysis)."""

    leaf_id: str | None
    orphans: Tuple[Orphan, ...]
    pending_tool_calls: Tuple[PendingToolCall, ...]
    raw: str = _raw()


@dataclass(frozen=True, kw_only=True)
class CompactionPlan(JsonResult):
    """Where a compaction should cut (docs/compaction-planning.md)."""

    needed: bool
    first_kept_entry_id: str | None
    to_summarise: Tuple[str, ...]
    tokens_before: int
    kept_tokens: int
    raw: str = _raw()


@dataclass(frozen=True, kw_only=True)
class SessionListing(JsonResult):
    """One session of xs_store_list; the last three only with ``full=True``."""

    path: str
    id: str
    cwd: str
    timestamp: str
    modified: int
    size: int
    title: str | None
    parent_session: str | None
    version: JsonValue
    needs_migration: bool
    corrupt_copies: int
    archived: bool
    first_message: str | None
    first_prompt: str | None
    message_count: int | None = opt()
    entry_count: int | None = opt()
    diagnostics: int | None = opt()


@dataclass(frozen=True, kw_only=True)
class BlobInfo(JsonResult):
    """A blob; ``problem`` is ABSENT unless listed with verify=True (then None or why it is bad)."""

    hash: str
    size: int
    mtime_ms: int
    problem: str | None | Absent = opt(default=ABSENT)


@dataclass(frozen=True, kw_only=True)
class FileInfo(JsonResult):
    name: str
    size: int
    mtime_ms: int


@dataclass(frozen=True, kw_only=True)
class BlobList(JsonResult):
    count: int
    bytes: int
    blobs: Tuple[BlobInfo, ...]
    others: Tuple[FileInfo, ...]
    raw: str = _raw()


@dataclass(frozen=True, kw_only=True)
class GcReport(JsonResult):
    dry_run: bool
    files_scanned: int
    referenced: int
    bytes_freed: int
    deleted: Tuple[FileInfo, ...]
    young: Tuple[FileInfo, ...]
    missing: Tuple[str, ...]
    raw: str = _raw()


@dataclass(frozen=True, kw_only=True)
class Archived(JsonResult):
    path: str
    bytes: int
    gz_bytes: int


@dataclass(frozen=True, kw_only=True)
class ArchiveSkip(JsonResult):
    path: str
    reason: str
    detail: str


@dataclass(frozen=True, kw_only=True)
class ArchiveReport(JsonResult):
    dry_run: bool
    archived: Tuple[Archived, ...]
    skipped: Tuple[ArchiveSkip, ...]
    raw: str = _raw()


@dataclass(frozen=True, kw_only=True)
class Pruned(JsonResult):
    path: str
    gz_bytes: int
    archived_ms: int


@dataclass(frozen=True, kw_only=True)
class PruneReport(JsonResult):
    dry_run: bool
    pruned: Tuple[Pruned, ...]
    raw: str = _raw()


@dataclass(frozen=True, kw_only=True)
class KeyRecord(JsonResult):
    """A keyed store record: ``session_id`` and the typed fields; any other member in ``extra``."""

    session_id: str
    session_file: str | None | Absent = opt(default=ABSENT)
    title: str | None | Absent = opt(default=ABSENT)
    cwd: str | None | Absent = opt(default=ABSENT)
    chat_type: str | None | Absent = opt(default=ABSENT)
    created_at: float | None | Absent = opt(default=ABSENT)
    updated_at: float | None | Absent = opt(default=ABSENT)
    input_tokens: float | None | Absent = opt(default=ABSENT)
    output_tokens: float | None | Absent = opt(default=ABSENT)
    cache_read: float | None | Absent = opt(default=ABSENT)
    cache_write: float | None | Absent = opt(default=ABSENT)
    total_tokens: float | None | Absent = opt(default=ABSENT)
    context_tokens: float | None | Absent = opt(default=ABSENT)
    cost: float | None | Absent = opt(default=ABSENT)
    compaction_count: float | None | Absent = opt(default=ABSENT)
    memory_flush_at: float | None | Absent = opt(default=ABSENT)
    memory_flush_compaction_count: float | None | Absent = opt(default=ABSENT)
    extra: Dict[str, JsonValue] = extra_field()
    raw: str = _raw()


@dataclass(frozen=True, kw_only=True)
class KeyEntry(JsonResult):
    key: str
    record: KeyRecord


@dataclass(frozen=True, kw_only=True)
class StatsFix(JsonResult):
    key: str
    session_id: str
    before: Dict[str, JsonValue]
    after: Dict[str, JsonValue]


@dataclass(frozen=True, kw_only=True)
class KeySkip(JsonResult):
    key: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class FixStatsReport(JsonResult):
    checked: int
    fixed: Tuple[StatsFix, ...]
    skipped: Tuple[KeySkip, ...]
    raw: str = _raw()


@dataclass(frozen=True, kw_only=True)
class HistoryItem(JsonResult):
    """A prompt of the history (xs_history_recent; docs/history.md): ``id`` increases in the order
    prompts were written, ``created_at`` is ms since the epoch, ``cwd`` None for none."""

    id: int
    prompt: str
    created_at: int
    cwd: str | None


@dataclass(frozen=True, kw_only=True)
class HistoryHit(HistoryItem):
    """A prompt xs_history_search found: ``score`` is bm25's (lower is better); ``snippet`` a part
    of the prompt with each match between U+0002 and U+0003 (HIT_START, HIT_END), cuts as "…"."""

    score: float
    snippet: str

    HIT_START: ClassVar[str] = "\u0002"
    HIT_END: ClassVar[str] = "\u0003"


@dataclass(frozen=True, kw_only=True)
class HistoryDamaged(JsonResult):
    """The damaged file an open kept aside (renamed to ``path``) before it started a fresh one."""

    path: str
    reason: str


#: The same note in the session index's info (IndexInfo.damaged).
DamagedFile = HistoryDamaged


@dataclass(frozen=True, kw_only=True)
class HistoryInfo(JsonResult):
    """Facts about a history (xs_history_info): ``count`` committed prompts, ``pending`` this
    handle's queued ones, ``synchronous`` "normal" or "full"."""

    path: str
    schema_version: int
    count: int
    pending: int
    synchronous: str
    damaged: HistoryDamaged | None
    raw: str = _raw()


__all__ = [
    "Dialect",
    "Context",
    "TreeNode",
    "Label",
    "Diagnostic",
    "SessionInfo",
    "Usage",
    "Stats",
    "Problem",
    "VerifyReport",
    "Quarantine",
    "RepairReport",
    "Orphan",
    "PendingToolCall",
    "ResumeCheck",
    "CompactionPlan",
    "SessionListing",
    "BlobInfo",
    "FileInfo",
    "BlobList",
    "GcReport",
    "Archived",
    "ArchiveSkip",
    "ArchiveReport",
    "Pruned",
    "PruneReport",
    "KeyRecord",
    "KeyEntry",
    "StatsFix",
    "KeySkip",
    "FixStatsReport",
    "HistoryItem",
    "HistoryHit",
    "HistoryDamaged",
    "DamagedFile",
    "HistoryInfo",
]
