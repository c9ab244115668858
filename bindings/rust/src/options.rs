//! Safe builders for the versioned option structs of `xsession.h`.
//!
//! Each builder owns its strings; `to_raw` fills the C struct through the library's own
//! `*_init` (so defaults and the version field come from the library, as the header asks) and
//! returns it together with the `CString`s its pointers borrow from.

use std::ffi::CString;
use std::path::{Path, PathBuf};

use crate::buffer::{opt_c_string, opt_ptr, path_c_string};
use crate::dialect::Dialect;
use crate::error::{Error, ErrorCode, Result};
use crate::policy::{RawResetPolicy, ResetPolicy};
use crate::storage::Storage;
use crate::storage_table::{OwnedTable, StorageSource};
use crate::sys;

/// Calls an `xs_*_init(struct, version)` and turns a failure into an [`Error`] (there is no
/// handle to hold a message, so the message is the status name).
pub(crate) fn init<T>(init: unsafe extern "C" fn(*mut T, u32) -> sys::xs_status, version: u32) -> Result<T> {
    let mut raw = std::mem::MaybeUninit::<T>::zeroed();
    // SAFETY: `raw` is a valid, writable struct of the type the init function fills.
    let rc = unsafe { init(raw.as_mut_ptr(), version) };
    if rc != sys::XS_OK {
        return Err(Error::new(ErrorCode::from_raw(rc), "cannot initialise an option struct"));
    }
    // SAFETY: every field is an integer or a raw pointer, for which all-zero bits are valid, and
    // the init function has set the defaults.
    Ok(unsafe { raw.assume_init() })
}

/// Options for opening a store ([`Store::open_with`](crate::Store::open_with), `xs_store_options`).
///
/// ```
/// use xsession::{Dialect, StoreOptions};
/// let opts = StoreOptions::new().default_dialect(Dialect::Pi);
/// # let _ = opts;
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreOptions {
    in_memory: bool,
    default_dialect: Dialect,
    keys_path: Option<PathBuf>,
    reset_policy: Option<ResetPolicy>,
    storage: Option<StorageSource>,
}

impl Default for StoreOptions {
    fn default() -> StoreOptions {
        StoreOptions {
            in_memory: false,
            default_dialect: Dialect::Omp,
            keys_path: None,
            reset_policy: None,
            storage: None,
        }
    }
}

/// The raw struct plus what its pointers point into (kept alive together; the policy and the
/// storage table are boxed so that moving this value does not move what the pointers point at).
/// The table's storage reference is released with this value unless [`RawStoreOptions::opened`]
/// says a store took it.
pub(crate) struct RawStoreOptions {
    pub(crate) raw: sys::xs_store_options,
    _keys_path: Option<CString>,
    _reset_policy: Option<Box<RawResetPolicy>>,
    storage: Option<Box<OwnedTable>>,
}

impl RawStoreOptions {
    /// `xs_store_open` succeeded with these options: the store owns the storage table's `user`.
    pub(crate) fn opened(&mut self) {
        if let Some(table) = &mut self.storage {
            table.give();
        }
    }
}

impl StoreOptions {
    /// Defaults: sessions on disk under the root; new sessions in the omp dialect.
    pub fn new() -> StoreOptions {
        StoreOptions::default()
    }

    /// Sessions live in memory only: nothing touches the disk and the root is ignored
    /// (`XS_STORE_IN_MEMORY`).
    pub fn in_memory(mut self, on: bool) -> StoreOptions {
        self.in_memory = on;
        self
    }

    /// The dialect of new sessions, and of files whose lines show neither dialect, unless a
    /// session's options force one ([`Dialect::Pi`]: `XS_STORE_DIALECT_PI`; default [`Dialect::Omp`]).
    pub fn default_dialect(mut self, dialect: Dialect) -> StoreOptions {
        self.default_dialect = dialect;
        self
    }

    /// Where the keyed store ([`Store::keys`](crate::Store::keys)) keeps its document, instead of
    /// `<root>/sessions.json` (`xs_store_options.keys_path`). The library copies the path when
    /// the store opens. A path that is not UTF-8 or holds a NUL byte makes
    /// [`Store::open_with`](crate::Store::open_with) fail with [`ErrorCode::Invalid`].
    pub fn keys_path(mut self, path: impl AsRef<Path>) -> StoreOptions {
        self.keys_path = Some(path.as_ref().to_path_buf());
        self
    }

