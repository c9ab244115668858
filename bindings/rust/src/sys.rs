//! Raw declarations mirroring `xsession.h` one for one: types, constants and functions.
//!
//! Nothing here is safe to call without reading the header's contract for the function; the
//! safe API of this crate ([`Store`](crate::Store), [`Session`](crate::Session)) is built on it.
//! Names keep the C spelling so that the header is the documentation. The test
//! `tests/header_coverage.rs` parses the real header and fails when a function, constant or
//! struct field there is missing here (or differs in type), so this file cannot drift silently.
#![allow(non_camel_case_types)]

use std::ffi::c_void;
use std::marker::{PhantomData, PhantomPinned};
use std::os::raw::{c_char, c_int};

// --- versions ---------------------------------------------------------------------------------

/// `XS_VERSION_MAJOR` of the header this crate mirrors.
pub const XS_VERSION_MAJOR: c_int = 0;
/// `XS_VERSION_MINOR` of the header this crate mirrors.
pub const XS_VERSION_MINOR: c_int = 2;
/// `XS_VERSION_PATCH` of the header this crate mirrors.
pub const XS_VERSION_PATCH: c_int = 0;

// --- status codes -----------------------------------------------------------------------------

/// Status returned by every fallible function: `XS_OK` or a negative `XS_E*` code.
pub type xs_status = i32;

/// Success.
pub const XS_OK: xs_status = 0;
/// Unspecified failure.
pub const XS_ERROR: xs_status = -1;
/// Out of memory.
pub const XS_ENOMEM: xs_status = -2;
/// Bad argument: malformed JSON, wrong shape, bad id, invalid UTF-8.
pub const XS_EINVAL: xs_status = -3;
/// NULL handle, or an API used against its contract.
pub const XS_EMISUSE: xs_status = -4;
/// No such entry, session or file.
pub const XS_ENOTFOUND: xs_status = -5;
/// The id or file already exists.
pub const XS_EEXISTS: xs_status = -6;
/// Output buffer too small; `*out_len` says how much is needed.
pub const XS_EBUFS: xs_status = -7;
/// Stored data is damaged beyond what the loader can skip.
pub const XS_ECORRUPT: xs_status = -8;
/// An I/O error from the operating system.
pub const XS_EIO: xs_status = -9;
/// Another handle or process holds the session open for writing.
pub const XS_ELOCKED: xs_status = -10;
/// An option struct version this library does not know.
pub const XS_EVERSION: xs_status = -11;
/// No space left on the device, or a quota or file size limit.
pub const XS_ENOSPC: xs_status = -12;
/// A write on a session opened read-only.
pub const XS_EREADONLY: xs_status = -13;
/// Another process changed the file; our write was not made.
pub const XS_ECONFLICT: xs_status = -14;
/// Input over a configured limit (line size, nesting depth).
pub const XS_ELIMIT: xs_status = -15;
/// The file has no session header (read-only open).
pub const XS_ENOHEADER: xs_status = -16;
/// An earlier write failed; reopen the session to write again.
pub const XS_EPOISONED: xs_status = -17;
/// An id prefix matches more than one session.
pub const XS_EAMBIGUOUS: xs_status = -18;
/// The entry or field has no form in the session's dialect (pi or omp).
pub const XS_EDIALECT: xs_status = -19;
/// A bug in the library; the message says where.
pub const XS_EINTERNAL: xs_status = -99;

/// Size of an `id_out` buffer: 64 chars + NUL.
pub const XS_ID_BUFSIZE: usize = 65;
/// Size of a `hash_out` buffer: SHA-256 as lowercase hex + NUL.
pub const XS_HASH_BUFSIZE: usize = 65;

// --- option structs and their flags ------------------------------------------------------------

/// Version of [`xs_store_options`] this crate fills in.
pub const XS_STORE_OPTIONS_VERSION: u32 = 3;
/// Sessions live in memory only (nothing touches the disk).
pub const XS_STORE_IN_MEMORY: u32 = 0x1;
/// New sessions are written in pi's dialect (default: omp's).
pub const XS_STORE_DIALECT_PI: u32 = 0x2;

/// `xs_session_options.dialect`: an existing file's own dialect (else the store's default); a
/// new session: the store's default.
pub const XS_DIALECT_AUTO: u32 = 0;
/// oh-my-pi 13's forms (`xs_session_options.dialect`, `xs_session_dialect`).
pub const XS_DIALECT_OMP: u32 = 1;
/// pi 0.73.1's forms (`xs_session_options.dialect`, `xs_session_dialect`).
pub const XS_DIALECT_PI: u32 = 2;

