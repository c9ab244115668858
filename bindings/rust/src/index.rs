//! [`Index`]: the store's session index (the header's "session index and search" section,
//! docs/search.md), a row per session and per entry in one SQLite database with a full-text
//! index, for listing sessions and searching every transcript without reading each file.

use std::ffi::CString;
use std::path::{Path, PathBuf};

use crate::buffer::{c_string, opt_ptr, path_c_string};
use crate::error::{Error, ErrorCode, Result};
use crate::handle::Handle;
use crate::options::init;
use crate::store::Store;
use crate::sys;
use crate::types::{decode, IndexInfo, IndexReport, IndexVerifyReport, IndexedSession, Role, SearchHit};

/// How [`Store::index`] opens the index (`xs_index_options`). What is not set keeps the
/// library's default (from `xs_index_options_init`).
///
/// ```
/// let opts = xsession::IndexOptions::new().follow_writes(true).busy_timeout_ms(200);
/// # let _ = opts;
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexOptions {
    path: Option<PathBuf>,
    busy_timeout_ms: Option<u32>,
    follow_writes: bool,
}

impl IndexOptions {
    /// Defaults: `<root>/index.db`, a 5 s busy timeout, appends not followed.
    pub fn new() -> IndexOptions {
        IndexOptions::default()
    }

    /// The database file instead of `<root>/index.db` (required with an in-memory store or a
    /// host's storage); its directory is created.
    pub fn path(mut self, path: impl AsRef<Path>) -> IndexOptions {
        self.path = Some(path.as_ref().to_path_buf());
        self
    }

    /// How long a call waits for another writer, in ms (0: the library's 5000).
    pub fn busy_timeout_ms(mut self, ms: u32) -> IndexOptions {
        self.busy_timeout_ms = Some(ms);
        self
    }

    /// While the index is open, what sessions of the store handle it was opened from write is
    /// indexed by a thread of the index shortly after each write; an append never waits for it
    /// (`XS_INDEX_FOLLOW_WRITES`). [`Index::flush`] waits for it. Other store handles' and other
    /// processes' writes still need a [`refresh`](Index::refresh).
    pub fn follow_writes(mut self, on: bool) -> IndexOptions {
        self.follow_writes = on;
        self
    }

    fn to_raw(&self) -> Result<(sys::xs_index_options, Option<CString>)> {
        let mut raw = init(sys::xs_index_options_init, sys::XS_INDEX_OPTIONS_VERSION)?;
        let path = self.path.as_deref().map(|p| path_c_string(p, "index path")).transpose()?;
        raw.path = opt_ptr(&path);
        if let Some(ms) = self.busy_timeout_ms {
            raw.busy_timeout_ms = ms;
        }
        if self.follow_writes {
            raw.flags |= sys::XS_INDEX_FOLLOW_WRITES;
        }
        Ok((raw, path))
    }
}

/// What [`Index::search`] looks for besides its query (`xs_search_options`): each filter set
/// narrows the hits.
///
/// ```
/// use xsession::{IndexSearchOptions, Role};
/// let opts = IndexSearchOptions::new().cwd("/home/me/project").role(Role::User).since_ms(1_700_000_000_000).limit(5);
/// # let _ = opts;
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexSearchOptions {
    cwd: Option<PathBuf>,
    role: Option<Role>,
    since_ms: Option<i64>,
    session_id: Option<String>,
    limit: u32,
    literal: bool,
}

impl IndexSearchOptions {
    /// Every entry of every session, the query in FTS5's syntax, the library's limit (20).
    pub fn new() -> IndexSearchOptions {
        IndexSearchOptions::default()
    }

    /// Only sessions of this working directory (the header's, exactly).
    pub fn cwd(mut self, cwd: impl AsRef<Path>) -> IndexSearchOptions {
        self.cwd = Some(cwd.as_ref().to_path_buf());
        self
    }

    /// Only entries of this role.
    pub fn role(mut self, role: Role) -> IndexSearchOptions {
        self.role = Some(role);
        self
    }

    /// Only entries stamped at or after this time, ms since the epoch (0: no bound; a negative
    /// time is [`ErrorCode::Invalid`]).
    pub fn since_ms(mut self, ms: i64) -> IndexSearchOptions {
        self.since_ms = Some(ms);
        self
    }

    /// Only the session with this id.
    pub fn session_id(mut self, id: impl Into<String>) -> IndexSearchOptions {
        self.session_id = Some(id.into());
        self
    }

    /// At most this many hits (0: 20; over 10000 is [`ErrorCode::Invalid`]).
    pub fn limit(mut self, limit: u32) -> IndexSearchOptions {
        self.limit = limit;
        self
    }

    /// The query is plain words, not FTS5 syntax: each word must occur (quotes and operators are
    /// ordinary characters), the last one as a prefix (`XS_SEARCH_LITERAL`). For text a user
    /// typed into a search box.
    pub fn literal(mut self, on: bool) -> IndexSearchOptions {
        self.literal = on;
        self
    }
}

