//! `xsession_storage.h`: the table of functions a host fills to keep a store's files itself, and
//! the built-in backends as such tables. The header's comment states what each function must do
//! (statuses, atomicity, threads); nothing here adds to it.

use std::ffi::c_void;
use std::os::raw::c_char;

use crate::xs_status;

/// Version of [`xs_storage`] this crate fills in.
pub const XS_STORAGE_VERSION: u32 = 2;

/// `xs_storage_info.kind`: a regular file.
pub const XS_STORAGE_FILE: u32 = 1;
/// `xs_storage_info.kind`: a directory.
pub const XS_STORAGE_DIR: u32 = 2;
/// `xs_storage_info.kind`: anything else.
pub const XS_STORAGE_OTHER: u32 = 3;

/// `open()` flag: an existing file, every write at its end; `XS_ENOTFOUND` if none.
pub const XS_STORAGE_APPEND: u32 = 0x1;
/// `open()` flag: a new file (mode 0600) that must not exist (`XS_EEXISTS`); `XS_ENOTFOUND` if
/// its directory does not exist.
pub const XS_STORAGE_CREATE: u32 = 0x2;
/// `rename()` flag: fail with `XS_EEXISTS` instead of replacing `to`.
pub const XS_STORAGE_NOREPLACE: u32 = 0x1;

/// What a path names, as stat(2) says it (fields the host cannot know are 0).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct xs_storage_info {
    /// Bytes in the file.
    pub size: u64,
    /// Last modification, ms since the epoch.
    pub mtime_ms: i64,
    /// Identity of the file, with `ino` (not both 0 for a file).
    pub dev: u64,
    /// Identity of the file, with `dev`.
    pub ino: u64,
    /// Names the file has; 1 unless the host has hard links.
    pub links: u64,
    /// `XS_STORAGE_FILE`, `XS_STORAGE_DIR` or `XS_STORAGE_OTHER`.
    pub kind: u32,
}

/// Where `read()` puts the bytes: the engine's own memory.
#[repr(C)]
#[derive(Debug)]
pub struct xs_storage_buffer {
    /// Memory for `size` bytes owned by the engine, valid until `read()` returns; NULL when the
    /// engine cannot take that many. At most once per `read()`.
    pub alloc: Option<unsafe extern "C" fn(self_: *mut xs_storage_buffer, size: u64) -> *mut c_void>,
    /// The engine's.
    pub opaque: *mut c_void,
}

/// A storage: every read, write, rename and lock of a store goes through these functions
/// (`xs_store_options.storage`, version 4). Only `release` and `write_if` may be NULL.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct xs_storage {
    /// `XS_STORAGE_VERSION`.
    pub version: u32,
    /// Passed to every function.
    pub user: *mut c_void,
    /// Reads up to `max` bytes at `offset` of `path` into the buffer `out->alloc` gives.
    pub read: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            path: *const c_char,
            offset: u64,
            max: u64,
            out: *mut xs_storage_buffer,
            got: *mut u64,
            info: *mut xs_storage_info,
        ) -> xs_status,
    >,
    /// Describes `path` (a file or directory).
    pub stat:
        Option<unsafe extern "C" fn(user: *mut c_void, path: *const c_char, info: *mut xs_storage_info) -> xs_status>,
    /// Opens `path` for writing (`XS_STORAGE_APPEND` or `XS_STORAGE_CREATE`).
    pub open: Option<
        unsafe extern "C" fn(user: *mut c_void, path: *const c_char, flags: u32, file: *mut *mut c_void) -> xs_status,
    >,
    /// Appends all `len` bytes at the end of the file, or fails.
    pub write: Option<
        unsafe extern "C" fn(user: *mut c_void, file: *mut c_void, data: *const c_void, len: usize) -> xs_status,
    >,
    /// Makes every byte written to the file so far durable.
    pub sync: Option<unsafe extern "C" fn(user: *mut c_void, file: *mut c_void) -> xs_status>,
    /// Describes the open file.
    pub fstat:
        Option<unsafe extern "C" fn(user: *mut c_void, file: *mut c_void, info: *mut xs_storage_info) -> xs_status>,
    /// Closes the file; the handle is gone whatever it returns.
    pub close: Option<unsafe extern "C" fn(user: *mut c_void, file: *mut c_void) -> xs_status>,
    /// Renames `from` to `to` atomically, replacing `to` unless `XS_STORAGE_NOREPLACE`.
    pub rename: Option<
        unsafe extern "C" fn(user: *mut c_void, from: *const c_char, to: *const c_char, flags: u32) -> xs_status,
    >,
    /// Removes the file `path`.
    pub remove: Option<unsafe extern "C" fn(user: *mut c_void, path: *const c_char) -> xs_status>,
    /// Creates the directory `path` and its missing parents, durably.
    pub make_dirs: Option<unsafe extern "C" fn(user: *mut c_void, path: *const c_char) -> xs_status>,
    /// Makes the names in directory `path` durable.
    pub sync_dir: Option<unsafe extern "C" fn(user: *mut c_void, path: *const c_char) -> xs_status>,
    /// Sets the file's modification time to now.
    pub touch: Option<unsafe extern "C" fn(user: *mut c_void, path: *const c_char) -> xs_status>,
    /// Calls `name(ctx, name, len)` for each entry of directory `path`.
    pub list: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            path: *const c_char,
            name: Option<unsafe extern "C" fn(ctx: *mut c_void, name: *const c_char, len: usize) -> xs_status>,
            ctx: *mut c_void,
        ) -> xs_status,
    >,
    /// Takes the exclusive lock named `path`, waiting up to `timeout_ms`.
    pub lock: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            path: *const c_char,
            timeout_ms: u32,
            lock: *mut *mut c_void,
        ) -> xs_status,
    >,
    /// Lets go of a lock `lock()` gave.
    pub unlock: Option<unsafe extern "C" fn(user: *mut c_void, lock: *mut c_void)>,
    /// Called once when the engine no longer uses this storage; may be NULL.
    pub release: Option<unsafe extern "C" fn(user: *mut c_void)>,
    /// Version 2; may be NULL. Appends only while `path` still names the file at `expected_size`
    /// bytes, checked and written as one step; otherwise writes nothing: `XS_ECONFLICT`.
    pub write_if: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            file: *mut c_void,
            path: *const c_char,
            expected_size: u64,
            data: *const c_void,
            len: usize,
        ) -> xs_status,
    >,
}

extern "C" {
    /// Fills `*out` with the built-in POSIX backend; its `user` is freed by `out->release`.
    pub fn xs_storage_posix(out: *mut xs_storage) -> xs_status;
    /// Fills `*out` with a new, empty in-memory backend that lives until `out->release`.
    pub fn xs_storage_memory(out: *mut xs_storage) -> xs_status;
    /// For a storage function about to fail: the message the engine reports with `code`
    /// (copied; per thread). NULL clears it. Returns `code`.
    pub fn xs_storage_error(code: xs_status, message: *const c_char) -> xs_status;
}
