//! [`Session`]: one open transcript, its lifecycle, and the sessions derived from it.

use std::path::Path;

use crate::buffer::{opt_c_string, opt_ptr, path_c_string};
use crate::dialect::Dialect;
use crate::error::{Error, ErrorCode, Result};
use crate::handle::Handle;
use crate::options::SessionOptions;
use crate::sys;

/// One open session transcript (`xs_session`).
///
/// Made by the [`Store`](crate::Store) constructors ([`create_session`](crate::Store::create_session),
/// [`open_session`](crate::Store::open_session), …) or derived from another session
/// ([`fork`](Session::fork), [`create_branched`](Session::create_branched)). Dropping it flushes
/// (errors ignored), releases the writer lock and frees the handle; call [`close`](Session::close)
/// to see a flush error. It may outlive the store it came from.
///
/// Writing methods are in the "Writing" group below, reading methods in "Reading". Every method
/// takes `&self`: calls are serialised by the handle's lock, so an `Arc<Session>` can be used
/// from several threads (see the crate documentation on threads).
///
/// Using a session after `close` does not compile, so the binding's "closed handle" guard is
/// the type system:
///
/// ```compile_fail
/// # fn demo(session: xsession::Session) {
/// session.close().unwrap();
/// session.flush().unwrap(); // error[E0382]: borrow of moved value: `session`
/// # }
/// ```
pub struct Session {
    pub(crate) handle: Handle<sys::xs_session>,
}

impl Session {
    pub(crate) fn new(handle: Handle<sys::xs_session>) -> Session {
        Session { handle }
    }

    /// Flushes, then closes the session, returning the flush's error (a sticky write failure
    /// such as [`ErrorCode::Poisoned`](crate::ErrorCode::Poisoned)) instead of dropping it
    /// silently as `Drop` must. The handle is freed either way.
    pub fn close(self) -> Result<()> {
        self.flush()
    }

    /// Makes everything appended so far durable (`fdatasync`). A deferred session that is not
    /// on disk yet has nothing to flush.
    pub fn flush(&self) -> Result<()> {
        // SAFETY: live session.
        self.handle.check(|s| unsafe { sys::xs_session_flush(s) })
    }

    /// Writes a deferred session to disk now (the whole session, atomically), ending the
    /// deferral. Also `Ok` when it is already on disk.
    pub fn persist(&self) -> Result<()> {
        // SAFETY: live session.
        self.handle.check(|s| unsafe { sys::xs_session_persist(s) })
    }

    /// Read-only handles: picks up entries another process appended since the last load (only
    /// the new bytes are read) and moves the leaf to the last entry. Returns the change in the
    /// number of entries. A writable handle is the only writer: [`ErrorCode::Misuse`](crate::ErrorCode::Misuse).
    pub fn reload(&self) -> Result<i64> {
        let mut added: i64 = 0;
        // SAFETY: live session; `added` outlives the call.
        self.handle.check(|s| unsafe { sys::xs_session_reload(s, &mut added) })?;
        Ok(added)
    }

    /// Moves the session (its file and artifacts directory) to working directory `new_cwd` and
    /// rewrites the header's cwd; every step is undone if one fails.
    pub fn move_to(&self, new_cwd: impl AsRef<Path>) -> Result<()> {
        let cwd = path_c_string(new_cwd.as_ref(), "cwd")?;
        // SAFETY: live session; `cwd` outlives the call.
        self.handle.check(|s| unsafe { sys::xs_session_move_to(s, cwd.as_ptr()) })
    }

    /// A copy of this session under a new id beside it (every entry; `parentSession` = this
    /// session's id; written at once). This session stays open on the original file.
    pub fn fork(&self, opts: &SessionOptions) -> Result<Session> {
        // SAFETY: live session; the options outlive the call.
        self.handle.construct(opts, |s, o, out| unsafe { sys::xs_session_fork(s, o, out) })
    }

    /// A new session holding the path from the root to `leaf_id` (`None`: the current leaf),
    /// with the labels of the entries on it; `parentSession` = this session's file path.
    pub fn create_branched(&self, leaf_id: Option<&str>, opts: &SessionOptions) -> Result<Session> {
        let leaf = opt_c_string(leaf_id, "leaf id")?;
        // SAFETY: live session; the strings and the options outlive the call.
        self.handle.construct(opts, |s, o, out| unsafe { sys::xs_session_create_branched(s, opt_ptr(&leaf), o, out) })
    }

    /// The dialect the session writes, [`Dialect::Omp`] or [`Dialect::Pi`] (`xs_session_dialect`):
    /// the forced one, else the file's own, else the store's default. Also on read-only handles.
    pub fn dialect(&self) -> Result<Dialect> {
        let mut raw: u32 = sys::XS_DIALECT_AUTO;
        // SAFETY: live session; `raw` outlives the call.
        self.handle.check(|s| unsafe { sys::xs_session_dialect(s, &mut raw) })?;
        Dialect::from_raw(raw)
            .ok_or_else(|| Error::new(ErrorCode::Internal, format!("xs_session_dialect gave an unknown dialect {raw}")))
    }

    /// The error the session handle holds from its last call (`xs_session_errcode` and
    /// `xs_session_errmsg`), `None` after a success. Every method already returns its own error;
    /// this shows what the C handle itself holds.
    pub fn last_error(&self) -> Option<Error> {
        // SAFETY: live session.
        self.handle.last_error(|s| unsafe { sys::xs_session_errcode(s) })
    }
}
