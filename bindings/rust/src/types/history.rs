//! The prompt history's outputs ([`History`](crate::History)): search hits, recent prompts and
//! the history's facts (capi/schema/history-search, -recent and -info.schema.json).

use serde::{Deserialize, Serialize};

use super::DamagedFile;

/// A prompt [`History::search`](crate::History::search) found (`xs_history_search`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryHit {
    /// The prompt's row id: increasing in the order prompts were written.
    pub id: i64,
    /// The prompt as added, exactly.
    pub prompt: String,
    /// When it was typed, ms since the epoch.
    pub created_at: i64,
    /// The working directory it was typed in; `None` (JSON `null`) for none.
    pub cwd: Option<String>,
    /// bm25 of the match: lower (more negative) is better.
    pub score: f64,
    /// Part of the prompt around the matches, each match between U+0002 and U+0003
    /// ([`HistoryHit::MATCH_START`], [`HistoryHit::MATCH_END`]), cut parts shown as "…".
    pub snippet: String,
}

/// The character before each match in a snippet (U+0002), the history's and the index's.
pub(crate) const MATCH_START: char = '\u{2}';
/// The character after each match in a snippet (U+0003).
pub(crate) const MATCH_END: char = '\u{3}';

/// The text between each marker pair of `snippet`, in order.
pub(crate) fn marked(snippet: &str) -> Vec<&str> {
    snippet
        .split(MATCH_START)
        .skip(1)
        .filter_map(|part| part.split_once(MATCH_END).map(|(matched, _)| matched))
        .collect()
}

impl HistoryHit {
    /// The character before each match in [`HistoryHit::snippet`] (U+0002).
    pub const MATCH_START: char = MATCH_START;
    /// The character after each match in [`HistoryHit::snippet`] (U+0003).
    pub const MATCH_END: char = MATCH_END;

    /// The matched words of the snippet, in order (the text between each marker pair).
    pub fn matches(&self) -> Vec<&str> {
        marked(&self.snippet)
    }
}

/// One of the newest prompts [`History::recent`](crate::History::recent) gives (`xs_history_recent`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryPrompt {
    /// The prompt's row id: increasing in the order prompts were written.
    pub id: i64,
    /// The prompt as added, exactly.
    pub prompt: String,
    /// When it was typed, ms since the epoch.
    pub created_at: i64,
    /// The working directory it was typed in; `None` (JSON `null`) for none.
    pub cwd: Option<String>,
}

/// Facts about a prompt history ([`History::info`](crate::History::info), `xs_history_info`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryInfo {
    /// The database file.
    pub path: String,
    /// The file's schema version (SQLite's `PRAGMA user_version`).
    pub schema_version: u32,
    /// Committed prompts in the file.
    pub count: u64,
    /// This handle's prompts queued and not yet written.
    pub pending: u64,
    /// SQLite's `synchronous` setting: `"normal"`, or `"full"` with
    /// [`HistoryOptions::sync`](crate::HistoryOptions::sync).
    pub synchronous: String,
    /// The damaged file the open kept aside before it started a fresh one; `None` (JSON `null`)
    /// when the file was sound.
    pub damaged: Option<DamagedHistory>,
}

/// A history file the open could not use ([`HistoryInfo::damaged`]): the note the index shares.
pub type DamagedHistory = DamagedFile;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_are_the_text_between_the_markers() {
        let hit = HistoryHit {
            id: 1,
            prompt: "deploy the staging server to staging".into(),
            created_at: 1,
            cwd: None,
            score: -1.0,
            snippet: "…the \u{2}staging\u{3} server to \u{2}staging\u{3}".into(),
        };
        assert_eq!(hit.matches(), ["staging", "staging"]);
    }
}
