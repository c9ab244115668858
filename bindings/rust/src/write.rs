//! Writing: every append adds one entry under the current leaf, moves the leaf to it and
//! returns the new entry's id. JSON goes in as `&str` (UTF-8 by construction) and is passed as
//! `(pointer, length)`, so it is never copied to add a NUL.

use std::os::raw::c_char;

use crate::buffer::{c_string, opt_bytes, opt_c_string, opt_ptr};
use crate::error::Result;
use crate::options::init;
use crate::session::Session;
use crate::sys;

/// A `compaction` entry for [`Session::append_compaction`] (`xs_compaction`).
///
/// ```
/// let mut c = xsession::Compaction::new("Summary of the first hour", "a1b2c3d4", 48_000);
/// c.details_json = Some(r#"{"readFiles":["src/main.rs"]}"#);
/// # let _ = c;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Compaction<'a> {
    /// The summary text (required).
    pub summary: &'a str,
    /// A shorter summary; `None` = absent.
    pub short_summary: Option<&'a str>,
    /// The first entry kept after the compaction (not checked against the tree).
    pub first_kept_entry_id: &'a str,
    /// Context size before the compaction.
    pub tokens_before: i64,
    /// `details`: any JSON value; `None` = absent.
    pub details_json: Option<&'a str>,
    /// `preserveData`: any JSON value; `None` = absent.
    pub preserve_data_json: Option<&'a str>,
    /// `fromExtension`; `None` = absent.
    pub from_extension: Option<bool>,
}

impl<'a> Compaction<'a> {
    /// A compaction with the required fields; the optional ones are absent.
    pub fn new(summary: &'a str, first_kept_entry_id: &'a str, tokens_before: i64) -> Compaction<'a> {
        Compaction {
            summary,
            short_summary: None,
            first_kept_entry_id,
            tokens_before,
            details_json: None,
            preserve_data_json: None,
            from_extension: None,
        }
    }
}

/// A `custom_message` entry for [`Session::append_custom_message`] (`xs_custom_message`):
/// extension-provided content that is part of the context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CustomMessage<'a> {
    /// `customType` (required).
    pub custom_type: &'a str,
    /// `content`: a JSON string or a JSON array of content blocks (required).
    pub content_json: &'a str,
    /// `display` (default true).
    pub display: bool,
    /// `details`: any JSON value; `None` = absent.
    pub details_json: Option<&'a str>,
    /// `attribution`; `None` = the library's default, `"agent"`.
    pub attribution: Option<&'a str>,
}

impl<'a> CustomMessage<'a> {
    /// A displayed custom message with no details and the default attribution.
    pub fn new(custom_type: &'a str, content_json: &'a str) -> CustomMessage<'a> {
        CustomMessage { custom_type, content_json, display: true, details_json: None, attribution: None }
    }
}

/// A `session_init` entry for [`Session::append_session_init`] (`xs_session_init_entry`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SessionInitEntry<'a> {
    /// The system prompt.
    pub system_prompt: &'a str,
    /// The task.
    pub task: &'a str,
    /// A JSON array of tool names.
    pub tools_json: &'a str,
    /// `outputSchema`: any JSON value; `None` = absent.
    pub output_schema_json: Option<&'a str>,
}

impl<'a> SessionInitEntry<'a> {
    /// A session_init with no output schema.
    pub fn new(system_prompt: &'a str, task: &'a str, tools_json: &'a str) -> SessionInitEntry<'a> {
        SessionInitEntry { system_prompt, task, tools_json, output_schema_json: None }
    }
}

/// `XS_UNSET`, 0 or 1 for the C API's tri-state fields.
fn tri_state(value: Option<bool>) -> i32 {
    value.map_or(sys::XS_UNSET, i32::from)
}

/// Text as the `(pointer, length)` pair the C API takes for JSON and long text.
fn text(s: &str) -> (*const c_char, usize) {
    (s.as_ptr().cast(), s.len())
}

/// # Writing
///
/// Common errors: [`ReadOnly`](crate::ErrorCode::ReadOnly); [`Invalid`](crate::ErrorCode::Invalid)
/// (malformed JSON, wrong shape); [`Limit`](crate::ErrorCode::Limit); [`Io`](crate::ErrorCode::Io) /
/// [`NoSpace`](crate::ErrorCode::NoSpace) (the session is then poisoned);
/// [`Poisoned`](crate::ErrorCode::Poisoned); [`Conflict`](crate::ErrorCode::Conflict);
/// [`Locked`](crate::ErrorCode::Locked); [`Dialect`](crate::ErrorCode::Dialect) (an entry or field
/// with no form in the session's [`Dialect`](crate::Dialect): the omp-only entries, a
/// `model_change` role, a compaction's short summary or preserved data and a custom message's
/// attribution in a pi session; [`append_session_info`](Session::append_session_info) in an omp
/// session). A failed append leaves the session as it was. In the omp dialect size rules apply
/// before writing (long strings cut, streaming leftovers dropped, large images moved to the blob
/// store); the pi dialect writes everything inline.
impl Session {
    /// Runs an append that writes the new id into an `XS_ID_BUFSIZE` buffer.
    fn append_with(&self, what: &str, call: impl FnOnce(*mut sys::xs_session, *mut c_char) -> i32) -> Result<String> {
        self.handle.fixed::<{ sys::XS_ID_BUFSIZE }>(what, call)
    }

