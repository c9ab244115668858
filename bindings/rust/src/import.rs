//! Import (docs/import.md): another agent's store read into native sessions of this one. The
//! source is only ever read; a re-import adds only what is new.

use std::ffi::CString;
use std::fmt;
use std::os::raw::c_char;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::buffer::{c_string, opt_ptr, path_c_string};
use crate::error::{Error, ErrorCode, Result};
use crate::options::init;
use crate::progress::with_progress;
use crate::store::Store;
use crate::sys;
use crate::types::{decode, ForeignListing, ImportReport};

/// Whose store [`Store::import`] and [`Store::foreign_list`] read.
///
/// ```
/// use xsession::ImportKind;
/// assert_eq!("myagents".parse::<ImportKind>().unwrap(), ImportKind::MyAgents);
/// assert_eq!(ImportKind::Claude.to_string(), "claude");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ImportKind {
    /// Claude Code (`"claude"`, docs/import-claude.md): one project directory of `~/.claude/projects`
    /// (it holds `*.jsonl` or `sessions-index.json`) or the projects root above such directories.
    Claude,
    /// MyAgents (`"myagents"`, docs/import-hosts.md): the directory holding `sessions.json` and
    /// `sessions/`, such as `~/.myagents`.
    MyAgents,
    /// A gateway's state directory (`"gateway"`, docs/import-hosts.md), such as `~/.openclaw`: the
    /// directory holding `agents/`, `agents/` itself, or one `agents/<id>/sessions/` directory.
    Gateway,
    /// Codex CLI (`"codex"`, docs/import-codex.md): a sessions directory such as
    /// `~/.codex/sessions`, whose `rollout-*.jsonl` files are read at any depth.
    Codex,
}

impl ImportKind {
    /// The `kind` argument of the C API: `"claude"`, `"myagents"`, `"gateway"` or `"codex"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ImportKind::Claude => "claude",
            ImportKind::MyAgents => "myagents",
            ImportKind::Gateway => "gateway",
            ImportKind::Codex => "codex",
        }
    }
}

impl fmt::Display for ImportKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ImportKind {
    type Err = Error;

    /// The C API's names, exactly; anything else is [`ErrorCode::Invalid`], the status the
    /// library gives an unknown kind.
    fn from_str(s: &str) -> Result<ImportKind> {
        match s {
            "claude" => Ok(ImportKind::Claude),
            "myagents" => Ok(ImportKind::MyAgents),
            "gateway" => Ok(ImportKind::Gateway),
            "codex" => Ok(ImportKind::Codex),
            other => Err(Error::new(
                ErrorCode::Invalid,
                format!("unknown import kind {other:?} (claude, myagents, gateway or codex)"),
            )),
        }
    }
}

/// How [`Store::import`] and [`Store::foreign_list`] read (`xs_import_options`). A setting left
/// alone keeps the library's default: a real import, each session's own cwd, a 2000 ms wait for
/// a host's index lock, the system clock.
///
/// ```
/// let opts = xsession::ImportOptions::new().dry_run(true).target_cwd("/home/me/project");
/// # let _ = opts;
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportOptions {
    dry_run: bool,
    target_cwd: Option<PathBuf>,
    fallback_cwd: Option<PathBuf>,
    lock_wait_ms: Option<i64>,
    now_ms: Option<i64>,
}

/// The raw struct and the strings its pointers borrow.
struct RawImportOptions {
    raw: sys::xs_import_options,
    _target_cwd: Option<CString>,
    _fallback_cwd: Option<CString>,
}

impl ImportOptions {
    /// The library's defaults.
    pub fn new() -> ImportOptions {
        ImportOptions::default()
    }

    /// Report exactly what the import would do, and write nothing, not even the store's
    /// directory (`XS_IMPORT_DRY_RUN`).
    pub fn dry_run(mut self, on: bool) -> ImportOptions {
        self.dry_run = on;
        self
    }

    /// [`ImportKind::Claude`] only: the cwd of every imported session, instead of each
    /// conversation's own. An absolute path without `.` or `..` components; anything else (or
    /// this with another kind) is [`ErrorCode::Invalid`].
    pub fn target_cwd(mut self, cwd: impl AsRef<Path>) -> ImportOptions {
        self.target_cwd = Some(cwd.as_ref().to_path_buf());
        self
    }

    /// [`ImportKind::Gateway`] and [`ImportKind::MyAgents`] only: the cwd of a session whose
    /// source names none (default: the source directory). Absolute, as
    /// [`target_cwd`](Self::target_cwd).
    pub fn fallback_cwd(mut self, cwd: impl AsRef<Path>) -> ImportOptions {
        self.fallback_cwd = Some(cwd.as_ref().to_path_buf());
        self
    }

