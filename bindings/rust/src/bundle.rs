//! Portable bundles (docs/bundles.md): sessions, the sessions they descend from, their blobs and
//! key records carried to another store in one file; and the HTML view (docs/html-view.md):
//! sessions as self-contained pages that open offline.

use std::path::{Path, PathBuf};

use crate::buffer::{path_c_string, CStrings};
use crate::error::Result;
use crate::options::init;
use crate::store::Store;
use crate::sys;
use crate::types::{decode, BundleExportReport, BundleImportReport, HtmlReport};

/// How [`Store::export`] writes a bundle (`xs_export_options`): by default with the sessions the
/// named ones descend from, compressed with zstd.
///
/// ```
/// let opts = xsession::ExportOptions::new().lineage(false).gzip(true);
/// # let _ = opts;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportOptions {
    lineage: bool,
    gzip: bool,
}

impl Default for ExportOptions {
    fn default() -> ExportOptions {
        ExportOptions { lineage: true, gzip: false }
    }
}

impl ExportOptions {
    /// The library's defaults: lineage, zstd.
    pub fn new() -> ExportOptions {
        ExportOptions::default()
    }

    /// Whether the sessions the named ones descend from (their `parentSession` chain) travel too
    /// (default `true`; `false` is `XS_EXPORT_NO_LINEAGE`).
    pub fn lineage(mut self, on: bool) -> ExportOptions {
        self.lineage = on;
        self
    }

    /// Compress with gzip instead of zstd (`XS_EXPORT_GZIP`).
    pub fn gzip(mut self, on: bool) -> ExportOptions {
        self.gzip = on;
        self
    }

    fn to_raw(self) -> Result<sys::xs_export_options> {
        let mut raw = init(sys::xs_export_options_init, sys::XS_EXPORT_OPTIONS_VERSION)?;
        if !self.lineage {
            raw.flags |= sys::XS_EXPORT_NO_LINEAGE;
        }
        if self.gzip {
            raw.flags |= sys::XS_EXPORT_GZIP;
        }
        Ok(raw)
    }
}

/// How [`Store::import_bundle`] places a bundle (`xs_import_bundle_options`). A setting left
/// alone keeps the library's default: a real import, each session's own cwd, an id clash refused.
///
/// ```
/// let opts = xsession::ImportBundleOptions::new()
///     .cwd_map([("/home/dev", "/srv/me")])
///     .rename(true)
///     .dry_run(true);
/// # let _ = opts;
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportBundleOptions {
    cwd_map: Vec<(PathBuf, PathBuf)>,
    rename: bool,
    dry_run: bool,
}

/// The raw struct and the strings its `cwd_map` points into.
struct RawImportBundleOptions {
    raw: sys::xs_import_bundle_options,
    _cwd_map: CStrings,
}

impl ImportBundleOptions {
    /// The library's defaults.
    pub fn new() -> ImportBundleOptions {
        ImportBundleOptions::default()
    }

    /// Adds `(old, new)` pairs, after those given before: a session whose cwd is `old` or lies
    /// below it gets `new` (plus the rest) instead, the first pair that applies winning; its
    /// header keeps the old cwd as `"originalCwd"` and the report says
    /// [`old_cwd`](crate::types::BundleImportedSession::old_cwd). Key records' cwds follow the
    /// same map. Absolute paths without `.` or `..` components, or [`ErrorCode::Invalid`]
    /// from the import. A `BTreeMap<String, String>` (by reference) is a list of pairs too,
    /// in its key order.
    ///
    /// [`ErrorCode::Invalid`]: crate::ErrorCode::Invalid
    pub fn cwd_map<I, O, N>(mut self, pairs: I) -> ImportBundleOptions
    where
        I: IntoIterator<Item = (O, N)>,
        O: AsRef<Path>,
        N: AsRef<Path>,
    {
        self.cwd_map
            .extend(pairs.into_iter().map(|(old, new)| (old.as_ref().to_path_buf(), new.as_ref().to_path_buf())));
        self
    }

