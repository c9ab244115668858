//! The rest of the surface, beyond what the conformance cases replay: typed accessors, the
//! store's discovery helpers, handles that follow each other's writes, and upkeep.
use crate::common;

use std::time::UNIX_EPOCH;

use common::{fixed, store, ASSISTANT, USER};
use xsession::{
    status_str, sys, BlobRefs, ErrorCode, GcOptions, ListOptions, RepairOptions, SessionInfo, SessionOptions, Usage,
};

/// Modification time of a file in ms since the epoch, as the library reports it.
fn mtime_ms(path: &std::path::Path) -> u128 {
    std::fs::metadata(path).unwrap().modified().unwrap().duration_since(UNIX_EPOCH).unwrap().as_millis()
}

#[test]
fn library_version_and_status_names() {
    assert_eq!(xsession::version(), (0, 2, 0));
    let (major, minor, patch) = (sys::XS_VERSION_MAJOR, sys::XS_VERSION_MINOR, sys::XS_VERSION_PATCH);
    assert_eq!(env!("CARGO_PKG_VERSION"), format!("{major}.{minor}.{patch}"), "Cargo.toml's version is the header's");
    assert_eq!(status_str(sys::XS_OK), "XS_OK: success");
    assert_eq!(status_str(sys::XS_ENOTFOUND), "XS_ENOTFOUND: not found");
}

#[test]
fn session_info_and_usage_are_typed() {
    let (dir, store) = store();
    let opts = fixed().session_id("typed-1").title("Fix the build").parent_session("older-1");
    let session = store.create_session("/work/proj", &opts).unwrap();
    let path = format!("{}/sessions/--work-proj--/2026-01-01T00-00-00-000Z_typed-1.jsonl", dir.str());
    assert_eq!(
        store.session_dir("/work/proj").unwrap(),
        std::path::Path::new(&format!("{}/sessions/--work-proj--", dir.str()))
    );
    let mut want: SessionInfo = session.info().unwrap();
    assert_eq!(
        (want.id.as_str(), want.path.as_str(), want.cwd.as_str(), want.timestamp.as_str()),
        ("typed-1", path.as_str(), "/work/proj", "2026-01-01T00:00:00.000Z")
    );
    assert_eq!((want.title.as_deref(), want.parent_session.as_deref()), (Some("Fix the build"), Some("older-1")));
    assert_eq!((want.version, want.entry_count, want.leaf_id.as_deref()), (3, 0, None));
    assert_eq!((want.persisted, want.read_only, want.diagnostics), (false, false, 0));

    session.append_message(USER).unwrap();
    let assistant = session.append_message(ASSISTANT).unwrap(); // the first assistant message persists
    want.entry_count = 2;
    want.leaf_id = Some(assistant);
    want.persisted = true;
    want.entry_types = std::collections::BTreeMap::from([("message".to_string(), 2)]);
    assert_eq!(session.info().unwrap(), want);

    let usage: Usage = session.usage().unwrap();
    assert_eq!(
        (usage.input, usage.output, usage.cache_read, usage.cache_write, usage.assistant_messages),
        (10, 5, 2, 1, 1)
    );
    assert_eq!((usage.cost, usage.premium_requests), (0.25, 0.0));
    assert_eq!(
        session.usage_json().unwrap(),
        r#"{"input":10,"output":5,"cacheRead":2,"cacheWrite":1,"premiumRequests":0,"cost":0.25,"assistantMessages":1}"#
    );
}

#[test]
fn a_reader_follows_a_writer_with_reload() {
    let (_dir, store) = store();
    let writer = store.create_session("/work/proj", &fixed().no_defer(true)).unwrap();
    let path = writer.info().unwrap().path;
    let reader = store.open_session(&path, &SessionOptions::new().read_only(true)).unwrap();
    assert_eq!(reader.reload().unwrap(), 0);
    writer.append_message(USER).unwrap();
    let last = writer.append_message(ASSISTANT).unwrap();
    assert_eq!(reader.reload().unwrap(), 2);
    assert_eq!(reader.leaf().unwrap(), Some(last));
    assert_eq!(reader.entries_json(BlobRefs::AsStored).unwrap(), writer.entries_json(BlobRefs::AsStored).unwrap());
    // The writer is the only writer: it has nothing to reload.
    assert_eq!(writer.reload().unwrap_err().code(), ErrorCode::Misuse);
}

