//! [`Keys`]: the store's keyed session document (`sessions.json`, docs/keyed-store.md), which maps
//! a host's session keys (`"agent:<id>:main"`, `"cron:<job>"`) to records.

use std::any::Any;
use std::ffi::c_void;
use std::os::raw::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::buffer::{c_string, into_string};
use crate::error::{Error, ErrorCode, Result};
use crate::json;
use crate::store::Store;
use crate::sys;
use crate::types::{decode, FixStatsReport};

/// The keyed session store of a [`Store`] ([`Store::keys`]): one JSON document,
/// `<root>/sessions.json` unless [`StoreOptions::keys_path`](crate::StoreOptions::keys_path)
/// names another, mapping session keys to records.
///
/// A record is a JSON object with a string `"sessionId"`; the fields the library knows (`title`,
/// `updatedAt`, token counters, …) must have their types, and every other field is the host's,
/// kept token for token and in order. Keys are 1 to 256 bytes of printable UTF-8 without `/` or
/// `\`. Records go in and come out as JSON text (`&str` / `String`), minified.
///
/// Every change is a read-modify-write under a lock on the document that other processes and
/// handles respect, published atomically; readers take no lock. A refused change (bad key, bad
/// JSON, a field of the wrong type: [`ErrorCode::Invalid`]) leaves the document byte for byte.
/// A damaged document is never written over: reads fail with [`ErrorCode::Corrupt`], and the
/// first change moves it aside as `<document>.corrupt-<time>` (also [`ErrorCode::Corrupt`]).
///
/// A missing record is not an error where a lookup expects one may be missing: [`Keys::get`]
/// gives `Ok(None)` and [`Keys::delete`] `Ok(false)`, as `HashMap::get` and `remove` would.
#[derive(Clone, Copy)]
pub struct Keys<'a> {
    pub(crate) store: &'a Store,
}

/// One record of [`Keys::list`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct KeyRecord {
    /// The session key.
    pub key: String,
    /// The record, as the library returns it: minified JSON, each token as stored.
    pub record: String,
}

impl KeyRecord {
    /// The records of a key list's JSON (the text of [`Keys::list_json`]), each record kept as
    /// the exact text the library wrote, at any depth.
    pub fn list_from_json(text: &str) -> Result<Vec<KeyRecord>> {
        let records =
            json::key_records(text).map_err(|e| Error::new(ErrorCode::Internal, format!("xs_keys_list: {e}")))?;
        Ok(records.into_iter().map(|(key, record)| KeyRecord { key, record }).collect())
    }
}

impl serde::Serialize for KeyRecord {
    /// `{"key":…,"record":…}`, the record written as its text (so a list encodes as the library
    /// wrote it).
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::{Error as _, SerializeStruct};
        let record = serde_json::value::RawValue::from_string(self.record.clone()).map_err(S::Error::custom)?;
        let mut out = s.serialize_struct("KeyRecord", 2)?;
        out.serialize_field("key", &self.key)?;
        out.serialize_field("record", &record)?;
        out.end()
    }
}

/// What [`Keys::update`]'s closure decides the record becomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Update {
    /// Leave it as it is (no record stays no record). Nothing is written.
    Keep,
    /// Replace it with this record (JSON text); a missing one is added at the end.
    Set(String),
    /// Remove it (nothing happens if there is none).
    Remove,
    /// Change nothing and make [`Keys::update`] return this error (its code is the status the
    /// closure gives the library; a code that is not an error becomes [`ErrorCode::Error`]).
    Cancel(Error),
}

impl Store {
    /// The store's keyed session document (see [`Keys`]).
    ///
    /// ```
    /// # fn main() -> xsession::Result<()> {
    /// # let dir = std::env::temp_dir().join(format!("xsession-keys-doc-{}", std::process::id()));
    /// let store = xsession::Store::open(dir.to_str().unwrap())?;
    /// store.keys().put("agent:main:main", r#"{"sessionId":"0193a5","title":"Fix the build"}"#)?;
    /// assert_eq!(store.keys().get("agent:main:main")?.as_deref(), Some(r#"{"sessionId":"0193a5","title":"Fix the build"}"#));
    /// assert_eq!(store.keys().get("cron:nightly")?, None);
    /// # drop(store);
    /// # std::fs::remove_dir_all(dir).ok();
    /// # Ok(())
    /// # }
    /// ```
    pub fn keys(&self) -> Keys<'_> {
        Keys { store: self }
    }
}

