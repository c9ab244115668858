//! [`History`]: the store's prompt history (the header's "Prompt history" section), the
//! prompts a user typed, kept apart from transcripts in one SQLite database with a full-text
//! index, for recall and search.

use std::ffi::CString;
use std::path::{Path, PathBuf};

use crate::buffer::{c_string, opt_ptr, path_c_string};
use crate::error::{Error, ErrorCode, Result};
use crate::handle::Handle;
use crate::options::init;
use crate::store::Store;
use crate::sys;
use crate::types::{decode, HistoryHit, HistoryInfo, HistoryPrompt};

/// How [`Store::history`] opens the history (`xs_history_options`). What is not set keeps the
/// library's default (from `xs_history_options_init`).
///
/// ```
/// let opts = xsession::HistoryOptions::new().sync(true).max_prompt_bytes(64 * 1024);
/// # let _ = opts;
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HistoryOptions {
    sync: bool,
    path: Option<PathBuf>,
    busy_timeout_ms: Option<u32>,
    max_prompt_bytes: Option<u32>,
}

impl HistoryOptions {
    /// Defaults: `<root>/history.db`, synchronous=NORMAL, a 5 s busy timeout, prompts up to 1 MiB.
    pub fn new() -> HistoryOptions {
        HistoryOptions::default()
    }

    /// synchronous=FULL: a flushed prompt survives power loss too (`XS_HISTORY_SYNC`). By
    /// default (NORMAL) it survives the process's crash or kill -9.
    pub fn sync(mut self, on: bool) -> HistoryOptions {
        self.sync = on;
        self
    }

    /// The database file instead of `<root>/history.db` (required with an in-memory store); its
    /// directory is created.
    pub fn path(mut self, path: impl AsRef<Path>) -> HistoryOptions {
        self.path = Some(path.as_ref().to_path_buf());
        self
    }

    /// How long a call waits for another writer, in ms (0: the library's 5000).
    pub fn busy_timeout_ms(mut self, ms: u32) -> HistoryOptions {
        self.busy_timeout_ms = Some(ms);
        self
    }

    /// The longest prompt [`History::add`] takes, in bytes (0: the library's 1 MiB).
    pub fn max_prompt_bytes(mut self, bytes: u32) -> HistoryOptions {
        self.max_prompt_bytes = Some(bytes);
        self
    }

    fn to_raw(&self) -> Result<(sys::xs_history_options, Option<CString>)> {
        let mut raw = init(sys::xs_history_options_init, sys::XS_HISTORY_OPTIONS_VERSION)?;
        let path = self.path.as_deref().map(|p| path_c_string(p, "history path")).transpose()?;
        if self.sync {
            raw.flags |= sys::XS_HISTORY_SYNC;
        }
        raw.path = opt_ptr(&path);
        if let Some(ms) = self.busy_timeout_ms {
            raw.busy_timeout_ms = ms;
        }
        if let Some(bytes) = self.max_prompt_bytes {
            raw.max_prompt_bytes = bytes;
        }
        Ok((raw, path))
    }
}

/// What [`History::search`] looks for besides its query.
///
/// ```
/// let opts = xsession::SearchOptions::new().cwd("/home/me/project").literal(true).limit(5);
/// # let _ = opts;
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchOptions {
    cwd: Option<PathBuf>,
    literal: bool,
    limit: u32,
}

impl SearchOptions {
    /// Every prompt, the query in FTS5's syntax, the library's limit (20).
    pub fn new() -> SearchOptions {
        SearchOptions::default()
    }

    /// Only prompts added with this working directory.
    pub fn cwd(mut self, cwd: impl AsRef<Path>) -> SearchOptions {
        self.cwd = Some(cwd.as_ref().to_path_buf());
        self
    }

    /// The query is plain words, not FTS5 syntax: each word must occur (quotes and operators are
    /// ordinary characters), the last one as a prefix (`XS_HISTORY_LITERAL`). For text a user
    /// typed into a search box.
    pub fn literal(mut self, on: bool) -> SearchOptions {
        self.literal = on;
        self
    }