/// A store's session index (`xs_index`), opened by [`Store::index`].
///
/// Derived data only: the session files are the truth. A new index is empty until
/// [`rebuild`](Index::rebuild) or [`refresh`](Index::refresh). Appends update it only when it was
/// opened with [`IndexOptions::follow_writes`] (and then only the store handle's own: call
/// [`flush`](Index::flush) before searching for them); otherwise refresh before searching to see
/// them. Several handles and processes may use one file at once.
///
/// Every method blocks until the library is done; a rebuild of a large store takes seconds, so
/// an async program calls them from a blocking task. Every method takes `&self` and is
/// serialised by the handle's lock, so an `Arc<Index>` can be used from several threads, each
/// call with its own error message (see the crate documentation on threads). The index may
/// outlive the store it came from. Dropping it closes it; using it after
/// [`close`](Index::close) does not compile:
///
/// ```compile_fail
/// # fn demo(index: xsession::Index) {
/// index.close();
/// index.close(); // error[E0382]: use of moved value: `index`
/// # }
/// ```
pub struct Index {
    handle: Handle<sys::xs_index>,
}

impl Store {
    /// Opens (creating) the store's session index, `<root>/index.db` unless
    /// [`IndexOptions::path`] names another file. It is not read or brought up to date here. A
    /// file of an older schema is migrated; one that is damaged is kept aside and a fresh one
    /// started ([`IndexInfo::damaged`] says so). [`ErrorCode::Invalid`] for an in-memory store
    /// without a path, [`ErrorCode::Version`] for a file a newer xsession wrote,
    /// [`ErrorCode::Locked`] when another process kept it locked past the busy timeout.
    pub fn index(&self, opts: &IndexOptions) -> Result<Index> {
        let (raw, _path) = opts.to_raw()?;
        let mut out: *mut sys::xs_index = std::ptr::null_mut();
        // SAFETY: live store; `raw` and the path it points into outlive the call; `out` is writable.
        self.handle.check(|st| unsafe { sys::xs_index_open(st, &raw, &mut out) })?;
        Handle::from_raw(out)
            .map(|handle| Index { handle })
            .ok_or_else(|| Error::new(ErrorCode::Internal, "the library returned XS_OK and no index"))
    }
}

impl Index {
    /// Makes the index again from nothing: every session of the store, live and archived, read
    /// whole. Returns what it did (see [`Index::rebuild_json`]).
    pub fn rebuild(&self) -> Result<IndexReport> {
        decode(&self.rebuild_json()?, "xs_index_rebuild")
    }

    /// [`Index::rebuild`] as the library's JSON object of
    /// `{"files","unchanged","appended","reindexed","added","removed","unreadable","raced","entries"}`.
    pub fn rebuild_json(&self) -> Result<String> {
        // SAFETY: live index; the buffer triple comes from read_bytes, whose retry after
        // XS_EBUFS copies the report instead of rebuilding again.
        self.handle.read_string("xs_index_rebuild", |ix, b, c, n| unsafe { sys::xs_index_rebuild(ix, b, c, n) })
    }

    /// Brings the index up to date with the files: unchanged files are not read, files grown in
    /// place only from their last indexed byte, others whole; rows of files gone are removed.
    /// The report is [`Index::rebuild`]'s.
    pub fn refresh(&self) -> Result<IndexReport> {
        decode(&self.refresh_json()?, "xs_index_refresh")
    }

    /// [`Index::refresh`] as the library's JSON object (the shape of [`Index::rebuild_json`]).
    pub fn refresh_json(&self) -> Result<String> {
        // SAFETY: live index; the buffer triple comes from read_bytes.
        self.handle.read_string("xs_index_refresh", |ix, b, c, n| unsafe { sys::xs_index_refresh(ix, b, c, n) })
    }

    /// Waits until what the sessions of the index's store handle wrote before the call is in the
    /// index (with [`IndexOptions::follow_writes`]; without it there is nothing to wait for and it
    /// returns at once): a host that needs its own last append found by [`Index::search`] calls
    /// this first. A write whose indexing failed is left for the next [`refresh`](Index::refresh),
    /// and the first such failure since the last flush is returned here, once: its status
    /// ([`ErrorCode::Locked`], [`ErrorCode::Io`], [`ErrorCode::NoSpace`], …) with a message that
    /// starts `"indexing what sessions wrote: "`.
    pub fn flush(&self) -> Result<()> {
        // SAFETY: live index.
        self.handle.check(|ix| unsafe { sys::xs_index_flush(ix) })
    }

    /// Every difference between the index and the files, changing nothing. Differences are not
    /// an error: read [`IndexVerifyReport::ok`].
    pub fn verify(&self) -> Result<IndexVerifyReport> {
        decode(&self.verify_json()?, "xs_index_verify")
    }

