"""Typed session entries, the header and messages.

Every entry type the engine writes has a class; both dialects' spellings are fields (pi's
``provider``/``modelId``, omp's ``model``/``role``...). Members a class does not name are kept in
``extra``, the whole object in ``raw``, so ``to_json()`` gives back exactly what was read. An entry
of a type we do not know, or a known type whose members have other types than ours (files from
other agents), decodes as :class:`GenericEntry`, which keeps the object as it is.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Dict, Tuple, Type

from ._codec import (
    ABSENT,
    INTERNAL,
    Absent,
    DecodeError,
    JsonValue,
    decode,
    encode,
    encode_fields,
    extra_field,
    opt,
    raw_field,
)


def _raw() -> Any:
    return dataclasses.field(default_factory=dict, compare=False, repr=False, metadata=INTERNAL)


@dataclass(frozen=True, kw_only=True)
class Message:
    """An AgentMessage: ``role`` and ``content`` typed, every other member in ``extra``.

    ``content`` stays generic JSON (a string or a list of content blocks); ``text`` joins its text."""

    role: str
    content: JsonValue = opt(default=ABSENT)
    extra: Dict[str, JsonValue] = extra_field()

    @classmethod
    def from_json(cls, obj: Any) -> "Message":
        return decode(cls, obj, "message")

    def to_json(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"role": self.role}
        if self.content is not ABSENT:
            out["content"] = self.content
        out.update(self.extra)
        return out

    _custom_to_json: ClassVar[bool] = True

    @property
    def text(self) -> str:
        """The message's text: a string content, or its "text" blocks joined; for the summaries a
        context constructs (branchSummary, compactionSummary: no content), the summary."""
        c = self.content
        if c is ABSENT and isinstance(self.extra.get("summary"), str):
            return str(self.extra["summary"])
        if isinstance(c, str):
            return c
        if isinstance(c, list):
            return "".join(b["text"] for b in c if isinstance(b, dict) and isinstance(b.get("text"), str))
        return ""


@dataclass(frozen=True, kw_only=True)
class Entry:
    """The envelope every entry has. ``raw`` is the entry's JSON object as read."""

    type: str
    id: str
    parent_id: str | None
    timestamp: str
    extra: Dict[str, JsonValue] = extra_field()
    raw: Dict[str, JsonValue] = _raw()
    #: The exact line, when read alone (Session.entry); "" for entries read in arrays.
    line: str = dataclasses.field(default="", compare=False, repr=False, metadata=INTERNAL)

    kind: ClassVar[str] = ""

    def to_json(self) -> Dict[str, Any]:
        return dict(self.raw) if isinstance(self, GenericEntry) else encode_fields(self)

    _custom_to_json: ClassVar[bool] = True

    @staticmethod
    def from_json(obj: Any) -> "Entry":
        return decode_entry(obj)


@dataclass(frozen=True, kw_only=True)
class GenericEntry(Entry):
    """An entry of a type we do not know, or whose members are not of the types we expect."""

    parent_id: str | None = None
    timestamp: str = ""


@dataclass(frozen=True, kw_only=True)
class MessageEntry(Entry):
    kind: ClassVar[str] = "message"
    message: Message


@dataclass(frozen=True, kw_only=True)
class ThinkingLevelChangeEntry(Entry):
    kind: ClassVar[str] = "thinking_level_change"
    thinking_level: str | None


@dataclass(frozen=True, kw_only=True)
class ModelChangeEntry(Entry):
    """omp: ``model`` ("provider/id") and ``role``; pi: ``provider`` and ``model_id``."""

    kind: ClassVar[str] = "model_change"
    model: str | None | Absent = opt(default=ABSENT)
    role: str | None | Absent = opt(default=ABSENT)
    provider: str | None | Absent = opt(default=ABSENT)
    model_id: str | None | Absent = opt(default=ABSENT)


@dataclass(frozen=True, kw_only=True)
class CompactionEntry(Entry):
    kind: ClassVar[str] = "compaction"
    summary: str
    short_summary: str | None | Absent = opt(default=ABSENT)
    first_kept_entry_id: str
    tokens_before: float
    details: JsonValue = opt(default=ABSENT)
    from_extension: bool | None | Absent = opt(default=ABSENT)
    from_hook: bool | None | Absent = opt(default=ABSENT)
    preserve_data: JsonValue = opt(default=ABSENT)


