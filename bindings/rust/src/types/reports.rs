//! The store's and the upkeep calls' reports: listing, verify and repair, blobs and their
//! collection, archive and prune, the keyed store's stats repair.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::context::Diagnostic;
use super::present;

/// One session of [`Store::list`](crate::Store::list) (`xs_store_list`,
/// docs/format.md#finding-sessions).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListedSession {
    /// The session file (bytes that are not UTF-8 show as U+FFFD).
    pub path: String,
    /// The session id.
    pub id: String,
    /// The header's working directory.
    pub cwd: String,
    /// The header's timestamp.
    pub timestamp: String,
    /// The file's modification time, ms since the epoch.
    pub modified: i64,
    /// The file's size in bytes.
    pub size: u64,
    /// The title, if any.
    pub title: Option<String>,
    /// The header's `parentSession`, if any.
    pub parent_session: Option<String>,
    /// The format version on disk.
    pub version: u32,
    /// Whether a writable open would migrate the file.
    pub needs_migration: bool,
    /// How many `<file>.corrupt-*` copies are beside it.
    pub corrupt_copies: u64,
    /// Whether it is an archive (`<file>.jsonl.gz`).
    pub archived: bool,
    /// pi's first message: the first user text.
    pub first_message: Option<String>,
    /// What a listing should show: the first user text no agent injected, cut to 200 characters.
    pub first_prompt: Option<String>,
    /// The messages ([`ListOptions::full`](crate::ListOptions::full) only).
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub message_count: Option<u64>,
    /// The entries ([`ListOptions::full`](crate::ListOptions::full) only).
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub entry_count: Option<u64>,
    /// The loader's diagnostics ([`ListOptions::full`](crate::ListOptions::full) only).
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub diagnostics: Option<u64>,
}

/// A problem [`Session::verify`](crate::Session::verify) found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerifyProblem {
    /// The line (1-based; 0 for the file as a whole).
    pub line: u64,
    /// The line's byte offset.
    pub offset: u64,
    /// Its length in bytes.
    pub length: u64,
    /// The code (the diagnostics' codes, `"missing_newline"`, `"orphan"`, `"missing_blob"`, …).
    pub code: String,
    /// Why, in prose.
    pub reason: String,
    /// Whether [`Session::repair`](crate::Session::repair) can fix it.
    pub fixable: bool,
}

/// Everything wrong with a session's file (`xs_session_verify`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VerifyReport {
    /// The session file.
    pub path: String,
    /// The session id.
    pub id: String,
    /// The version on disk (before the in-memory migration).
    pub file_version: u32,
    /// Whether a writable open would rewrite the file.
    pub needs_migration: bool,
    /// The file's lines.
    pub lines: u64,
    /// Its entries.
    pub entries: u64,
    /// The blob refs it holds.
    pub blob_refs: u64,
    /// The problems, by line.
    pub problems: Vec<VerifyProblem>,
}

/// What a repair did (the items of [`RepairReport::done`]): a [`Diagnostic`]'s members.
pub type RepairStep = Diagnostic;

/// Where [`RepairOptions::quarantine`](crate::RepairOptions::quarantine) moved lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Quarantine {
    /// The quarantine file.
    pub path: String,
    /// How many lines moved to it.
    pub lines: u64,
    /// How many bytes, newlines included, left the session file.
    pub bytes: u64,
}

/// What [`Session::repair`](crate::Session::repair) did (`xs_session_repair`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepairReport {
    /// The session file.
    pub path: String,
    /// What was done, the open's own steps first.
    pub done: Vec<RepairStep>,
    /// With the quarantine flag: `Some(None)` when nothing moved; absent without it.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub quarantine: Option<Option<Quarantine>>,
}

/// A blob of [`BlobList::blobs`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BlobInfo {
    /// Its SHA-256, 64 lowercase hex characters.
    pub hash: String,
    /// Its size in bytes.
    pub size: u64,
    /// Its modification time, ms since the epoch.
    pub mtime_ms: i64,
    /// With verification: `Some(None)` when sound, else why its content does not match its name.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub problem: Option<Option<String>>,
}

/// A file of the blob directory by name (not a blob, or a deleted or young one of a collection).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileInfo {
    /// Its name.
    pub name: String,
    /// Its size in bytes.
    pub size: u64,
    /// Its modification time, ms since the epoch.
    pub mtime_ms: i64,
}

/// The blob directory (`xs_blob_list`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlobList {
    /// How many blobs.
    pub count: u64,
    /// Their bytes.
    pub bytes: u64,
    /// The blobs, by hash.
    pub blobs: Vec<BlobInfo>,
    /// The files there that are not named by a hash.
    pub others: Vec<FileInfo>,
}

/// What a blob collection did (`xs_blob_gc`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GcReport {
    /// Whether it was a dry run.
    pub dry_run: bool,
    /// How many files were read for refs.
    pub files_scanned: u64,
    /// How many blobs they refer to.
    pub referenced: u64,
    /// The bytes deleted.
    pub bytes_freed: u64,
    /// The files deleted.
    pub deleted: Vec<FileInfo>,
    /// Unreferenced files kept for the grace period.
    pub young: Vec<FileInfo>,
    /// Hashes referenced but not stored.
    pub missing: Vec<String>,
}

/// A session [`Store::archive`](crate::Store::archive) archived.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArchivedSession {
    /// The session file.
    pub path: String,
    /// Its size.
    pub bytes: u64,
    /// The archive's size (0 on a dry run).
    pub gz_bytes: u64,
}

/// A session [`Store::archive`](crate::Store::archive) left.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedSession {
    /// The session file.
    pub path: String,
    /// `"writer"`, `"too-large"`, `"archive-exists"`, `"changed"` or `"error"`.
    pub reason: String,
    /// What failed.
    pub detail: String,
}

/// What an archive run did (`xs_store_archive`, docs/retention.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArchiveReport {
    /// Whether it was a dry run.
    pub dry_run: bool,
    /// The sessions archived, in path order.
    pub archived: Vec<ArchivedSession>,
    /// The sessions skipped, in path order.
    pub skipped: Vec<SkippedSession>,
}

/// An archive [`Store::prune`](crate::Store::prune) deleted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PrunedArchive {
    /// The archive.
    pub path: String,
    /// Its size.
    pub gz_bytes: u64,
    /// When it was archived, ms since the epoch.
    pub archived_ms: i64,
}

/// What a prune did (`xs_store_prune`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PruneReport {
    /// Whether it was a dry run.
    pub dry_run: bool,
    /// The archives deleted, in path order.
    pub pruned: Vec<PrunedArchive>,
}

/// A record [`Keys::fix_stats`](crate::Keys::fix_stats) rewrote.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FixedRecord {
    /// The key.
    pub key: String,
    /// Its session.
    pub session_id: String,
    /// The fields that differed, as they were (`null`: absent).
    pub before: Map<String, Value>,
    /// The same fields, recounted.
    pub after: Map<String, Value>,
}

/// A record [`Keys::fix_stats`](crate::Keys::fix_stats) could not recount.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedRecord {
    /// The key.
    pub key: String,
    /// Why.
    pub reason: String,
}

/// What [`Keys::fix_stats`](crate::Keys::fix_stats) did (`xs_keys_fix_stats`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FixStatsReport {
    /// How many records were checked.
    pub checked: u64,
    /// The records rewritten.
    pub fixed: Vec<FixedRecord>,
    /// The records skipped.
    pub skipped: Vec<SkippedRecord>,
}