    /// The reset policy of [`Store::session_for_key`](crate::Store::session_for_key) calls that
    /// pass none (`xs_store_options.reset_policy`); without one, a key's session never expires.
    /// A bad policy (an hour outside 0-23, an unknown time zone) makes
    /// [`Store::open_with`](crate::Store::open_with) fail with [`ErrorCode::Invalid`].
    pub fn reset_policy(mut self, policy: ResetPolicy) -> StoreOptions {
        self.reset_policy = Some(policy);
        self
    }

    /// Keeps the store's files in `storage` instead of the disk (`xs_store_options.storage`,
    /// `xsession_storage.h`): every read, write, rename and lock goes through its [`Storage`]
    /// methods. Each store opened with these options holds a clone of the `Arc` until the store
    /// and every session opened from it are gone; a store that fails to open drops its clone at
    /// once. Not with [`StoreOptions::in_memory`] (the library refuses the pair with
    /// [`ErrorCode::Invalid`]); [`BuiltinStorage::memory`](crate::BuiltinStorage::memory) is the
    /// in-memory backend as a storage.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use xsession::{BuiltinStorage, StoreOptions};
    /// # fn main() -> xsession::Result<()> {
    /// let opts = StoreOptions::new().storage(Arc::new(BuiltinStorage::posix()?));
    /// # let _ = opts;
    /// # Ok(())
    /// # }
    /// ```
    pub fn storage<S: Storage>(mut self, storage: std::sync::Arc<S>) -> StoreOptions {
        self.storage = Some(StorageSource::new(storage));
        self
    }

    pub(crate) fn is_in_memory(&self) -> bool {
        self.in_memory
    }

    pub(crate) fn to_raw(&self) -> Result<RawStoreOptions> {
        let mut raw = init(sys::xs_store_options_init, sys::XS_STORE_OPTIONS_VERSION)?;
        if self.in_memory {
            raw.flags |= sys::XS_STORE_IN_MEMORY;
        }
        if self.default_dialect == Dialect::Pi {
            raw.flags |= sys::XS_STORE_DIALECT_PI;
        }
        let keys_path = match &self.keys_path {
            // The C API takes NUL-terminated UTF-8; a lossy conversion would name another file.
            Some(path) => Some(path_c_string(path, "keys path")?),
            None => None,
        };
        raw.keys_path = opt_ptr(&keys_path);
        let policy = match &self.reset_policy {
            Some(policy) => Some(Box::new(policy.to_raw()?)),
            None => None,
        };
        raw.reset_policy = policy.as_ref().map_or(std::ptr::null(), |p| &p.raw);
        let storage = self.storage.as_ref().map(|source| Box::new(source.table()));
        raw.storage = storage.as_ref().map_or(std::ptr::null(), |table| &table.raw);
        Ok(RawStoreOptions { raw, _keys_path: keys_path, _reset_policy: policy, storage })
    }
}

/// Options for opening or creating a session (`xs_session_options`).
///
/// ```
/// let opts = xsession::SessionOptions::new().no_defer(true).title("Fix the build");
/// # let _ = opts;
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SessionOptions {
    flags: u32,
    max_line_bytes: u64,
    max_depth: u32,
    dialect: Option<Dialect>,
    clock: Option<(i64, i64)>,
    id_seed: u64,
    cwd: Option<PathBuf>,
    session_id: Option<String>,
    title: Option<String>,
    parent_session: Option<String>,
    key: Option<String>,
}

/// The raw struct plus the strings its pointers point into (kept alive together).
pub(crate) struct RawSessionOptions {
    pub(crate) raw: sys::xs_session_options,
    _strings: [Option<CString>; 5],
}

impl SessionOptions {
    /// Defaults: writable, deferred until the first assistant message, the system clock, random
    /// ids, the dialect chosen by the file or the store.
    pub fn new() -> SessionOptions {
        SessionOptions::default()
    }

    fn flag(mut self, flag: u32, on: bool) -> SessionOptions {
        if on {
            self.flags |= flag;
        } else {
            self.flags &= !flag;
        }
        self
    }

    /// Open without the writer lock; writes fail with [`ErrorCode::ReadOnly`] and nothing is ever
    /// written, not even a migration (`XS_SESSION_READ_ONLY`).
    pub fn read_only(self, on: bool) -> SessionOptions {
        self.flag(sys::XS_SESSION_READ_ONLY, on)
    }

    /// [`Store::open_session`](crate::Store::open_session): a missing file becomes a new session
    /// at that path (`XS_SESSION_CREATE`).
    pub fn create(self, on: bool) -> SessionOptions {
        self.flag(sys::XS_SESSION_CREATE, on)
    }