    /// How long to wait for a host's index lock (held while the host writes its index) before
    /// reading the index anyway, with a note in the report (default 2000; negative is
    /// [`ErrorCode::Invalid`]). A lock older than 30 s is stale and not waited for.
    pub fn lock_wait_ms(mut self, ms: i64) -> ImportOptions {
        self.lock_wait_ms = Some(ms);
        self
    }

    /// "Now" for a lock's age, in ms since the epoch (0, the default: the system clock).
    pub fn now_ms(mut self, ms: i64) -> ImportOptions {
        self.now_ms = Some(ms);
        self
    }

    /// The library's defaults from `xs_import_options_init`, then the settings given here.
    fn to_raw(&self) -> Result<RawImportOptions> {
        let mut raw = init(sys::xs_import_options_init, sys::XS_IMPORT_OPTIONS_VERSION)?;
        let target_cwd = self.target_cwd.as_deref().map(|cwd| path_c_string(cwd, "target cwd")).transpose()?;
        let fallback_cwd = self.fallback_cwd.as_deref().map(|cwd| path_c_string(cwd, "fallback cwd")).transpose()?;
        if self.dry_run {
            raw.flags |= sys::XS_IMPORT_DRY_RUN;
        }
        raw.target_cwd = opt_ptr(&target_cwd);
        raw.fallback_cwd = opt_ptr(&fallback_cwd);
        if let Some(ms) = self.lock_wait_ms {
            raw.lock_wait_ms = ms;
        }
        if let Some(ms) = self.now_ms {
            raw.now_ms = ms;
        }
        Ok(RawImportOptions { raw, _target_cwd: target_cwd, _fallback_cwd: fallback_cwd })
    }
}

/// The signature `xs_import` and `xs_foreign_list` share.
type ForeignCall = unsafe extern "C" fn(
    *mut sys::xs_store,
    *const c_char,
    *const c_char,
    *const sys::xs_import_options,
    *mut c_char,
    usize,
    *mut usize,
) -> sys::xs_status;

impl Store {
    /// Imports the store of `kind` at `source_path` into this one, typed report (see
    /// [`Store::import_json`]).
    pub fn import(
        &self,
        kind: ImportKind,
        source_path: impl AsRef<Path>,
        opts: &ImportOptions,
    ) -> Result<ImportReport> {
        decode(&self.import_json(kind, source_path, opts)?, "xs_import")
    }

    /// Imports the store of `kind` at `source_path` (a directory; relative to the process's
    /// working directory if relative) into this one (`xs_import`): every conversation becomes a
    /// native session, created or, on a re-import, continued with only what is new; every host
    /// index key becomes a key of [`Store::keys`]. Returns the library's report
    /// (docs/import.md#the-report): `{"source","root","dryRun","rowsRead","imported",
    /// "keptAsCustom","alreadyImported","skipped","sessions":[…],"skippedRows":[…],"notes":[…]}`.
    ///
    /// Bad rows and files in the source are in the report, never an error. Errors:
    /// [`ErrorCode::NotFound`] when `source_path` does not exist (for MyAgents, a directory with
    /// neither `sessions.json` nor `sessions/`); [`ErrorCode::Invalid`] for an empty path, a file,
    /// or a bad option; the store's write errors, after which the sessions written before stay
    /// whole.
    pub fn import_json(&self, kind: ImportKind, source_path: impl AsRef<Path>, opts: &ImportOptions) -> Result<String> {
        self.read_foreign("xs_import", sys::xs_import, kind, source_path.as_ref(), opts)
    }

    /// [`Store::import`] with a progress callback, typed report (see
    /// [`Store::import_with_progress_json`]).
    pub fn import_with_progress<F: FnMut(u64, u64)>(
        &self,
        kind: ImportKind,
        source_path: impl AsRef<Path>,
        opts: &ImportOptions,
        progress: F,
    ) -> Result<ImportReport> {
        decode(&self.import_with_progress_json(kind, source_path, opts, progress)?, "xs_import")
    }

    /// [`Store::import_json`] that reports its progress in bytes of the source's transcripts
    /// (docs/import.md#progress): `progress(done, total)` runs with `done` 0 once the source is
    /// found, then about once per thousandth of `total` (the transcripts' sizes when the import
    /// starts), then with `done == total`; a dry run calls it too. It runs on this thread while
    /// the store is busy: a call on this store from inside it fails with
    /// [`ErrorCode::Misuse`]. A panic in `progress` does not cross the C library: it is caught,
    /// the closure is not called again, the import finishes, and the panic then resumes on this
    /// thread.
    pub fn import_with_progress_json<F>(
        &self,
        kind: ImportKind,
        source_path: impl AsRef<Path>,
        opts: &ImportOptions,
        progress: F,
    ) -> Result<String>
    where
        F: FnMut(u64, u64),
    {
        let (kind, source, mut opts) = foreign_args(kind, source_path.as_ref(), opts)?;
        with_progress(progress, |progress, user| {
            opts.raw.progress = Some(progress);
            opts.raw.progress_user = user;
            // SAFETY: live store; `kind`, `source` and `opts` (with the strings it points into)
            // outlive the call; the library calls `progress` only during it, on this thread (the
            // retry after XS_EBUFS copies the report: nothing is imported twice, nor reported).
            self.handle.read_string_running_closure("xs_import", |st, b, c, n| unsafe {
                sys::xs_import(st, kind.as_ptr(), source.as_ptr(), &opts.raw, b, c, n)
            })
        })
    }