#[test]
fn persist_move_and_title_change_the_file() {
    let (dir, store) = store();
    let session = store.create_session("/work/proj", &fixed().session_id("mv-1")).unwrap();
    session.append_message(USER).unwrap();
    let old = session.info().unwrap().path;
    assert!(!std::path::Path::new(&old).exists(), "deferred until the first assistant message");
    session.persist().unwrap();
    assert!(std::path::Path::new(&old).exists());

    session.move_to("/work/other").unwrap();
    let new = session.info().unwrap().path;
    assert_eq!(new, format!("{}/sessions/--work-other--/2026-01-01T00-00-00-000Z_mv-1.jsonl", dir.str()));
    assert!(!std::path::Path::new(&old).exists());
    assert_eq!(session.info().unwrap().cwd, "/work/other");

    session.set_title(Some("Moved")).unwrap();
    assert_eq!(
        session.header_json().unwrap(),
        r#"{"type":"session","version":3,"id":"mv-1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/work/other","title":"Moved"}"#
    );
    session.set_title(None).unwrap();
    assert_eq!(session.info().unwrap().title, None);
    let first_line = std::fs::read_to_string(&new).unwrap().lines().next().unwrap().to_string();
    assert_eq!(first_line, session.header_json().unwrap());
}

#[test]
fn discovery_lists_resolves_and_continues() {
    let (_dir, store) = store();
    let mut paths = Vec::new();
    for id in ["disc-1", "disc-2"] {
        let s = store.create_session("/work/proj", &fixed().session_id(id).no_defer(true)).unwrap();
        paths.push(s.info().unwrap().path);
    }
    let listed: serde_json::Value =
        serde_json::from_str(&store.list_json(&ListOptions::new().limit(1)).unwrap()).unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 1);
    let listed: serde_json::Value =
        serde_json::from_str(&store.list_json(&ListOptions::new().cwd("/work/proj").full(true)).unwrap()).unwrap();
    let mut ids: Vec<&str> = listed.as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap()).collect();
    ids.sort();
    assert_eq!(ids, ["disc-1", "disc-2"]);
    assert_eq!(listed[0]["entryCount"], 0, "full listings count entries");

    assert_eq!(store.resolve("disc-2", None).unwrap(), std::path::Path::new(&paths[1]));
    let err = store.resolve("disc", Some(std::path::Path::new("/work/proj"))).unwrap_err();
    assert_eq!(err.code(), ErrorCode::Ambiguous);
    assert!(err.message().contains("disc-1") && err.message().contains("disc-2"), "{err}");

    // The terminal's breadcrumb wins over the newest file.
    store.write_breadcrumb("tty-7", "/work/proj", &paths[0]).unwrap();
    let resumed = store.continue_recent("/work/proj", Some("tty-7"), &SessionOptions::new()).unwrap();
    assert_eq!(resumed.info().unwrap().id, "disc-1");
    drop(resumed);
    let fresh = store.continue_recent("/work/elsewhere", None, &fixed().session_id("disc-3")).unwrap();
    assert_eq!(fresh.info().unwrap().id, "disc-3");
}

#[test]
fn fork_from_and_branched_sessions_name_their_parent() {
    let (dir, store) = store();
    let source = store.create_session("/work/proj", &fixed().session_id("src-1")).unwrap();
    let user = source.append_message(USER).unwrap();
    source.append_message(ASSISTANT).unwrap();
    source.append_label(&user, Some("question")).unwrap();
    let source_path = source.info().unwrap().path;

    let copy = store.fork_from(&source_path, "/work/copy", &fixed().session_id("copy-1")).unwrap();
    let info = copy.info().unwrap();
    assert_eq!((info.cwd.as_str(), info.parent_session.as_deref(), info.entry_count), ("/work/copy", Some("src-1"), 3));

    let branched = source.create_branched(Some(&user), &fixed().session_id("br-1")).unwrap();
    let info = branched.info().unwrap();
    assert_eq!(info.parent_session.as_deref(), Some(source_path.as_str()));
    // The path to the user message, plus a fresh label entry for its label.
    assert_eq!(info.entry_count, 2);
    let labels: serde_json::Value = serde_json::from_str(&branched.labels_json().unwrap()).unwrap();
    assert_eq!(labels[0]["targetId"], user.as_str());
    assert_eq!(labels[0]["label"], "question");
    assert!(info.path.starts_with(dir.str()));
}

