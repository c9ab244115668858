//! Typed values of every JSON the C API returns, decoded with `serde`. The JSON each type reads
//! is described in `xsession.h` and docs/; the members are named as there, in snake_case.
//!
//! Rules, so a value says exactly what the library wrote:
//! - A member that may be absent is an `Option` that is skipped when `None`; a member that is
//!   always there but may be `null` is an `Option` written back as `null`; the rare member that
//!   may be absent or `null` is an `Option<Option<_>>` (outer: present, inner: not null).
//! - Caller-owned JSON (message content, entry `data` / `details`, key records) stays a
//!   [`serde_json::Value`]; entries of a type this crate does not know decode as
//!   [`EntryKind::Other`], with every member kept.
//! - Members a newer library adds are ignored when decoding, so an older binding keeps working;
//!   the crate's conformance replay re-encodes every decoded value and compares it with the
//!   library's JSON, so this crate's tests fail when the library's output changes shape.

mod bundle;
mod context;
mod entry;
mod foreign;
mod history;
mod index;
mod reports;

pub use bundle::{
    BundleAction, BundleExportReport, BundleImportReport, BundleImportedBlob, BundleImportedKey, BundleImportedSession,
    Compression, ExportedBlob, ExportedSession, HtmlIndex, HtmlPage, HtmlReport,
};
pub use context::{
    CompactionPlan, Context, Diagnostic, Label, Message, Orphan, PendingToolCall, PiModel, ResumeCheck, TreeNode,
};
pub use entry::{Entries, Entry, EntryKind, Header, KNOWN_TYPES};
pub use foreign::{
    ClaudeProject, ClaudeTranscript, CodexSession, ForeignListing, ForeignProblem, GatewayAgent, GatewayKey,
    GatewayTranscript, ImportReport, ImportedSession, MyAgentsSession, MyAgentsStats,
};
pub use history::{DamagedHistory, HistoryHit, HistoryInfo, HistoryPrompt};
pub use index::{IndexInfo, IndexReport, IndexVerifyReport, IndexedSession, Role, SearchHit};
pub use reports::{
    ArchiveReport, ArchivedSession, BlobInfo, BlobList, FileInfo, FixStatsReport, FixedRecord, GcReport, ListedSession,
    PruneReport, PrunedArchive, Quarantine, RepairReport, RepairStep, SkippedRecord, SkippedSession, VerifyProblem,
    VerifyReport,
};

use std::borrow::Cow;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};

use crate::error::{Error, ErrorCode, Result};

/// A SQLite file (the prompt history's, the session index's) an open could not use, kept aside as
/// `<path>.damaged-<UTC time>` with its `-wal` and `-shm` before a fresh one was started
/// ([`HistoryInfo::damaged`], [`IndexInfo::damaged`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamagedFile {
    /// Where the damaged file is now.
    pub path: String,
    /// Why it could not be used (SQLite's words).
    pub reason: String,
}

/// Decodes the library's JSON `text` (the output of `what`) as a `T`. A mismatch is an
/// [`ErrorCode::Internal`] error naming the call and serde's reason: the library's output not
/// matching its header is worth a clear message, not a panic.
///
/// Two kinds of valid JSON have no serde_json value: a lone surrogate escape (`"\ud83d"`, which
/// JavaScript writes) becomes U+FFFD, since a Rust `String` cannot hold it; a number beyond
/// `f64` (`1e400`) is an error. The `*_json` methods give such text exactly.
pub(crate) fn decode<T: DeserializeOwned>(text: &str, what: &str) -> Result<T> {
    serde_json::from_str(&replace_lone_surrogates(text))
        .map_err(|e| Error::new(ErrorCode::Internal, format!("{what}: {e}")))
}

/// `text` with every `\u` escape of a lone surrogate (one not in a high-low pair) replaced by
/// `\ufffd`, the form in which the typed values hold such a string; borrowed when there is none.
pub fn replace_lone_surrogates(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let unit = |at: usize| -> Option<u32> {
        let digits = bytes.get(at..at + 6)?;
        if &digits[..2] != b"\\u" {
            return None;
        }
        u32::from_str_radix(std::str::from_utf8(&digits[2..]).ok()?, 16).ok()
    };
    let mut out: Option<String> = None;
    let (mut at, mut copied) = (0, 0);
    while at < bytes.len() {
        if bytes[at] != b'\\' {
            at += 1;
            continue;
        }
        match unit(at) {
            Some(high @ 0xD800..=0xDBFF) if matches!(unit(at + 6), Some(0xDC00..=0xDFFF)) => {
                let _ = high;
                at += 12;
            }
            Some(0xD800..=0xDFFF) => {
                let out = out.get_or_insert_with(String::new);
                out.push_str(&text[copied..at]);
                out.push_str("\\ufffd");
                at += 6;
                copied = at;
            }
            _ => at += 2, // any other escape, \\ included
        }
    }
    match out {
        None => Cow::Borrowed(text),
        Some(mut out) => {
            out.push_str(&text[copied..]);
            Cow::Owned(out)
        }
    }
}

/// Decodes JSON text a `*_json` method returned (or that was saved from one) as its typed value,
/// exactly as the typed method does: `from_json::<Context>(&session.build_context_json(None)?)`
/// is `session.build_context(None)`. A mismatch is an [`ErrorCode::Internal`] error.
pub fn from_json<T: DeserializeOwned>(text: &str) -> Result<T> {
    decode(text, std::any::type_name::<T>())
}

/// For `#[serde(default, deserialize_with = "present")]`: a member that is there is `Some`, even
/// when it is `null` (so `Option<Value>` keeps a `null`, and `Option<Option<T>>` tells absent from
/// `null`); an absent member takes the default, `None`.
pub(crate) fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> std::result::Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_become_fffd_and_pairs_stay() {
        assert_eq!(replace_lone_surrogates(r#""a\ud83d\ude00b""#), r#""a\ud83d\ude00b""#);
        assert_eq!(replace_lone_surrogates(r#""x\ud83dy\udc00\\ud800""#), r#""x\ufffdy\ufffd\\ud800""#);
        assert_eq!(replace_lone_surrogates(r#""\ud83d\u0041""#), r#""\ufffd\u0041""#);
        assert!(matches!(replace_lone_surrogates(r#"{"a":"\n\u00e9"}"#), Cow::Borrowed(_)));
        let s: String = from_json(r#""x\ud800""#).unwrap();
        assert_eq!(s, "x\u{fffd}");
    }

    #[test]
    fn numbers_beyond_f64_are_an_error_naming_the_call() {
        let err = decode::<serde_json::Value>("[1e400]", "xs_test").unwrap_err();
        assert_eq!(err.code(), ErrorCode::Internal);
        assert!(err.message().starts_with("xs_test: number out of range"), "{}", err.message());
    }
}
