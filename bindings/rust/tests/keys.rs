//! The keyed session store through `Store::keys()`: exact document bytes, the update closure's
//! four answers, a closure that panics or calls back into its store, the keys path option, and
//! bad keys.
use crate::common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier};

use common::{store, TempDir};
use xsession::{Error, ErrorCode, KeyRecord, Store, StoreOptions, Update};

fn document(dir: &TempDir) -> String {
    std::fs::read_to_string(dir.path().join("sessions.json")).expect("sessions.json")
}

/// The (key, record) pairs of a list (`KeyRecord` is `non_exhaustive`: tests cannot build one).
fn pairs(records: &[KeyRecord]) -> Vec<(&str, &str)> {
    records.iter().map(|r| (r.key.as_str(), r.record.as_str())).collect()
}

#[test]
fn put_patch_get_list_delete_round_trip() {
    let (dir, store) = store();
    let keys = store.keys();
    assert_eq!(keys.get("agent:main:main").unwrap(), None);
    keys.put("agent:main:main", r#"{ "sessionId": "s1", "cost": 1.50, "mine": {"a": [1, 2]} }"#).unwrap();
    keys.put("cron:nightly", r#"{"sessionId":"s2"}"#).unwrap();
    keys.patch("agent:main:main", r#"{"cost":null,"title":"T","mine":{"b":true}}"#).unwrap();
    assert_eq!(
        keys.get("agent:main:main").unwrap().as_deref(),
        Some(r#"{"sessionId":"s1","mine":{"a":[1,2],"b":true},"title":"T"}"#)
    );
    assert_eq!(
        document(&dir),
        "{\n  \"agent:main:main\": {\n    \"sessionId\": \"s1\",\n    \"mine\": {\n      \"a\": [\n        1,\n        2\n      ],\n      \"b\": true\n    },\n    \"title\": \"T\"\n  },\n  \"cron:nightly\": {\n    \"sessionId\": \"s2\"\n  }\n}\n"
    );

    let all = keys.list("").unwrap();
    assert_eq!(
        pairs(&all),
        vec![
            ("agent:main:main", r#"{"sessionId":"s1","mine":{"a":[1,2],"b":true},"title":"T"}"#),
            ("cron:nightly", r#"{"sessionId":"s2"}"#),
        ]
    );
    assert_eq!(keys.list_json("cron:").unwrap(), r#"[{"key":"cron:nightly","record":{"sessionId":"s2"}}]"#);
    assert_eq!(keys.list("cron:").unwrap(), vec![all[1].clone()]);
    assert_eq!(keys.list("nothing:").unwrap(), vec![]);

    assert!(keys.delete("agent:main:main").unwrap());
    assert!(!keys.delete("agent:main:main").unwrap());
    assert_eq!(keys.get("agent:main:main").unwrap(), None);
    assert_eq!(document(&dir), "{\n  \"cron:nightly\": {\n    \"sessionId\": \"s2\"\n  }\n}\n");
}

#[test]
fn list_parses_keys_with_escapes_and_deep_records() {
    let (_dir, store) = store();
    let deep = format!(r#"{{"sessionId":"s","d":{}0{}}}"#, "[".repeat(200), "]".repeat(200));
    store.keys().put("quote\"d é", &deep).unwrap();
    assert_eq!(pairs(&store.keys().list("").unwrap()), vec![("quote\"d é", deep.as_str())]);
}

#[test]
fn update_sets_keeps_removes_and_cancels() {
    let (dir, store) = store();
    let keys = store.keys();
    let mut seen = Vec::new();
    keys.update("k", |current| {
        seen.push(current.map(str::to_owned));
        Update::Set(r#"{"sessionId":"a", "n":1}"#.to_string())
    })
    .unwrap();
    keys.update("k", |current| {
        seen.push(current.map(str::to_owned));
        Update::Keep
    })
    .unwrap();
    assert_eq!(seen, vec![None, Some(r#"{"sessionId":"a","n":1}"#.to_string())]);
    let before = document(&dir);

    // Cancelling with an error: that error comes back, and nothing is written.
    let err =
        keys.update("k", |_| Update::Cancel(Error::new(ErrorCode::Conflict, "someone else's session"))).unwrap_err();
    assert_eq!((err.code(), err.message()), (ErrorCode::Conflict, "someone else's session"));
    // Without a message of its own, the error carries the library's.
    let err = keys.update("k", |_| Update::Cancel(Error::new(ErrorCode::Locked, ""))).unwrap_err();
    assert_eq!(err.code(), ErrorCode::Locked);
    assert!(err.message().contains("cancelled"), "{err}");
    // A code that is not an error still cancels.
    let err = keys.update("k", |_| Update::Cancel(Error::new(ErrorCode::Unknown(0), "zero"))).unwrap_err();
    assert_eq!((err.code(), err.message()), (ErrorCode::Unknown(0), "zero"));
    // A result that is not a record is refused by the library.
    let err = keys.update("k", |_| Update::Set(r#"{"n":2}"#.to_string())).unwrap_err();
    assert_eq!(err.code(), ErrorCode::Invalid);
    assert_eq!(document(&dir), before);

    keys.update("k", |_| Update::Remove).unwrap();
    assert_eq!(document(&dir), "{}\n");
    keys.update("gone", |_| Update::Remove).unwrap();
    keys.update("gone", |current| {
        assert_eq!(current, None);
        Update::Keep
    })
    .unwrap();
    assert_eq!(document(&dir), "{}\n");
}

#[test]
fn a_panicking_closure_is_an_error_and_changes_nothing() {
    let (dir, store) = store();
    store.keys().put("k", r#"{"sessionId":"a"}"#).unwrap();
    let before = document(&dir);
    let err = store.keys().update("k", |_| -> Update { panic!("boom {}", 42) }).unwrap_err();
    assert_eq!((err.code(), err.message()), (ErrorCode::Error, "the update closure panicked: boom 42"));
    let err = store.keys().update("k", |_| -> Update { std::panic::panic_any(7_u8) }).unwrap_err();
    assert_eq!(err.message(), "the update closure panicked: (not a string)");
    assert_eq!(document(&dir), before);
    // The store, its lock and the document's lock are all free again.
    store.keys().put("k", r#"{"sessionId":"b"}"#).unwrap();
    assert_eq!(store.keys().get("k").unwrap().as_deref(), Some(r#"{"sessionId":"b"}"#));
}

#[test]
fn a_call_on_the_same_store_from_the_closure_is_misuse_not_a_deadlock() {
    let (dir, store) = store();
    let (_other_dir, other) = common::store();
    store.keys().put("k", r#"{"sessionId":"a"}"#).unwrap();
    let mut inner = Vec::new();
    store
        .keys()
        .update("k", |_| {
            inner.push(store.keys().get("k").map(|_| ()));
            inner.push(store.keys().put("j", r#"{"sessionId":"j"}"#));
            inner.push(store.keys().update("j", |_| Update::Keep));
            inner.push(store.session_dir("/x").map(|_| ()));
            inner.push(store.last_error().map_or(Ok(()), Err));
            // Another store is another lock: that works.
            inner.push(other.keys().put("j", r#"{"sessionId":"j"}"#));
            Update::Set(r#"{"sessionId":"c"}"#.to_string())
        })
        .unwrap();
    let codes: Vec<_> = inner.iter().map(|r| r.as_ref().err().map(Error::code)).collect();
    let misuse = Some(ErrorCode::Misuse);
    assert_eq!(codes, vec![misuse, misuse, misuse, misuse, misuse, None]);
    assert!(inner[0].as_ref().unwrap_err().message().contains("inside an update closure of the same store"));
    assert_eq!(document(&dir), "{\n  \"k\": {\n    \"sessionId\": \"c\"\n  }\n}\n");
    assert_eq!(store.keys().get("j").unwrap(), None);
    assert_eq!(other.keys().get("j").unwrap().as_deref(), Some(r#"{"sessionId":"j"}"#));
}

#[test]
fn a_store_whose_closure_is_further_up_the_stack_is_still_refused() {
    // A's closure updates B, whose closure calls A: A's lock is still held by this thread.
    let (_a_dir, a) = store();
    let (_b_dir, b) = common::store();
    let mut from_b = None;
    let mut b_result = None;
    a.keys()
        .update("k", |_| {
            b_result = Some(b.keys().update("k", |_| {
                from_b = Some(a.keys().get("k"));
                Update::Set(r#"{"sessionId":"b"}"#.to_string())
            }));
            Update::Set(r#"{"sessionId":"a"}"#.to_string())
        })
        .unwrap();
    assert_eq!(from_b.unwrap().unwrap_err().code(), ErrorCode::Misuse);
    b_result.unwrap().unwrap();
    assert_eq!(a.keys().get("k").unwrap().as_deref(), Some(r#"{"sessionId":"a"}"#));
    assert_eq!(b.keys().get("k").unwrap().as_deref(), Some(r#"{"sessionId":"b"}"#));
}

#[test]
fn another_thread_waits_for_the_closure_instead_of_failing() {
    let (_dir, store) = store();
    let store = Arc::new(store);
    let inside = Arc::new(Barrier::new(2));
    let released = Arc::new(AtomicBool::new(false));
    let reader = {
        let (store, inside, released) = (Arc::clone(&store), Arc::clone(&inside), Arc::clone(&released));
        std::thread::spawn(move || {
            inside.wait();
            let got = store.keys().get("k").unwrap();
            (got, released.load(Ordering::SeqCst))
        })
    };
    store
        .keys()
        .update("k", |_| {
            inside.wait();
            std::thread::sleep(std::time::Duration::from_millis(100));
            released.store(true, Ordering::SeqCst);
            Update::Set(r#"{"sessionId":"a"}"#.to_string())
        })
        .unwrap();
    let (got, after) = reader.join().unwrap();
    assert!(after, "the reader ran while the closure held the store");
    assert_eq!(got.as_deref(), Some(r#"{"sessionId":"a"}"#));
}

#[test]
fn updates_from_threads_and_handles_lose_nothing() {
    let dir = TempDir::new("keys-threads");
    let shared = Arc::new(Store::open(dir.str()).unwrap());
    let threads: Vec<_> = (0..4)
        .map(|i| {
            // Two threads share a handle, two have their own: the document's lock covers both.
            let store = if i % 2 == 0 { Arc::clone(&shared) } else { Arc::new(Store::open(dir.str()).unwrap()) };
            std::thread::spawn(move || {
                for _ in 0..50 {
                    store
                        .keys()
                        .update("counter", |current| {
                            let n: u64 = current.map_or(0, |r| {
                                let at = r.find("\"n\":").unwrap() + 4;
                                r[at..].trim_end_matches('}').parse().unwrap()
                            });
                            Update::Set(format!(r#"{{"sessionId":"c","n":{}}}"#, n + 1))
                        })
                        .unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(shared.keys().get("counter").unwrap().as_deref(), Some(r#"{"sessionId":"c","n":200}"#));
}

#[test]
fn keys_path_puts_the_document_elsewhere() {
    let dir = TempDir::new("keys-path");
    let elsewhere = dir.path().join("gateway").join("sessions-main.json");
    std::fs::create_dir_all(elsewhere.parent().unwrap()).unwrap();
    let root = dir.path().join("root");
    let store = Store::open_with(root.to_str().unwrap(), &StoreOptions::new().keys_path(&elsewhere)).unwrap();
    store.keys().put("k", r#"{"sessionId":"s"}"#).unwrap();
    assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "{\n  \"k\": {\n    \"sessionId\": \"s\"\n  }\n}\n");
    assert!(!root.join("sessions.json").exists());

    // A second handle on the same root without the option does not see it.
    let plain = Store::open(root.to_str().unwrap()).unwrap();
    assert_eq!(plain.keys().get("k").unwrap(), None);
}

#[test]
fn keys_paths_that_c_cannot_take_are_invalid() {
    use std::os::unix::ffi::OsStrExt;
    let dir = TempDir::new("keys-path-bad");
    let not_utf8 = dir.path().join(std::ffi::OsStr::from_bytes(b"sessions-\xff.json"));
    let err = Store::open_with(dir.str(), &StoreOptions::new().keys_path(&not_utf8)).err().unwrap();
    assert_eq!(err.code(), ErrorCode::Invalid);
    assert!(err.message().ends_with("sessions-\u{fffd}.json is not UTF-8"), "{err}");
    let err = Store::open_with(dir.str(), &StoreOptions::new().keys_path("a\0b")).err().unwrap();
    assert_eq!((err.code(), err.message()), (ErrorCode::Invalid, "keys path contains a NUL byte"));
}

#[test]
fn bad_keys_are_invalid_and_leave_the_document() {
    let (dir, store) = store();
    let keys = store.keys();
    keys.put("k", r#"{"sessionId":"s"}"#).unwrap();
    let before = document(&dir);
    let long = "k".repeat(257);
    for key in ["", "a/b", "a\\b", "tab\there", long.as_str(), "nul\0byte"] {
        // A read checks the key too (docs/keyed-store.md#keys).
        assert_eq!(keys.get(key).unwrap_err().code(), ErrorCode::Invalid, "key {key:?}");
    }
    for key in ["", "a/b", "a\\b", "tab\there", long.as_str(), "nul\0byte"] {
        let codes = [
            keys.put(key, r#"{"sessionId":"s"}"#).err().map(|e| e.code()),
            keys.patch(key, r#"{"title":"t"}"#).err().map(|e| e.code()),
            keys.delete(key).err().map(|e| e.code()),
            keys.update(key, |_| Update::Remove).err().map(|e| e.code()),
        ];
        assert_eq!(codes, [Some(ErrorCode::Invalid); 4], "key {key:?}");
    }
    let err = keys.put("nul\0byte", "{}").unwrap_err();
    assert_eq!(err.message(), "key contains a NUL byte");
    assert_eq!(keys.put("k", "[1]").unwrap_err().code(), ErrorCode::Invalid);
    assert_eq!(keys.patch("k", r#"{"cost":"free"}"#).unwrap_err().code(), ErrorCode::Invalid);
    assert_eq!(document(&dir), before);
}

#[test]
fn a_damaged_document_is_corrupt_for_reads_and_moved_aside_by_a_change() {
    let (dir, store) = store();
    std::fs::write(dir.path().join("sessions.json"), "{\"k\":").unwrap();
    assert_eq!(store.keys().get("k").unwrap_err().code(), ErrorCode::Corrupt);
    assert_eq!(store.keys().list("").unwrap_err().code(), ErrorCode::Corrupt);
    let err = store.keys().update("k", |_| -> Update { unreachable!("not called on a damaged document") });
    assert_eq!(err.unwrap_err().code(), ErrorCode::Corrupt);
    store.keys().put("k", r#"{"sessionId":"new"}"#).unwrap();
    assert_eq!(store.keys().get("k").unwrap().as_deref(), Some(r#"{"sessionId":"new"}"#));
}