    /// At most this many hits (0: 20; over 10000 is [`ErrorCode::Invalid`]).
    pub fn limit(mut self, limit: u32) -> SearchOptions {
        self.limit = limit;
        self
    }
}

/// A store's prompt history (`xs_history`), opened by [`Store::history`].
///
/// [`add`](History::add) returns at once: a background thread of the handle writes the prompts,
/// a batch per transaction, and [`flush`](History::flush) waits for them. Searches see only
/// committed prompts. Several handles and processes may use one file at once. A failure of the
/// background writer is sticky: every later `add` and `flush` returns it (its message starts
/// `"history writer: "`); open the history again to write.
///
/// Dropping the handle flushes (errors ignored), stops its thread and frees it; call
/// [`close`](History::close) to see the final flush's error. It may outlive the store it came
/// from. Every method takes `&self` and is serialised by the handle's lock, so an
/// `Arc<History>` can be used from several threads, each call with its own error message (see
/// the crate documentation on threads). Using it after `close` does not compile:
///
/// ```compile_fail
/// # fn demo(history: xsession::History) {
/// history.close().unwrap();
/// history.close().unwrap(); // error[E0382]: use of moved value: `history`
/// # }
/// ```
pub struct History {
    handle: Handle<sys::xs_history>,
}

impl Store {
    /// Opens (creating) the store's prompt history, `<root>/history.db` unless
    /// [`HistoryOptions::path`] names another file. A file of an older schema is migrated; one
    /// that is damaged is kept aside and a fresh one started ([`HistoryInfo::damaged`] says so).
    /// [`ErrorCode::Invalid`] for an in-memory store without a path, [`ErrorCode::Version`] for a
    /// file a newer xsession wrote, [`ErrorCode::Locked`] when another process kept it locked
    /// past the busy timeout.
    pub fn history(&self, opts: &HistoryOptions) -> Result<History> {
        let (raw, _path) = opts.to_raw()?;
        let mut out: *mut sys::xs_history = std::ptr::null_mut();
        // SAFETY: live store; `raw` and the path it points into outlive the call; `out` is writable.
        self.handle.check(|st| unsafe { sys::xs_history_open(st, &raw, &mut out) })?;
        Handle::from_raw(out)
            .map(|handle| History { handle })
            .ok_or_else(|| Error::new(ErrorCode::Internal, "the library returned XS_OK and no history"))
    }
}

impl History {
    /// Queues one prompt typed in `cwd` (`None`: none) at `time_ms` (ms since the epoch; `None`
    /// or 0: now) and returns without waiting for the disk. A prompt equal to the last one this
    /// handle added with the same cwd (for the handle's first add: to the file's last row) is
    /// skipped, with `Ok`.
    ///
    /// The prompt is UTF-8 text (a `&str`, or bytes as read from a terminal, which the library
    /// checks), 1 to [`HistoryOptions::max_prompt_bytes`] bytes, without NUL bytes:
    /// [`ErrorCode::Invalid`] when empty, with a NUL byte or invalid UTF-8, or for a negative
    /// time; [`ErrorCode::Limit`] when too long; else the writer's sticky error.
    pub fn add(&self, prompt: impl AsRef<[u8]>, cwd: Option<&Path>, time_ms: Option<i64>) -> Result<()> {
        let prompt = prompt.as_ref();
        let cwd = cwd.map(|cwd| path_c_string(cwd, "cwd")).transpose()?;
        // SAFETY: live history; `prompt` is readable for its length; `cwd` outlives the call.
        self.handle.check(|h| unsafe {
            sys::xs_history_add(h, prompt.as_ptr().cast(), prompt.len(), opt_ptr(&cwd), time_ms.unwrap_or(0))
        })
    }

