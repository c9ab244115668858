"""What Store and Session share: the handle, its lock, and turning statuses into exceptions.

The C API serialises calls on a handle, but the error text belongs to whichever call ran last, so
each call and the reading of its error text happen under the object's lock (xsession.h,
"Threads"). The lock is re-entrant: a keys_update callback that calls back into its own store
reaches the library (which refuses with XS_EMISUSE); a progress callback's call is refused here
first, with a message that says why.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Optional, TypeVar

from ._lib import read_buffer
from .errors import MisuseError, error_for


H = TypeVar("H", bound="Handle")


class Handle:
    _errmsg: Callable[[Any], bytes]
    _errcode: Callable[[Any], int]
    _free: Callable[[Any], None]  # releases the handle without reporting (xs_*_free / _close)
    _kind = "handle"

    def __init__(self, ptr: Optional[int]) -> None:
        self._ptr: Optional[int] = ptr
        self._lock = threading.RLock()
        # The thread running a progress callback of this handle's call. The library refuses a call
        # from there with XS_EMISUSE (as from keys_update's callback), but the handle's message then
        # still belongs to the call in progress: checked here first, the exception says why.
        self._callback_thread: Optional[int] = None

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self: H) -> H:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        # A handle dropped without close(): released, errors unreported (close() reports them).
        ptr, self._ptr = getattr(self, "_ptr", None), None
        if ptr is not None:
            self._free(ptr)

    @property
    def closed(self) -> bool:
        return self._ptr is None

    @property
    def last_status(self) -> int:
        """The status of the last call on the handle (xs_*_errcode): 0 after a success. Shared
        between threads, it belongs to whichever call ran last; exceptions carry their own."""
        with self._lock:
            return int(self._errcode(self._live()))

    def _live(self) -> int:
        if self._callback_thread == threading.get_ident():
            raise MisuseError(-4, f"a progress callback may not call its {self._kind} (it is busy with the call)")
        if self._ptr is None:
            raise MisuseError(-4, f"the {self._kind} is closed")
        return self._ptr

    def _error(self, rc: int) -> Exception:
        raw = self._errmsg(self._ptr) if self._ptr is not None else b""
        return error_for(rc, (raw or b"").decode("utf-8", "replace"))

    def _call(self, fn: Callable[..., int], *args: Any) -> None:
        """fn(handle, *args); raises the status's exception with the handle's message."""
        with self._lock:
            rc = fn(self._live(), *args)
            if rc != 0:
                raise self._error(rc)

    def _read(self, fn: Callable[..., int], *args: Any) -> bytes:
        """fn(handle, *args, buf, cap, out_len) through a buffer sized by the library."""
        with self._lock:
            ptr = self._live()
            rc, data = read_buffer(lambda buf, cap, out: fn(ptr, *args, buf, cap, out))
            if rc != 0:
                raise self._error(rc)
            return data
