//! Typed views of the library's small, flat JSON objects: [`SessionInfo`], [`Usage`] and
//! [`SessionStats`], decoded with serde. Members the library adds later are ignored, so a newer
//! library still parses.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::dialect::Dialect;
use crate::error::Result;
use crate::types::decode;

/// The facts of an open session (`xs_session_info`), typed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SessionInfo {
    /// The session id.
    pub id: String,
    /// The session file's path (where it is or will be written).
    pub path: String,
    /// The header's working directory.
    pub cwd: String,
    /// The header's timestamp (ISO-8601 UTC).
    pub timestamp: String,
    /// The title, if any: the header's (omp), or the name of the last `session_info` entry (pi).
    pub title: Option<String>,
    /// The header's `parentSession`, if any.
    pub parent_session: Option<String>,
    /// The format version (3 after migration).
    pub version: u32,
    /// The dialect the session writes.
    pub dialect: Dialect,
    /// How many entries the session holds.
    pub entry_count: u64,
    /// The current leaf, `None` when the leaf is none (see also [`SessionInfo::leaf`]).
    pub leaf_id: Option<String>,
    /// Whether the file is on disk (a deferred session is not until its first assistant message).
    pub persisted: bool,
    /// Whether the handle was opened read-only.
    pub read_only: bool,
    /// Whether the session was opened from an archive (`<file>.jsonl.gz`, docs/retention.md):
    /// such a handle is read-only.
    pub archived: bool,
    /// How many diagnostics the loader reported ([`Session::diagnostics`](crate::Session::diagnostics)).
    pub diagnostics: u64,
    /// How many entries of each type the session holds (`"unknown"`: types the library does not know).
    pub entry_types: BTreeMap<String, u64>,
}

/// Token and cost totals over every assistant message (`xs_session_usage`), typed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Usage {
    /// Input tokens.
    pub input: u64,
    /// Output tokens.
    pub output: u64,
    /// Tokens read from the provider's cache.
    pub cache_read: u64,
    /// Tokens written to the provider's cache.
    pub cache_write: u64,
    /// Premium requests (may be fractional: providers bill multiples).
    pub premium_requests: f64,
    /// Total cost.
    pub cost: f64,
    /// How many assistant messages were counted.
    pub assistant_messages: u64,
}

/// The session's counters, kept current by every append (`xs_session_stats`), typed. Sums are
/// over the whole file, every branch included; `context_tokens` follows the current path.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SessionStats {
    /// Input tokens of every assistant message.
    pub input_tokens: u64,
    /// Output tokens.
    pub output_tokens: u64,
    /// Tokens read from the provider's cache.
    pub cache_read: u64,
    /// Tokens written to the provider's cache.
    pub cache_write: u64,
    /// The four sums above added up.
    pub total_tokens: u64,
    /// The context of the last reply on the current path (docs/session-stats.md#context-tokens;
    /// 0 after a compaction).
    pub context_tokens: u64,
    /// Total cost.
    pub cost: f64,
    /// How many compaction entries the file holds.
    pub compaction_count: u64,
    /// Message entries by role (`"custom"` for custom messages).
    pub message_counts: BTreeMap<String, u64>,
    /// `toolCall` blocks of assistant messages.
    pub tool_calls: u64,
}

impl SessionStats {
    pub(crate) fn parse(text: &str) -> Result<SessionStats> {
        decode(text, "xs_session_stats")
    }
}

impl SessionInfo {
    pub(crate) fn parse(text: &str) -> Result<SessionInfo> {
        decode(text, "xs_session_info")
    }

    /// The current leaf, `None` when the leaf is none.
    pub fn leaf(&self) -> Option<&str> {
        self.leaf_id.as_deref().filter(|id| !id.is_empty())
    }
}

impl Usage {
    pub(crate) fn parse(text: &str) -> Result<Usage> {
        decode(text, "xs_session_usage")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorCode;

    #[test]
    fn info_parses_nulls_as_none_and_ignores_new_members() {
        let info = SessionInfo::parse(
            r#"{"id":"s1","path":"/r/s.jsonl","cwd":"/w","timestamp":"2026-01-01T00:00:00.000Z","title":null,
               "parentSession":"p","version":3,"dialect":"pi","entryCount":2,"leafId":null,"persisted":true,"readOnly":false,
               "archived":false,"diagnostics":1,"entryTypes":{"message":2}}"#,
        )
        .unwrap();
        assert_eq!(
            info,
            SessionInfo {
                id: "s1".into(),
                path: "/r/s.jsonl".into(),
                cwd: "/w".into(),
                timestamp: "2026-01-01T00:00:00.000Z".into(),
                title: None,
                parent_session: Some("p".into()),
                version: 3,
                dialect: Dialect::Pi,
                entry_count: 2,
                leaf_id: None,
                persisted: true,
                read_only: false,
                archived: false,
                diagnostics: 1,
                entry_types: BTreeMap::from([("message".to_string(), 2)]),
            }
        );
    }

    #[test]
    fn a_wrong_member_is_an_error_naming_the_call_and_the_place() {
        let err = SessionInfo::parse(r#"{"id":7}"#).unwrap_err();
        assert_eq!(err.code(), ErrorCode::Internal);
        assert_eq!(err.message(), "xs_session_info: invalid type: integer `7`, expected a string at line 1 column 7");
        let err = SessionInfo::parse(
            r#"{"id":"s","path":"/p","cwd":"/w","timestamp":"t","title":null,"parentSession":null,"version":3,
               "dialect":"auto"}"#,
        )
        .unwrap_err();
        assert_eq!(
            err.message(),
            "xs_session_info: unknown variant `auto`, expected `omp` or `pi` at line 2 column 31"
        );
        let err = Usage::parse("{").unwrap_err();
        assert_eq!(err.message(), "xs_session_usage: EOF while parsing an object at line 1 column 1");
    }

    #[test]
    fn stats_read_the_counts_by_role() {
        let stats = SessionStats::parse(
            r#"{"inputTokens":1,"outputTokens":2,"cacheRead":3,"cacheWrite":4,"totalTokens":10,"contextTokens":7,
               "cost":0.25,"compactionCount":1,"messageCounts":{"user":2,"assistant":1},"toolCalls":3}"#,
        )
        .unwrap();
        assert_eq!(stats.total_tokens, 10);
        assert_eq!(stats.cost, 0.25);
        assert_eq!(stats.message_counts, BTreeMap::from([("assistant".to_string(), 1), ("user".to_string(), 2)]));
        let err = SessionStats::parse(
            r#"{"inputTokens":1,"outputTokens":2,"cacheRead":3,"cacheWrite":4,"totalTokens":10,"contextTokens":7,
               "cost":0.25,"compactionCount":1,"messageCounts":{"user":"2"},"toolCalls":3}"#,
        )
        .unwrap_err();
        assert_eq!(err.message(), "xs_session_stats: invalid type: string \"2\", expected u64 at line 2 column 74");
    }

    #[test]
    fn usage_reads_fractions_where_they_can_occur() {
        let usage = Usage::parse(
            r#"{"input":10,"output":20,"cacheRead":3,"cacheWrite":4,"premiumRequests":0.5,"cost":0.0125,"assistantMessages":2}"#,
        )
        .unwrap();
        assert_eq!(
            usage,
            Usage {
                input: 10,
                output: 20,
                cache_read: 3,
                cache_write: 4,
                premium_requests: 0.5,
                cost: 0.0125,
                assistant_messages: 2
            }
        );
    }
}