    /// What the store of `kind` at `source_path` holds, typed (see [`Store::foreign_list_json`]).
    pub fn foreign_list(
        &self,
        kind: ImportKind,
        source_path: impl AsRef<Path>,
        opts: &ImportOptions,
    ) -> Result<ForeignListing> {
        decode(&self.foreign_list_json(kind, source_path, opts)?, "xs_foreign_list")
    }

    /// What the store of `kind` at `source_path` holds, read only, as the library's JSON
    /// listing (`xs_foreign_list`; docs/import-claude.md#the-listing,
    /// docs/import-hosts.md#listing-json). Nothing is written anywhere, this store included.
    /// Of `opts`, only [`lock_wait_ms`](ImportOptions::lock_wait_ms) and
    /// [`now_ms`](ImportOptions::now_ms) are read. Errors as [`Store::import`].
    pub fn foreign_list_json(
        &self,
        kind: ImportKind,
        source_path: impl AsRef<Path>,
        opts: &ImportOptions,
    ) -> Result<String> {
        self.read_foreign("xs_foreign_list", sys::xs_foreign_list, kind, source_path.as_ref(), opts)
    }

    /// `xs_import` or `xs_foreign_list`, which take the same arguments and return JSON.
    fn read_foreign(
        &self,
        what: &str,
        call: ForeignCall,
        kind: ImportKind,
        source_path: &Path,
        opts: &ImportOptions,
    ) -> Result<String> {
        let (kind, source, opts) = foreign_args(kind, source_path, opts)?;
        // SAFETY: live store; `kind`, `source` and `opts` (with the strings it points into)
        // outlive the call; the buffer triple comes from read_bytes.
        self.handle
            .read_string(what, |st, b, c, n| unsafe { call(st, kind.as_ptr(), source.as_ptr(), &opts.raw, b, c, n) })
    }
}

/// The C arguments of `xs_import` and `xs_foreign_list`: kind, source path and options.
fn foreign_args(
    kind: ImportKind,
    source_path: &Path,
    opts: &ImportOptions,
) -> Result<(CString, CString, RawImportOptions)> {
    Ok((c_string(kind.as_str(), "kind")?, path_c_string(source_path, "source path")?, opts.to_raw()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_names_round_trip_and_an_unknown_one_is_invalid() {
        for kind in [ImportKind::Claude, ImportKind::MyAgents, ImportKind::Gateway, ImportKind::Codex] {
            assert_eq!(kind.to_string().parse::<ImportKind>().unwrap(), kind);
        }
        let err = "opencode".parse::<ImportKind>().unwrap_err();
        assert_eq!(
            (err.code(), err.message()),
            (ErrorCode::Invalid, "unknown import kind \"opencode\" (claude, myagents, gateway or codex)")
        );
        assert_eq!("Claude".parse::<ImportKind>().unwrap_err().code(), ErrorCode::Invalid);
    }

    #[test]
    fn default_options_are_the_librarys_defaults() {
        let raw = ImportOptions::new().to_raw().unwrap().raw;
        assert_eq!((raw.version, raw.flags, raw.lock_wait_ms, raw.now_ms), (2, 0, 2000, 0));
        assert!(raw.target_cwd.is_null() && raw.fallback_cwd.is_null() && raw.progress.is_none());
    }

    #[test]
    fn given_options_fill_the_struct() {
        let opts = ImportOptions::new().dry_run(true).target_cwd("/t").fallback_cwd("/f").lock_wait_ms(0).now_ms(5);
        let raw = opts.to_raw().unwrap();
        let r = raw.raw;
        assert_eq!((r.version, r.flags, r.lock_wait_ms, r.now_ms), (2, sys::XS_IMPORT_DRY_RUN, 0, 5));
        // SAFETY: both pointers point into the CStrings `raw` holds.
        let (target, fallback) =
            unsafe { (std::ffi::CStr::from_ptr(r.target_cwd), std::ffi::CStr::from_ptr(r.fallback_cwd)) };
        assert_eq!((target.to_str().unwrap(), fallback.to_str().unwrap()), ("/t", "/f"));
    }

    #[test]
    fn a_nul_in_a_cwd_is_invalid() {
        let err = ImportOptions::new().target_cwd("/a\0b").to_raw().err().unwrap();
        assert_eq!((err.code(), err.message()), (ErrorCode::Invalid, "target cwd contains a NUL byte"));
    }
}