/// Options of `xs_store_open`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct xs_store_options {
    /// `XS_STORE_OPTIONS_VERSION`.
    pub version: u32,
    /// `XS_STORE_*` flags.
    pub flags: u32,
    /// Version 2: the keyed store's document; NULL = `<root>/sessions.json`. Copied by
    /// `xs_store_open`.
    pub keys_path: *const c_char,
    /// Version 3: the policy of `xs_store_session_for_key` when a call passes none; NULL =
    /// sessions never expire. Copied by `xs_store_open`.
    pub reset_policy: *const xs_reset_policy,
}

/// Version of [`xs_session_options`] this crate fills in.
pub const XS_SESSION_OPTIONS_VERSION: u32 = 2;
/// Open without the writer lock; writes give `XS_EREADONLY`.
pub const XS_SESSION_READ_ONLY: u32 = 0x1;
/// `xs_session_open`: a missing file becomes a new session at that path.
pub const XS_SESSION_CREATE: u32 = 0x2;
/// Write the file at once instead of at the first assistant message.
pub const XS_SESSION_NO_DEFER: u32 = 0x4;
/// `fdatasync` every append before returning.
pub const XS_SESSION_SYNC: u32 = 0x8;
/// Timestamps are `clock_start_ms`, + `clock_step_ms` per use.
pub const XS_SESSION_FIXED_CLOCK: u32 = 0x10;

/// Options of the session constructors.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct xs_session_options {
    /// `XS_SESSION_OPTIONS_VERSION`.
    pub version: u32,
    /// `XS_SESSION_*` flags.
    pub flags: u32,
    /// Longest line accepted on load or append; 0 = 64 MiB.
    pub max_line_bytes: u64,
    /// Deepest JSON value accepted; 0 = 256.
    pub max_depth: u32,
    /// `XS_DIALECT_*`: AUTO (0, the default) or one to force.
    pub dialect: u32,
    /// With `XS_SESSION_FIXED_CLOCK`: first timestamp, ms since the epoch.
    pub clock_start_ms: i64,
    /// With `XS_SESSION_FIXED_CLOCK`: added after each timestamp.
    pub clock_step_ms: i64,
    /// Non-zero: ids come from a reproducible sequence.
    pub id_seed: u64,
    /// Header cwd (open only); NULL = absent.
    pub cwd: *const c_char,
    /// The new session's id; NULL = generated.
    pub session_id: *const c_char,
    /// Header title; NULL = absent.
    pub title: *const c_char,
    /// Header parentSession; NULL = absent.
    pub parent_session: *const c_char,
    /// Version 2: the keyed store's key this session reports its stats to; NULL = none. Not
    /// with `XS_SESSION_READ_ONLY`. Copied by the call.
    pub key: *const c_char,
}

/// `xs_blob_list`: read and hash every blob.
pub const XS_BLOB_LIST_VERIFY: u32 = 0x1;

/// `xs_session_repair`: move the lines that are not JSON to `<file>.quarantine-<time>.jsonl`.
pub const XS_REPAIR_QUARANTINE: u32 = 0x1;

/// Version of [`xs_gc_options`] this crate fills in.
pub const XS_GC_OPTIONS_VERSION: u32 = 1;
/// Report what would be deleted; delete nothing.
pub const XS_GC_DRY_RUN: u32 = 0x1;

/// Options of `xs_blob_gc`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct xs_gc_options {
    /// `XS_GC_OPTIONS_VERSION`.
    pub version: u32,
    /// `XS_GC_*` flags.
    pub flags: u32,
    /// Never delete a file younger than this (ms).
    pub grace_ms: i64,
    /// "Now" for the age test; 0 = the system clock.
    pub now_ms: i64,
}

/// Version of [`xs_list_options`] this crate fills in.
pub const XS_LIST_OPTIONS_VERSION: u32 = 1;
/// Read whole files: adds messageCount, entryCount, diagnostics.
pub const XS_LIST_FULL: u32 = 0x1;

/// Options of `xs_store_list`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct xs_list_options {
    /// `XS_LIST_OPTIONS_VERSION`.
    pub version: u32,
    /// `XS_LIST_*` flags.
    pub flags: u32,
    /// At most this many (the newest); 0 = all.
    pub limit: u64,
    /// NULL = every working directory.
    pub cwd: *const c_char,
}

