//! The session index and search of `xsession.h` (its own section): the handle, its options,
//! the search options and flag, and the functions, in the header's order.

use std::marker::{PhantomData, PhantomPinned};
use std::os::raw::c_char;

use crate::{xs_status, xs_store};

/// A store's session index (one SQLite database with a full-text index over every entry).
#[repr(C)]
pub struct xs_index {
    _data: [u8; 0],
    _marker: PhantomData<(*mut u8, PhantomPinned)>,
}

/// Version of [`xs_index_options`] this crate fills in.
pub const XS_INDEX_OPTIONS_VERSION: u32 = 1;

/// Options of `xs_index_open`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct xs_index_options {
    /// `XS_INDEX_OPTIONS_VERSION`.
    pub version: u32,
    /// `XS_INDEX_*` flags.
    pub flags: u32,
    /// The database file; NULL = `<root>/index.db` (required with an `XS_STORE_IN_MEMORY` store
    /// or a host's storage). Its directory is created. Copied.
    pub path: *const c_char,
    /// How long a call waits for another writer; 0 = 5000.
    pub busy_timeout_ms: u32,
}

/// Version of [`xs_search_options`] this crate fills in.
pub const XS_SEARCH_OPTIONS_VERSION: u32 = 1;
/// `xs_search_options.flags`: the query is plain words (each must occur, the last as a prefix),
/// not FTS5 syntax.
pub const XS_SEARCH_LITERAL: u32 = 0x1;
/// `xs_index_options.flags`: index what sessions of the store handle write while the index is open.
pub const XS_INDEX_FOLLOW_WRITES: u32 = 0x1;

/// Options of `xs_search`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct xs_search_options {
    /// `XS_SEARCH_OPTIONS_VERSION`.
    pub version: u32,
    /// `XS_SEARCH_*` flags.
    pub flags: u32,
    /// NULL, or only sessions of this working directory (the header's).
    pub cwd: *const c_char,
    /// NULL, or only entries of this role: "user", "assistant", "tool", "summary", "label".
    pub role: *const c_char,
    /// 0, or only entries stamped at or after this time (ms since the epoch).
    pub since_ms: i64,
    /// NULL, or only this session (its id).
    pub session_id: *const c_char,
    /// At most this many hits; 0 = 20; at most 10000.
    pub limit: u32,
}

extern "C" {
    /// Fills `*o` with the defaults of `version`.
    pub fn xs_index_options_init(o: *mut xs_index_options, version: u32) -> xs_status;
    /// Opens (creating) the store's session index; errors are reported on `st`.
    pub fn xs_index_open(st: *mut xs_store, opts: *const xs_index_options, out: *mut *mut xs_index) -> xs_status;
    /// Releases the handle. NULL is a no-op.
    pub fn xs_index_close(ix: *mut xs_index);
    /// Code of the last call on `ix`.
    pub fn xs_index_errcode(ix: *const xs_index) -> xs_status;
    /// Message of the last call on `ix`: borrowed until the next call on `ix`.
    pub fn xs_index_errmsg(ix: *const xs_index) -> *const c_char;
    /// Makes the index again from every session; the report as a JSON object through
    /// `(buf, cap, out_len)`.
    pub fn xs_index_rebuild(ix: *mut xs_index, buf: *mut c_char, cap: usize, out_len: *mut usize) -> xs_status;
    /// Brings the index up to date with the files; the report as `xs_index_rebuild`'s.
    pub fn xs_index_refresh(ix: *mut xs_index, buf: *mut c_char, cap: usize, out_len: *mut usize) -> xs_status;
    /// Waits until what the store handle's sessions wrote is indexed (with
    /// `XS_INDEX_FOLLOW_WRITES`); returns, once, the first failed update since the last flush.
    pub fn xs_index_flush(ix: *mut xs_index) -> xs_status;
    /// Every difference between the index and the files, as a JSON object through
    /// `(buf, cap, out_len)`.
    pub fn xs_index_verify(ix: *mut xs_index, buf: *mut c_char, cap: usize, out_len: *mut usize) -> xs_status;
    /// Sessions newest first, from the index alone, as a JSON array through `(buf, cap, out_len)`.
    pub fn xs_index_list(
        ix: *mut xs_index,
        cwd: *const c_char,
        limit: u32,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
    /// Facts about the index, as a JSON object through `(buf, cap, out_len)`.
    pub fn xs_index_info(ix: *mut xs_index, buf: *mut c_char, cap: usize, out_len: *mut usize) -> xs_status;
    /// Fills `*o` with the defaults of `version`.
    pub fn xs_search_options_init(o: *mut xs_search_options, version: u32) -> xs_status;
    /// Entries matching `query`, best first, as a JSON array through `(buf, cap, out_len)`.
    pub fn xs_search(
        ix: *mut xs_index,
        query: *const c_char,
        opts: *const xs_search_options,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
}