    /// [`Index::verify`] as the library's JSON object of
    /// `{"ok","files","indexed","missing","extra","stale"}`.
    pub fn verify_json(&self) -> Result<String> {
        // SAFETY: live index; the buffer triple comes from read_bytes.
        self.handle.read_string("xs_index_verify", |ix, b, c, n| unsafe { sys::xs_index_verify(ix, b, c, n) })
    }

    /// Sessions newest first (file mtime, then creation), from the index alone: those of `cwd`
    /// (`None`: every session), at most `limit` (0: 20; over 10000 is [`ErrorCode::Invalid`]).
    pub fn list(&self, cwd: Option<&Path>, limit: u32) -> Result<Vec<IndexedSession>> {
        decode(&self.list_json(cwd, limit)?, "xs_index_list")
    }

    /// [`Index::list`] as the library's JSON array of `{"path","id","cwd","title","firstPrompt",
    /// "created","updated","modified","size","entries","messages","inputTokens","outputTokens",
    /// "cost","dialect","sourceAgent","parentSession","archived","leafId"}` objects.
    pub fn list_json(&self, cwd: Option<&Path>, limit: u32) -> Result<String> {
        let cwd = cwd.map(|cwd| path_c_string(cwd, "cwd")).transpose()?;
        // SAFETY: live index; `cwd` outlives the call; the buffer triple comes from read_bytes.
        self.handle.read_string("xs_index_list", |ix, b, c, n| unsafe {
            sys::xs_index_list(ix, opt_ptr(&cwd), limit, b, c, n)
        })
    }

    /// Facts about the index: its file, schema version, rows, and the damaged file an open kept
    /// aside (see [`Index::info_json`]).
    pub fn info(&self) -> Result<IndexInfo> {
        decode(&self.info_json()?, "xs_index_info")
    }

    /// [`Index::info`] as the library's JSON object of
    /// `{"path","schemaVersion","sessions","entries","damaged"}`.
    pub fn info_json(&self) -> Result<String> {
        // SAFETY: live index; the buffer triple comes from read_bytes.
        self.handle.read_string("xs_index_info", |ix, b, c, n| unsafe { sys::xs_index_info(ix, b, c, n) })
    }

    /// Entries matching `query`, best first (bm25; ties newest first), typed (see
    /// [`Index::search_json`]). The query is FTS5's syntax (words, `"phrases"`, `prefix*`,
    /// `AND`/`OR`/`NOT`, `NEAR(…)`), or plain words with [`IndexSearchOptions::literal`]; it is
    /// bound as a parameter, never spliced into SQL. A query FTS5 refuses is
    /// [`ErrorCode::Invalid`] with the message `"bad search query: "` and SQLite's words. Only
    /// the newest 1,000 matches that pass the filters are ranked (docs/search.md#ranking).
    pub fn search(&self, query: &str, opts: &IndexSearchOptions) -> Result<Vec<SearchHit>> {
        decode(&self.search_json(query, opts)?, "xs_search")
    }

    /// [`Index::search`] as the library's JSON array of `{"sessionId","sessionTitle",
    /// "sessionPath","cwd","entryId","role","onPath","timestamp","score","snippet"}` objects.
    pub fn search_json(&self, query: &str, opts: &IndexSearchOptions) -> Result<String> {
        let query = c_string(query, "query")?;
        let cwd = opts.cwd.as_deref().map(|cwd| path_c_string(cwd, "cwd")).transpose()?;
        let role = opts.role.map(|role| c_string(role.as_str(), "role")).transpose()?;
        let session_id = opts.session_id.as_deref().map(|id| c_string(id, "session id")).transpose()?;
        let mut raw = init(sys::xs_search_options_init, sys::XS_SEARCH_OPTIONS_VERSION)?;
        if opts.literal {
            raw.flags |= sys::XS_SEARCH_LITERAL;
        }
        raw.cwd = opt_ptr(&cwd);
        raw.role = opt_ptr(&role);
        raw.since_ms = opts.since_ms.unwrap_or(0);
        raw.session_id = opt_ptr(&session_id);
        raw.limit = opts.limit;
        // SAFETY: live index; `raw` and the strings it points into outlive the call; the buffer
        // triple comes from read_bytes.
        self.handle.read_string("xs_search", |ix, b, c, n| unsafe { sys::xs_search(ix, query.as_ptr(), &raw, b, c, n) })
    }

    /// Closes the index (`xs_index_close`); dropping it does the same. Nothing is pending, so
    /// there is no error to return.
    pub fn close(self) {}

    /// The error the index handle holds from its last call (`xs_index_errcode` and
    /// `xs_index_errmsg`), `None` after a success. Every method already returns its own error;
    /// this shows what the C handle itself holds.
    pub fn last_error(&self) -> Option<Error> {
        // SAFETY: live index.
        self.handle.last_error(|ix| unsafe { sys::xs_index_errcode(ix) })
    }
}