    /// Appends a whole entry: a JSON object with a string `"type"` (any type; unknown types are
    /// stored as given). The session adds `id` (unless given), `parentId` and `timestamp`
    /// (unless given); the other members keep their order and bytes, minified.
    pub fn append(&self, entry_json: &str) -> Result<String> {
        let (ptr, len) = text(entry_json);
        // SAFETY: live session; the text outlives the call; the id buffer has XS_ID_BUFSIZE bytes.
        self.append_with("xs_append", |s, id| unsafe { sys::xs_append(s, ptr, len, id) })
    }

    /// Appends a `message` entry; `message_json` is the AgentMessage object (with a string
    /// `"role"`). The first assistant message ends the deferral and writes the session.
    pub fn append_message(&self, message_json: &str) -> Result<String> {
        let (ptr, len) = text(message_json);
        // SAFETY: as in append.
        self.append_with("xs_append_message", |s, id| unsafe { sys::xs_append_message(s, ptr, len, id) })
    }

    /// Appends a `thinking_level_change`; `None` stores `null`.
    pub fn append_thinking_level(&self, level: Option<&str>) -> Result<String> {
        let level = opt_c_string(level, "thinking level")?;
        // SAFETY: as in append.
        self.append_with("xs_append_thinking_level", |s, id| unsafe {
            sys::xs_append_thinking_level(s, opt_ptr(&level), id)
        })
    }

    /// Appends a `model_change` to `model` (`"provider/id"`) for `role` (`None`: the default role).
    pub fn append_model_change(&self, model: &str, role: Option<&str>) -> Result<String> {
        let model = c_string(model, "model")?;
        let role = opt_c_string(role, "role")?;
        // SAFETY: as in append.
        self.append_with("xs_append_model_change", |s, id| unsafe {
            sys::xs_append_model_change(s, model.as_ptr(), opt_ptr(&role), id)
        })
    }

    /// Appends a `compaction` entry.
    pub fn append_compaction(&self, c: &Compaction<'_>) -> Result<String> {
        let first_kept = c_string(c.first_kept_entry_id, "first kept entry id")?;
        let mut raw = init(sys::xs_compaction_init, sys::XS_COMPACTION_VERSION)?;
        raw.from_extension = tri_state(c.from_extension);
        (raw.summary, raw.summary_len) = text(c.summary);
        (raw.short_summary, raw.short_summary_len) = opt_bytes(c.short_summary.map(str::as_bytes));
        raw.first_kept_entry_id = first_kept.as_ptr();
        raw.tokens_before = c.tokens_before;
        (raw.details_json, raw.details_len) = opt_bytes(c.details_json.map(str::as_bytes));
        (raw.preserve_data_json, raw.preserve_data_len) = opt_bytes(c.preserve_data_json.map(str::as_bytes));
        // SAFETY: as in append; every pointer in `raw` borrows from `c` or `first_kept`.
        self.append_with("xs_append_compaction", |s, id| unsafe { sys::xs_append_compaction(s, &raw, id) })
    }

    /// Appends a `custom` entry (extension state, never part of the context); `data_json`
    /// `None` = absent.
    pub fn append_custom(&self, custom_type: &str, data_json: Option<&str>) -> Result<String> {
        let custom_type = c_string(custom_type, "custom type")?;
        let (data, data_len) = opt_bytes(data_json.map(str::as_bytes));
        // SAFETY: as in append.
        self.append_with("xs_append_custom", |s, id| unsafe {
            sys::xs_append_custom(s, custom_type.as_ptr(), data, data_len, id)
        })
    }

    /// Appends a `custom_message` entry (extension-provided; part of the context).
    pub fn append_custom_message(&self, m: &CustomMessage<'_>) -> Result<String> {
        let custom_type = c_string(m.custom_type, "custom type")?;
        let attribution = opt_c_string(m.attribution, "attribution")?;
        let mut raw = init(sys::xs_custom_message_init, sys::XS_CUSTOM_MESSAGE_VERSION)?;
        raw.display = i32::from(m.display);
        raw.custom_type = custom_type.as_ptr();
        (raw.content_json, raw.content_len) = text(m.content_json);
        (raw.details_json, raw.details_len) = opt_bytes(m.details_json.map(str::as_bytes));
        raw.attribution = opt_ptr(&attribution);
        // SAFETY: as in append; every pointer in `raw` borrows from `m` or the CStrings above.
        self.append_with("xs_append_custom_message", |s, id| unsafe { sys::xs_append_custom_message(s, &raw, id) })
    }