/// Version of [`xs_compaction`] this crate fills in.
pub const XS_COMPACTION_VERSION: u32 = 1;
/// Tri-state `int32_t` fields: absent.
pub const XS_UNSET: i32 = -1;

/// A "compaction" entry for `xs_append_compaction`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct xs_compaction {
    /// `XS_COMPACTION_VERSION`.
    pub version: u32,
    /// `XS_UNSET`, 0 or 1.
    pub from_extension: i32,
    /// Required text.
    pub summary: *const c_char,
    /// Length of `summary`.
    pub summary_len: usize,
    /// NULL = absent.
    pub short_summary: *const c_char,
    /// Length of `short_summary`.
    pub short_summary_len: usize,
    /// NUL-terminated, required.
    pub first_kept_entry_id: *const c_char,
    /// Tokens before the compaction.
    pub tokens_before: i64,
    /// NULL = absent; any JSON value.
    pub details_json: *const c_char,
    /// Length of `details_json`.
    pub details_len: usize,
    /// NULL = absent; any JSON value.
    pub preserve_data_json: *const c_char,
    /// Length of `preserve_data_json`.
    pub preserve_data_len: usize,
}

/// Version of [`xs_custom_message`] this crate fills in.
pub const XS_CUSTOM_MESSAGE_VERSION: u32 = 1;

/// A "custom_message" entry for `xs_append_custom_message`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct xs_custom_message {
    /// `XS_CUSTOM_MESSAGE_VERSION`.
    pub version: u32,
    /// 0 or 1 (default 1).
    pub display: i32,
    /// Required, NUL-terminated.
    pub custom_type: *const c_char,
    /// Required: a JSON string or an array of content blocks.
    pub content_json: *const c_char,
    /// Length of `content_json`.
    pub content_len: usize,
    /// NULL = absent.
    pub details_json: *const c_char,
    /// Length of `details_json`.
    pub details_len: usize,
    /// NULL = "agent".
    pub attribution: *const c_char,
}

/// Version of [`xs_session_init_entry`] this crate fills in.
pub const XS_SESSION_INIT_ENTRY_VERSION: u32 = 1;

/// A "session_init" entry for `xs_append_session_init`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct xs_session_init_entry {
    /// `XS_SESSION_INIT_ENTRY_VERSION`.
    pub version: u32,
    /// Must be 0.
    pub reserved: u32,
    /// System prompt text.
    pub system_prompt: *const c_char,
    /// Length of `system_prompt`.
    pub system_prompt_len: usize,
    /// Task text.
    pub task: *const c_char,
    /// Length of `task`.
    pub task_len: usize,
    /// JSON array of tool names.
    pub tools_json: *const c_char,
    /// Length of `tools_json`.
    pub tools_len: usize,
    /// NULL = absent.
    pub output_schema_json: *const c_char,
    /// Length of `output_schema_json`.
    pub output_schema_len: usize,
}

/// Version of [`xs_archive_options`] this crate fills in.
pub const XS_ARCHIVE_OPTIONS_VERSION: u32 = 1;
/// Report what would be archived (pruned); change nothing.
pub const XS_ARCHIVE_DRY_RUN: u32 = 0x1;

/// Progress of `xs_store_archive`: `done` of `total` candidates, on the calling thread, while
/// the store is busy with the call (so it must not call into the same store).
pub type xs_archive_progress_fn = Option<unsafe extern "C" fn(done: u64, total: u64, user: *mut c_void)>;

/// Options of `xs_store_archive` and `xs_store_prune`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct xs_archive_options {
    /// `XS_ARCHIVE_OPTIONS_VERSION`.
    pub version: u32,
    /// `XS_ARCHIVE_*` flags.
    pub flags: u32,
    /// Required, >= 0 (init sets -1, which a call refuses).
    pub older_than_ms: i64,
    /// "Now" for the age test; 0 = the system clock.
    pub now_ms: i64,
    /// NULL: none; `xs_store_prune` does not call it.
    pub progress: xs_archive_progress_fn,
    /// Passed to `progress`.
    pub progress_user: *mut c_void,
}

/// Version of [`xs_import_options`] this crate fills in.
pub const XS_IMPORT_OPTIONS_VERSION: u32 = 1;
/// Report what would be imported; write nothing (not even the store's directory).
pub const XS_IMPORT_DRY_RUN: u32 = 0x1;

