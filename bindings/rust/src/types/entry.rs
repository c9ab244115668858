//! Entries ([`Entry`], [`EntryKind`], the [`Entries`] iterator) and the session header
//! ([`Header`]), docs/format.md#entries.

use serde::de::Error as _;
use serde::ser::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::context::Message;
use super::present;
use crate::error::{Error, ErrorCode, Result};
use crate::json;

/// The header line (`xs_session_header`, docs/format.md#the-header), as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Header {
    /// Always `"session"`.
    #[serde(rename = "type")]
    pub line_type: String,
    /// The format version (absent in a v1 file as stored).
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
    /// The session id.
    pub id: String,
    /// When the session was created (ISO-8601 UTC).
    pub timestamp: String,
    /// The working directory.
    pub cwd: String,
    /// The title (omp), when set.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The parent: a session id (fork) or a file path (branched session), when set.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub parent_session: Option<String>,
    /// The cwd the session had before a bundle import's cwd map moved it
    /// (docs/bundles.md#import), when it was moved.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub original_cwd: Option<String>,
}

/// What an entry is, with the members of its type (docs/format.md#entries). The envelope (`id`,
/// `parentId`, `timestamp`) is on [`Entry`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum EntryKind {
    /// A message of the conversation.
    Message {
        /// The message.
        message: Message,
    },
    /// A change of thinking level (`None`: set to `null`).
    #[serde(rename_all = "camelCase")]
    ThinkingLevelChange {
        /// The new level.
        thinking_level: Option<String>,
    },
    /// A change of model: omp's `model` (`"provider/id"`, for a `role` when one is given), or
    /// pi's `provider` and `model_id`.
    #[serde(rename_all = "camelCase")]
    ModelChange {
        /// The model, `"provider/id"` (omp).
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        model: Option<String>,
        /// The role it is for (omp).
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        role: Option<String>,
        /// The provider (pi).
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        provider: Option<String>,
        /// The model id (pi).
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        model_id: Option<String>,
    },
    /// A compaction: what came before `first_kept_entry_id` is replaced by the summary.
    #[serde(rename_all = "camelCase")]
    Compaction {
        /// The summary.
        summary: String,
        /// A shorter summary.
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        short_summary: Option<String>,
        /// The first entry kept (a v1 file's compaction that kept nothing has none).
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        first_kept_entry_id: Option<String>,
        /// The context size before the compaction.
        tokens_before: i64,
        /// The caller's details.
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        details: Option<Value>,
        /// Whether an extension made it.
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        from_extension: Option<bool>,
        /// Whether a hook made it (pi's name for `from_extension`).
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        from_hook: Option<bool>,
        /// The caller's preserved data.
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        preserve_data: Option<Value>,
    },
    /// The summary of a branch left behind.
    #[serde(rename_all = "camelCase")]
    BranchSummary {
        /// The entry branched from (`"root"`: from nothing).
        from_id: String,
        /// The summary.
        summary: String,
        /// The caller's details.
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        details: Option<Value>,
        /// Whether an extension made it.
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        from_extension: Option<bool>,
        /// Whether a hook made it (pi's name for `from_extension`).
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        from_hook: Option<bool>,
    },
    /// Extension state, never part of the context.
    #[serde(rename_all = "camelCase")]
    Custom {
        /// The extension's type.
        custom_type: String,
        /// Its data.
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        data: Option<Value>,
    },
    /// Extension content that is part of the context.
    #[serde(rename_all = "camelCase")]
    CustomMessage {
        /// The extension's type.
        custom_type: String,
        /// A string or an array of content blocks.
        content: Value,
        /// Whether it is shown.
        display: bool,
        /// The caller's details.
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        details: Option<Value>,
        /// Who it is attributed to (omp).
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        attribution: Option<String>,
    },
    /// A label on another entry (no label, or `""`: clears it).
    #[serde(rename_all = "camelCase")]
    Label {
        /// The labelled entry.
        target_id: String,
        /// The label.
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        label: Option<String>,
    },
    /// TTSR rules injected into the context.
    #[serde(rename_all = "camelCase")]
    TtsrInjection {
        /// The rules.
        injected_rules: Vec<String>,
    },
    /// A subagent's start: its prompt, task and tools.
    #[serde(rename_all = "camelCase")]
    SessionInit {
        /// The system prompt.
        system_prompt: String,
        /// The task.
        task: String,
        /// The tool names.
        tools: Value,
        /// The caller's output schema.
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        output_schema: Option<Value>,
    },
    /// A change of mode.
    ModeChange {
        /// The mode.
        mode: String,
        /// Its data.
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        data: Option<Value>,
    },
    /// pi's title entry: the title is the name of the last one.
    SessionInfo {
        /// The title (`""` clears it).
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// A type this crate does not know (another agent's, a newer library's), or a known type
    /// whose members do not fit it ([`Entry::is_typed`] is false), every member but the envelope
    /// kept as given.
    #[serde(skip)]
    Other {
        /// The `"type"`.
        entry_type: String,
        /// Its other members.
        fields: Map<String, Value>,
    },
}

