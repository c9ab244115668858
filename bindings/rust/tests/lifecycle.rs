//! Handles own their C objects: drop closes them in any order, the writer lock goes with the
//! session, and a session outlives its store.
use crate::common;

use common::{fixed, store, TempDir, ASSISTANT, USER};
use xsession::{ErrorCode, SessionOptions, Store};

const HEADER: &str =
    r#"{"type":"session","version":3,"id":"life-1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/work/proj"}"#;

fn expected_file(user_id: &str, assistant_id: &str) -> String {
    format!(
        "{HEADER}\n\
         {{\"type\":\"message\",\"id\":\"{user_id}\",\"parentId\":null,\"timestamp\":\"2026-01-01T00:00:01.000Z\",\"message\":{USER}}}\n\
         {{\"type\":\"message\",\"id\":\"{assistant_id}\",\"parentId\":\"{user_id}\",\"timestamp\":\"2026-01-01T00:00:02.000Z\",\"message\":{ASSISTANT}}}\n"
    )
}

#[test]
fn a_session_outlives_its_store() {
    let dir = TempDir::new("outlive");
    let store = Store::open(dir.str()).unwrap();
    let session = store.create_session("/work/proj", &fixed().session_id("life-1")).unwrap();
    drop(store); // the library keeps what the session needs alive
    let user = session.append_message(USER).unwrap();
    let assistant = session.append_message(ASSISTANT).unwrap();
    let path = session.info().unwrap().path;
    session.close().unwrap();
    assert_eq!(std::fs::read_to_string(path).unwrap(), expected_file(&user, &assistant));
}

#[test]
fn a_store_outlives_its_sessions_and_reopens_them() {
    let (_dir, store) = store();
    let session = store.create_session("/work/proj", &fixed().session_id("life-1")).unwrap();
    let user = session.append_message(USER).unwrap();
    let assistant = session.append_message(ASSISTANT).unwrap();
    let path = session.info().unwrap().path;
    drop(session);
    // By id, through the store that outlived the session.
    let again = store.open_session("life-1", &SessionOptions::new().read_only(true)).unwrap();
    assert_eq!(again.info().unwrap().path, path);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), expected_file(&user, &assistant));
    assert_eq!(again.leaf().unwrap(), Some(assistant));
}

#[test]
fn dropping_a_writer_releases_its_lock() {
    let (_dir, store) = store();
    let writer = store.create_session("/work/proj", &fixed().session_id("life-1").no_defer(true)).unwrap();
    let path = writer.info().unwrap().path;

    let second = store.open_session(&path, &SessionOptions::new()).err().expect("a second writer is refused");
    assert_eq!(second.code(), ErrorCode::Locked);
    assert!(!second.message().is_empty());
    // Readers are never locked out.
    let reader = store.open_session(&path, &SessionOptions::new().read_only(true)).unwrap();
    assert!(reader.info().unwrap().read_only);

    drop(writer);
    let writer = store.open_session(&path, &SessionOptions::new()).unwrap();
    assert!(!writer.info().unwrap().read_only);
}

#[test]
fn close_flushes_what_was_appended() {
    let (_dir, store) = store();
    let session = store.create_session("/work/proj", &fixed().session_id("life-1").sync(true)).unwrap();
    let user = session.append_message(USER).unwrap();
    let assistant = session.append_message(ASSISTANT).unwrap();
    let path = session.info().unwrap().path;
    session.flush().unwrap();
    session.close().unwrap();
    assert_eq!(std::fs::read_to_string(path).unwrap(), expected_file(&user, &assistant));
}

#[test]
fn derived_sessions_are_independent_handles() {
    let (_dir, store) = store();
    let original = store.create_session("/work/proj", &fixed().session_id("life-1")).unwrap();
    original.append_message(USER).unwrap();
    original.append_message(ASSISTANT).unwrap();
    let fork = original.fork(&fixed().session_id("life-2")).unwrap();
    let branched = original.create_branched(None, &fixed().session_id("life-3")).unwrap();
    drop(original);
    drop(store);
    // Both derived sessions still work after their source and the store are gone.
    assert_eq!(fork.info().unwrap().parent_session.as_deref(), Some("life-1"));
    assert_eq!(fork.info().unwrap().entry_count, 2);
    assert_eq!(branched.info().unwrap().entry_count, 2);
    fork.append_message(USER).unwrap();
    assert_eq!(fork.info().unwrap().entry_count, 3);
    assert_eq!(branched.info().unwrap().entry_count, 2);
}

#[test]
fn an_in_memory_store_writes_nothing() {
    let dir = TempDir::new("memory");
    let store = Store::in_memory().unwrap();
    let cwd = dir.str().to_string() + "/proj";
    let session = store.create_session(&cwd, &fixed().no_defer(true)).unwrap();
    session.append_message(USER).unwrap();
    session.append_message(ASSISTANT).unwrap();
    assert_eq!(session.info().unwrap().entry_count, 2);
    drop(session);
    drop(store);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_store_root_that_is_a_file_is_refused() {
    let dir = TempDir::new("file-root");
    let file = dir.path().join("not-a-dir");
    std::fs::write(&file, "x").unwrap();
    let err = Store::open(file.to_str().unwrap()).err().expect("a file is not a store root");
    assert_eq!(err.code(), ErrorCode::Invalid);
    assert!(!err.message().is_empty());
}
