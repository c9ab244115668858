//! Compaction planning (docs/compaction-planning.md): when to compact, when to run the memory
//! flush that comes before a compaction, and where to cut. [`Session::append_compaction`] then
//! writes the entry.

use std::os::raw::c_int;

use crate::buffer::{c_string, opt_c_string, opt_ptr};
use crate::error::{status_str, Error, ErrorCode, Result};
use crate::keys::Keys;
use crate::options::init;
use crate::session::Session;
use crate::sys;
use crate::types::{decode, CompactionPlan};

/// The thresholds of compaction and of the memory flush (`xs_compaction_settings`). A setting
/// left alone keeps the library's default: context window 0 (so set it for the decisions),
/// reserve 16384 tokens with a floor of 20000, 20000 tokens kept, and the flush 4000 tokens
/// before the compaction threshold. A negative value is refused with [`ErrorCode::Invalid`].
///
/// ```
/// let settings = xsession::CompactionSettings::new().context_window(200_000);
/// assert!(!xsession::should_compact(&settings, 180_000)?);
/// assert!(xsession::should_compact(&settings, 180_001)?);
/// # Ok::<(), xsession::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CompactionSettings {
    context_window: Option<i64>,
    reserve_tokens: Option<i64>,
    reserve_floor: Option<i64>,
    keep_recent_tokens: Option<i64>,
    soft_threshold_tokens: Option<i64>,
}

impl CompactionSettings {
    /// The library's defaults.
    pub fn new() -> CompactionSettings {
        CompactionSettings::default()
    }

    /// The model's context window in tokens (must be > 0 for [`should_compact`] and
    /// [`should_flush_memory`]; the plan does not read it).
    pub fn context_window(mut self, tokens: i64) -> CompactionSettings {
        self.context_window = Some(tokens);
        self
    }

    /// Room kept for the prompt and the next reply (default 16384).
    pub fn reserve_tokens(mut self, tokens: i64) -> CompactionSettings {
        self.reserve_tokens = Some(tokens);
        self
    }

    /// The floor under [`reserve_tokens`](Self::reserve_tokens) (default 20000; 0: none).
    pub fn reserve_floor(mut self, tokens: i64) -> CompactionSettings {
        self.reserve_floor = Some(tokens);
        self
    }

    /// What a compaction keeps of the newest entries (default 20000).
    pub fn keep_recent_tokens(mut self, tokens: i64) -> CompactionSettings {
        self.keep_recent_tokens = Some(tokens);
        self
    }

    /// How far below the compaction threshold the memory flush runs (default 4000).
    pub fn soft_threshold_tokens(mut self, tokens: i64) -> CompactionSettings {
        self.soft_threshold_tokens = Some(tokens);
        self
    }

    /// The C struct: the library's defaults from `xs_compaction_settings_init`, then the
    /// settings given here.
    pub fn to_raw(&self) -> Result<sys::xs_compaction_settings> {
        let mut raw = init(sys::xs_compaction_settings_init, sys::XS_COMPACTION_SETTINGS_VERSION)?;
        let fields = [
            (self.context_window, &mut raw.context_window),
            (self.reserve_tokens, &mut raw.reserve_tokens),
            (self.reserve_floor, &mut raw.reserve_floor),
            (self.keep_recent_tokens, &mut raw.keep_recent_tokens),
            (self.soft_threshold_tokens, &mut raw.soft_threshold_tokens),
        ];
        for (given, field) in fields {
            if let Some(value) = given {
                *field = value;
            }
        }
        Ok(raw)
    }
}

/// A handle-less decision's answer: no handle holds a message, so the message is the status's name.
fn decision(what: &str, rc: sys::xs_status, out: c_int) -> Result<bool> {
    match rc {
        sys::XS_OK => Ok(out != 0),
        rc => Err(Error::new(ErrorCode::from_raw(rc), format!("{what}: {}", status_str(rc)))),
    }
}