/// The types [`EntryKind`] names, as written in `"type"`.
pub const KNOWN_TYPES: [&str; 12] = [
    "message",
    "thinking_level_change",
    "model_change",
    "compaction",
    "branch_summary",
    "custom",
    "custom_message",
    "label",
    "ttsr_injection",
    "session_init",
    "mode_change",
    "session_info",
];

/// One entry of a session: the envelope, what its type says ([`kind`](Entry::kind)), and the
/// exact JSON it was decoded from ([`raw`](Entry::raw)).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Entry {
    /// The entry's id.
    pub id: String,
    /// Its parent's id (`None` for a root).
    pub parent_id: Option<String>,
    /// When it was appended (ISO-8601 UTC).
    pub timestamp: String,
    /// Its type and the members of that type.
    pub kind: EntryKind,
    /// Members of a known type that [`EntryKind`] does not name (another agent's additions),
    /// kept as given.
    pub extra: Map<String, Value>,
    raw: String,
}

impl Entry {
    /// Decodes one entry from its JSON text (a stored line, or an element of an entry array).
    pub fn from_json(text: &str) -> Result<Entry> {
        Entry::decode(text).map_err(|e| Error::new(ErrorCode::Internal, format!("entry: {e}")))
    }

    /// The exact JSON the entry was decoded from (for a stored line: its bytes, blob refs
    /// resolved when read with [`BlobRefs::Resolved`](crate::BlobRefs::Resolved)). In an entry
    /// of a [`TreeNode`](crate::types::TreeNode), a lone surrogate escape reads `\ufffd`.
    pub fn raw(&self) -> &str {
        &self.raw
    }

    /// The `"type"`, as written.
    pub fn entry_type(&self) -> &str {
        match &self.kind {
            EntryKind::Other { entry_type, .. } => entry_type,
            _ => self.known_type(),
        }
    }

    /// Whether the entry decoded as its type's variant: false for [`EntryKind::Other`], whether
    /// the type is unknown or its members do not fit the known type.
    pub fn is_typed(&self) -> bool {
        !matches!(self.kind, EntryKind::Other { .. })
    }

    /// The message of a `message` entry.
    pub fn message(&self) -> Option<&Message> {
        match &self.kind {
            EntryKind::Message { message } => Some(message),
            _ => None,
        }
    }

