//! Retention (docs/retention.md): archiving idle sessions to verified `.jsonl.gz` files and
//! pruning old archives. Nothing is deleted by age alone: pruning removes only archives.

use crate::error::Result;
use crate::options::init;
use crate::progress::with_progress;
use crate::store::Store;
use crate::sys;
use crate::types::{decode, ArchiveReport, PruneReport};

/// What [`Store::archive`] and [`Store::prune`] act on (`xs_archive_options`). The age limit has
/// no default: a limit is always the caller's choice.
///
/// ```
/// const DAY_MS: i64 = 24 * 60 * 60 * 1000;
/// let opts = xsession::ArchiveOptions::older_than_ms(30 * DAY_MS).dry_run(true);
/// # let _ = opts;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArchiveOptions {
    older_than_ms: i64,
    now_ms: i64,
    dry_run: bool,
}

impl ArchiveOptions {
    /// Act on sessions idle (archives made) more than `ms` milliseconds before now; a negative
    /// limit is refused with [`ErrorCode::Invalid`](crate::ErrorCode::Invalid).
    pub fn older_than_ms(ms: i64) -> ArchiveOptions {
        ArchiveOptions { older_than_ms: ms, now_ms: 0, dry_run: false }
    }

    /// "Now" for the age test, in ms since the epoch (0, the default: the system clock).
    pub fn now_ms(mut self, ms: i64) -> ArchiveOptions {
        self.now_ms = ms;
        self
    }

    /// Report exactly what a real run at this moment would do, and change nothing
    /// (`XS_ARCHIVE_DRY_RUN`).
    pub fn dry_run(mut self, on: bool) -> ArchiveOptions {
        self.dry_run = on;
        self
    }

    fn to_raw(self) -> Result<sys::xs_archive_options> {
        let mut raw = init(sys::xs_archive_options_init, sys::XS_ARCHIVE_OPTIONS_VERSION)?;
        raw.older_than_ms = self.older_than_ms;
        raw.now_ms = self.now_ms;
        if self.dry_run {
            raw.flags |= sys::XS_ARCHIVE_DRY_RUN;
        }
        Ok(raw)
    }
}

impl Store {
    /// Archives the sessions idle for longer than the limit, typed report (see
    /// [`Store::archive_json`]).
    pub fn archive(&self, opts: &ArchiveOptions) -> Result<ArchiveReport> {
        decode(&self.archive_json(opts)?, "xs_store_archive")
    }

    /// Archives every live session idle longer than the limit: its file is compressed to
    /// `<file>.jsonl.gz`, read back and checked against the original, and only then is the
    /// original removed (`xs_store_archive`). A session another process holds open for writing,
    /// or that fails, is skipped and the run goes on. Returns the library's report:
    /// `{"dryRun","archived":[{"path","bytes","gzBytes"}],"skipped":[{"path","reason","detail"}]}`.
    ///
    /// An archive stays in [`Store::list`] (`"archived": true`) and opens read-only by path, id
    /// or prefix with [`Store::open_session`].
    pub fn archive_json(&self, opts: &ArchiveOptions) -> Result<String> {
        let raw = opts.to_raw()?;
        // SAFETY: live store; `raw` outlives the call; the buffer triple comes from read_bytes.
        self.handle.read_string("xs_store_archive", |st, b, c, n| unsafe { sys::xs_store_archive(st, &raw, b, c, n) })
    }

    /// [`Store::archive`] with a progress callback, typed report (see
    /// [`Store::archive_with_progress_json`]).
    pub fn archive_with_progress<F: FnMut(u64, u64)>(
        &self,
        opts: &ArchiveOptions,
        progress: F,
    ) -> Result<ArchiveReport> {
        decode(&self.archive_with_progress_json(opts, progress)?, "xs_store_archive")
    }

    /// [`Store::archive`] that reports its progress: `progress(done, total)` runs once before
    /// the first candidate (`done` 0) and after each, on this thread, while the store is busy.
    /// A call on this store from inside it fails with
    /// [`ErrorCode::Misuse`](crate::ErrorCode::Misuse) (it would otherwise wait for ever). A panic in `progress` does not cross the C library: it is caught, the
    /// closure is not called again, the archive run finishes (a run cannot be stopped half way),
    /// and the panic then resumes on this thread.
    pub fn archive_with_progress_json<F>(&self, opts: &ArchiveOptions, progress: F) -> Result<String>
    where
        F: FnMut(u64, u64),
    {
        let mut raw = opts.to_raw()?;
        with_progress(progress, |progress, user| {
            raw.progress = Some(progress);
            raw.progress_user = user;
            // SAFETY: live store; `raw` outlives the call, and the library calls `progress` only
            // during it, on this thread (a retry after XS_EBUFS copies the report and calls it no
            // more).
            self.handle.read_string_running_closure("xs_store_archive", |st, b, c, n| unsafe {
                sys::xs_store_archive(st, &raw, b, c, n)
            })
        })
    }

    /// Deletes the archives older than the limit, typed report (see [`Store::prune_json`]).
    pub fn prune(&self, opts: &ArchiveOptions) -> Result<PruneReport> {
        decode(&self.prune_json(opts)?, "xs_store_prune")
    }

    /// Deletes the archives whose file was last modified (when it was archived) more than the
    /// limit before now; never a live session (`xs_store_prune`). Returns the library's report:
    /// `{"dryRun","pruned":[{"path","gzBytes","archivedMs"}]}`.
    /// [`ErrorCode::Io`](crate::ErrorCode::Io) when a removal failed (the message says how many
    /// went before it).
    pub fn prune_json(&self, opts: &ArchiveOptions) -> Result<String> {
        let raw = opts.to_raw()?;
        // SAFETY: live store; `raw` outlives the call; the buffer triple comes from read_bytes.
        self.handle.read_string("xs_store_prune", |st, b, c, n| unsafe { sys::xs_store_prune(st, &raw, b, c, n) })
    }
}