    /// A session id the store holds with other content: import the bundle's copy under a new id
    /// (derived from the old id and its bytes, so a repeated import finds it) instead of failing
    /// with [`ErrorCode::Exists`](crate::ErrorCode::Exists) (`XS_IMPORT_BUNDLE_RENAME`).
    pub fn rename(mut self, on: bool) -> ImportBundleOptions {
        self.rename = on;
        self
    }

    /// Verify the whole bundle and report what an import would do; write nothing
    /// (`XS_IMPORT_BUNDLE_DRY_RUN`).
    pub fn dry_run(mut self, on: bool) -> ImportBundleOptions {
        self.dry_run = on;
        self
    }

    /// The library's defaults from `xs_import_bundle_options_init`, then the settings given here.
    fn to_raw(&self) -> Result<RawImportBundleOptions> {
        let mut raw = init(sys::xs_import_bundle_options_init, sys::XS_IMPORT_BUNDLE_OPTIONS_VERSION)?;
        let cwd_map = CStrings::from_paths(self.cwd_map.iter().flat_map(|(old, new)| [old, new]), "cwd map path")?;
        if cwd_map.len() > 0 {
            raw.cwd_map = cwd_map.as_ptr();
            raw.cwd_map_len = cwd_map.len();
        }
        if self.rename {
            raw.flags |= sys::XS_IMPORT_BUNDLE_RENAME;
        }
        if self.dry_run {
            raw.flags |= sys::XS_IMPORT_BUNDLE_DRY_RUN;
        }
        Ok(RawImportBundleOptions { raw, _cwd_map: cwd_map })
    }
}

impl Store {
    /// Writes a bundle of the sessions `session_ids` names, typed report (see
    /// [`Store::export_json`]).
    pub fn export<I>(
        &self,
        session_ids: I,
        out_path: impl AsRef<Path>,
        opts: &ExportOptions,
    ) -> Result<BundleExportReport>
    where
        I: IntoIterator,
        I::Item: AsRef<Path>,
    {
        decode(&self.export_json(session_ids, out_path, opts)?, "xs_export")
    }

    /// Writes a bundle of the sessions `session_ids` names (ids, unambiguous id prefixes, or
    /// session file paths of this store; one named twice travels once) to `out_path`, replacing
    /// a file there whole (`xs_export`). It holds those sessions byte for byte, by default the
    /// sessions they descend from, the blobs they reference and the key records that point at
    /// them. Returns the library's report (docs/bundles.md#export): `{"path","bytes",
    /// "compression","sessions":[{"id","path","cwd","archived","lineage","bytes",
    /// "parentSession","parentInBundle"}],"blobs":[{"hash","bytes"}],"missingBlobs","keys"}`.
    ///
    /// Errors: [`ErrorCode::Invalid`] for no session, an empty name or path, or a NUL in one;
    /// [`ErrorCode::NotFound`] for a session the store does not have; [`ErrorCode::Ambiguous`];
    /// [`ErrorCode::Corrupt`] for a damaged blob or archive; [`ErrorCode::Conflict`] when a file
    /// changed during the export; the disk's errors.
    ///
    /// [`ErrorCode::Invalid`]: crate::ErrorCode::Invalid
    /// [`ErrorCode::NotFound`]: crate::ErrorCode::NotFound
    /// [`ErrorCode::Ambiguous`]: crate::ErrorCode::Ambiguous
    /// [`ErrorCode::Corrupt`]: crate::ErrorCode::Corrupt
    /// [`ErrorCode::Conflict`]: crate::ErrorCode::Conflict
    pub fn export_json<I>(&self, session_ids: I, out_path: impl AsRef<Path>, opts: &ExportOptions) -> Result<String>
    where
        I: IntoIterator,
        I::Item: AsRef<Path>,
    {
        let ids = CStrings::from_paths(session_ids, "session id")?;
        let out = path_c_string(out_path.as_ref(), "output path")?;
        let raw = opts.to_raw()?;
        // SAFETY: live store; `ids` (with the strings it points into), `out` and `raw` outlive
        // the call; the buffer triple comes from read_bytes (the retry after XS_EBUFS copies the
        // report: the bundle is not written twice).
        self.handle.read_string("xs_export", |st, b, c, n| unsafe {
            sys::xs_export(st, ids.as_ptr(), ids.len(), out.as_ptr(), &raw, b, c, n)
        })
    }

