//! The prompt history of `xsession.h` (its own section): the handle, its options, the search
//! flag and the functions, in the header's order.

use std::marker::{PhantomData, PhantomPinned};
use std::os::raw::c_char;

use crate::{xs_status, xs_store};

/// A store's prompt history (one SQLite database with a full-text index).
#[repr(C)]
pub struct xs_history {
    _data: [u8; 0],
    _marker: PhantomData<(*mut u8, PhantomPinned)>,
}

/// Version of [`xs_history_options`] this crate fills in.
pub const XS_HISTORY_OPTIONS_VERSION: u32 = 1;
/// synchronous=FULL: a flushed prompt survives power loss too (default NORMAL: it survives the
/// process's crash or kill -9).
pub const XS_HISTORY_SYNC: u32 = 0x1;

/// Options of `xs_history_open`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct xs_history_options {
    /// `XS_HISTORY_OPTIONS_VERSION`.
    pub version: u32,
    /// `XS_HISTORY_*` flags.
    pub flags: u32,
    /// The database file; NULL = `<root>/history.db` (required with an `XS_STORE_IN_MEMORY`
    /// store). Its directory is created. Copied.
    pub path: *const c_char,
    /// How long a call waits for another writer; 0 = 5000.
    pub busy_timeout_ms: u32,
    /// Longest prompt `xs_history_add` takes; 0 = 1 MiB.
    pub max_prompt_bytes: u32,
}

/// `xs_history_search`: the query is plain words (each must occur, the last as a prefix), not
/// FTS5 syntax.
pub const XS_HISTORY_LITERAL: u32 = 0x1;

extern "C" {
    /// Fills `*o` with the defaults of `version`.
    pub fn xs_history_options_init(o: *mut xs_history_options, version: u32) -> xs_status;
    /// Opens (creating) the store's prompt history; errors are reported on `st`.
    pub fn xs_history_open(st: *mut xs_store, opts: *const xs_history_options, out: *mut *mut xs_history) -> xs_status;
    /// Flushes, stops the writer thread and releases the handle; returns the flush's status.
    /// NULL gives `XS_OK`.
    pub fn xs_history_close(h: *mut xs_history) -> xs_status;
    /// Code of the last call on `h`.
    pub fn xs_history_errcode(h: *const xs_history) -> xs_status;
    /// Message of the last call on `h`: borrowed until the next call on `h`.
    pub fn xs_history_errmsg(h: *const xs_history) -> *const c_char;
    /// Queues one prompt (UTF-8, no NUL) typed in `cwd` (NULL or "": none) at `time_ms` (0 = now).
    pub fn xs_history_add(
        h: *mut xs_history,
        prompt: *const c_char,
        prompt_len: usize,
        cwd: *const c_char,
        time_ms: i64,
    ) -> xs_status;
    /// Waits until every prompt queued before the call is committed.
    pub fn xs_history_flush(h: *mut xs_history) -> xs_status;
    /// Prompts matching `query`, best first, as a JSON array through `(buf, cap, out_len)`.
    pub fn xs_history_search(
        h: *mut xs_history,
        query: *const c_char,
        cwd: *const c_char,
        flags: u32,
        limit: u32,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
    /// The newest prompts, newest first, as a JSON array through `(buf, cap, out_len)`.
    pub fn xs_history_recent(
        h: *mut xs_history,
        cwd: *const c_char,
        limit: u32,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
    /// Facts about the history, as a JSON object through `(buf, cap, out_len)`.
    pub fn xs_history_info(h: *mut xs_history, buf: *mut c_char, cap: usize, out_len: *mut usize) -> xs_status;
}
