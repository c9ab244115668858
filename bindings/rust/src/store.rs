//! [`Store`]: the root directory of sessions and blobs, and the constructors of sessions.

use std::os::raw::c_char;
use std::path::{Path, PathBuf};

use crate::buffer::{c_string, into_path, opt_c_string, opt_ptr, path_c_string};
use crate::error::{Error, ErrorCode, Result};
use crate::handle::Handle;
use crate::options::{ListOptions, SessionOptions, StoreOptions};
use crate::session::Session;
use crate::sys;
use crate::types::{decode, ListedSession};

/// An open store (`xs_store`): a root directory holding `sessions/`, `blobs/` and
/// `terminal-sessions/`, or an in-memory store for tests.
///
/// Dropping the store frees the handle (`xs_store_free`). Sessions opened from it stay valid:
/// the library keeps the store's internals alive for them, so drop order does not matter.
/// `Send + Sync`: see the crate documentation on threads.
pub struct Store {
    pub(crate) handle: Handle<sys::xs_store>,
}

impl Store {
    /// Opens the store rooted at `root` (created on the first write if missing; opening writes
    /// nothing). Fails with [`ErrorCode::Invalid`] if `root` names a file.
    pub fn open(root: impl AsRef<Path>) -> Result<Store> {
        Store::open_with(root, &StoreOptions::new())
    }

    /// A store whose sessions live in memory only: nothing touches the disk (`XS_STORE_IN_MEMORY`).
    pub fn in_memory() -> Result<Store> {
        Store::open_with("", &StoreOptions::new().in_memory(true))
    }

    /// [`Store::open`] with options, such as pi as the dialect of new sessions:
    ///
    /// ```no_run
    /// use xsession::{Dialect, SessionOptions, Store, StoreOptions};
    /// # fn main() -> xsession::Result<()> {
    /// let store = Store::open_with("/home/me/.pi/agent", &StoreOptions::new().default_dialect(Dialect::Pi))?;
    /// let session = store.create_session("/home/me/project", &SessionOptions::new())?;
    /// assert_eq!(session.dialect()?, Dialect::Pi);
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// With [`StoreOptions::in_memory`] the root is ignored.
    pub fn open_with(root: impl AsRef<Path>, opts: &StoreOptions) -> Result<Store> {
        let root = if opts.is_in_memory() { None } else { Some(path_c_string(root.as_ref(), "store root")?) };
        let mut opts = opts.to_raw()?;
        // SAFETY: xs_store_new has no preconditions; NULL means out of memory.
        let handle = Handle::from_raw(unsafe { sys::xs_store_new() })
            .ok_or_else(|| Error::new(ErrorCode::NoMem, "xs_store_new: out of memory"))?;
        // SAFETY: live handle; `root` and `opts` (with the path it points into) outlive the call.
        handle.check(|st| unsafe { sys::xs_store_open(st, opt_ptr(&root), &opts.raw) })?;
        opts.opened();
        Ok(Store { handle })
    }

    // --- sessions (constructor errors are reported on the store) -------------------------------

    /// Starts a new session for working directory `cwd` in this store. Nothing is written until
    /// the first assistant message unless [`SessionOptions::no_defer`] is set.
    pub fn create_session(&self, cwd: impl AsRef<Path>, opts: &SessionOptions) -> Result<Session> {
        let cwd = path_c_string(cwd.as_ref(), "cwd")?;
        // SAFETY: live store; every pointer argument outlives the call.
        self.handle.construct(opts, |st, o, out| unsafe { sys::xs_session_create(st, cwd.as_ptr(), o, out) })
    }

    /// Opens the session file at `path_or_id`: a path, or (with no `/` and naming no file) a
    /// session id or unambiguous id prefix. v1/v2 files are migrated in memory (and rewritten
    /// at once by a writable open); unreadable lines are skipped and reported.
    pub fn open_session(&self, path_or_id: impl AsRef<Path>, opts: &SessionOptions) -> Result<Session> {
        let path = path_c_string(path_or_id.as_ref(), "path")?;
        // SAFETY: as in create_session.
        self.handle.construct(opts, |st, o, out| unsafe { sys::xs_session_open(st, path.as_ptr(), o, out) })
    }

    /// Continues the most recent session of `cwd`: the one terminal `terminal_id` last used (its
    /// breadcrumb), else the newest file for `cwd`, else a new session. Opened for writing.
    pub fn continue_recent(
        &self,
        cwd: impl AsRef<Path>,
        terminal_id: Option<&str>,
        opts: &SessionOptions,
    ) -> Result<Session> {
        let cwd = path_c_string(cwd.as_ref(), "cwd")?;
        let terminal = opt_c_string(terminal_id, "terminal id")?;
        // SAFETY: as in create_session.
        self.handle.construct(opts, |st, o, out| unsafe {
            sys::xs_session_continue_recent(st, cwd.as_ptr(), opt_ptr(&terminal), o, out)
        })
    }

