//! The functions of `xsession.h`, in its order.

use std::ffi::c_void;
use std::os::raw::{c_char, c_int};

use crate::*;

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
