//! The reports of a bundle's export and import ([`BundleExportReport`], [`BundleImportReport`],
//! docs/bundles.md) and of the HTML view ([`HtmlReport`], docs/html-view.md).

use serde::{Deserialize, Serialize};

/// How a bundle is compressed ([`BundleExportReport::compression`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Compression {
    /// zstd, the default.
    Zstd,
    /// gzip ([`ExportOptions::gzip`](crate::ExportOptions::gzip)).
    Gzip,
}

/// A session a bundle carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportedSession {
    /// The session id.
    pub id: String,
    /// Its file in the exporting store.
    pub path: String,
    /// The header's working directory.
    pub cwd: String,
    /// Whether it is an archive (`.jsonl.gz`), carried as such.
    pub archived: bool,
    /// Whether it travels as an ancestor of a named session rather than named itself.
    pub lineage: bool,
    /// Its size in bytes.
    pub bytes: u64,
    /// The header's `parentSession`, if any.
    pub parent_session: Option<String>,
    /// Whether that parent travels in the same bundle.
    pub parent_in_bundle: bool,
}

/// A blob a bundle carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportedBlob {
    /// Its SHA-256, 64 lowercase hex characters.
    pub hash: String,
    /// Its size in bytes.
    pub bytes: u64,
}

/// What an export wrote (`xs_export`): sessions in the order they travel, the named ones first,
/// then their ancestors.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BundleExportReport {
    /// The bundle file.
    pub path: String,
    /// The bundle's size in bytes.
    pub bytes: u64,
    /// How it is compressed.
    pub compression: Compression,
    /// The sessions carried.
    pub sessions: Vec<ExportedSession>,
    /// The blobs carried, by hash.
    pub blobs: Vec<ExportedBlob>,
    /// Hashes the sessions reference that the blob store does not hold (not carried).
    pub missing_blobs: Vec<String>,
    /// The keys whose records were carried.
    pub keys: Vec<String>,
}

/// What an import did with one thing of the bundle (a dry run: would do).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BundleAction {
    /// Placed in the store.
    Imported,
    /// A session placed under a new id
    /// ([`ImportBundleOptions::rename`](crate::ImportBundleOptions::rename)).
    Renamed,
    /// Already in the store, the same: left as it was.
    Present,
    /// A key the store has with another record: its record was kept.
    Kept,
}

/// A session of [`BundleImportReport::sessions`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BundleImportedSession {
    /// The id the bundle carried.
    pub id: String,
    /// The new id ([`BundleAction::Renamed`]), else `None`.
    pub new_id: Option<String>,
    /// Its file in this store (for [`BundleAction::Present`], the file already there).
    pub path: String,
    /// Its cwd in this store.
    pub cwd: String,
    /// The cwd the bundle carried when the cwd map changed it, else `None`.
    pub old_cwd: Option<String>,
    /// Whether it is an archive (`.jsonl.gz`).
    pub archived: bool,
    /// [`BundleAction::Imported`], [`BundleAction::Renamed`] or [`BundleAction::Present`].
    pub action: BundleAction,
}

/// A blob of [`BundleImportReport::blobs`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BundleImportedBlob {
    /// Its SHA-256.
    pub hash: String,
    /// [`BundleAction::Imported`] or [`BundleAction::Present`].
    pub action: BundleAction,
}

/// A key record of [`BundleImportReport::keys`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BundleImportedKey {
    /// The key.
    pub key: String,
    /// [`BundleAction::Imported`], [`BundleAction::Present`] or [`BundleAction::Kept`].
    pub action: BundleAction,
}

/// What an import did (`xs_import_bundle`): sessions in the bundle's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BundleImportReport {
    /// Whether it was a dry run.
    pub dry_run: bool,
    /// The bundle file.
    pub bundle: String,
    /// The root of the store it was exported from.
    pub source_root: String,
    /// The sessions.
    pub sessions: Vec<BundleImportedSession>,
    /// The blobs.
    pub blobs: Vec<BundleImportedBlob>,
    /// The key records.
    pub keys: Vec<BundleImportedKey>,
}

/// A page of [`HtmlReport::pages`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HtmlPage {
    /// The page: the output path for one session, else `<output dir>/<session id>.html`.
    pub path: String,
    /// The id in the session's header.
    pub session_id: String,
    /// Entries on the page: every entry of the session, once.
    pub entries: u64,
    /// Message entries on the page.
    pub messages: u64,
    /// Places where the tree forks.
    pub branch_points: u64,
    /// Branches other than the one the page goes on with, each collapsed where it leaves.
    pub branches: u64,
    /// The page's size in bytes.
    pub bytes: u64,
}

/// The index page of several sessions ([`HtmlReport::index`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HtmlIndex {
    /// `<output dir>/index.html`.
    pub path: String,
    /// Its size in bytes.
    pub bytes: u64,
}

/// The pages the HTML view wrote (`xs_export_html`), in the order the sessions were named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HtmlReport {
    /// The pages.
    pub pages: Vec<HtmlPage>,
    /// The index page; `None` for one session.
    pub index: Option<HtmlIndex>,
}
