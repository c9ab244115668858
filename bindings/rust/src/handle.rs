//! One owned C handle plus the lock that makes "call, then read its error text" atomic.
//!
//! # Thread rules, and why `Store` and `Session` are `Send + Sync`
//!
//! `xsession.h` says: the library has no global mutable state; distinct handles are
//! independent; calls on one handle are serialised internally, so a handle may be shared
//! between threads; but its error text (and the `XS_EBUFS` result cached for the retry) belongs
//! to whichever call ran last on it, so a caller that shares a handle must hold its own lock
//! around the call and the read of the message.
//!
//! So moving a handle to another thread is fine (`Send`), and sharing one is fine (`Sync`)
//! provided every call goes through [`Handle`], which holds a mutex across the C call, the
//! `xs_*_errmsg` read and every `XS_EBUFS` retry. Two threads appending to one `Arc<Session>`
//! therefore each get their own status and message, and a buffer retry is never served
//! another thread's cached result. The mutex is uncontended in the one-thread case, which costs
//! far less than the C call it guards.

use std::cell::RefCell;
use std::os::raw::c_char;
use std::ptr::NonNull;
use std::sync::{Mutex, MutexGuard};

use crate::buffer;
use crate::error::{message_from, Error, ErrorCode, Result};
use crate::options::SessionOptions;
use crate::session::Session;
use crate::sys;

/// The C handle types this crate owns, with their error accessors and destructor.
pub(crate) trait RawHandle {
    /// `xs_store_errmsg` / `xs_session_errmsg`.
    ///
    /// # Safety
    /// `raw` must be a live handle of this type.
    unsafe fn errmsg(raw: *const Self) -> *const c_char;
    /// `xs_store_free` / `xs_session_close`.
    ///
    /// # Safety
    /// `raw` must be a live handle of this type that is not used afterwards.
    unsafe fn release(raw: *mut Self);
}

impl RawHandle for sys::xs_store {
    unsafe fn errmsg(raw: *const Self) -> *const c_char {
        // SAFETY: forwarded from the caller.
        unsafe { sys::xs_store_errmsg(raw) }
    }
    unsafe fn release(raw: *mut Self) {
        // SAFETY: forwarded from the caller.
        unsafe { sys::xs_store_free(raw) }
    }
}

impl RawHandle for sys::xs_session {
    unsafe fn errmsg(raw: *const Self) -> *const c_char {
        // SAFETY: forwarded from the caller.
        unsafe { sys::xs_session_errmsg(raw) }
    }
    unsafe fn release(raw: *mut Self) {
        // SAFETY: forwarded from the caller.
        unsafe { sys::xs_session_close(raw) }
    }
}

impl RawHandle for sys::xs_history {
    unsafe fn errmsg(raw: *const Self) -> *const c_char {
        // SAFETY: forwarded from the caller.
        unsafe { sys::xs_history_errmsg(raw) }
    }
    unsafe fn release(raw: *mut Self) {
        // The final flush's status has nowhere to go from a drop; History::close flushes first
        // to return it.
        // SAFETY: forwarded from the caller.
        let _ = unsafe { sys::xs_history_close(raw) };
    }
}

impl RawHandle for sys::xs_index {
    unsafe fn errmsg(raw: *const Self) -> *const c_char {
        // SAFETY: forwarded from the caller.
        unsafe { sys::xs_index_errmsg(raw) }
    }
    unsafe fn release(raw: *mut Self) {
        // SAFETY: forwarded from the caller.
        unsafe { sys::xs_index_close(raw) }
    }
}