/// Options of `xs_import` and `xs_foreign_list` (which reads only `lock_wait_ms` and `now_ms`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct xs_import_options {
    /// `XS_IMPORT_OPTIONS_VERSION`.
    pub version: u32,
    /// `XS_IMPORT_*` flags.
    pub flags: u32,
    /// "claude" only: the cwd of every imported session; NULL = each conversation's own.
    /// Absolute, without "." or ".." components; copied by the call.
    pub target_cwd: *const c_char,
    /// "gateway" and "myagents" only: the cwd of a session its source names none for; NULL = the
    /// source directory. Absolute, as `target_cwd`; copied by the call.
    pub fallback_cwd: *const c_char,
    /// How long to wait for a host's index lock before reading the index anyway (default 2000, >= 0).
    pub lock_wait_ms: i64,
    /// "Now" for a lock's age; 0 = the system clock.
    pub now_ms: i64,
}

/// Version of [`xs_reset_policy`] this crate fills in.
pub const XS_RESET_POLICY_VERSION: u32 = 1;

/// When a key's current session has expired (`xs_store_session_for_key`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct xs_reset_policy {
    /// `XS_RESET_POLICY_VERSION`.
    pub version: u32,
    /// 0-23: the daily reset's hour; -1 = no daily reset.
    pub daily_hour: i32,
    /// > 0: idle expiry in minutes; 0 = none.
    pub idle_minutes: i64,
    /// The daily hour's time zone (IANA name, "UTC" or a fixed offset); NULL or "" = the host's.
    pub time_zone: *const c_char,
}

/// `xs_store_session_for_key`: a new session whatever the policy says.
pub const XS_RESET_FORCE: u32 = 0x1;
/// Reason: the record's session, not expired.
pub const XS_RESET_CONTINUED: u32 = 0;
/// Reason: the key had no record.
pub const XS_RESET_NEW: u32 = 1;
/// Reason: expired by the daily reset.
pub const XS_RESET_DAILY: u32 = 2;
/// Reason: expired by the idle expiry.
pub const XS_RESET_IDLE: u32 = 3;
/// Reason: `XS_RESET_FORCE`.
pub const XS_RESET_FORCED: u32 = 4;

/// Version of [`xs_compaction_settings`] this crate fills in.
pub const XS_COMPACTION_SETTINGS_VERSION: u32 = 1;

/// When to compact, when to flush memory, and where to cut.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct xs_compaction_settings {
    /// `XS_COMPACTION_SETTINGS_VERSION`.
    pub version: u32,
    /// The model's context window in tokens; > 0 for the decisions.
    pub context_window: i64,
    /// Room kept for the prompt and the next reply.
    pub reserve_tokens: i64,
    /// The floor under `reserve_tokens`; 0 = none.
    pub reserve_floor: i64,
    /// What a compaction keeps of the newest entries.
    pub keep_recent_tokens: i64,
    /// How far below the compaction threshold the memory flush runs.
    pub soft_threshold_tokens: i64,
}

/// Entry readers: blob refs replaced by the blobs' content.
pub const XS_READ_RESOLVE_BLOBS: u32 = 0x1;

/// The callback of `xs_keys_update`: sees the record (`current_json`, not NUL-terminated; NULL
/// when there is none) under the document's lock and decides what it becomes through
/// `new_json` / `new_len` (borrowed until it returns; `*new_json = NULL` removes the record).
/// Returning anything but `XS_OK` cancels. `None` is the C API's NULL (refused with `XS_EINVAL`).
pub type xs_keys_update_fn = Option<
    unsafe extern "C" fn(
        user: *mut c_void,
        current_json: *const c_char,
        current_len: usize,
        new_json: *mut *const c_char,
        new_len: *mut usize,
    ) -> xs_status,
>;

// --- handles ----------------------------------------------------------------------------------

// Opaque handles in the Rustonomicon's FFI shape: zero-sized, not constructible, and
// !Send/!Sync/!Unpin by default, so the safe wrappers decide thread rules explicitly.

/// A store: a root directory holding sessions and blobs.
#[repr(C)]
pub struct xs_store {
    _data: [u8; 0],
    _marker: PhantomData<(*mut u8, PhantomPinned)>,
}

/// One open session transcript.
#[repr(C)]
pub struct xs_session {
    _data: [u8; 0],
    _marker: PhantomData<(*mut u8, PhantomPinned)>,
}

// --- functions --------------------------------------------------------------------------------

