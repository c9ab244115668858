//! Portable bundles and the HTML view of `xsession.h` (its last two sections): their options,
//! flags and functions, in the header's order.

use std::os::raw::c_char;

use crate::{xs_status, xs_store};

/// Version of [`xs_export_options`] this crate fills in.
pub const XS_EXPORT_OPTIONS_VERSION: u32 = 1;
/// Only the named sessions, not those they descend from.
pub const XS_EXPORT_NO_LINEAGE: u32 = 0x1;
/// gzip instead of zstd.
pub const XS_EXPORT_GZIP: u32 = 0x2;

/// Options of `xs_export`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct xs_export_options {
    /// `XS_EXPORT_OPTIONS_VERSION`.
    pub version: u32,
    /// `XS_EXPORT_*` flags.
    pub flags: u32,
}

/// Version of [`xs_import_bundle_options`] this crate fills in.
pub const XS_IMPORT_BUNDLE_OPTIONS_VERSION: u32 = 1;
/// A session id the store holds with other content: import the bundle's copy under a new id.
pub const XS_IMPORT_BUNDLE_RENAME: u32 = 0x1;
/// Verify everything and report what would be done; write nothing.
pub const XS_IMPORT_BUNDLE_DRY_RUN: u32 = 0x2;

/// Options of `xs_import_bundle`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct xs_import_bundle_options {
    /// `XS_IMPORT_BUNDLE_OPTIONS_VERSION`.
    pub version: u32,
    /// `XS_IMPORT_BUNDLE_*` flags.
    pub flags: u32,
    /// NULL, or pairs old0, new0, old1, new1…: a session whose cwd is an old path or lies below
    /// one gets the new path instead (the first pair that applies). Absolute paths. Borrowed for
    /// the call.
    pub cwd_map: *const *const c_char,
    /// Strings in `cwd_map`: twice the number of pairs.
    pub cwd_map_len: usize,
}

/// Version of [`xs_html_options`] this crate fills in.
pub const XS_HTML_OPTIONS_VERSION: u32 = 1;

/// Options of `xs_export_html`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct xs_html_options {
    /// `XS_HTML_OPTIONS_VERSION`.
    pub version: u32,
    /// None yet: 0.
    pub flags: u32,
}

extern "C" {
    /// Fills `*o` with the defaults of `version`.
    pub fn xs_export_options_init(o: *mut xs_export_options, version: u32) -> xs_status;
    /// Writes a bundle of the named sessions (and, by default, those they descend from) to
    /// `out_path`; the report as JSON through `(buf, cap, out_len)`.
    pub fn xs_export(
        st: *mut xs_store,
        session_ids: *const *const c_char,
        n_ids: usize,
        out_path: *const c_char,
        opts: *const xs_export_options,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
    /// Fills `*o` with the defaults of `version`.
    pub fn xs_import_bundle_options_init(o: *mut xs_import_bundle_options, version: u32) -> xs_status;
    /// Imports the bundle at `bundle_path` into `st`; the report as JSON.
    pub fn xs_import_bundle(
        st: *mut xs_store,
        bundle_path: *const c_char,
        opts: *const xs_import_bundle_options,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
    /// Fills `*o` with the defaults of `version`.
    pub fn xs_html_options_init(o: *mut xs_html_options, version: u32) -> xs_status;
    /// Writes the HTML pages of the named sessions (one: `out_path` is the page; several: a
    /// directory with an `index.html`); the report as JSON.
    pub fn xs_export_html(
        st: *mut xs_store,
        session_ids: *const *const c_char,
        n_ids: usize,
        out_path: *const c_char,
        opts: *const xs_html_options,
        buf: *mut c_char,
        cap: usize,
        out_len: *mut usize,
    ) -> xs_status;
}
