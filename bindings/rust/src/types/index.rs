//! The session index's outputs ([`Index`](crate::Index)): the rebuild and refresh report, the
//! verify report, listed sessions, the index's facts and search hits
//! (capi/schema/index-report, -verify, -sessions, -info and search-hits.schema.json), and the
//! closed set of entry roles a search filters on and a hit names.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::DamagedFile;
use crate::error::{Error, ErrorCode};
use crate::import::ImportKind;
use crate::Dialect;

/// What kind of text an indexed entry holds (docs/search.md#what-is-indexed): the role a hit
/// names and [`IndexSearchOptions::role`](crate::IndexSearchOptions::role) filters on.
///
/// ```
/// use xsession::Role;
/// assert_eq!("tool".parse::<Role>().unwrap(), Role::Tool);
/// assert_eq!(Role::Summary.to_string(), "summary");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// A user message, and custom messages that reach the model as user messages.
    User,
    /// An assistant message's text (and its tool calls, when it has text too).
    Assistant,
    /// A tool result, a bash or python execution, an assistant message of tool calls only.
    Tool,
    /// A compaction's or a branch's summary.
    Summary,
    /// A label.
    Label,
}

impl Role {
    /// Every role, in the header's order.
    pub const ALL: [Role; 5] = [Role::User, Role::Assistant, Role::Tool, Role::Summary, Role::Label];

    /// The library's name: `"user"`, `"assistant"`, `"tool"`, `"summary"` or `"label"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
            Role::Summary => "summary",
            Role::Label => "label",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = Error;

    /// The library's names, exactly; anything else is [`ErrorCode::Invalid`], the status the
    /// library gives a role that is none of the five.
    fn from_str(s: &str) -> Result<Role, Error> {
        Role::ALL.iter().copied().find(|role| role.as_str() == s).ok_or_else(|| {
            Error::new(ErrorCode::Invalid, format!("unknown role {s:?} (user, assistant, tool, summary or label)"))
        })
    }
}

/// What [`Index::rebuild`](crate::Index::rebuild) or [`Index::refresh`](crate::Index::refresh)
/// did, the session files counted by what became of them (`xs_index_rebuild`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexReport {
    /// Session files found (live, and archives whose live original is gone).
    pub files: u64,
    /// Files whose size, mtime, device and inode were as indexed: not read.
    pub unchanged: u64,
    /// Files grown in place: only the lines after the last indexed byte read.
    pub appended: u64,
    /// Files changed otherwise (rewritten, shrunk, replaced): read whole again.
    pub reindexed: u64,
    /// Files that had no row before.
    pub added: u64,
    /// Rows whose file is gone, removed.
    pub removed: u64,
    /// Files that could not be read as a session: not indexed.
    pub unreadable: u64,
    /// Files another refresh changed meanwhile: left for the next one.
    pub raced: u64,
    /// Entry rows written.
    pub entries: u64,
}

/// Every difference between the index and the files ([`Index::verify`](crate::Index::verify),
/// `xs_index_verify`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexVerifyReport {
    /// True when the index and the files agree (the three lists are empty).
    pub ok: bool,
    /// Session files found.
    pub files: u64,
    /// Rows in the index's sessions table.
    pub indexed: u64,
    /// Files without a row (unreadable ones included).
    pub missing: Vec<String>,
    /// Rows without a file.
    pub extra: Vec<String>,
    /// Rows whose file's size, mtime, device or inode changed since it was indexed.
    pub stale: Vec<String>,
}

/// A session as the index knows it ([`Index::list`](crate::Index::list), `xs_index_list`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexedSession {
    /// The session file.
    pub path: String,
    /// The session's id (its header's).
    pub id: String,
    /// The working directory in its header.
    pub cwd: String,
    /// The header's title, else pi's last `session_info` name; `None` (JSON `null`) for none.
    pub title: Option<String>,
    /// The first user text no agent injected, cut for a listing; `None` for none.
    pub first_prompt: Option<String>,
    /// The header's timestamp, ms since the epoch; `None` when not a date.
    pub created: Option<i64>,
    /// The newest entry's timestamp, ms since the epoch; `None` when none is a date.
    pub updated: Option<i64>,
    /// The file's modification time when it was indexed, ms since the epoch.
    pub modified: i64,
    /// The file's size in bytes when it was indexed.
    pub size: u64,
    /// Entries in the file.
    pub entries: u64,
    /// Message entries.
    pub messages: u64,
    /// Input tokens of every assistant message's usage (all branches).
    pub input_tokens: u64,
    /// Output tokens, likewise.
    pub output_tokens: u64,
    /// Cost of every assistant message's usage (all branches).
    pub cost: f64,
    /// The dialect the file is written in; `None` when the index does not know it.
    pub dialect: Option<Dialect>,
    /// The agent an imported session came from ([`ImportKind::Claude`] or
    /// [`ImportKind::MyAgents`]); `None` for a native one.
    pub source_agent: Option<ImportKind>,
    /// The header's `parentSession`; `None` for none.
    pub parent_session: Option<String>,
    /// The file is an archive (its live original is gone).
    pub archived: bool,
    /// The last entry's id (the current leaf); `None` for a session without entries.
    pub leaf_id: Option<String>,
}

/// Facts about a session index ([`Index::info`](crate::Index::info), `xs_index_info`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexInfo {
    /// The database file.
    pub path: String,
    /// The file's schema version (SQLite's `PRAGMA user_version`).
    pub schema_version: u32,
    /// Session rows.
    pub sessions: u64,
    /// Entry rows.
    pub entries: u64,
    /// The damaged file the open kept aside before it started a fresh one; `None` (JSON `null`)
    /// when the file was sound.
    pub damaged: Option<DamagedFile>,
}

/// An entry [`Index::search`](crate::Index::search) found (`xs_search`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchHit {
    /// The session's id.
    pub session_id: String,
    /// The session's title; `None` (JSON `null`) for none.
    pub session_title: Option<String>,
    /// The session file.
    pub session_path: String,
    /// The working directory in the session's header.
    pub cwd: String,
    /// The matching entry's id.
    pub entry_id: String,
    /// What kind of text matched; `None` for an entry without a role.
    pub role: Option<Role>,
    /// Whether the entry is on the session's current branch.
    pub on_path: bool,
    /// The entry's timestamp, ms since the epoch; `None` when not a date.
    pub timestamp: Option<i64>,
    /// bm25 of the match: lower (more negative) is better.
    pub score: f64,
    /// Up to 16 tokens around the best match, each match between U+0002 and U+0003
    /// ([`SearchHit::MATCH_START`], [`SearchHit::MATCH_END`]), cut parts shown as "…".
    pub snippet: String,
}

impl SearchHit {
    /// The character before each match in [`SearchHit::snippet`] (U+0002).
    pub const MATCH_START: char = super::history::MATCH_START;
    /// The character after each match in [`SearchHit::snippet`] (U+0003).
    pub const MATCH_END: char = super::history::MATCH_END;

    /// The matched words of the snippet, in order (the text between each marker pair).
    pub fn matches(&self) -> Vec<&str> {
        super::history::marked(&self.snippet)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_round_trip_through_their_names() {
        for role in Role::ALL {
            assert_eq!(role.to_string().parse::<Role>().unwrap(), role);
            assert_eq!(serde_json::to_string(&role).unwrap(), format!("\"{role}\""));
        }
        let err = "robot".parse::<Role>().unwrap_err();
        assert_eq!(
            (err.code(), err.message()),
            (ErrorCode::Invalid, "unknown role \"robot\" (user, assistant, tool, summary or label)")
        );
    }
}