extern "C" {
    // library
    /// Runtime version of the library; each pointer may be NULL.
    pub fn xs_version(major: *mut c_int, minor: *mut c_int, patch: *mut c_int);
    /// Static English name of a status code; never NULL.
    pub fn xs_status_str(code: xs_status) -> *const c_char;

    // options
    /// Fills `*opts` with the defaults of `version`.
    pub fn xs_store_options_init(opts: *mut xs_store_options, version: u32) -> xs_status;
    /// Fills `*opts` with the defaults of `version`.
    pub fn xs_session_options_init(opts: *mut xs_session_options, version: u32) -> xs_status;

    // store
    /// Allocates a store handle (not yet open); NULL only when out of memory.
    pub fn xs_store_new() -> *mut xs_store;
    /// Opens the store rooted at `root` (NULL with `XS_STORE_IN_MEMORY`).
    pub fn xs_store_open(st: *mut xs_store, root: *const c_char, opts: *const xs_store_options) -> xs_status;
    /// Releases a store handle; sessions opened from it stay valid. NULL is a no-op.
    pub fn xs_store_free(st: *mut xs_store);
    /// Code of the last call on `st`.
    pub fn xs_store_errcode(st: *const xs_store) -> xs_status;
    /// Message of the last call on `st`: borrowed until the next call on `st`.
    pub fn xs_store_errmsg(st: *const xs_store) -> *const c_char;
    /// The directory holding the sessions of `cwd`, through `(buf, cap, out_len)`.
    pub fn xs_store_session_dir(
        st: *mut xs_store,
        cwd: *const c_char,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;

    // blobs
    /// Stores a blob; writes its SHA-256 hex (NUL-terminated) into `XS_HASH_BUFSIZE` bytes.
    pub fn xs_blob_put(st: *mut xs_store, data: *const c_void, len: usize, hash_out: *mut c_char) -> xs_status;
    /// A blob's bytes, verified against its hash, through `(buf, cap, out_len)`.
    pub fn xs_blob_get(
        st: *mut xs_store,
        hash: *const c_char,
        buf: *mut c_void,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
    /// The blob directory as JSON, through `(buf, cap, out_len)`.
    pub fn xs_blob_list(st: *mut xs_store, flags: u32, buf: *mut c_char, cap: usize, out_len: *mut usize) -> xs_status;
    /// Fills `*o` with the defaults of `version`.
    pub fn xs_gc_options_init(o: *mut xs_gc_options, version: u32) -> xs_status;
    /// Garbage-collects the blob store; the report as JSON through `(buf, cap, out_len)`.
    pub fn xs_blob_gc(
        st: *mut xs_store,
        opts: *const xs_gc_options,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;

    // discovery
    /// Fills `*o` with the defaults of `version`.
    pub fn xs_list_options_init(o: *mut xs_list_options, version: u32) -> xs_status;
    /// The store's sessions as a JSON array, through `(buf, cap, out_len)`.
    pub fn xs_store_list(
        st: *mut xs_store,
        opts: *const xs_list_options,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
    /// The path of the session matching an id, file name or prefix.
    pub fn xs_store_resolve(
        st: *mut xs_store,
        query: *const c_char,
        cwd: *const c_char,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
    /// Records the session a terminal uses in a cwd.
    pub fn xs_store_write_breadcrumb(
        st: *mut xs_store,
        terminal_id: *const c_char,
        cwd: *const c_char,
        session_path: *const c_char,
    ) -> xs_status;

    // retention
    /// Fills `*o` with the defaults of `version` (`older_than_ms` -1: unset).
    pub fn xs_archive_options_init(o: *mut xs_archive_options, version: u32) -> xs_status;
    /// Archives idle sessions to `.jsonl.gz`; the report as JSON.
    pub fn xs_store_archive(
        st: *mut xs_store,
        opts: *const xs_archive_options,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
    /// Deletes archives older than the limit; the report as JSON.
    pub fn xs_store_prune(
        st: *mut xs_store,
        opts: *const xs_archive_options,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;

    // import
    /// Fills `*o` with the defaults of `version` (`lock_wait_ms` 2000).
    pub fn xs_import_options_init(o: *mut xs_import_options, version: u32) -> xs_status;
    /// Imports another agent's store into `st`; the report as JSON.
    pub fn xs_import(
        st: *mut xs_store,
        kind: *const c_char,
        source_path: *const c_char,
        opts: *const xs_import_options,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
    /// What another agent's store holds, read only; the listing as JSON.
    pub fn xs_foreign_list(
        st: *mut xs_store,
        kind: *const c_char,
        source_path: *const c_char,
        opts: *const xs_import_options,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;

    // keyed session store
    /// The record of `key` as minified JSON, through `(buf, cap, out_len)`.
    pub fn xs_keys_get(
        st: *mut xs_store,
        key: *const c_char,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
    /// `[{"key","record"}...]` for the keys starting with `prefix` (NULL or "": all).
    pub fn xs_keys_list(
        st: *mut xs_store,
        prefix: *const c_char,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
    /// Replaces the record of `key` (a new key goes last).
    pub fn xs_keys_put(st: *mut xs_store, key: *const c_char, record_json: *const c_char, len: usize) -> xs_status;
    /// Merges a JSON merge patch (RFC 7386) into the record of `key`.
    pub fn xs_keys_patch(st: *mut xs_store, key: *const c_char, patch_json: *const c_char, len: usize) -> xs_status;
    /// Removes the record of `key`.
    pub fn xs_keys_delete(st: *mut xs_store, key: *const c_char) -> xs_status;
    /// Runs `fn` once under the document's lock and applies what it decides.
    pub fn xs_keys_update(
        st: *mut xs_store,
        key: *const c_char,
        r#fn: xs_keys_update_fn,
        user: *mut c_void,
    ) -> xs_status;

    // reset policies
    /// Fills `*p` with the defaults of `version` (no daily reset, no idle expiry).
    pub fn xs_reset_policy_init(p: *mut xs_reset_policy, version: u32) -> xs_status;
    /// The current session of `key` (continued, or new when expired); an owned handle.
    pub fn xs_store_session_for_key(
        st: *mut xs_store,
        key: *const c_char,
        now_ms: i64,
        policy: *const xs_reset_policy,
        flags: u32,
        opts: *const xs_session_options,
        out: *mut *mut xs_session,
        reason_out: *mut u32,
    ) -> xs_status;
    /// Static name of an `XS_RESET_*` reason; never NULL.
    pub fn xs_reset_reason_str(reason: u32) -> *const c_char;

    // session lifecycle
    /// Starts a new session for `cwd`; errors on the store.
    pub fn xs_session_create(
        st: *mut xs_store,
        cwd: *const c_char,
        opts: *const xs_session_options,
        out: *mut *mut xs_session,
    ) -> xs_status;
    /// Opens a session by path, id or id prefix; errors on the store.
    pub fn xs_session_open(
        st: *mut xs_store,
        path_or_id: *const c_char,
        opts: *const xs_session_options,
        out: *mut *mut xs_session,
    ) -> xs_status;
    /// Continues the most recent session of `cwd`; errors on the store.
    pub fn xs_session_continue_recent(
        st: *mut xs_store,
        cwd: *const c_char,
        terminal_id: *const c_char,
        opts: *const xs_session_options,
        out: *mut *mut xs_session,
    ) -> xs_status;
    /// Copies another session file into a new session; errors on the store.
    pub fn xs_session_fork_from(
        st: *mut xs_store,
        source_path: *const c_char,
        target_cwd: *const c_char,
        opts: *const xs_session_options,
        out: *mut *mut xs_session,
    ) -> xs_status;
    /// A copy of this session under a new id; errors on `s`.
    pub fn xs_session_fork(s: *mut xs_session, opts: *const xs_session_options, out: *mut *mut xs_session)
        -> xs_status;
    /// A new session holding the path to `leaf_id`; errors on `s`.
    pub fn xs_session_create_branched(
        s: *mut xs_session,
        leaf_id: *const c_char,
        opts: *const xs_session_options,
        out: *mut *mut xs_session,
    ) -> xs_status;
    /// Moves the session to another working directory.
    pub fn xs_session_move_to(s: *mut xs_session, new_cwd: *const c_char) -> xs_status;
    /// Read-only handles: picks up entries appended by another process.
    pub fn xs_session_reload(s: *mut xs_session, added: *mut i64) -> xs_status;
    /// Flushes (errors ignored), releases the writer lock and frees `s`. NULL is a no-op.
    pub fn xs_session_close(s: *mut xs_session);
    /// Code of the last call on `s`.
    pub fn xs_session_errcode(s: *const xs_session) -> xs_status;
    /// Message of the last call on `s`: borrowed until the next call on `s`.
    pub fn xs_session_errmsg(s: *const xs_session) -> *const c_char;
    /// Makes everything appended so far durable.
    pub fn xs_session_flush(s: *mut xs_session) -> xs_status;
    /// Writes a deferred session to disk now.
    pub fn xs_session_persist(s: *mut xs_session) -> xs_status;

    // writing
    /// Appends a whole entry given as JSON.
    pub fn xs_append(s: *mut xs_session, entry_json: *const c_char, len: usize, id_out: *mut c_char) -> xs_status;
    /// Appends a "message" entry.
    pub fn xs_append_message(
        s: *mut xs_session,
        message_json: *const c_char,
        len: usize,
        id_out: *mut c_char,
    ) -> xs_status;
    /// Appends a "thinking_level_change" (NULL level stores null).
    pub fn xs_append_thinking_level(s: *mut xs_session, level: *const c_char, id_out: *mut c_char) -> xs_status;
    /// Appends a "model_change".
    pub fn xs_append_model_change(
        s: *mut xs_session,
        model: *const c_char,
        role: *const c_char,
        id_out: *mut c_char,
    ) -> xs_status;
    /// Fills `*c` with the defaults of `version`.
    pub fn xs_compaction_init(c: *mut xs_compaction, version: u32) -> xs_status;
    /// Appends a "compaction" entry.
    pub fn xs_append_compaction(s: *mut xs_session, c: *const xs_compaction, id_out: *mut c_char) -> xs_status;

    // compaction planning
    /// Fills `*s` with the defaults of `version`.
    pub fn xs_compaction_settings_init(s: *mut xs_compaction_settings, version: u32) -> xs_status;
    /// `*out` = 1 when a context of `context_tokens` should be compacted now.
    pub fn xs_should_compact(s: *const xs_compaction_settings, context_tokens: i64, out: *mut c_int) -> xs_status;
    /// `*out` = 1 when the memory flush should run now (`last_flush_compaction_count` -1: never).
    pub fn xs_should_flush_memory(
        s: *const xs_compaction_settings,
        context_tokens: i64,
        compaction_count: i64,
        last_flush_compaction_count: i64,
        out: *mut c_int,
    ) -> xs_status;
    /// Where a compaction at `leaf_id` (NULL = the leaf) should cut, as JSON.
    pub fn xs_compaction_plan(
        s: *mut xs_session,
        leaf_id: *const c_char,
        settings: *const xs_compaction_settings,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
    /// The memory flush decision for `key`'s record, made and marked under the document's lock.
    pub fn xs_keys_claim_memory_flush(
        st: *mut xs_store,
        key: *const c_char,
        settings: *const xs_compaction_settings,
        context_tokens: i64,
        now_ms: i64,
        run: *mut c_int,
    ) -> xs_status;
    /// Appends a "custom" entry.
    pub fn xs_append_custom(
        s: *mut xs_session,
        custom_type: *const c_char,
        data_json: *const c_char,
        data_len: usize,
        id_out: *mut c_char,
    ) -> xs_status;
    /// Fills `*m` with the defaults of `version`.
    pub fn xs_custom_message_init(m: *mut xs_custom_message, version: u32) -> xs_status;
    /// Appends a "custom_message" entry.
    pub fn xs_append_custom_message(s: *mut xs_session, m: *const xs_custom_message, id_out: *mut c_char) -> xs_status;
    /// Appends a "label" entry (NULL label clears).
    pub fn xs_append_label(
        s: *mut xs_session,
        target_id: *const c_char,
        label: *const c_char,
        id_out: *mut c_char,
    ) -> xs_status;
    /// Appends a "ttsr_injection" entry.
    pub fn xs_append_ttsr_injection(
        s: *mut xs_session,
        rules_json: *const c_char,
        len: usize,
        id_out: *mut c_char,
    ) -> xs_status;
    /// Fills `*si` with the defaults of `version`.
    pub fn xs_session_init_entry_init(si: *mut xs_session_init_entry, version: u32) -> xs_status;
    /// Appends a "session_init" entry.
    pub fn xs_append_session_init(
        s: *mut xs_session,
        si: *const xs_session_init_entry,
        id_out: *mut c_char,
    ) -> xs_status;
    /// Appends a "mode_change" entry.
    pub fn xs_append_mode_change(
        s: *mut xs_session,
        mode: *const c_char,
        data_json: *const c_char,
        data_len: usize,
        id_out: *mut c_char,
    ) -> xs_status;
    /// Moves the leaf to `from_id` and appends a "branch_summary" there.
    pub fn xs_session_branch_with_summary(
        s: *mut xs_session,
        from_id: *const c_char,
        summary: *const c_char,
        summary_len: usize,
        details_json: *const c_char,
        details_len: usize,
        from_extension: i32,
        id_out: *mut c_char,
    ) -> xs_status;
    /// Moves the leaf to entry `id` (NULL: to none).
    pub fn xs_session_set_leaf(s: *mut xs_session, id: *const c_char) -> xs_status;
    /// Sets (NULL: removes) the title: the header's (omp), a "session_info" entry (pi).
    pub fn xs_session_set_title(s: *mut xs_session, title: *const c_char, title_len: usize) -> xs_status;
    /// pi dialect: appends a "session_info" entry (pi's title); `XS_EDIALECT` in the omp dialect.
    pub fn xs_append_session_info(
        s: *mut xs_session,
        name: *const c_char,
        name_len: usize,
        id_out: *mut c_char,
    ) -> xs_status;
    /// The dialect the session writes: `XS_DIALECT_OMP` or `XS_DIALECT_PI`.
    pub fn xs_session_dialect(s: *mut xs_session, dialect: *mut u32) -> xs_status;

    // reading
    /// The context for the path ending at `leaf_id` (NULL: the current leaf).
    pub fn xs_build_context(
        s: *mut xs_session,
        leaf_id: *const c_char,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
    /// The header line, as stored.
    pub fn xs_session_header(s: *mut xs_session, buf: *mut c_char, cap: usize, out_len: *mut usize) -> xs_status;
    /// All entries in file order, as a JSON array.
    pub fn xs_session_entries(
        s: *mut xs_session,
        flags: u32,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
    /// One entry, as stored.
    pub fn xs_session_entry(
        s: *mut xs_session,
        id: *const c_char,
        flags: u32,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
    /// The entries from the root down to `id` (NULL: the leaf).
    pub fn xs_session_path(
        s: *mut xs_session,
        id: *const c_char,
        flags: u32,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
    /// The direct children of `id`, as a JSON array.
    pub fn xs_session_children(
        s: *mut xs_session,
        id: *const c_char,
        flags: u32,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
    /// The whole tree, flat, depth-first pre-order.
    pub fn xs_session_tree(
        s: *mut xs_session,
        flags: u32,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
    /// Live labels, as a JSON array.
    pub fn xs_session_labels(s: *mut xs_session, buf: *mut c_char, cap: usize, out_len: *mut usize) -> xs_status;
    /// The leaf's id (length 0 when none).
    pub fn xs_session_leaf(s: *mut xs_session, buf: *mut c_char, cap: usize, out_len: *mut usize) -> xs_status;
    /// What the loader skipped or noticed, as a JSON array.
    pub fn xs_session_diagnostics(s: *mut xs_session, buf: *mut c_char, cap: usize, out_len: *mut usize) -> xs_status;
    /// The session's facts, as a JSON object.
    pub fn xs_session_info(s: *mut xs_session, buf: *mut c_char, cap: usize, out_len: *mut usize) -> xs_status;
    /// Token and cost totals, as a JSON object.
    pub fn xs_session_usage(s: *mut xs_session, buf: *mut c_char, cap: usize, out_len: *mut usize) -> xs_status;

    /// The session's counters, as a JSON object.
    pub fn xs_session_stats(s: *mut xs_session, buf: *mut c_char, cap: usize, out_len: *mut usize) -> xs_status;
    /// Recounts the stats of the records whose key starts with `key_prefix`; the report as JSON.
    pub fn xs_keys_fix_stats(
        st: *mut xs_store,
        key_prefix: *const c_char,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
    /// Orphans and unanswered tool calls before continuing from `leaf_id` (NULL = the leaf), as JSON.
    pub fn xs_session_resume_check(
        s: *mut xs_session,
        leaf_id: *const c_char,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;

    // upkeep
    /// Everything wrong with the session's file, as a JSON report.
    pub fn xs_session_verify(s: *mut xs_session, buf: *mut c_char, cap: usize, out_len: *mut usize) -> xs_status;
    /// Fixes what can be fixed without losing a byte (`XS_REPAIR_QUARANTINE`: also moves the lines
    /// that are not JSON to a quarantine file); the report as JSON.
    pub fn xs_session_repair(
        s: *mut xs_session,
        flags: u32,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
}