    /// Appends a `label` entry for `target_id` (`None` clears its label). Labels are global: the
    /// last one wins. A label entry is a child of the leaf and moves the leaf, like every other
    /// entry.
    pub fn append_label(&self, target_id: &str, label: Option<&str>) -> Result<String> {
        let target = c_string(target_id, "target id")?;
        let label = opt_c_string(label, "label")?;
        // SAFETY: as in append.
        self.append_with("xs_append_label", |s, id| unsafe {
            sys::xs_append_label(s, target.as_ptr(), opt_ptr(&label), id)
        })
    }

    /// Appends a `ttsr_injection`; `rules_json` is a JSON array of rule names.
    pub fn append_ttsr_injection(&self, rules_json: &str) -> Result<String> {
        let (ptr, len) = text(rules_json);
        // SAFETY: as in append.
        self.append_with("xs_append_ttsr_injection", |s, id| unsafe { sys::xs_append_ttsr_injection(s, ptr, len, id) })
    }

    /// Appends a `session_init` entry.
    pub fn append_session_init(&self, si: &SessionInitEntry<'_>) -> Result<String> {
        let mut raw = init(sys::xs_session_init_entry_init, sys::XS_SESSION_INIT_ENTRY_VERSION)?;
        (raw.system_prompt, raw.system_prompt_len) = text(si.system_prompt);
        (raw.task, raw.task_len) = text(si.task);
        (raw.tools_json, raw.tools_len) = text(si.tools_json);
        (raw.output_schema_json, raw.output_schema_len) = opt_bytes(si.output_schema_json.map(str::as_bytes));
        // SAFETY: as in append; every pointer in `raw` borrows from `si`.
        self.append_with("xs_append_session_init", |s, id| unsafe { sys::xs_append_session_init(s, &raw, id) })
    }

    /// Appends a `mode_change` to `mode`; `data_json` `None` = absent.
    pub fn append_mode_change(&self, mode: &str, data_json: Option<&str>) -> Result<String> {
        let mode = c_string(mode, "mode")?;
        let (data, data_len) = opt_bytes(data_json.map(str::as_bytes));
        // SAFETY: as in append.
        self.append_with("xs_append_mode_change", |s, id| unsafe {
            sys::xs_append_mode_change(s, mode.as_ptr(), data, data_len, id)
        })
    }

    /// Moves the leaf to `from_id` (`None`: a new root) and appends a `branch_summary` there: the
    /// durable way to branch (the leaf itself is not persisted). Returns the summary's id.
    pub fn branch_with_summary(
        &self,
        from_id: Option<&str>,
        summary: &str,
        details_json: Option<&str>,
        from_extension: Option<bool>,
    ) -> Result<String> {
        let from = opt_c_string(from_id, "from id")?;
        let (sum, sum_len) = text(summary);
        let (details, details_len) = opt_bytes(details_json.map(str::as_bytes));
        let from_extension = tri_state(from_extension);
        // SAFETY: as in append.
        self.append_with("xs_session_branch_with_summary", |s, id| unsafe {
            sys::xs_session_branch_with_summary(
                s,
                opt_ptr(&from),
                sum,
                sum_len,
                details,
                details_len,
                from_extension,
                id,
            )
        })
    }

    /// Moves the leaf to entry `id`, or to none for `None` (the next append then starts a new
    /// root). Nothing is written: a reopened session's leaf is its last entry again. An unknown
    /// id is [`NotFound`](crate::ErrorCode::NotFound) and leaves the leaf where it was.
    pub fn set_leaf(&self, id: Option<&str>) -> Result<()> {
        let id = opt_c_string(id, "entry id")?;
        // SAFETY: live session; `id` outlives the call.
        self.handle.check(|s| unsafe { sys::xs_session_set_leaf(s, opt_ptr(&id)) })
    }

    /// Sets the session's title (`None` removes it). omp dialect: the header's `title`, the file
    /// rewritten atomically when on disk. pi dialect: appends a `session_info` entry as
    /// [`append_session_info`](Self::append_session_info) does (`None`: an empty name, which
    /// clears the title).
    pub fn set_title(&self, title: Option<&str>) -> Result<()> {
        let (ptr, len) = opt_bytes(title.map(str::as_bytes));
        // SAFETY: live session; the title outlives the call.
        self.handle.check(|s| unsafe { sys::xs_session_set_title(s, ptr, len) })
    }

    /// pi dialect: appends pi's title entry `{"type":"session_info",…,"name"}`, the name trimmed
    /// of leading and trailing white space as JavaScript's `trim()` does (an empty name clears
    /// the title). The title is the name of the last `session_info` entry. Returns its id. In
    /// the omp dialect it is refused with [`Dialect`](crate::ErrorCode::Dialect): omp keeps the
    /// title in the header ([`set_title`](Self::set_title)).
    pub fn append_session_info(&self, name: &str) -> Result<String> {
        let (ptr, len) = text(name);
        // SAFETY: as in append.
        self.append_with("xs_append_session_info", |s, id| unsafe { sys::xs_append_session_info(s, ptr, len, id) })
    }
}
