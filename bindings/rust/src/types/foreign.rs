//! Import's report ([`ImportReport`], docs/import.md#the-report) and the listing of a foreign
//! store ([`ForeignListing`], docs/import-claude.md#the-listing, docs/import-hosts.md#listing-json).

use serde::{Deserialize, Serialize};

use super::present;
use crate::import::ImportKind;

/// One session an import wrote (or, in a dry run, would write). A host's index is a session
/// with an empty `session_id` whose rows are its keys.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportedSession {
    /// The source file.
    pub source_file: String,
    /// The native session's id.
    pub session_id: String,
    /// The native session's file (empty in a dry run of a new session).
    pub session_file: String,
    /// Whether the session is new (else continued).
    pub created: bool,
    /// Rows read: `imported + kept_as_custom + already_imported + skipped`.
    pub rows_read: u64,
    /// Rows written as native entries.
    pub imported: u64,
    /// Rows kept as `custom` entries.
    pub kept_as_custom: u64,
    /// Rows a previous import wrote.
    pub already_imported: u64,
    /// Rows skipped.
    pub skipped: u64,
}

/// A row or file that could not be read (import's `skippedRows`, a listing's `problems`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForeignProblem {
    /// The file.
    pub file: String,
    /// The line (0: the file as a whole).
    pub line: u64,
    /// Why.
    pub reason: String,
}

/// What an import did (`xs_import`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportReport {
    /// Whose store was read.
    pub source: ImportKind,
    /// The source directory.
    pub root: String,
    /// Whether it was a dry run.
    pub dry_run: bool,
    /// The totals over the sessions.
    pub rows_read: u64,
    /// Rows written as native entries.
    pub imported: u64,
    /// Rows kept as `custom` entries.
    pub kept_as_custom: u64,
    /// Rows a previous import wrote.
    pub already_imported: u64,
    /// Rows skipped.
    pub skipped: u64,
    /// Every session.
    pub sessions: Vec<ImportedSession>,
    /// The rows skipped, with why.
    pub skipped_rows: Vec<ForeignProblem>,
    /// Notes (a lock waited for, …).
    pub notes: Vec<String>,
}

/// A Claude Code transcript of a [`ClaudeProject`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaudeTranscript {
    /// The file.
    pub file: String,
    /// `"session"`, `"subagent"` or `"agent"`.
    pub kind: String,
    /// Its session id.
    pub session_id: String,
    /// The parent session (subagents).
    pub parent_session_id: String,
    /// The agent id (subagents).
    pub agent_id: String,
    /// Its working directory.
    pub cwd: String,
    /// The first prompt.
    pub first_prompt: String,
    /// Its summary.
    pub summary: String,
    /// Its title.
    pub title: String,
    /// Rows read.
    pub rows: u64,
    /// Rows that could not be read.
    pub bad_rows: u64,
    /// The file's size.
    pub size: u64,
    /// The file's modification time, ms since the epoch.
    pub mtime: i64,
    /// The last row's uuid.
    pub leaf_uuid: String,
    /// Whether `sessions-index.json` names it.
    pub in_index: bool,
}

/// A Claude Code project directory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaudeProject {
    /// The directory.
    pub dir: String,
    /// Whether it has `sessions-index.json`.
    pub has_index: bool,
    /// The project's original path.
    pub original_path: String,
    /// Its transcripts.
    pub transcripts: Vec<ClaudeTranscript>,
    /// Rows that could not be read.
    pub skipped_rows: Vec<ForeignProblem>,
    /// Notes.
    pub notes: Vec<String>,
}

/// A key of a gateway agent's index.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewayKey {
    /// The key.
    pub key: String,
    /// Its session id.
    pub session_id: String,
    /// Its line in the index.
    pub line: u64,
    /// The transcript it names, if found.
    pub transcript: Option<String>,
}

/// A transcript of a [`GatewayAgent`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewayTranscript {
    /// The file name.
    pub file: String,
    /// Its path.
    pub path: String,
    /// Its session id.
    pub session_id: String,
    /// Its thread, if any.
    pub thread_id: Option<String>,
    /// `"live"`, `"reset"`, `"deleted"`, `"bak"` or `"checkpoint"`.
    pub generation: String,
    /// The stamp in its name, if any.
    pub stamp: Option<String>,
    /// Its size.
    pub size: u64,
    /// Its modification time, ms since the epoch.
    pub mtime_ms: i64,
    /// Whether a write lock is beside it.
    pub write_lock: bool,
    /// The index keys naming it.
    pub keys: Vec<String>,
}