thread_local! {
    /// The handles whose call on this thread is running a caller's closure (an update's, an
    /// archive's progress): they hold their lock until it returns, so a call on one of them from
    /// the closure is refused rather than left waiting for ever (the library refuses such calls
    /// the same way, but this crate's own lock comes first).
    static RUNNING_CLOSURE: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

/// Takes a handle off [`RUNNING_CLOSURE`] when its call returns.
struct ClosureDone(usize);

impl Drop for ClosureDone {
    fn drop(&mut self) {
        RUNNING_CLOSURE.with(|running| {
            let mut running = running.borrow_mut();
            if let Some(at) = running.iter().rposition(|&h| h == self.0) {
                running.remove(at);
            }
        });
    }
}

/// An owned, live C handle: released exactly once, on drop.
///
/// The closures given to its methods receive the raw pointer while the lock is held; they may
/// pass it to any `xs_*` function of this handle type. The pointer stays valid until drop.
pub(crate) struct Handle<T: RawHandle> {
    raw: NonNull<T>,
    lock: Mutex<()>,
}

// SAFETY: see the module comment. The library allows a handle to be used from any thread and
// shared between threads; everything that touches `raw` takes `lock` first (drop has `&mut`).
unsafe impl<T: RawHandle> Send for Handle<T> {}
// SAFETY: as above: `&Handle` only reaches `raw` through `lock`.
unsafe impl<T: RawHandle> Sync for Handle<T> {}

impl<T: RawHandle> Handle<T> {
    /// Takes ownership of a handle the library just returned (NULL becomes `None`).
    pub(crate) fn from_raw(raw: *mut T) -> Option<Handle<T>> {
        NonNull::new(raw).map(|raw| Handle { raw, lock: Mutex::new(()) })
    }

    fn address(&self) -> usize {
        self.raw.as_ptr() as usize
    }

    fn guard(&self) -> Result<MutexGuard<'_, ()>> {
        if RUNNING_CLOSURE.with(|running| running.borrow().contains(&self.address())) {
            return Err(Error::new(
                ErrorCode::Misuse,
                "called from inside an update closure of the same store, which holds its lock until the closure returns",
            ));
        }
        // The mutex guards no data, only the order of C calls, so a panic in another thread
        // while it held the lock leaves nothing inconsistent: ignore the poison.
        Ok(self.lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }

    /// The error for status `rc`, with the message of the call that just ran on this handle.
    /// Must be called with the lock held, before any other call on the handle.
    fn error(&self, rc: sys::xs_status) -> Error {
        // SAFETY: the handle is live and the message is copied before the lock is released.
        let message = unsafe { message_from(T::errmsg(self.raw.as_ptr())) };
        Error::new(ErrorCode::from_raw(rc), message)
    }

    /// Runs one status-returning call under the lock.
    pub(crate) fn check(&self, call: impl FnOnce(*mut T) -> sys::xs_status) -> Result<()> {
        let _guard = self.guard()?;
        match call(self.raw.as_ptr()) {
            sys::XS_OK => Ok(()),
            rc => Err(self.error(rc)),
        }
    }

    /// [`Handle::check`] for a call that runs a caller's closure on this thread while it holds
    /// the lock (`xs_keys_update`): a call on this handle from the closure fails with
    /// [`ErrorCode::Misuse`] instead of deadlocking.
    pub(crate) fn check_running_closure(&self, call: impl FnOnce(*mut T) -> sys::xs_status) -> Result<()> {
        let _guard = self.guard()?;
        let rc = self.running_closure(|| call(self.raw.as_ptr()));
        match rc {
            sys::XS_OK => Ok(()),
            rc => Err(self.error(rc)),
        }
    }

    /// [`Handle::read`] for a call that runs a caller's closure on this thread while it holds the
    /// lock (`xs_store_archive`'s progress), with [`Handle::check_running_closure`]'s rule.
    pub(crate) fn read_string_running_closure(
        &self,
        what: &str,
        mut call: impl FnMut(*mut T, *mut c_char, usize, *mut usize) -> sys::xs_status,
    ) -> Result<String> {
        let _guard = self.guard()?;
        let raw = self.raw.as_ptr();
        let bytes = self
            .running_closure(|| buffer::read_bytes(|buf, cap, out_len| call(raw, buf, cap, out_len)))
            .map_err(|rc| self.error(rc))?;
        buffer::into_string(bytes, what)
    }

    /// Runs `call` with this handle marked as running a caller's closure on this thread.
    fn running_closure<R>(&self, call: impl FnOnce() -> R) -> R {
        RUNNING_CLOSURE.with(|running| running.borrow_mut().push(self.address()));
        let _done = ClosureDone(self.address());
        call()
    }

    /// Runs a `(buf, cap, out_len)` read under the lock, growing the buffer on `XS_EBUFS`.
    pub(crate) fn read(
        &self,
        mut call: impl FnMut(*mut T, *mut c_char, usize, *mut usize) -> sys::xs_status,
    ) -> Result<Vec<u8>> {
        let _guard = self.guard()?;
        let raw = self.raw.as_ptr();
        buffer::read_bytes(|buf, cap, out_len| call(raw, buf, cap, out_len)).map_err(|rc| self.error(rc))
    }

    /// [`Handle::read`] for text: bytes that are not UTF-8 are an error naming `what`.
    pub(crate) fn read_string(
        &self,
        what: &str,
        call: impl FnMut(*mut T, *mut c_char, usize, *mut usize) -> sys::xs_status,
    ) -> Result<String> {
        buffer::into_string(self.read(call)?, what)
    }

    /// Runs a call that writes a NUL-terminated id or hash into a fixed buffer of `N` bytes.
    pub(crate) fn fixed<const N: usize>(
        &self,
        what: &str,
        call: impl FnOnce(*mut T, *mut c_char) -> sys::xs_status,
    ) -> Result<String> {
        let mut out = [0u8; N];
        self.check(|raw| call(raw, out.as_mut_ptr().cast()))?;
        buffer::fixed_to_string(&out, what)
    }

    /// Runs a session constructor that reports on this handle: `call` gets the raw handle, the
    /// options as the C struct, and the `out` pointer for the new session.
    pub(crate) fn construct(
        &self,
        opts: &SessionOptions,
        call: impl FnOnce(*mut T, *const sys::xs_session_options, *mut *mut sys::xs_session) -> sys::xs_status,
    ) -> Result<Session> {
        let opts = opts.to_raw()?;
        let mut out: *mut sys::xs_session = std::ptr::null_mut();
        self.check(|raw| call(raw, &opts.raw, &mut out))?;
        Handle::from_raw(out)
            .map(Session::new)
            .ok_or_else(|| Error::new(ErrorCode::Internal, "the library returned XS_OK and no session"))
    }

    /// The code and message the handle holds from its last call (`None` after a success), read
    /// with `errcode` (`xs_store_errcode` / `xs_session_errcode`) and the message accessor.
    pub(crate) fn last_error(&self, errcode: impl FnOnce(*mut T) -> sys::xs_status) -> Option<Error> {
        let _guard = match self.guard() {
            Ok(guard) => guard,
            Err(misuse) => return Some(misuse),
        };
        match errcode(self.raw.as_ptr()) {
            sys::XS_OK => None,
            rc => Some(self.error(rc)),
        }
    }
}

impl<T: RawHandle> Drop for Handle<T> {
    fn drop(&mut self) {
        // SAFETY: we own the handle and nobody can use it after drop (`&mut self`).
        unsafe { T::release(self.raw.as_ptr()) }
    }
}
