//! Raw declarations mirroring `xsession.h` and `xsession_storage.h` (in `storage.rs`) one for
//! one: types, constants and functions, and the link to `libxsession` (found by `build.rs` with
//! pkg-config). The safe API is the `xsession` crate, built on this one as git2 is on
//! libgit2-sys.
//!
//! Nothing here is safe to call without reading the header's contract for the function.
//! Names keep the C spelling so that the header is the documentation. The test
//! `tests/header_coverage.rs` of the `xsession` crate parses the real headers and fails when a
//! function, constant or struct field there is missing here (or differs in type), so these files
//! cannot drift silently.
#![allow(non_camel_case_types)]
#![deny(missing_docs)]

mod bundle;
mod functions;
mod history;
mod index;
mod options;
mod storage;

pub use bundle::*;
pub use functions::*;
pub use history::*;
pub use index::*;
pub use options::*;
pub use storage::*;

use std::marker::{PhantomData, PhantomPinned};
use std::os::raw::c_int;

// --- versions ---------------------------------------------------------------------------------

/// `XS_VERSION_MAJOR` of the header this crate mirrors.
pub const XS_VERSION_MAJOR: c_int = 0;
/// `XS_VERSION_MINOR` of the header this crate mirrors.
pub const XS_VERSION_MINOR: c_int = 2;
/// `XS_VERSION_PATCH` of the header this crate mirrors.
pub const XS_VERSION_PATCH: c_int = 0;

// --- status codes -----------------------------------------------------------------------------

/// Status returned by every fallible function: `XS_OK` or a negative `XS_E*` code.
pub type xs_status = i32;

/// Success.
pub const XS_OK: xs_status = 0;
/// Unspecified failure.
pub const XS_ERROR: xs_status = -1;
/// Out of memory.
pub const XS_ENOMEM: xs_status = -2;
/// Bad argument: malformed JSON, wrong shape, bad id, invalid UTF-8.
pub const XS_EINVAL: xs_status = -3;
/// NULL handle, or an API used against its contract.
pub const XS_EMISUSE: xs_status = -4;
/// No such entry, session or file.
pub const XS_ENOTFOUND: xs_status = -5;
/// The id or file already exists.
pub const XS_EEXISTS: xs_status = -6;
/// Output buffer too small; `*out_len` says how much is needed.
pub const XS_EBUFS: xs_status = -7;
/// Stored data is damaged beyond what the loader can skip.
pub const XS_ECORRUPT: xs_status = -8;
/// An I/O error from the operating system.
pub const XS_EIO: xs_status = -9;
/// Another handle or process holds the session open for writing.
pub const XS_ELOCKED: xs_status = -10;
/// An option struct version this library does not know.
pub const XS_EVERSION: xs_status = -11;
/// No space left on the device, or a quota or file size limit.
pub const XS_ENOSPC: xs_status = -12;
/// A write on a session opened read-only.
pub const XS_EREADONLY: xs_status = -13;
/// Another process changed the file; our write was not made.
pub const XS_ECONFLICT: xs_status = -14;
/// Input over a configured limit (line size, nesting depth).
pub const XS_ELIMIT: xs_status = -15;
/// The file has no session header (read-only open).
pub const XS_ENOHEADER: xs_status = -16;
/// An earlier write failed; reopen the session to write again.
pub const XS_EPOISONED: xs_status = -17;
/// An id prefix matches more than one session.
pub const XS_EAMBIGUOUS: xs_status = -18;
/// The entry or field has no form in the session's dialect (pi or omp).
pub const XS_EDIALECT: xs_status = -19;
/// A bug in the library; the message says where.
pub const XS_EINTERNAL: xs_status = -99;

/// Size of an `id_out` buffer: 64 chars + NUL.
pub const XS_ID_BUFSIZE: usize = 65;
/// Size of a `hash_out` buffer: SHA-256 as lowercase hex + NUL.
pub const XS_HASH_BUFSIZE: usize = 65;

// --- handles ----------------------------------------------------------------------------------

// Opaque handles in the Rustonomicon's FFI shape: zero-sized, not constructible, and
// !Send/!Sync/!Unpin by default, so the safe wrappers decide thread rules explicitly.

/// A store: a root directory holding sessions and blobs.
#[repr(C)]
pub struct xs_store {
    _data: [u8; 0],
    _marker: PhantomData<(*mut u8, PhantomPinned)>,
}

/// One open session transcript.
#[repr(C)]
pub struct xs_session {
    _data: [u8; 0],
    _marker: PhantomData<(*mut u8, PhantomPinned)>,
}
