//! Thread rules of the C API, as the binding exposes them: handles move between threads, and a
//! shared handle serialises calls while each call keeps its own status, message and output.
use crate::common;

use std::sync::Arc;
use std::thread;

use common::{fixed, store, ASSISTANT};
use xsession::{BlobRefs, ErrorCode, Session, SessionOptions, Store};

fn assert_send_sync<T: Send + Sync + 'static>() {}

#[test]
fn handles_and_errors_are_send_and_sync() {
    assert_send_sync::<Store>();
    assert_send_sync::<Session>();
    assert_send_sync::<xsession::History>();
    assert_send_sync::<xsession::Index>();
    assert_send_sync::<xsession::Error>();
}

fn message(text: &str) -> String {
    format!(r#"{{"role":"user","content":"{text}"}}"#)
}

/// The text `content` of every message entry in `entries` JSON, in order (assistant messages,
/// whose content is an array of blocks, are left out).
fn contents(entries: &str) -> Vec<String> {
    let entries: serde_json::Value = serde_json::from_str(entries).unwrap();
    entries.as_array().unwrap().iter().filter_map(|e| e["message"]["content"].as_str().map(String::from)).collect()
}

#[test]
fn a_session_moves_to_another_thread_and_back() {
    let (_dir, store) = store();
    let session = store.create_session("/work/proj", &fixed()).unwrap();
    let first = session.append_message(&message("main")).unwrap();
    let (session, second) = thread::spawn(move || {
        let id = session.append_message(&message("worker")).unwrap();
        (session, id)
    })
    .join()
    .unwrap();
    assert_eq!(session.leaf().unwrap(), Some(second.clone()));
    let entry: serde_json::Value =
        serde_json::from_str(&session.entry_json(&second, BlobRefs::AsStored).unwrap()).unwrap();
    assert_eq!(entry["parentId"], first.as_str());
    assert_eq!(contents(&session.entries_json(BlobRefs::AsStored).unwrap()), ["main", "worker"]);
}

#[test]
fn two_threads_append_to_one_shared_session() {
    const PER_THREAD: usize = 200;
    let (_dir, store) = store();
    let session = Arc::new(store.create_session("/work/proj", &SessionOptions::new()).unwrap());
    let workers: Vec<_> = ["a", "b"]
        .into_iter()
        .map(|name| {
            let session = Arc::clone(&session);
            thread::spawn(move || {
                (0..PER_THREAD).map(|i| session.append_message(&message(&format!("{name}{i}"))).unwrap()).count()
            })
        })
        .collect();
    let appended: usize = workers.into_iter().map(|w| w.join().unwrap()).sum();
    assert_eq!(appended, 2 * PER_THREAD);

    // Appends were serialised: one chain from the root to the leaf, holding every message, each
    // thread's messages in the order that thread sent them.
    let path = contents(&session.path_json(None, BlobRefs::AsStored).unwrap());
    assert_eq!(path.len(), 2 * PER_THREAD);
    for name in ["a", "b"] {
        let mine: Vec<&String> = path.iter().filter(|c| c.starts_with(name)).collect();
        let want: Vec<String> = (0..PER_THREAD).map(|i| format!("{name}{i}")).collect();
        assert_eq!(mine, want.iter().collect::<Vec<_>>());
    }
}

#[test]
fn errors_on_a_shared_session_carry_their_own_message() {
    // Without the wrapper's lock, thread A could read the message thread B's call left on the
    // handle (or the "" of B's success).
    let (_dir, store) = store();
    let session = Arc::new(store.create_session("/work/proj", &SessionOptions::new()).unwrap());
    let workers: Vec<_> = ["a", "b", "c"]
        .into_iter()
        .map(|name| {
            let session = Arc::clone(&session);
            thread::spawn(move || {
                for i in 0..300 {
                    let missing = format!("missing-{name}-{i}");
                    let err = session.entry_json(&missing, BlobRefs::AsStored).unwrap_err();
                    assert_eq!(err.code(), ErrorCode::NotFound);
                    assert!(err.message().contains(&missing), "{missing}: {err}");
                    session.append_message(&message(&missing)).unwrap();
                }
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
    assert_eq!(session.info().unwrap().entry_count, 900);
}

#[test]
fn reads_on_a_shared_session_are_never_torn_or_stale() {
    // Contexts grow past the first buffer guess, so reads take the XS_EBUFS retry while another
    // thread appends; each result must be one whole context, never another call's cached bytes.
    let (_dir, store) = store();
    let session = Arc::new(store.create_session("/work/proj", &fixed()).unwrap());
    session.append_message(&message(&"x".repeat(1000))).unwrap();
    let writer = {
        let session = Arc::clone(&session);
        thread::spawn(move || {
            for i in 0..200 {
                session.append_message(&message(&format!("{i}"))).unwrap();
                session.append_message(ASSISTANT).unwrap();
            }
        })
    };
    let readers: Vec<_> = (0..2)
        .map(|_| {
            let session = Arc::clone(&session);
            thread::spawn(move || {
                let mut last = 0;
                for _ in 0..200 {
                    let context: serde_json::Value =
                        serde_json::from_str(&session.build_context_json(None).unwrap()).expect("a whole context");
                    let messages = context["messages"].as_array().unwrap().len();
                    assert!(messages >= last, "a later read saw fewer messages ({messages} < {last})");
                    last = messages;
                }
            })
        })
        .collect();
    writer.join().unwrap();
    for r in readers {
        r.join().unwrap();
    }
    let context: serde_json::Value = serde_json::from_str(&session.build_context_json(None).unwrap()).unwrap();
    assert_eq!(context["messages"].as_array().unwrap().len(), 401);
}

#[test]
fn one_store_serves_sessions_on_several_threads() {
    let (_dir, store) = store();
    let store = Arc::new(store);
    let workers: Vec<_> = (0..4)
        .map(|n| {
            let store = Arc::clone(&store);
            thread::spawn(move || {
                let session = store
                    .create_session(format!("/work/p{n}"), &SessionOptions::new().session_id(&format!("t-{n}")))
                    .unwrap();
                session.append_message(&message(&format!("hello {n}"))).unwrap();
                session.append_message(ASSISTANT).unwrap(); // persists the session
                session.info().unwrap().path
            })
        })
        .collect();
    let mut paths: Vec<String> = workers.into_iter().map(|w| w.join().unwrap()).collect();
    paths.sort();
    let listed: serde_json::Value =
        serde_json::from_str(&store.list_json(&xsession::ListOptions::new()).unwrap()).unwrap();
    let mut listed: Vec<String> =
        listed.as_array().unwrap().iter().map(|s| s["path"].as_str().unwrap().to_string()).collect();
    listed.sort();
    assert_eq!(listed, paths);
    // Distinct read-only handles on one file, read from several threads at once.
    let readers: Vec<_> = (0..3)
        .map(|_| {
            let (store, path) = (Arc::clone(&store), paths[0].clone());
            thread::spawn(move || {
                let reader = store.open_session(&path, &SessionOptions::new().read_only(true)).unwrap();
                reader.entries_json(BlobRefs::AsStored).unwrap()
            })
        })
        .collect();
    let texts: Vec<String> = readers.into_iter().map(|r| r.join().unwrap()).collect();
    assert_eq!(contents(&texts[0]), ["hello 0"]);
    assert!(texts.iter().all(|t| t == &texts[0]));
}
