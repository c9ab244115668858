"""xsession: session storage for coding agents (Python binding of libxsession, through ctypes).

    with xsession.Store(root) as st:
        with st.create("/my/project") as s:
            s.append_message({"role": "user", "content": "hi"})
            ctx = s.build_context()

The library is found through $XSESSION_LIBRARY (a path), then beside this package, then the
system's (ctypes.util.find_library, "libxsession.so.0").
"""

from __future__ import annotations

import ctypes

from ._codec import ABSENT, Absent, DecodeError, JsonValue, Results
from ._lib import LIB
from . import aio, bundles, entries, errors, imports, index, outputs
from .bundles import *  # noqa: F401,F403
from .entries import *  # noqa: F401,F403
from .errors import *  # noqa: F401,F403
from .imports import *  # noqa: F401,F403
from .options import CompactionSettings, ImportKind, JsonIn, ReadFlags, ResetPolicy, ResetReason, StrPath
from .outputs import *  # noqa: F401,F403
from .session import Session
from .history import History
from .index import *  # noqa: F401,F403
from .store import Store, should_compact, should_flush_memory


def version() -> tuple[int, int, int]:
    """The loaded library's version (xs_version)."""
    major, minor, patch = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
    LIB.xs_version(ctypes.byref(major), ctypes.byref(minor), ctypes.byref(patch))
    return major.value, minor.value, patch.value


__version__ = "0.2.0"

__all__ = [
    "ABSENT",
    "Absent",
    "DecodeError",
    "JsonValue",
    "Results",
    "CompactionSettings",
    "ImportKind",
    "JsonIn",
    "ReadFlags",
    "ResetPolicy",
    "ResetReason",
    "StrPath",
    "Session",
    "History",
    "Store",
    "should_compact",
    "should_flush_memory",
    "version",
    "aio",
]
__all__ += bundles.__all__
__all__ += entries.__all__
__all__ += errors.__all__
__all__ += imports.__all__
__all__ += index.__all__
__all__ += outputs.__all__