/// One agent of a gateway's state directory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewayAgent {
    /// The agent id.
    pub id: String,
    /// Its sessions directory.
    pub dir: String,
    /// Its index file, if any.
    pub index: Option<String>,
    /// The index's rows.
    pub index_rows: u64,
    /// The index's keys.
    pub keys: Vec<GatewayKey>,
    /// The transcripts.
    pub transcripts: Vec<GatewayTranscript>,
    /// What could not be read.
    pub problems: Vec<ForeignProblem>,
    /// Notes.
    pub notes: Vec<String>,
}

/// MyAgents' stats of a session (each member only when the index has it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MyAgentsStats {
    /// Messages.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub message_count: Option<f64>,
    /// Input tokens.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub total_input_tokens: Option<f64>,
    /// Output tokens.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub total_output_tokens: Option<f64>,
    /// Cache-read tokens.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub total_cache_read_tokens: Option<f64>,
    /// Cache-creation tokens.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub total_cache_creation_tokens: Option<f64>,
}

/// A session of a MyAgents store.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MyAgentsSession {
    /// The session id.
    pub id: String,
    /// Its messages file, if found.
    pub messages_file: Option<String>,
    /// Its legacy file, if found.
    pub legacy_file: Option<String>,
    /// Whether a legacy file is beside the messages file.
    pub legacy_beside: bool,
    /// Whether the index names it.
    pub in_index: bool,
    /// Its line in the index.
    pub line: Option<u64>,
    /// Its title.
    pub title: Option<String>,
    /// Its agent directory.
    pub agent_dir: Option<String>,
    /// When it was created.
    pub created_at: Option<String>,
    /// When it was last active.
    pub last_active_at: Option<String>,
    /// The index's stats.
    pub stats: Option<MyAgentsStats>,
}

/// A rollout file of a Codex sessions directory (docs/import-codex.md#the-listing); the strings
/// are empty where the rollout does not say.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CodexSession {
    /// The file, relative to the directory read.
    pub file: String,
    /// Its session_meta's id.
    pub session_id: String,
    /// Its working directory.
    pub cwd: String,
    /// When it started (ISO 8601).
    pub started: String,
    /// The Codex version that wrote it.
    pub cli_version: String,
    /// The Codex client.
    pub originator: String,
    /// The first turn's model.
    pub model: String,
    /// What a person typed first, cut for a listing.
    pub first_prompt: String,
    /// Rows.
    pub rows: u64,
    /// Rows that are not JSON objects.
    pub bad_rows: u64,
    /// Bytes.
    pub size: u64,
    /// Modification time, ms since the epoch.
    pub mtime: i64,
}

/// What a foreign store holds (`xs_foreign_list`), by `"source"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "source", rename_all = "lowercase")]
pub enum ForeignListing {
    /// Claude Code: project directories.
    Claude {
        /// The directory read.
        root: String,
        /// Its projects.
        projects: Vec<ClaudeProject>,
    },
    /// A gateway's state directory: agents.
    Gateway {
        /// The directory read.
        root: String,
        /// Its agents.
        agents: Vec<GatewayAgent>,
    },
    /// A MyAgents store.
    #[serde(rename_all = "camelCase")]
    MyAgents {
        /// The directory read.
        root: String,
        /// `sessions.json`, if there.
        index: Option<String>,
        /// The index's lock: `"free"`, `"released"`, `"stale"` or `"held"`.
        index_lock: String,
        /// The index's rows.
        index_rows: u64,
        /// The sessions.
        sessions: Vec<MyAgentsSession>,
        /// What could not be read.
        problems: Vec<ForeignProblem>,
        /// Notes.
        notes: Vec<String>,
    },
    /// A Codex CLI sessions directory: its rollouts.
    Codex {
        /// The directory read.
        root: String,
        /// The rollouts, by relative path.
        sessions: Vec<CodexSession>,
        /// What could not be read.
        problems: Vec<ForeignProblem>,
        /// Notes.
        notes: Vec<String>,
    },
}