@dataclass(frozen=True, kw_only=True)
class BranchSummaryEntry(Entry):
    kind: ClassVar[str] = "branch_summary"
    from_id: str
    summary: str
    details: JsonValue = opt(default=ABSENT)
    from_extension: bool | None | Absent = opt(default=ABSENT)
    from_hook: bool | None | Absent = opt(default=ABSENT)


@dataclass(frozen=True, kw_only=True)
class CustomEntry(Entry):
    kind: ClassVar[str] = "custom"
    custom_type: str
    data: JsonValue = opt(default=ABSENT)


@dataclass(frozen=True, kw_only=True)
class CustomMessageEntry(Entry):
    kind: ClassVar[str] = "custom_message"
    custom_type: str
    content: JsonValue
    display: bool
    details: JsonValue = opt(default=ABSENT)
    attribution: str | None | Absent = opt(default=ABSENT)


@dataclass(frozen=True, kw_only=True)
class LabelEntry(Entry):
    kind: ClassVar[str] = "label"
    target_id: str
    label: str | None | Absent = opt(default=ABSENT)


@dataclass(frozen=True, kw_only=True)
class TtsrInjectionEntry(Entry):
    kind: ClassVar[str] = "ttsr_injection"
    injected_rules: Tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class SessionInitEntry(Entry):
    kind: ClassVar[str] = "session_init"
    system_prompt: str
    task: str
    tools: JsonValue
    output_schema: JsonValue = opt(default=ABSENT)


@dataclass(frozen=True, kw_only=True)
class ModeChangeEntry(Entry):
    kind: ClassVar[str] = "mode_change"
    mode: str
    data: JsonValue = opt(default=ABSENT)


@dataclass(frozen=True, kw_only=True)
class SessionInfoEntry(Entry):
    """pi's title entry: the last one's ``name`` is the session's title."""

    kind: ClassVar[str] = "session_info"
    name: str | None | Absent = opt(default=ABSENT)


_TYPED: Tuple[Type[Entry], ...] = (
    MessageEntry,
    ThinkingLevelChangeEntry,
    ModelChangeEntry,
    CompactionEntry,
    BranchSummaryEntry,
    CustomEntry,
    CustomMessageEntry,
    LabelEntry,
    TtsrInjectionEntry,
    SessionInitEntry,
    ModeChangeEntry,
    SessionInfoEntry,
)
ENTRY_TYPES: Dict[str, Type[Entry]] = {c.kind: c for c in _TYPED}


def decode_entry(obj: Any) -> Entry:
    """An entry object as its typed class (GenericEntry when the type or shape is not ours)."""
    if not isinstance(obj, dict):
        raise DecodeError(f"an entry must be an object, got {obj!r}")
    t = obj.get("type")
    cls = ENTRY_TYPES.get(t) if isinstance(t, str) else None
    entry: Entry
    try:
        entry = decode(cls, obj, cls.kind) if cls is not None else _generic(obj)
    except DecodeError:
        entry = _generic(obj)
    object.__setattr__(entry, "raw", obj)
    return entry


def _generic(obj: Dict[str, Any]) -> GenericEntry:
    t, i, p, ts = obj.get("type"), obj.get("id"), obj.get("parentId"), obj.get("timestamp")
    return GenericEntry(
        type=t if isinstance(t, str) else "",
        id=i if isinstance(i, str) else "",
        parent_id=p if isinstance(p, str) else None,
        timestamp=ts if isinstance(ts, str) else "",
    )


@dataclass(frozen=True, kw_only=True)
class SessionHeader:
    """The header line. ``version`` is any JSON (old files spell it oddly); others in ``extra``."""

    type: str
    id: str
    version: JsonValue = opt(default=ABSENT)
    timestamp: JsonValue = opt(default=ABSENT)
    cwd: JsonValue = opt(default=ABSENT)
    title: JsonValue = opt(default=ABSENT)
    parent_session: JsonValue = opt(default=ABSENT)
    extra: Dict[str, JsonValue] = extra_field()
    raw: str = raw_field()

    def to_json(self) -> Any:
        return encode(self)


__all__ = [
    "ABSENT",
    "Absent",
    "Message",
    "Entry",
    "GenericEntry",
    "MessageEntry",
    "ThinkingLevelChangeEntry",
    "ModelChangeEntry",
    "CompactionEntry",
    "BranchSummaryEntry",
    "CustomEntry",
    "CustomMessageEntry",
    "LabelEntry",
    "TtsrInjectionEntry",
    "SessionInitEntry",
    "ModeChangeEntry",
    "SessionInfoEntry",
    "SessionHeader",
    "ENTRY_TYPES",
    "decode_entry",
]
