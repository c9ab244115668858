"""Typed import reports and foreign-store listings (docs/import.md, docs/import-claude.md,
docs/import-hosts.md, docs/import-codex.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Tuple, Union

from ._codec import JsonResult, decode, raw_field


@dataclass(frozen=True, kw_only=True)
class SkippedRow(JsonResult):
    file: str
    line: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class ImportedSession(JsonResult):
    source_file: str
    session_id: str
    session_file: str
    created: bool
    rows_read: int
    imported: int
    kept_as_custom: int
    already_imported: int
    skipped: int


@dataclass(frozen=True, kw_only=True)
class ImportReport(JsonResult):
    """xs_import's report: for each session rows_read = imported + kept_as_custom +
    already_imported + skipped."""

    source: str
    root: str
    dry_run: bool
    rows_read: int
    imported: int
    kept_as_custom: int
    already_imported: int
    skipped: int
    sessions: Tuple[ImportedSession, ...]
    skipped_rows: Tuple[SkippedRow, ...]
    notes: Tuple[str, ...]
    raw: str = raw_field()


@dataclass(frozen=True, kw_only=True)
class ClaudeTranscript(JsonResult):
    file: str
    kind: str
    session_id: str
    parent_session_id: str
    agent_id: str
    cwd: str
    first_prompt: str
    summary: str
    title: str
    rows: int
    bad_rows: int
    size: int
    mtime: int
    leaf_uuid: str
    in_index: bool


@dataclass(frozen=True, kw_only=True)
class ClaudeProject(JsonResult):
    dir: str
    has_index: bool
    original_path: str
    transcripts: Tuple[ClaudeTranscript, ...]
    skipped_rows: Tuple[SkippedRow, ...]
    notes: Tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class ClaudeListing(JsonResult):
    source: str
    root: str
    projects: Tuple[ClaudeProject, ...]
    raw: str = raw_field()


@dataclass(frozen=True, kw_only=True)
class GatewayKey(JsonResult):
    key: str
    session_id: str
    line: int
    transcript: str | None


@dataclass(frozen=True, kw_only=True)
class GatewayTranscript(JsonResult):
    file: str
    path: str
    session_id: str
    thread_id: str | None
    generation: str
    stamp: str | None
    size: int
    mtime_ms: int
    write_lock: bool
    keys: Tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class GatewayAgent(JsonResult):
    id: str
    dir: str
    index: str | None
    index_rows: int
    keys: Tuple[GatewayKey, ...]
    transcripts: Tuple[GatewayTranscript, ...]
    problems: Tuple[SkippedRow, ...]
    notes: Tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class GatewayListing(JsonResult):
    source: str
    root: str
    agents: Tuple[GatewayAgent, ...]
    raw: str = raw_field()


@dataclass(frozen=True, kw_only=True)
class MyAgentsSession(JsonResult):
    id: str
    messages_file: str | None
    legacy_file: str | None
    legacy_beside: bool
    in_index: bool
    line: int | None
    title: str | None
    agent_dir: str | None
    created_at: str | None
    last_active_at: str | None
    stats: Dict[str, float] | None


@dataclass(frozen=True, kw_only=True)
class MyAgentsListing(JsonResult):
    source: str
    root: str
    index: str | None
    index_lock: str
    index_rows: int
    sessions: Tuple[MyAgentsSession, ...]
    problems: Tuple[SkippedRow, ...]
    notes: Tuple[str, ...]
    raw: str = raw_field()


@dataclass(frozen=True, kw_only=True)
class CodexSession(JsonResult):
    """One rollout file; the strings are "" where the rollout does not say."""

    file: str
    session_id: str
    cwd: str
    started: str
    cli_version: str
    originator: str
    model: str
    first_prompt: str
    rows: int
    bad_rows: int
    size: int
    mtime: int


@dataclass(frozen=True, kw_only=True)
class CodexListing(JsonResult):
    source: str
    root: str
    sessions: Tuple[CodexSession, ...]
    problems: Tuple[SkippedRow, ...]
    notes: Tuple[str, ...]
    raw: str = raw_field()


ForeignListing = Union[ClaudeListing, GatewayListing, MyAgentsListing, CodexListing]
_LISTINGS: Dict[str, Any] = {
    "claude": ClaudeListing,
    "gateway": GatewayListing,
    "myagents": MyAgentsListing,
    "codex": CodexListing,
}


def decode_listing(obj: Any) -> ForeignListing:
    """A listing as the class its "source" names."""
    source = obj.get("source") if isinstance(obj, dict) else None
    cls = _LISTINGS.get(source) if isinstance(source, str) else None
    if cls is None:
        raise ValueError(f"unknown listing source in {obj!r}")
    return decode(cls, obj)  # type: ignore[no-any-return]


__all__ = [
    "SkippedRow",
    "ImportedSession",
    "ImportReport",
    "ClaudeTranscript",
    "ClaudeProject",
    "ClaudeListing",
    "GatewayKey",
    "GatewayTranscript",
    "GatewayAgent",
    "GatewayListing",
    "MyAgentsSession",
    "MyAgentsListing",
    "CodexSession",
    "CodexListing",
    "ForeignListing",
    "decode_listing",
]
