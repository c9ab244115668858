"""Enums and option values. Options start from the library's defaults (the xs_*_init functions)."""

from __future__ import annotations

import ctypes
import enum
import json
import os
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence, Union

from . import _lib
from ._lib import LIB
from .errors import error_for

#: A path: str, bytes (any bytes: non-UTF-8 names work) or an os.PathLike of either.
StrPath = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
#: JSON given by the caller: text (str or bytes, passed byte for byte) or a value to serialise.
JsonIn = Union[str, bytes, Mapping[str, Any], Sequence[Any], int, float, bool, None]


class ReadFlags(enum.IntFlag):
    AS_STORED = 0
    RESOLVE_BLOBS = 0x1


class ResetReason(enum.IntEnum):
    """Why xs_store_session_for_key returned the session it did."""

    CONTINUED = 0
    NEW = 1
    DAILY = 2
    IDLE = 3
    FORCED = 4

    def __str__(self) -> str:
        return str(LIB.xs_reset_reason_str(int(self)).decode())


class ImportKind(str, enum.Enum):
    CLAUDE = "claude"
    MYAGENTS = "myagents"
    GATEWAY = "gateway"
    CODEX = "codex"


def check(rc: int, message: str = "") -> None:
    if rc != 0:
        raise error_for(rc, message)


def path_arg(path: Optional[StrPath]) -> Optional[bytes]:
    """A path as the bytes the C API takes (os.fsencode: undecodable names survive)."""
    return None if path is None else _lib.no_nul(os.fsencode(path))


def json_arg(value: JsonIn) -> bytes:
    """Caller JSON as UTF-8 text: str/bytes as given, anything else minified by json.dumps."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def opt_json(value: Optional[JsonIn], given: bool) -> tuple[Optional[bytes], int]:
    if not given:
        return None, 0
    b = json_arg(value)
    return b, len(b)


@dataclass(frozen=True)
class ResetPolicy:
    """When a key's session expires (docs/reset-policies.md): a daily hour and/or idle minutes."""

    daily_hour: Optional[int] = None
    idle_minutes: int = 0
    time_zone: Optional[str] = None

    def to_c(self) -> _lib.ResetPolicyC:
        p = _lib.ResetPolicyC()
        check(LIB.xs_reset_policy_init(ctypes.byref(p), 1))
        if self.daily_hour is not None:
            p.daily_hour = self.daily_hour
        p.idle_minutes = self.idle_minutes
        p.time_zone = _lib.text_arg(self.time_zone)
        return p


@dataclass(frozen=True)
class CompactionSettings:
    """Compaction planning settings (docs/compaction-planning.md); None keeps the library default."""

    context_window: Optional[int] = None
    reserve_tokens: Optional[int] = None
    reserve_floor: Optional[int] = None
    keep_recent_tokens: Optional[int] = None
    soft_threshold_tokens: Optional[int] = None
    version: int = 1

    def to_c(self) -> _lib.CompactionSettingsC:
        s = _lib.CompactionSettingsC()
        check(LIB.xs_compaction_settings_init(ctypes.byref(s), 1))
        s.version = self.version
        names = ("context_window", "reserve_tokens", "reserve_floor", "keep_recent_tokens", "soft_threshold_tokens")
        for name in names:
            v = getattr(self, name)
            if v is not None:
                setattr(s, name, v)
        return s


_SESSION_FLAGS = {"read_only": 0x1, "create": 0x2, "no_defer": 0x4, "sync": 0x8}


def session_options(
    *,
    read_only: bool = False,
    create: bool = False,
    no_defer: bool = False,
    sync: bool = False,
    max_line_bytes: int = 0,
    max_depth: int = 0,
    dialect: int = 0,
    clock_start_ms: Optional[int] = None,
    clock_step_ms: int = 0,
    id_seed: int = 0,
    cwd: Optional[StrPath] = None,
    session_id: Optional[str] = None,
    title: Optional[str] = None,
    parent_session: Optional[str] = None,
    key: Optional[str] = None,
) -> _lib.SessionOptionsC:
    """xs_session_options from keyword arguments (the names of the C fields and flags)."""
    o = _lib.SessionOptionsC()
    check(LIB.xs_session_options_init(ctypes.byref(o), 2))
    flags = 0
    for name, bit in _SESSION_FLAGS.items():
        if locals()[name]:
            flags |= bit
    if clock_start_ms is not None:
        flags |= 0x10
        o.clock_start_ms = clock_start_ms
        o.clock_step_ms = clock_step_ms
    o.flags = flags
    o.max_line_bytes = max_line_bytes
    o.max_depth = max_depth
    o.dialect = int(dialect)
    o.id_seed = id_seed
    o.cwd = path_arg(cwd)
    o.session_id = _lib.text_arg(session_id)
    o.title = _lib.text_arg(title)
    o.parent_session = _lib.text_arg(parent_session)
    o.key = _lib.text_arg(key)
    return o