/// Whether a context of `context_tokens` should be compacted now: more than the context window
/// minus the larger of the reserve and its floor (`xs_should_compact`). [`ErrorCode::Invalid`]
/// without a context window, or for a negative count or setting.
pub fn should_compact(settings: &CompactionSettings, context_tokens: i64) -> Result<bool> {
    let raw = settings.to_raw()?;
    let mut out: c_int = 0;
    // SAFETY: `raw` and `out` are valid for the call; the function may run on any thread.
    let rc = unsafe { sys::xs_should_compact(&raw, context_tokens, &mut out) };
    decision("xs_should_compact", rc, out)
}

/// Whether the memory flush should run now: past the compaction threshold minus the soft
/// threshold, and not yet in this compaction cycle: `last_flush_compaction_count` (the
/// compaction count when it last ran; `None`: never) differs from `compaction_count`
/// (`xs_should_flush_memory`). Hosts that keep the counts in the keyed store use
/// [`Keys::claim_memory_flush`] instead, which decides and records under the document's lock.
pub fn should_flush_memory(
    settings: &CompactionSettings,
    context_tokens: i64,
    compaction_count: i64,
    last_flush_compaction_count: Option<i64>,
) -> Result<bool> {
    let raw = settings.to_raw()?;
    let mut out: c_int = 0;
    let last = last_flush_compaction_count.unwrap_or(-1);
    // SAFETY: as in should_compact.
    let rc = unsafe { sys::xs_should_flush_memory(&raw, context_tokens, compaction_count, last, &mut out) };
    decision("xs_should_flush_memory", rc, out)
}

impl Session {
    /// Where a compaction at `leaf_id` (`None`: the leaf) should cut, typed.
    pub fn compaction_plan(&self, leaf_id: Option<&str>, settings: &CompactionSettings) -> Result<CompactionPlan> {
        decode(&self.compaction_plan_json(leaf_id, settings)?, "xs_compaction_plan")
    }

    /// Where a compaction at `leaf_id` (`None`: the current leaf) should cut, keeping at least
    /// the settings' `keep_recent_tokens` of the newest path entries and never a tool result
    /// without its call, as the library's JSON (`xs_compaction_plan`):
    /// `{"needed","firstKeptEntryId","toSummarise":[ids],"tokensBefore","keptTokens"}`.
    /// An unknown `leaf_id` is [`ErrorCode::NotFound`].
    pub fn compaction_plan_json(&self, leaf_id: Option<&str>, settings: &CompactionSettings) -> Result<String> {
        let leaf = opt_c_string(leaf_id, "leaf id")?;
        let raw = settings.to_raw()?;
        // SAFETY: live session; `leaf` and `raw` outlive the call; the buffer triple comes from read_bytes.
        self.handle.read_string("xs_compaction_plan", |s, b, c, n| unsafe {
            sys::xs_compaction_plan(s, opt_ptr(&leaf), &raw, b, c, n)
        })
    }
}

impl Keys<'_> {
    /// The memory flush decision for the record of `key`, made and marked under the document's
    /// lock (`xs_keys_claim_memory_flush`): `true` when [`should_flush_memory`] holds for the
    /// record's `compactionCount` and `memoryFlushCompactionCount`; the record then gets
    /// `memoryFlushAt` = `now_ms` (0: now) and `memoryFlushCompactionCount`, so no other process
    /// runs the flush again in this cycle. `false` leaves the document untouched.
    /// [`ErrorCode::NotFound`] when the key has no record.
    pub fn claim_memory_flush(
        &self,
        key: &str,
        settings: &CompactionSettings,
        context_tokens: i64,
        now_ms: i64,
    ) -> Result<bool> {
        let key = c_string(key, "key")?;
        let raw = settings.to_raw()?;
        let mut run: c_int = 0;
        // SAFETY: live store; `key`, `raw` and `run` outlive the call.
        self.store.handle.check(|st| unsafe {
            sys::xs_keys_claim_memory_flush(st, key.as_ptr(), &raw, context_tokens, now_ms, &mut run)
        })?;
        Ok(run != 0)
    }
}