    /// Write the file at once instead of at the first assistant message (`XS_SESSION_NO_DEFER`).
    pub fn no_defer(self, on: bool) -> SessionOptions {
        self.flag(sys::XS_SESSION_NO_DEFER, on)
    }

    /// `fdatasync` every append before it returns: power-loss safe (`XS_SESSION_SYNC`).
    pub fn sync(self, on: bool) -> SessionOptions {
        self.flag(sys::XS_SESSION_SYNC, on)
    }

    /// Deterministic timestamps for tests: the first is `start_ms` (ms since the epoch), each
    /// later one `step_ms` more (`XS_SESSION_FIXED_CLOCK`).
    pub fn fixed_clock(mut self, start_ms: i64, step_ms: i64) -> SessionOptions {
        self.clock = Some((start_ms, step_ms));
        self
    }

    /// Non-zero: ids come from a reproducible sequence (tests).
    pub fn id_seed(mut self, seed: u64) -> SessionOptions {
        self.id_seed = seed;
        self
    }

    /// Longest line accepted on load or append (0 = the library's default, 64 MiB).
    pub fn max_line_bytes(mut self, bytes: u64) -> SessionOptions {
        self.max_line_bytes = bytes;
        self
    }

    /// Deepest JSON nesting accepted, the root being depth 1 (0 = the default, 256).
    pub fn max_depth(mut self, depth: u32) -> SessionOptions {
        self.max_depth = depth;
        self
    }

    /// The dialect to write in, forced for a new session and an existing file alike; `None`
    /// (the default, `XS_DIALECT_AUTO`): an existing file's own dialect, else the store's default
    /// (a fork or branched session: its source's). Takes a [`Dialect`] or an `Option<Dialect>`.
    pub fn dialect(mut self, dialect: impl Into<Option<Dialect>>) -> SessionOptions {
        self.dialect = dialect.into();
        self
    }

    /// Header `cwd` of a session made by an open with [`create`](Self::create) (creating
    /// constructors take the cwd as an argument instead).
    pub fn cwd(mut self, cwd: impl AsRef<Path>) -> SessionOptions {
        self.cwd = Some(cwd.as_ref().to_path_buf());
        self
    }

    /// The new session's id (1-64 chars of `[A-Za-z0-9_-]`); default: 16 generated hex chars
    /// (in the pi dialect a UUIDv7, as pi makes them).
    pub fn session_id(mut self, id: &str) -> SessionOptions {
        self.session_id = Some(id.to_owned());
        self
    }

    /// The new session's title: the header's (omp dialect), or a first `session_info` entry
    /// (pi dialect).
    pub fn title(mut self, title: &str) -> SessionOptions {
        self.title = Some(title.to_owned());
        self
    }

    /// The new session's header `parentSession` (an id or a path).
    pub fn parent_session(mut self, parent: &str) -> SessionOptions {
        self.parent_session = Some(parent.to_owned());
        self
    }

    /// Binds the session to `key` of the store's keyed document ([`Store::keys`](crate::Store::keys)):
    /// it writes its stats ([`Session::stats`](crate::Session::stats)) with `sessionId`,
    /// `sessionFile` and `updatedAt` into the key's record after each assistant message, on
    /// flush and on close (`xs_session_options.key`). Refused ([`ErrorCode::Invalid`]) with
    /// [`read_only`](Self::read_only).
    pub fn key(mut self, key: &str) -> SessionOptions {
        self.key = Some(key.to_owned());
        self
    }

    pub(crate) fn to_raw(&self) -> Result<RawSessionOptions> {
        let mut raw = init(sys::xs_session_options_init, sys::XS_SESSION_OPTIONS_VERSION)?;
        let strings = [
            self.cwd.as_deref().map(|cwd| path_c_string(cwd, "cwd")).transpose()?,
            opt_c_string(self.session_id.as_deref(), "session id")?,
            opt_c_string(self.title.as_deref(), "title")?,
            opt_c_string(self.parent_session.as_deref(), "parent session")?,
            opt_c_string(self.key.as_deref(), "key")?,
        ];
        raw.flags = self.flags;
        raw.max_line_bytes = self.max_line_bytes;
        raw.max_depth = self.max_depth;
        raw.dialect = self.dialect.map_or(sys::XS_DIALECT_AUTO, Dialect::raw);
        if let Some((start, step)) = self.clock {
            raw.flags |= sys::XS_SESSION_FIXED_CLOCK;
            raw.clock_start_ms = start;
            raw.clock_step_ms = step;
        }
        raw.id_seed = self.id_seed;
        raw.cwd = opt_ptr(&strings[0]);
        raw.session_id = opt_ptr(&strings[1]);
        raw.title = opt_ptr(&strings[2]);
        raw.parent_session = opt_ptr(&strings[3]);
        raw.key = opt_ptr(&strings[4]);
        Ok(RawSessionOptions { raw, _strings: strings })
    }
}

