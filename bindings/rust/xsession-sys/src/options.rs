//! The option structs of `xsession.h` and their flags and versions.

use std::ffi::c_void;
use std::os::raw::c_char;

use crate::{xs_status, xs_storage};

/// Version of [`xs_store_options`] this crate fills in.
pub const XS_STORE_OPTIONS_VERSION: u32 = 4;
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
    /// Version 4: where the store keeps everything (`xsession_storage.h`); NULL = the disk. The
    /// table is copied; when `xs_store_open` succeeds its `user` belongs to the store until
    /// `release()` runs, when it fails it stays the caller's.
    pub storage: *const xs_storage,
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

/// Version of [`xs_import_options`] this crate fills in (2 added `progress`; the library still
/// accepts a version 1 struct, which ends before it).
pub const XS_IMPORT_OPTIONS_VERSION: u32 = 2;
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
    /// Version 2: `done` of `total` bytes of the source's transcripts handled, on the calling
    /// thread (NULL: none; `xs_foreign_list` does not call it).
    pub progress: xs_import_progress_fn,
    /// Passed to `progress`.
    pub progress_user: *mut c_void,
}

/// Progress of `xs_import`: 0 first, about once per thousandth of the total, the total last.
pub type xs_import_progress_fn = Option<unsafe extern "C" fn(done: u64, total: u64, user: *mut c_void)>;

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
