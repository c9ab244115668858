//! The two directions of text across the boundary: `(buf, cap, out_len)` outputs read into
//! `Vec<u8>` / `String`, and Rust strings turned into the C arguments the header wants.

use std::ffi::{CStr, CString};
use std::os::raw::c_char;
use std::path::{Path, PathBuf};

use crate::error::{Error, ErrorCode, Result};
use crate::sys;

/// First capacity tried: ids, leaves, headers and small JSON fit, so most reads are one call.
const FIRST_CAPACITY: usize = 256;

/// Runs a `(buf, cap, out_len)` read, growing the buffer on `XS_EBUFS`.
///
/// The library keeps the result on the handle after `XS_EBUFS`, so the retry with the exact
/// size is a copy, not a recomputation; the caller holds the handle's lock across this whole
/// loop, so nothing can change the handle in between. The loop still tolerates a second
/// `XS_EBUFS` (the header allows a recomputation after a change) instead of trusting that.
///
/// Returns the status (`Err(rc)`) rather than an [`Error`] so the caller can read the message
/// from the right handle.
pub(crate) fn read_bytes(
    mut call: impl FnMut(*mut c_char, usize, *mut usize) -> sys::xs_status,
) -> std::result::Result<Vec<u8>, sys::xs_status> {
    let mut buf: Vec<u8> = Vec::with_capacity(FIRST_CAPACITY);
    loop {
        let mut needed: usize = 0;
        let cap = buf.capacity();
        let rc = call(buf.as_mut_ptr().cast(), cap, &mut needed);
        match rc {
            sys::XS_OK if needed <= cap => {
                // SAFETY: on XS_OK the library wrote exactly `needed` bytes at the start of the
                // buffer, and `needed <= capacity`, so those bytes are initialised.
                unsafe { buf.set_len(needed) };
                return Ok(buf);
            }
            // XS_OK with a length over our capacity would be a library bug; report it rather
            // than trust a length we did not give room for.
            sys::XS_OK => return Err(sys::XS_EINTERNAL),
            sys::XS_EBUFS if needed > cap => buf.reserve_exact(needed),
            sys::XS_EBUFS => return Err(sys::XS_EINTERNAL),
            err => return Err(err),
        }
    }
}

/// Text the library produced, as a `String`; bytes that are not UTF-8 are an
/// [`ErrorCode::InvalidUtf8`] error naming `what`, never a panic.
pub(crate) fn into_string(bytes: Vec<u8>, what: &str) -> Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        Error::new(
            ErrorCode::InvalidUtf8,
            format!("{what}: the library returned bytes that are not UTF-8 (at byte {})", e.utf8_error().valid_up_to()),
        )
    })
}

/// The NUL-terminated text in a fixed `id_out` / `hash_out` buffer.
pub(crate) fn fixed_to_string(buf: &[u8], what: &str) -> Result<String> {
    // CStr::from_bytes_until_nul is newer than the crate's rust-version (1.63).
    let end = buf
        .iter()
        .position(|&b| b == 0)
        .ok_or_else(|| Error::new(ErrorCode::Internal, format!("{what}: no NUL terminator in the returned id")))?;
    let text = CStr::from_bytes_with_nul(&buf[..=end])
        .map_err(|_| Error::new(ErrorCode::Internal, format!("{what}: no NUL terminator in the returned id")))?;
    into_string(text.to_bytes().to_vec(), what)
}

/// A NUL-terminated copy of a path, id or name. A NUL inside is refused the way the library
/// refuses NUL bytes in its own inputs: [`ErrorCode::Invalid`].
pub(crate) fn c_string(text: &str, what: &str) -> Result<CString> {
    CString::new(text).map_err(|_| Error::new(ErrorCode::Invalid, format!("{what} contains a NUL byte")))
}

/// A NUL-terminated copy of a path. The C API takes UTF-8, and a lossy conversion would name
/// another file, so a path that is not UTF-8 is refused as [`ErrorCode::Invalid`], as is a NUL.
pub(crate) fn path_c_string(path: &Path, what: &str) -> Result<CString> {
    match path.to_str() {
        Some(text) => c_string(text, what),
        None => Err(Error::new(ErrorCode::Invalid, format!("{what} {} is not UTF-8", path.display()))),
    }
}

