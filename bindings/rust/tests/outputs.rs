//! Outputs: exact bytes whatever their size (the buffer grows on XS_EBUFS), ids and leaves as
//! typed values, binary blobs as bytes, and text that is not UTF-8 as an error, never a panic.
use crate::common;

use common::{fixed, store, TempDir, ASSISTANT, USER};
use xsession::{BlobRefs, ErrorCode, SessionOptions, Store};

/// The context of a session holding `messages` (stored messages are copied byte for byte) and
/// the model `models` names.
fn context(leaf: &str, messages: &[&str], models: &str) -> String {
    format!(
        r#"{{"leafId":"{leaf}","messages":[{}],"thinkingLevel":"off","models":{{{models}}},"injectedTtsrRules":[],"mode":"none"}}"#,
        messages.join(",")
    )
}

#[test]
fn outputs_of_every_size_come_back_whole() {
    let (_dir, store) = store();
    let session = store.create_session("/work/proj", &fixed()).unwrap();
    // Around the first buffer guess (256 bytes) and far past it, under the size rules' cut
    // (500,000 UTF-16 units per string); multi-byte text so that bytes and chars differ.
    for size in [1, 150, 200, 255, 256, 257, 4096, 400_000] {
        session.set_leaf(None).unwrap();
        let message = format!(r#"{{"role":"user","content":"{}"}}"#, "é".repeat(size / 2) + &"x".repeat(size % 2));
        let id = session.append_message(&message).unwrap();
        // assert! rather than assert_eq!: a mismatch must not print half a megabyte.
        assert!(session.build_context_json(None).unwrap() == context(&id, &[&message], ""), "context of size {size}");
        let entry = session.entry_json(&id, BlobRefs::AsStored).unwrap();
        assert!(
            entry.ends_with(&format!(r#""parentId":null,"timestamp":"{}","message":{message}}}"#, timestamp(&entry)))
        );
    }
}

/// The timestamp member of an entry.
fn timestamp(entry: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(entry).unwrap();
    v["timestamp"].as_str().unwrap().to_string()
}

#[test]
fn ids_and_the_leaf_are_typed() {
    let (_dir, store) = store();
    let session = store.create_session("/work/proj", &fixed()).unwrap();
    assert_eq!(session.leaf().unwrap(), None);
    let user = session.append_message(USER).unwrap();
    assert!(user.len() == 8 && user.chars().all(|c| c.is_ascii_hexdigit()), "{user}");
    let assistant = session.append_message(ASSISTANT).unwrap();
    assert_eq!(session.leaf().unwrap(), Some(assistant.clone()));
    let models = r#""default":"anthropic/claude-x""#;
    assert_eq!(session.build_context_json(None).unwrap(), context(&assistant, &[USER, ASSISTANT], models));
    session.set_leaf(Some(&user)).unwrap();
    assert_eq!(session.leaf().unwrap(), Some(user.clone()));
    assert_eq!(session.build_context_json(None).unwrap(), context(&user, &[USER], ""));
    session.set_leaf(None).unwrap();
    assert_eq!(session.leaf().unwrap(), None);
    assert_eq!(session.path_json(None, BlobRefs::AsStored).unwrap(), "[]");
    // Caller-chosen ids come back as given.
    assert_eq!(session.append(r#"{"type":"custom","id":"my-own_id","customType":"x"}"#).unwrap(), "my-own_id");
}

#[test]
fn blobs_are_bytes_of_any_value() {
    let (dir, store) = store();
    let data: Vec<u8> = (0..=255u8).cycle().take(100_000).collect();
    let hash = store.blob_put(&data).unwrap();
    assert!(hash.len() == 64 && hash.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f')), "{hash}");
    assert_eq!(store.blob_put(&data).unwrap(), hash, "content-addressed");
    assert_eq!(store.blob_get(&hash).unwrap(), data);
    assert_eq!(std::fs::read(dir.path().join("blobs").join(&hash)).unwrap(), data);
    assert_eq!(store.blob_get(&"0".repeat(64)).unwrap_err().code(), ErrorCode::NotFound);
    assert_eq!(store.blob_get("not-a-hash").unwrap_err().code(), ErrorCode::Invalid);
    assert_eq!(store.blob_get(&store.blob_put(b"").unwrap()).unwrap(), b"");
}

#[test]
fn paths_that_are_not_utf8_come_back_whole_and_go_in_as_a_clear_error() {
    // A session file whose name is not UTF-8. The library's JSON is always UTF-8 (such bytes show
    // as U+FFFD), but xs_store_resolve hands back the raw path, which a PathBuf keeps byte for
    // byte. Going in, the C API takes UTF-8, so such a path is an Invalid error, never a panic.
    use std::os::unix::ffi::OsStrExt;
    let dir = TempDir::new("utf8");
    let sessions = dir.path().join("sessions/--p--");
    std::fs::create_dir_all(&sessions).unwrap();
    let name = std::ffi::OsStr::from_bytes(b"2026-01-01T00-00-00-000Z_\xff\xfeabc.jsonl");
    let header = r#"{"type":"session","version":3,"id":"abc","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}"#;
    std::fs::write(sessions.join(name), format!("{header}\n")).unwrap();
    let store = Store::open(dir.str()).unwrap();
    let shown = "2026-01-01T00-00-00-000Z_\u{FFFD}\u{FFFD}abc.jsonl";

    let listed = store.list_json(&xsession::ListOptions::new()).unwrap();
    assert!(listed.contains(shown), "{listed}");
    assert_eq!(store.resolve("abc", None).unwrap(), sessions.join(name));
    let err = store.open_session(sessions.join(name), &SessionOptions::new().read_only(true)).err().unwrap();
    assert_eq!(err.code(), ErrorCode::Invalid);
    assert!(err.message().starts_with("path ") && err.message().ends_with(" is not UTF-8"), "{err}");

    let session = store.open_session("abc", &SessionOptions::new().read_only(true)).unwrap();
    assert!(session.info().unwrap().path.ends_with(shown));
    assert_eq!(session.header_json().unwrap(), header);
    assert_eq!(session.entries_json(BlobRefs::AsStored).unwrap(), "[]");
}

#[test]
fn a_grown_buffer_gets_the_cached_result_not_a_second_run() {
    // A collection report longer than the first buffer guess: the first call runs the
    // collection and answers XS_EBUFS, the retry must copy that report. Run again, the
    // collection would find nothing left to delete and report an empty list.
    let (_dir, store) = store();
    let mut hashes: Vec<String> = (0..5).map(|i| store.blob_put(format!("blob {i}").as_bytes()).unwrap()).collect();
    hashes.sort();
    // "now" pinned so the blobs are past the grace period whatever the clock says.
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    let opts = xsession::GcOptions::new().grace_ms(0).now_ms(now + 60_000);
    let report: serde_json::Value = serde_json::from_str(&store.blob_gc_json(&opts).unwrap()).unwrap();
    let deleted: Vec<&str> =
        report["deleted"].as_array().unwrap().iter().map(|d| d["name"].as_str().unwrap()).collect();
    assert_eq!(deleted, hashes);
    assert!(serde_json::to_string(&report).unwrap().len() > 256, "the report must outgrow the first buffer");
    assert_eq!(store.blob_list_json(false).unwrap(), r#"{"count":0,"bytes":0,"blobs":[],"others":[]}"#);
}