#[test]
fn verify_and_repair_a_torn_last_line() {
    let (_dir, store) = store();
    let session = store.create_session("/work/proj", &fixed().session_id("torn-1").no_defer(true)).unwrap();
    session.append_message(USER).unwrap();
    let path = session.info().unwrap().path;
    let clean = format!(
        r#"{{"path":"{path}","id":"torn-1","fileVersion":3,"needsMigration":false,"lines":2,"entries":1,"blobRefs":0,"problems":[]}}"#
    );
    assert_eq!(session.verify_json().unwrap(), clean);
    assert_eq!(session.repair_json(&RepairOptions::new()).unwrap(), format!(r#"{{"path":"{path}","done":[]}}"#));
    drop(session);

    // Another process's last line, without its newline.
    let before = std::fs::read(&path).unwrap();
    let torn = r#"{"type":"custom","id":"t1","parentId":null,"timestamp":"2026-01-01T00:00:09.000Z","customType":"x"}"#;
    std::fs::write(&path, [before.as_slice(), torn.as_bytes()].concat()).unwrap();
    let session = store.open_session(&path, &SessionOptions::new()).unwrap();
    let problems: serde_json::Value = serde_json::from_str(&session.verify_json().unwrap()).unwrap();
    let problem = &problems["problems"][0];
    assert_eq!((problem["line"].as_u64(), problem["offset"].as_u64()), (Some(3), Some(before.len() as u64)));
    assert_eq!((problem["code"].as_str(), problem["fixable"].as_bool()), (Some("missing_newline"), Some(true)));
    let done: serde_json::Value = serde_json::from_str(&session.repair_json(&RepairOptions::new()).unwrap()).unwrap();
    assert_eq!(done["done"][0]["code"], "newline_written");
    assert_eq!(std::fs::read(&path).unwrap(), [before.as_slice(), torn.as_bytes(), b"\n"].concat());
    assert_eq!(session.verify_json().unwrap(), clean.replace(r#""lines":2,"entries":1"#, r#""lines":3,"entries":2"#));

    let reader = store.open_session(&path, &SessionOptions::new().read_only(true)).unwrap();
    assert_eq!(reader.repair_json(&RepairOptions::new()).unwrap_err().code(), ErrorCode::ReadOnly);
}

#[test]
fn repair_with_quarantine_moves_a_garbage_line_and_a_torn_tail_out() {
    let (_dir, store) = store();
    let session = store.create_session("/work/proj", &fixed().session_id("quar-1").no_defer(true)).unwrap();
    session.append_message(USER).unwrap();
    let path = session.info().unwrap().path;
    drop(session);

    // A garbage line between entries and a torn last line, as a crashed writer leaves them.
    let head = std::fs::read(&path).unwrap();
    let garbage = "not JSON at all";
    let entry =
        r#"{"type":"custom","id":"c1","parentId":null,"timestamp":"2026-01-01T00:00:09.000Z","customType":"x"}"#;
    let torn = r#"{"type":"message","id":"m9","mess"#;
    let bytes = [head.as_slice(), garbage.as_bytes(), b"\n", entry.as_bytes(), b"\n", torn.as_bytes()].concat();
    std::fs::write(&path, &bytes).unwrap();

    let session = store.open_session(&path, &SessionOptions::new()).unwrap();
    let report: serde_json::Value =
        serde_json::from_str(&session.repair_json(&RepairOptions::new().quarantine(true)).unwrap()).unwrap();
    let done: Vec<(u64, &str)> = report["done"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["line"].as_u64().unwrap(), d["code"].as_str().unwrap()))
        .collect();
    assert_eq!(done, [(3, "quarantined"), (5, "quarantined")]);
    let quarantine = report["quarantine"]["path"].as_str().unwrap().to_string();
    assert!(quarantine.starts_with(&format!("{path}.quarantine-")) && quarantine.ends_with(".jsonl"), "{quarantine}");
    let moved = garbage.len() + 1 + torn.len();
    assert_eq!(
        (report["quarantine"]["lines"].as_u64(), report["quarantine"]["bytes"].as_u64()),
        (Some(2), Some(moved as u64))
    );

    // The session keeps every other byte; verify finds nothing.
    assert_eq!(std::fs::read(&path).unwrap(), [head.as_slice(), entry.as_bytes(), b"\n"].concat());
    let verify: serde_json::Value = serde_json::from_str(&session.verify_json().unwrap()).unwrap();
    assert_eq!(verify["problems"], serde_json::json!([]));

    // The quarantine file's records give back the removed bytes exactly, at their old places.
    let records: Vec<serde_json::Value> =
        std::fs::read_to_string(&quarantine).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let mut removed = Vec::new();
    for r in &records {
        let offset = r["offset"].as_u64().unwrap() as usize;
        let text = r["text"].as_str().unwrap().as_bytes();
        assert_eq!(&bytes[offset..offset + text.len()], text);
        removed.extend_from_slice(text);
        if r["newline"].as_bool().unwrap() {
            removed.push(b'\n');
        }
    }
    assert_eq!(removed, [garbage.as_bytes(), b"\n", torn.as_bytes()].concat());
    let codes: Vec<&str> = records.iter().map(|r| r["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["invalid_json", "incomplete_tail"]);

    // Nothing is left to move.
    assert_eq!(
        session.repair_json(&RepairOptions::new().quarantine(true)).unwrap(),
        format!(r#"{{"path":"{path}","done":[],"quarantine":null}}"#)
    );
}

#[test]
fn blobs_are_listed_and_collected() {
    let (dir, store) = store();
    assert_eq!(store.blob_list_json(false).unwrap(), r#"{"count":0,"bytes":0,"blobs":[],"others":[]}"#);
    let hash = store.blob_put(b"hello").unwrap();
    assert_eq!(hash, "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");
    let blob_path = dir.path().join("blobs").join(&hash);
    let mtime = mtime_ms(&blob_path);
    assert_eq!(
        store.blob_list_json(true).unwrap(),
        format!(
            r#"{{"count":1,"bytes":5,"blobs":[{{"hash":"{hash}","size":5,"mtimeMs":{mtime},"problem":null}}],"others":[]}}"#
        )
    );

    // Unreferenced and older than a zero grace period: a dry run reports it, a real run deletes it.
    let report = format!(
        r#"{{"dryRun":DRY,"filesScanned":0,"referenced":0,"bytesFreed":5,"deleted":[{{"name":"{hash}","size":5,"mtimeMs":{mtime}}}],"young":[],"missing":[]}}"#
    );
    assert_eq!(store.blob_gc_json(&GcOptions::new().dry_run(true).grace_ms(0)).unwrap(), report.replace("DRY", "true"));
    assert!(blob_path.exists());
    assert_eq!(store.blob_gc_json(&GcOptions::new().grace_ms(0)).unwrap(), report.replace("DRY", "false"));
    assert!(!blob_path.exists());

    // Within the default grace period (pinned "now"), an unreferenced blob is kept as young.
    let hash = store.blob_put(b"young").unwrap();
    let mtime = mtime_ms(&dir.path().join("blobs").join(&hash)) as i64;
    let report: serde_json::Value =
        serde_json::from_str(&store.blob_gc_json(&GcOptions::new().now_ms(mtime + 1000)).unwrap()).unwrap();
    assert_eq!(
        (report["deleted"].as_array().unwrap().len(), report["young"][0]["name"].as_str()),
        (0, Some(hash.as_str()))
    );
    assert_eq!(store.blob_gc_json(&GcOptions::new().grace_ms(-1)).unwrap_err().code(), ErrorCode::Invalid);
}
