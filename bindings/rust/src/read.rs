//! Reading: JSON (and ids) out of a session, exactly the bytes the library produced.

use crate::buffer::{c_string, opt_c_string, opt_ptr};
use crate::error::Result;
use crate::info::{SessionInfo, SessionStats, Usage};
use crate::session::Session;
use crate::sys;
use crate::types::{decode, Context, Diagnostic, Entries, Entry, Header, Label, ResumeCheck, TreeNode};

/// How entry readers show images that the size rules moved to the blob store.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BlobRefs {
    /// As stored: `"blob:sha256:<hex>"` refs in place (the default).
    #[default]
    AsStored,
    /// Refs replaced by the blobs' content, as contexts show them (`XS_READ_RESOLVE_BLOBS`).
    Resolved,
}

impl BlobRefs {
    fn flags(self) -> u32 {
        match self {
            BlobRefs::AsStored => 0,
            BlobRefs::Resolved => sys::XS_READ_RESOLVE_BLOBS,
        }
    }
}

/// # Reading
///
/// Each output comes typed ([`Context`], [`Entry`], …, see [`types`](crate::types)) and, from the
/// `*_json` twin, as a `String` holding the library's exact bytes (stored lines are copied byte
/// for byte), read into a buffer that grows once on `XS_EBUFS` without recomputing the result.
impl Session {
    /// The context the model sees for the path ending at `leaf_id` (`None`: the current leaf),
    /// typed; [`Session::build_context_json`] gives the exact JSON.
    pub fn build_context(&self, leaf_id: Option<&str>) -> Result<Context> {
        decode(&self.build_context_json(leaf_id)?, "xs_build_context")
    }

    /// The context the model sees for the path ending at `leaf_id` (`None`: the current leaf):
    /// `{"leafId","messages":[…],"thinkingLevel","models":{…},"injectedTtsrRules":[…],"mode",…}`;
    /// a pi-dialect session adds pi's `"model":{"provider","modelId"}` (or `null`) after
    /// `"thinkingLevel"`.
    /// An unknown `leaf_id` is [`NotFound`](crate::ErrorCode::NotFound).
    pub fn build_context_json(&self, leaf_id: Option<&str>) -> Result<String> {
        let leaf = opt_c_string(leaf_id, "leaf id")?;
        // SAFETY: live session; `leaf` outlives the call; the buffer triple comes from read_bytes.
        self.handle
            .read_string("xs_build_context", |s, b, c, n| unsafe { sys::xs_build_context(s, opt_ptr(&leaf), b, c, n) })
    }

    /// The header line, typed.
    pub fn header(&self) -> Result<Header> {
        decode(&self.header_json()?, "xs_session_header")
    }

    /// The header line, as stored.
    pub fn header_json(&self) -> Result<String> {
        // SAFETY: as in build_context.
        self.handle.read_string("xs_session_header", |s, b, c, n| unsafe { sys::xs_session_header(s, b, c, n) })
    }

    /// All entries in file order, each decoded as the iterator reaches it, with its stored line
    /// in [`Entry::raw`].
    pub fn entries(&self, blobs: BlobRefs) -> Result<Entries> {
        Entries::split(&self.entries_json(blobs)?, "xs_session_entries")
    }

    /// All entries in file order, as a JSON array of the stored lines.
    pub fn entries_json(&self, blobs: BlobRefs) -> Result<String> {
        // SAFETY: as in build_context.
        self.handle.read_string("xs_session_entries", |s, b, c, n| unsafe {
            sys::xs_session_entries(s, blobs.flags(), b, c, n)
        })
    }

    /// One entry, typed. An unknown id is [`NotFound`](crate::ErrorCode::NotFound).
    pub fn entry(&self, id: &str, blobs: BlobRefs) -> Result<Entry> {
        Entry::from_json(&self.entry_json(id, blobs)?)
    }

    /// One entry, as stored. An unknown id is [`NotFound`](crate::ErrorCode::NotFound).
    pub fn entry_json(&self, id: &str, blobs: BlobRefs) -> Result<String> {
        let id = c_string(id, "entry id")?;
        // SAFETY: as in build_context.
        self.handle.read_string("xs_session_entry", |s, b, c, n| unsafe {
            sys::xs_session_entry(s, id.as_ptr(), blobs.flags(), b, c, n)
        })
    }

    /// The entries from the root down to `id` (`None`: the leaf; none when the leaf is none).
    pub fn path(&self, id: Option<&str>, blobs: BlobRefs) -> Result<Entries> {
        Entries::split(&self.path_json(id, blobs)?, "xs_session_path")
    }

    /// The entries from the root down to `id` (`None`: the leaf; `[]` when the leaf is none).
    pub fn path_json(&self, id: Option<&str>, blobs: BlobRefs) -> Result<String> {
        let id = opt_c_string(id, "entry id")?;
        // SAFETY: as in build_context.
        self.handle.read_string("xs_session_path", |s, b, c, n| unsafe {
            sys::xs_session_path(s, opt_ptr(&id), blobs.flags(), b, c, n)
        })
    }

    /// The direct children of `id` in file order.
    pub fn children(&self, id: &str, blobs: BlobRefs) -> Result<Entries> {
        Entries::split(&self.children_json(id, blobs)?, "xs_session_children")
    }

    /// The direct children of `id` in file order, as a JSON array of entries.
    pub fn children_json(&self, id: &str, blobs: BlobRefs) -> Result<String> {
        let id = c_string(id, "entry id")?;
        // SAFETY: as in build_context.
        self.handle.read_string("xs_session_children", |s, b, c, n| unsafe {
            sys::xs_session_children(s, id.as_ptr(), blobs.flags(), b, c, n)
        })
    }

