//! Status codes as a Rust enum, and the crate's [`Error`] / [`Result`].

use std::ffi::CStr;
use std::fmt;

use crate::sys;

/// What went wrong: one variant per `XS_E*` status of `xsession.h`.
///
/// Codes this crate does not know (a newer library) are kept as [`ErrorCode::Unknown`] with the
/// raw value: a C integer is never transmuted into the enum, because an out-of-range enum value
/// is undefined behaviour in Rust.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// `XS_ERROR`: unspecified failure.
    Error,
    /// `XS_ENOMEM`: out of memory.
    NoMem,
    /// `XS_EINVAL`: bad argument (malformed JSON, wrong shape, bad id, invalid UTF-8, a NUL byte).
    Invalid,
    /// `XS_EMISUSE`: an API used against its contract.
    Misuse,
    /// `XS_ENOTFOUND`: no such entry, session or file.
    NotFound,
    /// `XS_EEXISTS`: the id or file already exists.
    Exists,
    /// `XS_EBUFS`: output buffer too small (the safe API grows its buffers, so callers never see it).
    Bufs,
    /// `XS_ECORRUPT`: stored data is damaged beyond what the loader can skip.
    Corrupt,
    /// `XS_EIO`: an I/O error from the operating system.
    Io,
    /// `XS_ELOCKED`: another handle or process holds the session open for writing.
    Locked,
    /// `XS_EVERSION`: an option struct version the library does not know.
    Version,
    /// `XS_ENOSPC`: no space left on the device, or a quota or file size limit.
    NoSpace,
    /// `XS_EREADONLY`: a write on a session opened read-only.
    ReadOnly,
    /// `XS_ECONFLICT`: another process changed the file; the write was not made.
    Conflict,
    /// `XS_ELIMIT`: input over a configured limit (line size, nesting depth).
    Limit,
    /// `XS_ENOHEADER`: the file has no session header.
    NoHeader,
    /// `XS_EPOISONED`: an earlier write failed; reopen the session to write again.
    Poisoned,
    /// `XS_EAMBIGUOUS`: an id prefix matches more than one session.
    Ambiguous,
    /// `XS_EDIALECT`: the entry or field has no form in the session's
    /// [`Dialect`](crate::Dialect): writing it would make a line that agent drops or misreads
    /// (an omp-only entry in a pi session, a `session_info` entry in an omp session).
    Dialect,
    /// `XS_EINTERNAL`: a bug in the library; the message says where.
    Internal,
    /// The library returned text that is not UTF-8 where this crate promises a `String`. This is
    /// the binding's own code (the C API has no such status); [`ErrorCode::raw`] gives `XS_ERROR`.
    InvalidUtf8,
    /// A status this crate does not know, kept as returned.
    Unknown(i32),
}

impl ErrorCode {
    /// The code for a raw status. `XS_OK` and positive values (which the library never returns
    /// as errors) land in [`ErrorCode::Unknown`] rather than being mistaken for a known error.
    pub fn from_raw(code: sys::xs_status) -> ErrorCode {
        match code {
            sys::XS_ERROR => ErrorCode::Error,
            sys::XS_ENOMEM => ErrorCode::NoMem,
            sys::XS_EINVAL => ErrorCode::Invalid,
            sys::XS_EMISUSE => ErrorCode::Misuse,
            sys::XS_ENOTFOUND => ErrorCode::NotFound,
            sys::XS_EEXISTS => ErrorCode::Exists,
            sys::XS_EBUFS => ErrorCode::Bufs,
            sys::XS_ECORRUPT => ErrorCode::Corrupt,
            sys::XS_EIO => ErrorCode::Io,
            sys::XS_ELOCKED => ErrorCode::Locked,
            sys::XS_EVERSION => ErrorCode::Version,
            sys::XS_ENOSPC => ErrorCode::NoSpace,
            sys::XS_EREADONLY => ErrorCode::ReadOnly,
            sys::XS_ECONFLICT => ErrorCode::Conflict,
            sys::XS_ELIMIT => ErrorCode::Limit,
            sys::XS_ENOHEADER => ErrorCode::NoHeader,
            sys::XS_EPOISONED => ErrorCode::Poisoned,
            sys::XS_EAMBIGUOUS => ErrorCode::Ambiguous,
            sys::XS_EDIALECT => ErrorCode::Dialect,
            sys::XS_EINTERNAL => ErrorCode::Internal,
            other => ErrorCode::Unknown(other),
        }
    }