/// A path the library returned, as bytes: on Unix every byte is kept (a file name need not be
/// UTF-8); elsewhere the bytes must be UTF-8.
pub(crate) fn into_path(bytes: Vec<u8>, what: &str) -> Result<PathBuf> {
    #[cfg(unix)]
    {
        let _ = what;
        use std::os::unix::ffi::OsStringExt;
        Ok(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
    }
    #[cfg(not(unix))]
    {
        into_string(bytes, what).map(PathBuf::from)
    }
}

/// [`c_string`] for optional arguments (`None` becomes NULL through [`opt_ptr`]).
pub(crate) fn opt_c_string(text: Option<&str>, what: &str) -> Result<Option<CString>> {
    text.map(|t| c_string(t, what)).transpose()
}

/// The pointer for an optional C string: NULL when absent.
pub(crate) fn opt_ptr(text: &Option<CString>) -> *const c_char {
    text.as_ref().map_or(std::ptr::null(), |t| t.as_ptr())
}

/// An array of C strings (`const char *const *` with its length) and the strings it points into.
pub(crate) struct CStrings {
    _owned: Vec<CString>,
    ptrs: Vec<*const c_char>,
}

impl CStrings {
    /// NUL-terminated copies of `paths` (ids, names or paths), each checked as [`path_c_string`]
    /// checks one, naming `what` in the error.
    pub(crate) fn from_paths<I>(paths: I, what: &str) -> Result<CStrings>
    where
        I: IntoIterator,
        I::Item: AsRef<Path>,
    {
        let owned = paths.into_iter().map(|p| path_c_string(p.as_ref(), what)).collect::<Result<Vec<_>>>()?;
        // A CString's bytes live on the heap: moving `owned` into the struct keeps these valid.
        let ptrs = owned.iter().map(|s| s.as_ptr()).collect();
        Ok(CStrings { _owned: owned, ptrs })
    }

    /// The array's first pointer (not NULL, even when empty: the length says there are none).
    pub(crate) fn as_ptr(&self) -> *const *const c_char {
        self.ptrs.as_ptr()
    }

    /// How many strings.
    pub(crate) fn len(&self) -> usize {
        self.ptrs.len()
    }
}

/// A `(pointer, length)` pair for JSON or long text; `None` gives `(NULL, 0)` ("absent").
pub(crate) fn opt_bytes(bytes: Option<&[u8]>) -> (*const c_char, usize) {
    bytes.map_or((std::ptr::null(), 0), |b| (b.as_ptr().cast(), b.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    // A fake C reader over fixed bytes, counting its calls, to pin the growth protocol down
    // without the library: size query answered with XS_EBUFS, then an exact-size retry.
    fn fake<'a>(
        content: &'static [u8],
        calls: &'a mut usize,
    ) -> impl FnMut(*mut c_char, usize, *mut usize) -> i32 + 'a {
        move |buf, cap, out_len| {
            *calls += 1;
            unsafe { *out_len = content.len() };
            if cap < content.len() {
                return sys::XS_EBUFS;
            }
            unsafe { std::ptr::copy_nonoverlapping(content.as_ptr(), buf.cast(), content.len()) };
            sys::XS_OK
        }
    }

    #[test]
    fn small_output_is_one_call() {
        let mut calls = 0;
        assert_eq!(read_bytes(fake(b"abc", &mut calls)).unwrap(), b"abc");
        assert_eq!(calls, 1);
    }

    #[test]
    fn large_output_grows_once_to_the_exact_size() {
        static BIG: [u8; 10_000] = [b'x'; 10_000];
        let mut calls = 0;
        let got = read_bytes(fake(&BIG, &mut calls)).unwrap();
        assert_eq!(got.len(), 10_000);
        assert!(got.iter().all(|&b| b == b'x'));
        assert_eq!(calls, 2);
    }

    #[test]
    fn empty_output_is_an_empty_vec() {
        let mut calls = 0;
        assert_eq!(read_bytes(fake(b"", &mut calls)).unwrap(), b"");
    }

    #[test]
    fn errors_pass_through_with_their_code() {
        assert_eq!(read_bytes(|_, _, _| sys::XS_ENOTFOUND), Err(sys::XS_ENOTFOUND));
    }

    #[test]
    fn lying_lengths_are_internal_errors_not_overreads() {
        // XS_OK claiming more bytes than the buffer holds, and XS_EBUFS claiming it needs no more.
        assert_eq!(
            read_bytes(|_, cap, n| {
                unsafe { *n = cap + 1 };
                sys::XS_OK
            }),
            Err(sys::XS_EINTERNAL)
        );
        assert_eq!(
            read_bytes(|_, cap, n| {
                unsafe { *n = cap };
                sys::XS_EBUFS
            }),
            Err(sys::XS_EINTERNAL)
        );
    }

    #[test]
    fn invalid_utf8_is_an_error_not_a_panic() {
        let err = into_string(vec![b'{', 0xff, b'}'], "xs_session_header").unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidUtf8);
        assert_eq!(err.message(), "xs_session_header: the library returned bytes that are not UTF-8 (at byte 1)");
    }

    #[test]
    fn fixed_buffers_stop_at_the_nul() {
        let mut buf = [0u8; sys::XS_ID_BUFSIZE];
        buf[..8].copy_from_slice(b"1a2b3c4d");
        assert_eq!(fixed_to_string(&buf, "id").unwrap(), "1a2b3c4d");
        assert_eq!(fixed_to_string(&[b'a'; 4], "id").unwrap_err().code(), ErrorCode::Internal);
    }

    #[test]
    fn string_arrays_point_at_their_copies_in_order() {
        let strings = CStrings::from_paths(["a1", "/b/2"], "session id").unwrap();
        assert_eq!(strings.len(), 2);
        // SAFETY: two pointers into the NUL-terminated copies `strings` holds.
        let got: Vec<&str> =
            (0..2).map(|i| unsafe { CStr::from_ptr(*strings.as_ptr().add(i)) }.to_str().unwrap()).collect();
        assert_eq!(got, ["a1", "/b/2"]);
        let none = CStrings::from_paths(Vec::<&str>::new(), "session id").unwrap();
        assert!(none.len() == 0 && !none.as_ptr().is_null());
        let err = CStrings::from_paths(["ok", "a\0b"], "session id").err().unwrap();
        assert_eq!((err.code(), err.message()), (ErrorCode::Invalid, "session id contains a NUL byte"));
    }

    #[test]
    fn nul_in_a_c_string_argument_is_invalid() {
        let err = c_string("a\0b", "cwd").unwrap_err();
        assert_eq!((err.code(), err.message()), (ErrorCode::Invalid, "cwd contains a NUL byte"));
    }
}