    fn known_type(&self) -> &'static str {
        match &self.kind {
            EntryKind::Message { .. } => "message",
            EntryKind::ThinkingLevelChange { .. } => "thinking_level_change",
            EntryKind::ModelChange { .. } => "model_change",
            EntryKind::Compaction { .. } => "compaction",
            EntryKind::BranchSummary { .. } => "branch_summary",
            EntryKind::Custom { .. } => "custom",
            EntryKind::CustomMessage { .. } => "custom_message",
            EntryKind::Label { .. } => "label",
            EntryKind::TtsrInjection { .. } => "ttsr_injection",
            EntryKind::SessionInit { .. } => "session_init",
            EntryKind::ModeChange { .. } => "mode_change",
            EntryKind::SessionInfo { .. } => "session_info",
            EntryKind::Other { .. } => "",
        }
    }

    fn decode(text: &str) -> std::result::Result<Entry, String> {
        let mut members: Map<String, Value> =
            serde_json::from_str(&super::replace_lone_surrogates(text)).map_err(|e| e.to_string())?;
        let entry_type = match members.remove("type") {
            Some(Value::String(t)) => t,
            _ => return Err("no string \"type\"".to_owned()),
        };
        let id = match members.remove("id") {
            Some(Value::String(id)) => id,
            _ => return Err(format!("{entry_type}: no string \"id\"")),
        };
        let parent_id = match members.remove("parentId") {
            Some(Value::String(parent)) => Some(parent),
            Some(Value::Null) => None,
            _ => return Err(format!("{entry_type} {id}: \"parentId\" is missing or not a string or null")),
        };
        let timestamp = match members.remove("timestamp") {
            Some(Value::String(t)) => t,
            _ => return Err(format!("{entry_type} {id}: no string \"timestamp\"")),
        };
        let mut tagged = members.clone();
        tagged.insert("type".to_owned(), Value::String(entry_type.clone()));
        // A known type whose members do not fit it (a message that is not an object, say: the
        // library keeps such lines in the tree) is kept whole as `Other`, like an unknown type.
        let typed = if KNOWN_TYPES.contains(&entry_type.as_str()) {
            serde_json::from_value::<EntryKind>(Value::Object(tagged)).ok()
        } else {
            None
        };
        let (kind, extra) = match typed {
            Some(kind) => {
                let known = match serde_json::to_value(&kind) {
                    Ok(Value::Object(known)) => known,
                    _ => Map::new(),
                };
                members.retain(|name, _| !known.contains_key(name));
                (kind, members)
            }
            None => (EntryKind::Other { entry_type, fields: members }, Map::new()),
        };
        Ok(Entry { id, parent_id, timestamp, kind, extra, raw: text.to_owned() })
    }
}

impl Serialize for Entry {
    /// The entry as JSON (members in no particular order; [`Entry::raw`] has the stored text).
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut members = match &self.kind {
            EntryKind::Other { entry_type, fields } => {
                let mut members = fields.clone();
                members.insert("type".to_owned(), Value::String(entry_type.clone()));
                members
            }
            kind => match serde_json::to_value(kind).map_err(S::Error::custom)? {
                Value::Object(members) => members,
                _ => return Err(S::Error::custom("an entry kind that is not an object")),
            },
        };
        members.insert("id".to_owned(), Value::String(self.id.clone()));
        members.insert("parentId".to_owned(), self.parent_id.clone().map_or(Value::Null, Value::String));
        members.insert("timestamp".to_owned(), Value::String(self.timestamp.clone()));
        for (name, value) in &self.extra {
            members.insert(name.clone(), value.clone());
        }
        members.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Entry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Entry, D::Error> {
        let raw = <Box<RawValue>>::deserialize(d)?;
        Entry::decode(raw.get()).map_err(D::Error::custom)
    }
}

/// The entries of a JSON array the library returned ([`Session::entries`](crate::Session::entries),
/// [`path`](crate::Session::path), [`children`](crate::Session::children)), each decoded when the
/// iterator reaches it: one entry that does not decode is an `Err` item, not the end.
#[derive(Debug)]
pub struct Entries {
    items: std::vec::IntoIter<String>,
    what: &'static str,
}

impl Entries {
    /// The entries of a JSON array of entries (the text of
    /// [`Session::entries_json`](crate::Session::entries_json) and its kin), each decoded when the
    /// iterator reaches it.
    pub fn from_json(text: &str) -> Result<Entries> {
        Entries::split(text, "entries")
    }

    /// Splits `text`, the JSON array `what` returned, into its elements (not decoded yet).
    pub(crate) fn split(text: &str, what: &'static str) -> Result<Entries> {
        // Split without serde_json, so each raw line stays exactly as stored (serde_json would
        // refuse a lone surrogate escape before the entry could be decoded).
        let items = json::array_items(text).map_err(|e| Error::new(ErrorCode::Internal, format!("{what}: {e}")))?;
        Ok(Entries { items: items.into_iter().map(str::to_owned).collect::<Vec<_>>().into_iter(), what })
    }
}

impl Iterator for Entries {
    type Item = Result<Entry>;

    fn next(&mut self) -> Option<Result<Entry>> {
        let what = self.what;
        self.items
            .next()
            .map(|raw| Entry::decode(&raw).map_err(|e| Error::new(ErrorCode::Internal, format!("{what}: {e}"))))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.items.size_hint()
    }
}

impl ExactSizeIterator for Entries {}