    /// Imports the bundle at `bundle_path`, typed report (see [`Store::import_bundle_json`]).
    pub fn import_bundle(
        &self,
        bundle_path: impl AsRef<Path>,
        opts: &ImportBundleOptions,
    ) -> Result<BundleImportReport> {
        decode(&self.import_bundle_json(bundle_path, opts)?, "xs_import_bundle")
    }

    /// Imports the bundle at `bundle_path` (a file on the local disk, whatever the store's
    /// storage) into this store (`xs_import_bundle`). Every member is checked against the
    /// bundle's manifest before anything is placed. Sessions go to the directory of their cwd
    /// under their own file names, byte for byte; a session, blob or key record the store already
    /// has the same is `"present"`, so importing a bundle twice changes nothing. Returns the
    /// library's report (docs/bundles.md#import): `{"dryRun","bundle","sourceRoot",
    /// "sessions":[{"id","newId","path","cwd","oldCwd","archived","action"}],
    /// "blobs":[{"hash","action"}],"keys":[{"key","action"}]}`.
    ///
    /// Errors, after which nothing was written: [`ErrorCode::Corrupt`] for a damaged or hostile
    /// bundle (the message names the member); [`ErrorCode::Exists`] for a session id the store
    /// holds with other content, without [`ImportBundleOptions::rename`];
    /// [`ErrorCode::NotFound`] for no such file; [`ErrorCode::Invalid`] for an empty path or a
    /// bad cwd map; [`ErrorCode::Version`] for a bundle of a newer format;
    /// [`ErrorCode::Locked`] (the keyed store); the disk's errors.
    ///
    /// [`ErrorCode::Corrupt`]: crate::ErrorCode::Corrupt
    /// [`ErrorCode::Exists`]: crate::ErrorCode::Exists
    /// [`ErrorCode::NotFound`]: crate::ErrorCode::NotFound
    /// [`ErrorCode::Invalid`]: crate::ErrorCode::Invalid
    /// [`ErrorCode::Version`]: crate::ErrorCode::Version
    /// [`ErrorCode::Locked`]: crate::ErrorCode::Locked
    pub fn import_bundle_json(&self, bundle_path: impl AsRef<Path>, opts: &ImportBundleOptions) -> Result<String> {
        let bundle = path_c_string(bundle_path.as_ref(), "bundle path")?;
        let opts = opts.to_raw()?;
        // SAFETY: live store; `bundle` and `opts` (with the strings it points into) outlive the
        // call; the buffer triple comes from read_bytes (the retry after XS_EBUFS copies the
        // report: nothing is imported twice).
        self.handle.read_string("xs_import_bundle", |st, b, c, n| unsafe {
            sys::xs_import_bundle(st, bundle.as_ptr(), &opts.raw, b, c, n)
        })
    }

    /// Writes the HTML pages of the sessions `session_ids` names, typed report (see
    /// [`Store::export_html_json`]).
    pub fn export_html<I>(&self, session_ids: I, out_path: impl AsRef<Path>) -> Result<HtmlReport>
    where
        I: IntoIterator,
        I::Item: AsRef<Path>,
    {
        decode(&self.export_html_json(session_ids, out_path)?, "xs_export_html")
    }