/// Which sessions [`Store::list`](crate::Store::list) returns (`xs_list_options`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListOptions {
    full: bool,
    limit: u64,
    cwd: Option<PathBuf>,
}

impl ListOptions {
    /// Every session of every working directory, from bounded prefix reads.
    pub fn new() -> ListOptions {
        ListOptions::default()
    }

    /// Read whole files: adds `messageCount`, `entryCount` and `diagnostics` (`XS_LIST_FULL`).
    pub fn full(mut self, on: bool) -> ListOptions {
        self.full = on;
        self
    }

    /// At most this many sessions, the newest (0 = all).
    pub fn limit(mut self, limit: u64) -> ListOptions {
        self.limit = limit;
        self
    }

    /// Only sessions whose header names this working directory.
    pub fn cwd(mut self, cwd: impl AsRef<Path>) -> ListOptions {
        self.cwd = Some(cwd.as_ref().to_path_buf());
        self
    }

    pub(crate) fn to_raw(&self) -> Result<(sys::xs_list_options, Option<CString>)> {
        let mut raw = init(sys::xs_list_options_init, sys::XS_LIST_OPTIONS_VERSION)?;
        let cwd = self.cwd.as_deref().map(|cwd| path_c_string(cwd, "cwd")).transpose()?;
        if self.full {
            raw.flags |= sys::XS_LIST_FULL;
        }
        raw.limit = self.limit;
        raw.cwd = opt_ptr(&cwd);
        Ok((raw, cwd))
    }
}

/// How blob garbage collection runs ([`Store::blob_gc`](crate::Store::blob_gc), `xs_gc_options`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GcOptions {
    dry_run: bool,
    grace_ms: Option<i64>,
    now_ms: i64,
}

impl GcOptions {
    /// Defaults: delete for real, a one-hour grace period, the system clock.
    pub fn new() -> GcOptions {
        GcOptions::default()
    }

    /// Report what would be deleted; delete nothing (`XS_GC_DRY_RUN`).
    pub fn dry_run(mut self, on: bool) -> GcOptions {
        self.dry_run = on;
        self
    }

    /// Never delete a file younger than this many milliseconds (the library's default is 1 hour).
    pub fn grace_ms(mut self, ms: i64) -> GcOptions {
        self.grace_ms = Some(ms);
        self
    }

    /// "Now" for the age test, in ms since the epoch (0 = the system clock; tests pin it).
    pub fn now_ms(mut self, ms: i64) -> GcOptions {
        self.now_ms = ms;
        self
    }

    pub(crate) fn to_raw(&self) -> Result<sys::xs_gc_options> {
        let mut raw = init(sys::xs_gc_options_init, sys::XS_GC_OPTIONS_VERSION)?;
        if self.dry_run {
            raw.flags |= sys::XS_GC_DRY_RUN;
        }
        if let Some(grace) = self.grace_ms {
            raw.grace_ms = grace;
        }
        raw.now_ms = self.now_ms;
        Ok(raw)
    }
}

/// How [`Session::repair`](crate::Session::repair) repairs (`xs_session_repair`'s flags).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RepairOptions {
    quarantine: bool,
}

impl RepairOptions {
    /// Defaults: every line stays; a torn last line only gets its newline.
    pub fn new() -> RepairOptions {
        RepairOptions::default()
    }

    /// Move the lines whose bytes are not JSON (garbage, invalid UTF-8, NUL bytes, a torn last
    /// line) out of the session into `<file>.quarantine-<time>.jsonl` beside it, then rewrite the
    /// session without them (`XS_REPAIR_QUARANTINE`). Every other byte stays.
    pub fn quarantine(mut self, on: bool) -> RepairOptions {
        self.quarantine = on;
        self
    }

    pub(crate) fn flags(&self) -> u32 {
        if self.quarantine {
            sys::XS_REPAIR_QUARANTINE
        } else {
            0
        }
    }
}
