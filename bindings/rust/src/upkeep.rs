//! Upkeep: verifying and repairing session files, listing and collecting blobs (what the CLI's
//! `xs verify`, `xs repair` and blob commands use). Each returns the library's JSON report.
//!
//! The repair and the collection act once: after `XS_EBUFS` the library copies the report it
//! already made, so growing the buffer never runs them twice.

use crate::error::Result;
use crate::options::{GcOptions, RepairOptions};
use crate::session::Session;
use crate::store::Store;
use crate::sys;
use crate::types::{decode, BlobList, GcReport, RepairReport, VerifyReport};

impl Session {
    /// Everything wrong with the session's file as loaded, typed. Writes nothing.
    pub fn verify(&self) -> Result<VerifyReport> {
        decode(&self.verify_json()?, "xs_session_verify")
    }

    /// Everything wrong with the session's file as loaded:
    /// `{"path","id","fileVersion","needsMigration","lines","entries","blobRefs","problems":[…]}`,
    /// each problem with `"fixable"` when [`Session::repair`] can fix it. Writes nothing.
    pub fn verify_json(&self) -> Result<String> {
        // SAFETY: live session; the buffer triple comes from read_bytes.
        self.handle.read_string("xs_session_verify", |s, b, c, n| unsafe { sys::xs_session_verify(s, b, c, n) })
    }

    /// Fixes what can be fixed without losing a byte and reports it, typed (see
    /// [`Session::repair_json`]).
    pub fn repair(&self, opts: &RepairOptions) -> Result<RepairReport> {
        decode(&self.repair_json(opts)?, "xs_session_repair")
    }

    /// Fixes what can be fixed without losing a byte (a writable handle only) and reports
    /// `{"path","done":[…]}`, including what this handle's open already did (a migration, a
    /// preserved headerless file). By default it writes the `\n` a torn last line lacks. With
    /// [`RepairOptions::quarantine`] it moves the lines that are not JSON to
    /// `<file>.quarantine-<time>.jsonl` (one record per line: `"line"`, `"offset"`, `"length"`,
    /// `"code"`, `"reason"`, `"newline"`, and the bytes as `"text"` or `"base64"`), rewrites the
    /// session without them, and the report gains `"quarantine"`: `null` or `{"path","lines","bytes"}`.
    pub fn repair_json(&self, opts: &RepairOptions) -> Result<String> {
        let flags = opts.flags();
        // SAFETY: as in verify.
        self.handle.read_string("xs_session_repair", |s, b, c, n| unsafe { sys::xs_session_repair(s, flags, b, c, n) })
    }
}

impl Store {
    /// The blob directory, typed (see [`Store::blob_list_json`]).
    pub fn blob_list(&self, verify: bool) -> Result<BlobList> {
        decode(&self.blob_list_json(verify)?, "xs_blob_list")
    }

    /// The blob directory: `{"count","bytes","blobs":[{"hash","size","mtimeMs"}],"others":[…]}`.
    /// With `verify`, every blob is read and hashed and carries `"problem"` (`null` when sound)
    /// (`XS_BLOB_LIST_VERIFY`). Changes nothing.
    pub fn blob_list_json(&self, verify: bool) -> Result<String> {
        let flags = if verify { sys::XS_BLOB_LIST_VERIFY } else { 0 };
        // SAFETY: live store; the buffer triple comes from read_bytes.
        self.handle.read_string("xs_blob_list", |st, b, c, n| unsafe { sys::xs_blob_list(st, flags, b, c, n) })
    }

    /// Garbage-collects the blob store and reports it, typed (see [`Store::blob_gc_json`]).
    pub fn blob_gc(&self, opts: &GcOptions) -> Result<GcReport> {
        decode(&self.blob_gc_json(opts)?, "xs_blob_gc")
    }

    /// Garbage-collects the blob store: blobs no file under the root mentions, older than the
    /// grace period, are deleted (none if any file cannot be read). Reports
    /// `{"dryRun","filesScanned","referenced","bytesFreed","deleted":[…],"young":[…],"missing":[…]}`.
    pub fn blob_gc_json(&self, opts: &GcOptions) -> Result<String> {
        let raw = opts.to_raw()?;
        // SAFETY: live store; `raw` outlives the call.
        self.handle.read_string("xs_blob_gc", |st, b, c, n| unsafe { sys::xs_blob_gc(st, &raw, b, c, n) })
    }
}