    /// The whole tree, flat, depth-first pre-order, typed.
    pub fn tree(&self, blobs: BlobRefs) -> Result<Vec<TreeNode>> {
        decode(&self.tree_json(blobs)?, "xs_session_tree")
    }

    /// The whole tree, flat, depth-first pre-order:
    /// `[{"id","parentId","depth","children":[ids],"label"?,"labelTimestamp"?,"entry":{…}}]`.
    pub fn tree_json(&self, blobs: BlobRefs) -> Result<String> {
        // SAFETY: as in build_context.
        self.handle
            .read_string("xs_session_tree", |s, b, c, n| unsafe { sys::xs_session_tree(s, blobs.flags(), b, c, n) })
    }

    /// Live labels in the order they were first set, typed.
    pub fn labels(&self) -> Result<Vec<Label>> {
        decode(&self.labels_json()?, "xs_session_labels")
    }

    /// Live labels in the order they were first set: `[{"targetId","label","timestamp"}]`.
    pub fn labels_json(&self) -> Result<String> {
        // SAFETY: as in build_context.
        self.handle.read_string("xs_session_labels", |s, b, c, n| unsafe { sys::xs_session_labels(s, b, c, n) })
    }

    /// The leaf's id, `None` when the leaf is none (an empty session, or after
    /// [`set_leaf(None)`](Session::set_leaf)).
    pub fn leaf(&self) -> Result<Option<String>> {
        // SAFETY: as in build_context.
        let id =
            self.handle.read_string("xs_session_leaf", |s, b, c, n| unsafe { sys::xs_session_leaf(s, b, c, n) })?;
        Ok(Some(id).filter(|id| !id.is_empty()))
    }

    /// What the loader skipped or noticed, typed.
    pub fn diagnostics(&self) -> Result<Vec<Diagnostic>> {
        decode(&self.diagnostics_json()?, "xs_session_diagnostics")
    }

    /// What the loader skipped or noticed: `[{"line","offset","length","code","reason"}]`.
    pub fn diagnostics_json(&self) -> Result<String> {
        // SAFETY: as in build_context.
        self.handle
            .read_string("xs_session_diagnostics", |s, b, c, n| unsafe { sys::xs_session_diagnostics(s, b, c, n) })
    }

    /// The session's facts as the library's JSON: `{"id","path","cwd","timestamp","title",
    /// "parentSession","version","entryCount","leafId","persisted","readOnly","diagnostics",…}`.
    /// [`Session::info`] gives the same typed.
    pub fn info_json(&self) -> Result<String> {
        // SAFETY: as in build_context.
        self.handle.read_string("xs_session_info", |s, b, c, n| unsafe { sys::xs_session_info(s, b, c, n) })
    }

    /// The session's facts, typed (parsed from [`Session::info_json`]).
    pub fn info(&self) -> Result<SessionInfo> {
        SessionInfo::parse(&self.info_json()?)
    }

    /// Token and cost totals over every assistant message, as the library's JSON:
    /// `{"input","output","cacheRead","cacheWrite","premiumRequests","cost","assistantMessages"}`.
    pub fn usage_json(&self) -> Result<String> {
        // SAFETY: as in build_context.
        self.handle.read_string("xs_session_usage", |s, b, c, n| unsafe { sys::xs_session_usage(s, b, c, n) })
    }

    /// Token and cost totals, typed (parsed from [`Session::usage_json`]).
    pub fn usage(&self) -> Result<Usage> {
        Usage::parse(&self.usage_json()?)
    }

    /// The session's counters as the library's JSON (`xs_session_stats`):
    /// `{"inputTokens","outputTokens","cacheRead","cacheWrite","totalTokens","contextTokens","cost",
    /// "compactionCount","messageCounts":{role: n},"toolCalls"}`. Kept current by every append,
    /// never by reading the file again. A session bound to a key
    /// ([`SessionOptions::key`](crate::SessionOptions::key)) writes the same numbers into the
    /// key's record.
    pub fn stats_json(&self) -> Result<String> {
        // SAFETY: as in build_context.
        self.handle.read_string("xs_session_stats", |s, b, c, n| unsafe { sys::xs_session_stats(s, b, c, n) })
    }

    /// The session's counters, typed (parsed from [`Session::stats_json`]).
    pub fn stats(&self) -> Result<SessionStats> {
        SessionStats::parse(&self.stats_json()?)
    }

    /// What an agent must know before it continues from `leaf_id` (`None`: the current leaf),
    /// typed (docs/context.md#resume-analysis).
    pub fn resume_check(&self, leaf_id: Option<&str>) -> Result<ResumeCheck> {
        decode(&self.resume_check_json(leaf_id)?, "xs_session_resume_check")
    }

    /// What an agent must know before it continues from `leaf_id` (`None`: the current leaf), as
    /// the library's JSON (`xs_session_resume_check`, docs/context.md#resume-analysis):
    /// `{"leafId","orphans":[{"id","parentId","line"}],"pendingToolCalls":[{"entryId","toolCallId","name"}]}`:
    /// entries whose parent is missing, and tool calls on the path that no tool result answers.
    /// An unknown `leaf_id` is [`NotFound`](crate::ErrorCode::NotFound).
    pub fn resume_check_json(&self, leaf_id: Option<&str>) -> Result<String> {
        let leaf = opt_c_string(leaf_id, "leaf id")?;
        // SAFETY: as in build_context.
        self.handle.read_string("xs_session_resume_check", |s, b, c, n| unsafe {
            sys::xs_session_resume_check(s, opt_ptr(&leaf), b, c, n)
        })
    }
}
