//! The context the model sees ([`Context`], `xs_build_context`) and the other views of a
//! session's tree: [`TreeNode`], [`Label`], [`Diagnostic`], [`ResumeCheck`], [`CompactionPlan`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::entry::Entry;
use super::present;

/// One message: an `AgentMessage` object with a string `role` (`"user"`, `"assistant"`,
/// `"toolResult"`, …; contexts add `"compactionSummary"` and `"branchSummary"`,
/// docs/context.md#constructed-messages). Everything but the role is the caller's JSON, kept as
/// given in [`fields`](Message::fields).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// The role.
    pub role: String,
    /// Every other member (`content`, `provider`, `model`, `usage`, `timestamp`, …).
    #[serde(flatten)]
    pub fields: Map<String, Value>,
}

impl Message {
    /// The `content` member: a string, or an array of content blocks (`None` when absent).
    pub fn content(&self) -> Option<&Value> {
        self.fields.get("content")
    }

    /// The message's text: a string `content` as it is, or its `{"type":"text","text":…}` blocks
    /// joined (other blocks, such as tool calls and images, are left out); for the summaries a
    /// context constructs (`compactionSummary`, `branchSummary`), which have no content, the
    /// `summary`.
    pub fn text(&self) -> String {
        match self.content().or_else(|| self.fields.get("summary")) {
            Some(Value::String(text)) => text.clone(),
            Some(Value::Array(blocks)) => blocks
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .collect(),
            _ => String::new(),
        }
    }
}

/// pi's model of a context (`"model":{"provider","modelId"}`), written by the pi dialect only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PiModel {
    /// The provider.
    pub provider: String,
    /// The model id.
    pub model_id: String,
}

/// The context the model sees for a path (`xs_build_context`, docs/context.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Context {
    /// The leaf the path ends at (`None`: no leaf, the empty context).
    pub leaf_id: Option<String>,
    /// The messages, stored ones byte for byte and constructed ones (summaries).
    pub messages: Vec<Message>,
    /// The thinking level in force (`None`: none set, or set to `null`).
    pub thinking_level: Option<String>,
    /// pi's model (pi dialect only: `Some(None)` is pi's `null`; `None`: an omp context).
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub model: Option<Option<PiModel>>,
    /// The model of each role, `"provider/id"`.
    pub models: BTreeMap<String, String>,
    /// The TTSR rules injected on the path.
    pub injected_ttsr_rules: Vec<String>,
    /// The mode in force.
    pub mode: String,
    /// The mode's data, when the mode change carried some.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub mode_data: Option<Value>,
    /// The service tier, when one was set on the path.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub service_tier: Option<Value>,
    /// The MCP tools selected on the path, when a selection was made.
    #[serde(
        rename = "selectedMCPToolNames",
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub selected_mcp_tool_names: Option<Vec<String>>,
    /// Whether the path holds a persisted MCP tool selection (when it is reported).
    #[serde(
        rename = "hasPersistedMCPToolSelection",
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub has_persisted_mcp_tool_selection: Option<bool>,
}

/// One node of [`Session::tree`](crate::Session::tree): the tree flat, depth-first pre-order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TreeNode {
    /// The entry's id.
    pub id: String,
    /// Its parent (`None` for roots and orphans).
    pub parent_id: Option<String>,
    /// Its depth (roots are 0).
    pub depth: u64,
    /// Its children's ids, oldest first.
    pub children: Vec<String>,
    /// Its live label, if any.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// When the label was set.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub label_timestamp: Option<String>,
    /// The entry itself.
    pub entry: Entry,
}

/// A live label (`xs_session_labels`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Label {
    /// The labelled entry.
    pub target_id: String,
    /// The label.
    pub label: String,
    /// When it was set.
    pub timestamp: String,
}

/// What the loader skipped or noticed (`xs_session_diagnostics`), and a step of a repair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// The line (1-based; 0 for the file as a whole).
    pub line: u64,
    /// The line's byte offset.
    pub offset: u64,
    /// Its length in bytes, without the `\n`.
    pub length: u64,
    /// A code such as `"invalid_json"` (docs/format.md#diagnostic-codes).
    pub code: String,
    /// Why, in prose.
    pub reason: String,
}

/// An entry whose parent is missing ([`ResumeCheck::orphans`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Orphan {
    /// The entry.
    pub id: String,
    /// The parent it names, which no entry has.
    pub parent_id: String,
    /// Its line (1-based).
    pub line: u64,
}

/// A tool call on the path that no tool result answers ([`ResumeCheck::pending_tool_calls`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingToolCall {
    /// The assistant message's entry.
    pub entry_id: String,
    /// The tool call's id.
    pub tool_call_id: String,
    /// The tool's name.
    pub name: String,
}

/// What an agent must know before it continues from a leaf (`xs_session_resume_check`,
/// docs/context.md#resume-analysis).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResumeCheck {
    /// The leaf checked (`None`: no leaf).
    pub leaf_id: Option<String>,
    /// Entries whose parent is missing, in file order.
    pub orphans: Vec<Orphan>,
    /// Unanswered tool calls on the path, in path order.
    pub pending_tool_calls: Vec<PendingToolCall>,
}

/// Where a compaction should cut (`xs_compaction_plan`, docs/compaction-planning.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompactionPlan {
    /// Whether there is anything to summarise.
    pub needed: bool,
    /// The first entry kept (`None` when nothing is kept).
    pub first_kept_entry_id: Option<String>,
    /// The entries to summarise, in path order.
    pub to_summarise: Vec<String>,
    /// The estimated tokens of the path.
    pub tokens_before: u64,
    /// The estimated tokens kept.
    pub kept_tokens: u64,
}