    /// Copies the session file at `source_path` into a new session for `target_cwd` (a new id,
    /// `parentSession` = the source's id, written at once). The source is only read.
    pub fn fork_from(
        &self,
        source_path: impl AsRef<Path>,
        target_cwd: impl AsRef<Path>,
        opts: &SessionOptions,
    ) -> Result<Session> {
        let source = path_c_string(source_path.as_ref(), "source path")?;
        let cwd = path_c_string(target_cwd.as_ref(), "cwd")?;
        // SAFETY: as in create_session.
        self.handle.construct(opts, |st, o, out| unsafe {
            sys::xs_session_fork_from(st, source.as_ptr(), cwd.as_ptr(), o, out)
        })
    }

    // --- discovery ----------------------------------------------------------------------------

    /// The directory that holds the sessions of `cwd` (`<root>/sessions/--<cwd encoded>--`).
    pub fn session_dir(&self, cwd: impl AsRef<Path>) -> Result<PathBuf> {
        let cwd = path_c_string(cwd.as_ref(), "cwd")?;
        // SAFETY: live store; `cwd` outlives the call; the buffer triple comes from read_bytes.
        let bytes = self.handle.read(|st, b, c, n| unsafe { sys::xs_store_session_dir(st, cwd.as_ptr(), b, c, n) })?;
        into_path(bytes, "xs_store_session_dir")
    }

    /// The store's sessions, newest first, typed (see [`Store::list_json`]).
    pub fn list(&self, opts: &ListOptions) -> Result<Vec<ListedSession>> {
        decode(&self.list_json(opts)?, "xs_store_list")
    }

    /// The store's sessions, newest first, as the library's JSON array of
    /// `{"path","id","cwd","timestamp","modified","size","title",…}` objects.
    pub fn list_json(&self, opts: &ListOptions) -> Result<String> {
        let (raw, _cwd) = opts.to_raw()?;
        // SAFETY: live store; `raw` and the string it points into outlive the call.
        self.handle.read_string("xs_store_list", |st, b, c, n| unsafe { sys::xs_store_list(st, &raw, b, c, n) })
    }

    /// The path of the session whose id, file name or file-name suffix starts with `query`
    /// (case-insensitive); `cwd`'s directory is searched first. [`ErrorCode::Ambiguous`] when
    /// several match (the message names them).
    pub fn resolve(&self, query: &str, cwd: Option<&Path>) -> Result<PathBuf> {
        let query = c_string(query, "query")?;
        let cwd = cwd.map(|cwd| path_c_string(cwd, "cwd")).transpose()?;
        // SAFETY: live store; the strings outlive the call.
        let bytes = self
            .handle
            .read(|st, b, c, n| unsafe { sys::xs_store_resolve(st, query.as_ptr(), opt_ptr(&cwd), b, c, n) })?;
        into_path(bytes, "xs_store_resolve")
    }

    /// Records that terminal `terminal_id` uses the session at `session_path` in `cwd` (read back
    /// by [`Store::continue_recent`]).
    pub fn write_breadcrumb(
        &self,
        terminal_id: &str,
        cwd: impl AsRef<Path>,
        session_path: impl AsRef<Path>,
    ) -> Result<()> {
        let terminal = c_string(terminal_id, "terminal id")?;
        let cwd = path_c_string(cwd.as_ref(), "cwd")?;
        let path = path_c_string(session_path.as_ref(), "session path")?;
        // SAFETY: live store; the strings outlive the call.
        self.handle
            .check(|st| unsafe { sys::xs_store_write_breadcrumb(st, terminal.as_ptr(), cwd.as_ptr(), path.as_ptr()) })
    }

    // --- blobs --------------------------------------------------------------------------------

    /// Stores `data` in the content-addressed blob store (atomically, idempotently) and returns
    /// its SHA-256 as 64 lowercase hex chars.
    pub fn blob_put(&self, data: &[u8]) -> Result<String> {
        // SAFETY: live store; `data` is readable for its length; `hash` has XS_HASH_BUFSIZE bytes.
        self.handle.fixed::<{ sys::XS_HASH_BUFSIZE }>("xs_blob_put", |st, hash: *mut c_char| unsafe {
            sys::xs_blob_put(st, data.as_ptr().cast(), data.len(), hash)
        })
    }

    /// A blob's bytes, verified against its hash: [`ErrorCode::NotFound`] if missing,
    /// [`ErrorCode::Corrupt`] if the content does not match its name.
    pub fn blob_get(&self, hash: &str) -> Result<Vec<u8>> {
        let hash = c_string(hash, "hash")?;
        // SAFETY: live store; `hash` outlives the call.
        self.handle.read(|st, b, c, n| unsafe { sys::xs_blob_get(st, hash.as_ptr(), b.cast(), c, n) })
    }

    /// The error the store handle holds from its last call (`xs_store_errcode` and
    /// `xs_store_errmsg`), `None` after a success. Every method already returns its own error;
    /// this shows what the C handle itself holds.
    pub fn last_error(&self) -> Option<Error> {
        // SAFETY: live store.
        self.handle.last_error(|st| unsafe { sys::xs_store_errcode(st) })
    }
}