    /// The raw `xs_status` value (the inverse of [`ErrorCode::from_raw`]).
    pub fn raw(self) -> sys::xs_status {
        match self {
            ErrorCode::Error | ErrorCode::InvalidUtf8 => sys::XS_ERROR,
            ErrorCode::NoMem => sys::XS_ENOMEM,
            ErrorCode::Invalid => sys::XS_EINVAL,
            ErrorCode::Misuse => sys::XS_EMISUSE,
            ErrorCode::NotFound => sys::XS_ENOTFOUND,
            ErrorCode::Exists => sys::XS_EEXISTS,
            ErrorCode::Bufs => sys::XS_EBUFS,
            ErrorCode::Corrupt => sys::XS_ECORRUPT,
            ErrorCode::Io => sys::XS_EIO,
            ErrorCode::Locked => sys::XS_ELOCKED,
            ErrorCode::Version => sys::XS_EVERSION,
            ErrorCode::NoSpace => sys::XS_ENOSPC,
            ErrorCode::ReadOnly => sys::XS_EREADONLY,
            ErrorCode::Conflict => sys::XS_ECONFLICT,
            ErrorCode::Limit => sys::XS_ELIMIT,
            ErrorCode::NoHeader => sys::XS_ENOHEADER,
            ErrorCode::Poisoned => sys::XS_EPOISONED,
            ErrorCode::Ambiguous => sys::XS_EAMBIGUOUS,
            ErrorCode::Dialect => sys::XS_EDIALECT,
            ErrorCode::Internal => sys::XS_EINTERNAL,
            ErrorCode::Unknown(code) => code,
        }
    }

    /// The `XS_*` macro name of the code (`"XS_ENOTFOUND"`), or `None` for an unknown code and
    /// for [`ErrorCode::InvalidUtf8`], which has no macro of its own.
    pub fn name(self) -> Option<&'static str> {
        Some(match self {
            ErrorCode::Error => "XS_ERROR",
            ErrorCode::NoMem => "XS_ENOMEM",
            ErrorCode::Invalid => "XS_EINVAL",
            ErrorCode::Misuse => "XS_EMISUSE",
            ErrorCode::NotFound => "XS_ENOTFOUND",
            ErrorCode::Exists => "XS_EEXISTS",
            ErrorCode::Bufs => "XS_EBUFS",
            ErrorCode::Corrupt => "XS_ECORRUPT",
            ErrorCode::Io => "XS_EIO",
            ErrorCode::Locked => "XS_ELOCKED",
            ErrorCode::Version => "XS_EVERSION",
            ErrorCode::NoSpace => "XS_ENOSPC",
            ErrorCode::ReadOnly => "XS_EREADONLY",
            ErrorCode::Conflict => "XS_ECONFLICT",
            ErrorCode::Limit => "XS_ELIMIT",
            ErrorCode::NoHeader => "XS_ENOHEADER",
            ErrorCode::Poisoned => "XS_EPOISONED",
            ErrorCode::Ambiguous => "XS_EAMBIGUOUS",
            ErrorCode::Dialect => "XS_EDIALECT",
            ErrorCode::Internal => "XS_EINTERNAL",
            ErrorCode::InvalidUtf8 | ErrorCode::Unknown(_) => return None,
        })
    }
}

/// An error from the library (status code + the handle's message), or from the binding itself
/// (a NUL byte in a C string argument, text from the library that is not UTF-8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    code: ErrorCode,
    message: String,
}

/// `Result` with this crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// An error with the given code and message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Error {
        Error { code, message: message.into() }
    }

    /// The status code.
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// The message the library left on the handle (or the binding's own explanation). It may be
    /// empty if the library set none.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.code {
            ErrorCode::InvalidUtf8 => "invalid UTF-8 from the library".to_string(),
            code => status_str(code.raw()),
        };
        if self.message.is_empty() {
            f.write_str(&name)
        } else {
            write!(f, "{name}: {}", self.message)
        }
    }
}

impl std::error::Error for Error {}

/// The library's static English name of a status code (`xs_status_str`), e.g.
/// `"XS_ENOTFOUND: not found"`; unknown codes give `"unknown status"`.
pub fn status_str(code: sys::xs_status) -> String {
    // SAFETY: xs_status_str accepts any value and returns a static NUL-terminated string that is
    // never NULL and may be read from any thread.
    let text = unsafe { CStr::from_ptr(sys::xs_status_str(code)) };
    text.to_string_lossy().into_owned()
}

/// Copies a borrowed error message. Lossy on purpose: an error path must never fail again
/// because a file name in the message holds bytes that are not UTF-8.
///
/// # Safety
/// `ptr` must be NULL or a NUL-terminated string valid for the duration of the call.
pub(crate) unsafe fn message_from(ptr: *const std::os::raw::c_char) -> String {
    if ptr.is_null() {
        return String::new();
    }
    // SAFETY: guaranteed by the caller.
    unsafe { CStr::from_ptr(ptr) }.to_string_lossy().into_owned()
}