    /// Waits until every prompt this handle queued before the call is committed: from then on
    /// they survive a crash of the process (with [`HistoryOptions::sync`], power loss too) and
    /// searches see them. Returns the writer's sticky error, if any.
    pub fn flush(&self) -> Result<()> {
        // SAFETY: live history.
        self.handle.check(|h| unsafe { sys::xs_history_flush(h) })
    }

    /// Committed prompts matching `query`, best first (bm25; ties newest first), typed (see
    /// [`History::search_json`]). The query is FTS5's syntax (words, `"phrases"`, `prefix*`,
    /// `AND`/`OR`/`NOT`, `NEAR(…)`), or plain words with [`SearchOptions::literal`]. A query
    /// FTS5 refuses is [`ErrorCode::Invalid`] with the message `"bad history query: "` and
    /// SQLite's words.
    pub fn search(&self, query: &str, opts: &SearchOptions) -> Result<Vec<HistoryHit>> {
        decode(&self.search_json(query, opts)?, "xs_history_search")
    }

    /// [`History::search`] as the library's JSON array of
    /// `{"id","prompt","createdAt","cwd","score","snippet"}` objects.
    pub fn search_json(&self, query: &str, opts: &SearchOptions) -> Result<String> {
        let query = c_string(query, "query")?;
        let cwd = opts.cwd.as_deref().map(|cwd| path_c_string(cwd, "cwd")).transpose()?;
        let flags = if opts.literal { sys::XS_HISTORY_LITERAL } else { 0 };
        // SAFETY: live history; the strings outlive the call; the buffer triple comes from read_bytes.
        self.handle.read_string("xs_history_search", |h, b, c, n| unsafe {
            sys::xs_history_search(h, query.as_ptr(), opt_ptr(&cwd), flags, opts.limit, b, c, n)
        })
    }

    /// The newest committed prompts, newest first, of `cwd` (`None`: every prompt), at most
    /// `limit` (0: 20; over 10000 is [`ErrorCode::Invalid`]), typed (see [`History::recent_json`]).
    pub fn recent(&self, cwd: Option<&Path>, limit: u32) -> Result<Vec<HistoryPrompt>> {
        decode(&self.recent_json(cwd, limit)?, "xs_history_recent")
    }

    /// [`History::recent`] as the library's JSON array of `{"id","prompt","createdAt","cwd"}`
    /// objects.
    pub fn recent_json(&self, cwd: Option<&Path>, limit: u32) -> Result<String> {
        let cwd = cwd.map(|cwd| path_c_string(cwd, "cwd")).transpose()?;
        // SAFETY: live history; `cwd` outlives the call; the buffer triple comes from read_bytes.
        self.handle.read_string("xs_history_recent", |h, b, c, n| unsafe {
            sys::xs_history_recent(h, opt_ptr(&cwd), limit, b, c, n)
        })
    }

    /// Facts about the history: its file, schema version, committed and pending prompts, the
    /// synchronous setting, and the damaged file an open kept aside (see [`History::info_json`]).
    pub fn info(&self) -> Result<HistoryInfo> {
        decode(&self.info_json()?, "xs_history_info")
    }

    /// [`History::info`] as the library's JSON object of
    /// `{"path","schemaVersion","count","pending","synchronous","damaged"}`.
    pub fn info_json(&self) -> Result<String> {
        // SAFETY: live history; the buffer triple comes from read_bytes.
        self.handle.read_string("xs_history_info", |h, b, c, n| unsafe { sys::xs_history_info(h, b, c, n) })
    }

    /// Flushes, then closes the history, returning the flush's error (the writer's, with the
    /// prompts it names not written) instead of dropping it silently as `Drop` must. The handle
    /// is freed either way.
    pub fn close(self) -> Result<()> {
        self.flush()
    }

    /// The error the history handle holds from its last call (`xs_history_errcode` and
    /// `xs_history_errmsg`), `None` after a success. Every method already returns its own error;
    /// this shows what the C handle itself holds.
    pub fn last_error(&self) -> Option<Error> {
        // SAFETY: live history.
        self.handle.last_error(|h| unsafe { sys::xs_history_errcode(h) })
    }
}