impl Keys<'_> {
    /// The record of `key` as minified JSON, `None` when there is none (`xs_keys_get`).
    pub fn get(&self, key: &str) -> Result<Option<String>> {
        let key = c_string(key, "key")?;
        // SAFETY: live store; `key` outlives the call; the buffer triple comes from read_bytes.
        let got = self
            .store
            .handle
            .read_string("xs_keys_get", |st, b, c, n| unsafe { sys::xs_keys_get(st, key.as_ptr(), b, c, n) });
        match got {
            Ok(record) => Ok(Some(record)),
            Err(e) if e.code() == ErrorCode::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The records whose keys start with `prefix` (`""`: all), in the document's order.
    pub fn list(&self, prefix: &str) -> Result<Vec<KeyRecord>> {
        KeyRecord::list_from_json(&self.list_json(prefix)?)
    }

    /// [`Keys::list`] as the library's exact JSON: `[{"key":…,"record":{…}},…]` (`xs_keys_list`).
    pub fn list_json(&self, prefix: &str) -> Result<String> {
        let prefix = c_string(prefix, "prefix")?;
        // SAFETY: live store; `prefix` outlives the call; the buffer triple comes from read_bytes.
        self.store
            .handle
            .read_string("xs_keys_list", |st, b, c, n| unsafe { sys::xs_keys_list(st, prefix.as_ptr(), b, c, n) })
    }

    /// Replaces the record of `key` with `record` (JSON text); a new key goes last
    /// (`xs_keys_put`).
    pub fn put(&self, key: &str, record: &str) -> Result<()> {
        let key = c_string(key, "key")?;
        // SAFETY: live store; `key` and `record` outlive the call.
        self.store
            .handle
            .check(|st| unsafe { sys::xs_keys_put(st, key.as_ptr(), record.as_ptr().cast(), record.len()) })
    }

    /// Merges `patch` into the record of `key` as a JSON merge patch (RFC 7386): `null` removes
    /// a field, objects merge, anything else replaces; fields keep their places, new ones go last.
    /// A missing record starts as `{}` (so the patch must give it a `"sessionId"`) (`xs_keys_patch`).
    pub fn patch(&self, key: &str, patch: &str) -> Result<()> {
        let key = c_string(key, "key")?;
        // SAFETY: live store; `key` and `patch` outlive the call.
        self.store
            .handle
            .check(|st| unsafe { sys::xs_keys_patch(st, key.as_ptr(), patch.as_ptr().cast(), patch.len()) })
    }

    /// Removes the record of `key`: `true` if there was one, `false` if not (`xs_keys_delete`).
    pub fn delete(&self, key: &str) -> Result<bool> {
        let key = c_string(key, "key")?;
        // SAFETY: live store; `key` outlives the call.
        match self.store.handle.check(|st| unsafe { sys::xs_keys_delete(st, key.as_ptr()) }) {
            Ok(()) => Ok(true),
            Err(e) if e.code() == ErrorCode::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Recounts the stats of the records whose key starts with `prefix`, typed report (see
    /// [`Keys::fix_stats_json`]).
    pub fn fix_stats(&self, prefix: &str) -> Result<FixStatsReport> {
        decode(&self.fix_stats_json(prefix)?, "xs_keys_fix_stats")
    }

    /// Recounts the stats of the records whose key starts with `prefix` (`""`: all) from their
    /// sessions (read-only) and rewrites, under the document's lock, only the stat fields that
    /// differ (`xs_keys_fix_stats`). Returns the library's report:
    /// `{"checked":N,"fixed":[{"key","sessionId","before":{…},"after":{…}}],"skipped":[{"key","reason"}]}`;
    /// a record whose session cannot be found or read is skipped, not an error.
    pub fn fix_stats_json(&self, prefix: &str) -> Result<String> {
        let prefix = c_string(prefix, "prefix")?;
        // SAFETY: live store; `prefix` outlives the call; the buffer triple comes from read_bytes.
        self.store.handle.read_string("xs_keys_fix_stats", |st, b, c, n| unsafe {
            sys::xs_keys_fix_stats(st, prefix.as_ptr(), b, c, n)
        })
    }

    /// Decides what the record of `key` becomes, under the document's lock: `decide` sees the
    /// record (`None` when there is none) and returns an [`Update`]; no other process or handle
    /// can change the document in between (`xs_keys_update`).
    ///
    /// `decide` runs once, on this thread, while the store's lock is held: a call on the same
    /// store from inside it fails with [`ErrorCode::Misuse`] (it would otherwise wait for
    /// ever), and it should be quick, since other writers wait for it. A panic in `decide` does
    /// not cross the C library: it is caught, nothing is written, and `update` returns an
    /// [`ErrorCode::Error`] naming the panic's message.
    ///
    /// ```
    /// use xsession::Update;
    /// # fn main() -> xsession::Result<()> {
    /// # let dir = std::env::temp_dir().join(format!("xsession-update-doc-{}", std::process::id()));
    /// let store = xsession::Store::open(dir.to_str().unwrap())?;
    /// store.keys().update("cron:nightly", |current| match current {
    ///     Some(_) => Update::Keep,
    ///     None => Update::Set(r#"{"sessionId":"0193a6"}"#.to_string()),
    /// })?;
    /// # drop(store);
    /// # std::fs::remove_dir_all(dir).ok();
    /// # Ok(())
    /// # }
    /// ```
    pub fn update<F>(&self, key: &str, decide: F) -> Result<()>
    where
        F: FnOnce(Option<&str>) -> Update,
    {
        let key = c_string(key, "key")?;
        let mut call = UpdateCall { decide: Some(decide), set: None, cancelled: None };
        let user: *mut UpdateCall<F> = &mut call;
        // SAFETY: live store; `key` and `call` outlive the call, and the library calls
        // `decide_trampoline::<F>` (matching `user`'s type) only during it, on this thread.
        let result = self.store.handle.check_running_closure(|st| unsafe {
            sys::xs_keys_update(st, key.as_ptr(), Some(decide_trampoline::<F>), user.cast::<c_void>())
        });
        match (result, call.cancelled) {
            (Err(library), Some(mut cancelled)) => {
                if cancelled.message().is_empty() {
                    cancelled = Error::new(cancelled.code(), library.message());
                }
                Err(cancelled)
            }
            (result, _) => result,
        }
    }
}

/// What `update` shares with its callback.
struct UpdateCall<F> {
    decide: Option<F>,
    /// The text of [`Update::Set`], which the library borrows until the callback returns.
    set: Option<String>,
    /// Why the callback cancelled: the closure's error, or its panic.
    cancelled: Option<Error>,
}

/// `xs_keys_update_fn`: runs the closure and hands its decision to the library. Nothing may
/// unwind out of here (that would cross C frames), so a panic is caught and becomes a status.
unsafe extern "C" fn decide_trampoline<F: FnOnce(Option<&str>) -> Update>(
    user: *mut c_void,
    current_json: *const c_char,
    current_len: usize,
    new_json: *mut *const c_char,
    new_len: *mut usize,
) -> sys::xs_status {
    // SAFETY: `user` is the `UpdateCall<F>` that `Keys::update` passed, alive and not otherwise
    // borrowed during the call.
    let call = unsafe { &mut *user.cast::<UpdateCall<F>>() };
    let decide = match call.decide.take() {
        Some(decide) => decide,
        None => {
            call.cancelled = Some(Error::new(ErrorCode::Internal, "the update callback ran twice"));
            return sys::XS_EINTERNAL;
        }
    };
    let current = if current_json.is_null() {
        None
    } else {
        // SAFETY: the library gives `current_len` readable bytes at `current_json`.
        let bytes = unsafe { std::slice::from_raw_parts(current_json.cast::<u8>(), current_len) };
        match into_string(bytes.to_vec(), "xs_keys_update's current record") {
            Ok(text) => Some(text),
            Err(e) => {
                call.cancelled = Some(e);
                return sys::XS_ERROR;
            }
        }
    };
    let decision = match catch_unwind(AssertUnwindSafe(|| decide(current.as_deref()))) {
        Ok(decision) => decision,
        Err(payload) => {
            let message = format!("the update closure panicked: {}", panic_message(&*payload));
            drop_payload(payload);
            call.cancelled = Some(Error::new(ErrorCode::Error, message));
            return sys::XS_ERROR;
        }
    };
    match decision {
        // On entry *new_json is the current record (or NULL): leaving it keeps the record.
        Update::Keep => sys::XS_OK,
        Update::Set(record) => {
            let record = call.set.insert(record);
            // SAFETY: the library passes writable out-pointers; `record` lives in `call` until
            // `Keys::update` returns, after the library copied it.
            unsafe {
                *new_json = record.as_ptr().cast();
                *new_len = record.len();
            }
            sys::XS_OK
        }
        Update::Remove => {
            // SAFETY: as above.
            unsafe {
                *new_json = std::ptr::null();
                *new_len = 0;
            }
            sys::XS_OK
        }
        Update::Cancel(error) => {
            let rc = error.code().raw();
            call.cancelled = Some(error);
            // XS_OK (or a positive value) would apply the record instead of cancelling.
            if rc < 0 {
                rc
            } else {
                sys::XS_ERROR
            }
        }
    }
}

/// The text of a panic (`panic!("…")` gives a `&str` or a `String`).
fn panic_message(payload: &(dyn Any + Send)) -> &str {
    if let Some(text) = payload.downcast_ref::<&str>() {
        text
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text
    } else {
        "(not a string)"
    }
}

/// Drops a panic's payload without letting a panicking `Drop` of it unwind into C.
fn drop_payload(payload: Box<dyn Any + Send>) {
    if let Err(again) = catch_unwind(AssertUnwindSafe(move || drop(payload))) {
        std::mem::forget(again);
    }
}
