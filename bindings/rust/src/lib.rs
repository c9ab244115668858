//! Rust binding of **xsession**, session storage for coding agents.
//!
//! A session is an append-only JSONL transcript: a header line, then typed entries linked by
//! `id`/`parentId` into a tree with a movable leaf. This crate wraps the library's C ABI
//! (`libxsession.so.0`, header `xsession.h`, declared by `xsession-sys`) and decodes its JSON with
//! serde:
//!
//! - [`sys`]: the raw declarations, one for one with the header (the `xsession-sys` crate);
//! - [`types`]: every output typed ([`Context`], [`Entry`], reports), each reader with a `*_json`
//!   twin that returns the library's exact bytes;
//! - [`Store`] and [`Session`]: owned handles (dropping closes them) with safe methods that
//!   take paths as `impl AsRef<Path>`, JSON and text as `&str`, blob data as `&[u8]`;
//! - [`Error`]: every failure, with the library's status as an [`ErrorCode`] and the handle's
//!   message;
//! - [`Keys`] ([`Store::keys`]): the keyed session document (`sessions.json`) that maps a host's
//!   session keys to records, changed under a lock that other processes respect;
//! - the session library: compaction planning ([`should_compact`], [`Session::compaction_plan`]),
//!   resume analysis ([`Session::resume_check`]), stats ([`Session::stats`]), reset policies
//!   ([`Store::session_for_key`]) and retention ([`Store::archive`], [`Store::prune`]);
//! - import ([`Store::import`], [`Store::foreign_list`]): another agent's store ([`ImportKind`])
//!   read into native sessions and keys of this one;
//! - bundles ([`Store::export`], [`Store::import_bundle`]): sessions with their lineage, blobs
//!   and key records carried to another store in one file, placed there byte for byte; and the
//!   HTML view ([`Store::export_html`]): sessions as self-contained pages that open offline;
//! - [`History`] ([`Store::history`]): the prompts a user typed, in one SQLite database per
//!   store with a full-text index: [`History::add`] returns at once, [`History::search`] and
//!   [`History::recent`] read them back typed;
//! - [`Index`] ([`Store::index`]): the session index, a row per session and per entry in one
//!   SQLite database with a full-text index: [`Index::refresh`] brings it up to date with the
//!   files, [`Index::search`] finds entries of every session, [`Index::list`] lists sessions
//!   without reading them;
//! - [`Dialect`]: whose forms a session writes, omp's or pi's (docs/dialects.md); chosen per
//!   store ([`StoreOptions::default_dialect`]) and per session ([`SessionOptions::dialect`]);
//! - [`Storage`] ([`StoreOptions::storage`]): where a store keeps its files when the host
//!   supplies it (`xsession_storage.h`), and [`BuiltinStorage`], the library's own backends.
//!
//! ```no_run
//! use xsession::{SessionOptions, Store};
//!
//! # fn main() -> xsession::Result<()> {
//! let store = Store::open("/home/me/.xcsh/agent")?;
//! let session = store.create_session("/home/me/project", &SessionOptions::new())?;
//! let question = session.append_message(r#"{"role":"user","content":"Why does the build fail?"}"#)?;
//! session.append_message(
//!     r#"{"role":"assistant","provider":"anthropic","model":"claude-sonnet-4-5","content":[{"type":"text","text":"A missing include."}]}"#,
//! )?;
//! session.branch_with_summary(Some(&question), "Tried the missing-include theory.", None, None)?;
//! let context = session.build_context(None)?; // typed; build_context_json gives the exact JSON
//! for message in &context.messages {
//!     println!("{}: {}", message.role, message.text());
//! }
//! session.close()?; // or just drop it; close() also reports a failed final flush
//! # Ok(())
//! # }
//! ```
//!
//! # Threads
//!
//! [`Store`], [`Session`], [`History`] and [`Index`] are `Send + Sync`. The C API allows a
//! handle to be used from any thread and shared between threads (calls on one handle are
//! serialised inside the library), with one caveat: the handle's error text and its cached `XS_EBUFS` result
//! belong to whichever call ran last. So each wrapper holds a lock across the C call, the read
//! of its message and the buffer retry; a shared `Arc<Session>` can be appended to from
//! several threads, and every error carries the message of its own call. Distinct handles, even
//! on the same file, are independent (file locks coordinate them: a second writer gets
//! [`ErrorCode::Locked`]).
//!
//! # Lifetimes
//!
//! A [`Session`] may outlive the [`Store`] it came from: the library keeps what the session
//! needs alive, so the two can be dropped in any order. A [`History`] and an [`Index`] are
//! independent of their store once opened.
//!
//! # Linking
//!
//! The `xsession-sys` crate (`links = "xsession"`) asks the `pkg-config` program for the
//! `xsession` module (set `PKG_CONFIG_PATH` to `<build>/pkgconfig` to use an uninstalled build
//! tree); this crate's `build.rs` adds an rpath to the library's directory for its own tests and
//! examples. A program of yours finds `libxsession.so.0` where the system looks for libraries
//! (or through `LD_LIBRARY_PATH`).
#![deny(missing_docs)]
// Unsafe operations inside an `unsafe fn` keep their own `unsafe` block (with its SAFETY note), as
// Rust 2024 requires; the Rust 1.63 this crate also builds with (Debian 12's) calls those blocks
// unnecessary.
#![allow(unused_unsafe)]

mod buffer;
mod builtin_storage;
mod bundle;
mod dialect;
mod error;
mod handle;
mod history;
mod import;
mod index;
mod info;
mod json;
mod keys;
mod options;
mod planning;
mod policy;
mod progress;
mod read;
mod retention;
mod session;
mod storage;
mod storage_table;
mod store;
pub use xsession_sys as sys;
pub mod types;
mod upkeep;
mod write;

pub use builtin_storage::{BuiltinFile, BuiltinLock, BuiltinStorage};
pub use bundle::{ExportOptions, ImportBundleOptions};
pub use dialect::Dialect;
pub use error::{status_str, Error, ErrorCode, Result};
pub use history::{History, HistoryOptions, SearchOptions};
pub use import::{ImportKind, ImportOptions};
pub use index::{Index, IndexOptions, IndexSearchOptions};
pub use info::{SessionInfo, SessionStats, Usage};
pub use keys::{KeyRecord, Keys, Update};
pub use options::{GcOptions, ListOptions, RepairOptions, SessionOptions, StoreOptions};
pub use planning::{should_compact, should_flush_memory, CompactionSettings};
pub use policy::{ResetPolicy, ResetReason};
pub use read::BlobRefs;
pub use retention::ArchiveOptions;
pub use session::Session;
pub use storage::{OpenMode, ReadBuffer, Storage, StorageInfo, StorageKind};
pub use store::Store;
pub use types::{Context, Entries, Entry, EntryKind, Message, Role};
pub use write::{Compaction, CustomMessage, SessionInitEntry};

// The README's examples run as doc tests, so the agent loop shown there keeps compiling and working.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

/// The library's runtime version `(major, minor, patch)` (`xs_version`); compare it with
/// [`sys::XS_VERSION_MAJOR`] and friends, the version of the header this crate mirrors.
pub fn version() -> (i32, i32, i32) {
    let (mut major, mut minor, mut patch) = (0, 0, 0);
    // SAFETY: xs_version only writes the three ints, and may be called from any thread.
    unsafe { sys::xs_version(&mut major, &mut minor, &mut patch) };
    (major, minor, patch)
}