    /// Writes the pages of the sessions `session_ids` names (file paths, ids or unambiguous id
    /// prefixes) on the local disk (`xs_export_html`, docs/html-view.md). One session: `out_path`
    /// is the page (its directory must exist). Several: `out_path` is a directory (made when
    /// missing) that gets `<session id>.html` for each and an `index.html` linking them. Each
    /// page is self-contained and fetches nothing; the sessions are only read. Returns the
    /// library's report: `{"pages":[{"path","sessionId","entries","messages","branchPoints",
    /// "branches","bytes"}],"index":{"path","bytes"}}`, `"index"` `null` for one session.
    ///
    /// Errors: [`ErrorCode::Invalid`] for no session, an empty name or path, a session named
    /// twice, one session and a directory or several and a file; [`ErrorCode::NotFound`] for a
    /// name that matches no session or a page's missing directory; [`ErrorCode::Ambiguous`];
    /// [`ErrorCode::NoHeader`] or [`ErrorCode::Corrupt`] for a file that is no session; the
    /// disk's errors (pages written before one stay, no index is written).
    ///
    /// [`ErrorCode::Invalid`]: crate::ErrorCode::Invalid
    /// [`ErrorCode::NotFound`]: crate::ErrorCode::NotFound
    /// [`ErrorCode::Ambiguous`]: crate::ErrorCode::Ambiguous
    /// [`ErrorCode::NoHeader`]: crate::ErrorCode::NoHeader
    /// [`ErrorCode::Corrupt`]: crate::ErrorCode::Corrupt
    pub fn export_html_json<I>(&self, session_ids: I, out_path: impl AsRef<Path>) -> Result<String>
    where
        I: IntoIterator,
        I::Item: AsRef<Path>,
    {
        let ids = CStrings::from_paths(session_ids, "session id")?;
        let out = path_c_string(out_path.as_ref(), "output path")?;
        let raw = init(sys::xs_html_options_init, sys::XS_HTML_OPTIONS_VERSION)?;
        // SAFETY: live store; `ids` (with the strings it points into), `out` and `raw` outlive
        // the call; the buffer triple comes from read_bytes (the retry after XS_EBUFS copies the
        // report: nothing is rendered twice).
        self.handle.read_string("xs_export_html", |st, b, c, n| unsafe {
            sys::xs_export_html(st, ids.as_ptr(), ids.len(), out.as_ptr(), &raw, b, c, n)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;
    use std::ffi::CStr;

    #[test]
    fn default_options_are_the_librarys_defaults() {
        let export = ExportOptions::new().to_raw().unwrap();
        assert_eq!((export.version, export.flags), (1, 0));
        let import = ImportBundleOptions::new().to_raw().unwrap().raw;
        assert_eq!((import.version, import.flags, import.cwd_map_len), (1, 0, 0));
        assert!(import.cwd_map.is_null());
    }

    #[test]
    fn given_options_set_their_flags() {
        let export = ExportOptions::new().lineage(false).gzip(true).to_raw().unwrap();
        assert_eq!(export.flags, sys::XS_EXPORT_NO_LINEAGE | sys::XS_EXPORT_GZIP);
        assert_eq!(ExportOptions::new().gzip(true).to_raw().unwrap().flags, sys::XS_EXPORT_GZIP);
        let import = ImportBundleOptions::new().rename(true).dry_run(true).to_raw().unwrap().raw;
        assert_eq!(import.flags, sys::XS_IMPORT_BUNDLE_RENAME | sys::XS_IMPORT_BUNDLE_DRY_RUN);
    }

    #[test]
    fn the_cwd_map_is_old_new_pairs_in_the_order_given() {
        let map: std::collections::BTreeMap<String, String> =
            [("/c".to_string(), "/d".to_string())].into_iter().collect();
        let opts = ImportBundleOptions::new().cwd_map([("/a", "/b")]).cwd_map(&map);
        let raw = opts.to_raw().unwrap();
        assert_eq!(raw.raw.cwd_map_len, 4);
        // SAFETY: four pointers into the NUL-terminated strings `raw` holds.
        let got: Vec<&str> =
            (0..4).map(|i| unsafe { CStr::from_ptr(*raw.raw.cwd_map.add(i)) }.to_str().unwrap()).collect();
        assert_eq!(got, ["/a", "/b", "/c", "/d"]);
    }

    #[test]
    fn a_nul_in_a_cwd_map_path_is_invalid() {
        let err = ImportBundleOptions::new().cwd_map([("/a", "/b\0c")]).to_raw().err().unwrap();
        assert_eq!((err.code(), err.message()), (ErrorCode::Invalid, "cwd map path contains a NUL byte"));
    }
}
