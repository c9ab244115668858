"""The exception hierarchy: one class per xs_status code, all under XsError with ``.code``."""

from __future__ import annotations

from typing import Dict, Type

from ._lib import LIB


class XsError(Exception):
    """A failed call: ``code`` is the xs_status (negative), ``message`` the handle's error text."""

    def __init__(self, code: int, message: str = "") -> None:
        self.code = code
        self.message = message
        name = LIB.xs_status_str(code).decode("utf-8", "replace")
        super().__init__(f"{name}: {message}" if message else name)


class OutOfMemoryError(XsError, MemoryError):
    """XS_ENOMEM."""


class InvalidArgumentError(XsError, ValueError):
    """XS_EINVAL: malformed JSON, wrong shape, bad id, invalid UTF-8."""


class MisuseError(XsError):
    """XS_EMISUSE: a closed handle, or an API used against its contract."""


class NotFoundError(XsError, LookupError):
    """XS_ENOTFOUND: no such entry, session, key or file."""


class ExistsError(XsError):
    """XS_EEXISTS: the id or file already exists."""


class BufferTooSmallError(XsError):
    """XS_EBUFS (the binding sizes buffers itself; seen only if the library misbehaves)."""


class CorruptError(XsError):
    """XS_ECORRUPT: stored data is damaged beyond what the loader can skip."""


class IOFailureError(XsError, OSError):
    """XS_EIO: an I/O error from the operating system."""


class LockedError(XsError):
    """XS_ELOCKED: another handle or process holds the session (or document) for writing."""


class VersionError(XsError):
    """XS_EVERSION: an option struct version this library does not know."""


class NoSpaceError(XsError, OSError):
    """XS_ENOSPC: no space left on the device, or a quota or file size limit."""


class ReadOnlyError(XsError):
    """XS_EREADONLY: a write on a session opened read-only (or an archive)."""


class ConflictError(XsError):
    """XS_ECONFLICT: another process changed the file; our write was not made."""


class LimitError(XsError):
    """XS_ELIMIT: input over a configured limit (line size, nesting depth)."""


class NoHeaderError(XsError):
    """XS_ENOHEADER: the file has no session header (read-only open)."""


class PoisonedError(XsError):
    """XS_EPOISONED: an earlier write failed; reopen the session to write again."""


class AmbiguousError(XsError, LookupError):
    """XS_EAMBIGUOUS: an id prefix matches more than one session."""


class DialectError(XsError):
    """XS_EDIALECT: the entry or field has no form in the session's dialect."""


class InternalError(XsError):
    """XS_EINTERNAL: a bug in the library."""


_BY_CODE: Dict[int, Type[XsError]] = {
    -2: OutOfMemoryError,
    -3: InvalidArgumentError,
    -4: MisuseError,
    -5: NotFoundError,
    -6: ExistsError,
    -7: BufferTooSmallError,
    -8: CorruptError,
    -9: IOFailureError,
    -10: LockedError,
    -11: VersionError,
    -12: NoSpaceError,
    -13: ReadOnlyError,
    -14: ConflictError,
    -15: LimitError,
    -16: NoHeaderError,
    -17: PoisonedError,
    -18: AmbiguousError,
    -19: DialectError,
    -99: InternalError,
}

#: Status names (the XS_* macros) by code, and codes by name.
STATUS_NAMES: Dict[int, str] = {
    0: "XS_OK", -1: "XS_ERROR", -2: "XS_ENOMEM", -3: "XS_EINVAL", -4: "XS_EMISUSE", -5: "XS_ENOTFOUND",
    -6: "XS_EEXISTS", -7: "XS_EBUFS", -8: "XS_ECORRUPT", -9: "XS_EIO", -10: "XS_ELOCKED",
    -11: "XS_EVERSION", -12: "XS_ENOSPC", -13: "XS_EREADONLY", -14: "XS_ECONFLICT", -15: "XS_ELIMIT",
    -16: "XS_ENOHEADER", -17: "XS_EPOISONED", -18: "XS_EAMBIGUOUS", -19: "XS_EDIALECT",
    -99: "XS_EINTERNAL",
}  # fmt: skip
STATUS_CODES: Dict[str, int] = {name: code for code, name in STATUS_NAMES.items()}


def error_for(code: int, message: str = "") -> XsError:
    """The exception for a status; unknown codes give a plain XsError (never a failure)."""
    return _BY_CODE.get(code, XsError)(code, message)


def status_str(code: int) -> str:
    """The library's English name of a status code (xs_status_str)."""
    return str(LIB.xs_status_str(code).decode("utf-8", "replace"))


__all__ = [
    "XsError",
    "OutOfMemoryError",
    "InvalidArgumentError",
    "MisuseError",
    "NotFoundError",
    "ExistsError",
    "BufferTooSmallError",
    "CorruptError",
    "IOFailureError",
    "LockedError",
    "VersionError",
    "NoSpaceError",
    "ReadOnlyError",
    "ConflictError",
    "LimitError",
    "NoHeaderError",
    "PoisonedError",
    "AmbiguousError",
    "DialectError",
    "InternalError",
    "STATUS_CODES",
    "STATUS_NAMES",
    "error_for",
    "status_str",
]
