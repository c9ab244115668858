"""Portable bundles and the HTML view: their typed reports and the option structs the Store's
export, import_bundle and export_html pass (docs/bundles.md, docs/html-view.md)."""

from __future__ import annotations

import ctypes
import enum
import os
from ctypes import c_char_p
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Optional, Sequence, Tuple, Union

from . import _lib
from ._codec import JsonResult, raw_field
from ._lib import LIB
from .options import StrPath, check, path_arg

#: The sessions a call names: one name, or several. A name is a session id, an unambiguous id
#: prefix or a session file path of the store.
SessionNames = Union[StrPath, Sequence[StrPath]]
#: A cwd map: old path -> new path, in the order the pairs are tried (the first that applies wins).
#: The keys are paths too (str, bytes or os.PathLike); Any because a Mapping's key type is
#: invariant, so Mapping[StrPath, ...] would refuse a plain Dict[str, str].
CwdMap = Union[Mapping[Any, StrPath], Iterable[Tuple[StrPath, StrPath]]]


class Compression(str, enum.Enum):
    ZSTD = "zstd"
    GZIP = "gzip"


class BundleAction(str, enum.Enum):
    """What an import did with a session, blob or key record (kept: keys only; renamed:
    sessions only)."""

    IMPORTED = "imported"
    RENAMED = "renamed"
    PRESENT = "present"
    KEPT = "kept"


@dataclass(frozen=True, kw_only=True)
class BundledSession(JsonResult):
    """A session the bundle carries; lineage: carried as an ancestor of a named one."""

    id: str
    path: str
    cwd: str
    archived: bool
    lineage: bool
    bytes: int
    parent_session: str | None
    parent_in_bundle: bool


@dataclass(frozen=True, kw_only=True)
class BundledBlob(JsonResult):
    hash: str
    bytes: int


@dataclass(frozen=True, kw_only=True)
class BundleExportReport(JsonResult):
    """xs_export's report: the named sessions, then their ancestors; missing_blobs were referenced
    but not in the blob store (not carried); keys are the key records carried."""

    path: str
    bytes: int
    compression: Compression
    sessions: Tuple[BundledSession, ...]
    blobs: Tuple[BundledBlob, ...]
    missing_blobs: Tuple[str, ...]
    keys: Tuple[str, ...]
    raw: str = raw_field()


@dataclass(frozen=True, kw_only=True)
class BundleImportedSession(JsonResult):
    """new_id: the id a renamed copy got; old_cwd: the bundle's cwd when the cwd map changed it."""

    id: str
    new_id: str | None
    path: str
    cwd: str
    old_cwd: str | None
    archived: bool
    action: BundleAction


@dataclass(frozen=True, kw_only=True)
class BundleImportedBlob(JsonResult):
    hash: str
    action: BundleAction


@dataclass(frozen=True, kw_only=True)
class BundleImportedKey(JsonResult):
    key: str
    action: BundleAction


@dataclass(frozen=True, kw_only=True)
class BundleImportReport(JsonResult):
    """xs_import_bundle's report, sessions in the bundle's order."""

    dry_run: bool
    bundle: str
    source_root: str
    sessions: Tuple[BundleImportedSession, ...]
    blobs: Tuple[BundleImportedBlob, ...]
    keys: Tuple[BundleImportedKey, ...]
    raw: str = raw_field()


@dataclass(frozen=True, kw_only=True)
class HtmlPage(JsonResult):
    path: str
    session_id: str
    entries: int
    messages: int
    branch_points: int
    branches: int
    bytes: int


@dataclass(frozen=True, kw_only=True)
class HtmlIndex(JsonResult):
    path: str
    bytes: int


@dataclass(frozen=True, kw_only=True)
class HtmlReport(JsonResult):
    """xs_export_html's report: pages in the order named; index None for one session."""

    pages: Tuple[HtmlPage, ...]
    index: HtmlIndex | None
    raw: str = raw_field()


class Names:
    """The C array of session names (const char *const *, n): the array and the bytes it points
    at live as long as this object, which the caller keeps for the call."""

    def __init__(self, names: SessionNames) -> None:
        one = isinstance(names, (str, bytes)) or isinstance(names, os.PathLike)
        items: Sequence[Any] = [names] if one else list(names)  # type: ignore[arg-type]
        self._bytes = [path_arg(n) for n in items]
        self.array = (c_char_p * len(self._bytes))(*self._bytes)
        self.count = len(self._bytes)


def export_options(lineage: bool, gzip: bool) -> _lib.ExportOptionsC:
    o = _lib.ExportOptionsC()
    check(LIB.xs_export_options_init(ctypes.byref(o), 1))
    o.flags = (0 if lineage else 0x1) | (0x2 if gzip else 0)  # XS_EXPORT_NO_LINEAGE, XS_EXPORT_GZIP
    return o


class ImportBundleOptions:
    """xs_import_bundle_options with its cwd map; ``struct`` is valid while this object lives."""

    def __init__(self, cwd_map: Optional[CwdMap], rename: bool, dry_run: bool) -> None:
        self.struct = _lib.ImportBundleOptionsC()
        check(LIB.xs_import_bundle_options_init(ctypes.byref(self.struct), 1))
        # XS_IMPORT_BUNDLE_RENAME, XS_IMPORT_BUNDLE_DRY_RUN
        self.struct.flags = (0x1 if rename else 0) | (0x2 if dry_run else 0)
        pairs = list(cwd_map.items() if isinstance(cwd_map, Mapping) else cwd_map or ())
        self._paths = [path_arg(p) for old, new in pairs for p in (old, new)]
        self._array = (c_char_p * len(self._paths))(*self._paths)
        if self._paths:
            self.struct.cwd_map = ctypes.cast(self._array, ctypes.POINTER(c_char_p))
            self.struct.cwd_map_len = len(self._paths)


def html_options() -> _lib.HtmlOptionsC:
    o = _lib.HtmlOptionsC()
    check(LIB.xs_html_options_init(ctypes.byref(o), 1))
    return o


__all__ = [
    "SessionNames",
    "CwdMap",
    "Compression",
    "BundleAction",
    "BundledSession",
    "BundledBlob",
    "BundleExportReport",
    "BundleImportedSession",
    "BundleImportedBlob",
    "BundleImportedKey",
    "BundleImportReport",
    "HtmlPage",
    "HtmlIndex",
    "HtmlReport",
]
