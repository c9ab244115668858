//! The typed outputs (`xsession::types`): what the typed readers give for a session written
//! through the API, the entry iterator with its raw lines, entries this crate does not know, and
//! paths as `AsRef<Path>`.
use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use xsession::types::{BlobList, Diagnostic, GcReport, Label, ListedSession, PiModel, RepairReport, VerifyReport};
use xsession::{
    BlobRefs, Dialect, Entry, EntryKind, GcOptions, ListOptions, RepairOptions, SessionOptions, Store, StoreOptions,
};

use common::{fixed, json, store, TempDir, ASSISTANT, USER};

#[test]
fn the_agent_loop_reads_typed_messages_and_entries() {
    let (_dir, store) = store();
    let session = store.create_session(Path::new("/work/proj"), &fixed()).unwrap();
    let question = session.append_message(USER).unwrap();
    let reply = session.append_message(ASSISTANT).unwrap();
    session.append_model_change("anthropic/claude-opus-4", None).unwrap();
    session.branch_with_summary(Some(&question), "Tried the include theory.", None, None).unwrap();

    let context = session.build_context(None).unwrap();
    let roles: Vec<&str> = context.messages.iter().map(|m| m.role.as_str()).collect();
    assert_eq!(roles, ["user", "branchSummary"]);
    assert_eq!(context.messages[0].text(), "Why does the build fail?");
    assert_eq!(context.messages[1].text(), "Tried the include theory.");
    assert_eq!(context.messages[0].content(), Some(&json!("Why does the build fail?")));
    assert_eq!(context.thinking_level.as_deref(), Some("off"));
    assert_eq!(context.model, None); // an omp context has no pi model
    assert_eq!(context.leaf_id, session.leaf().unwrap());

    let entries = session.entries(BlobRefs::AsStored).unwrap();
    assert_eq!(entries.len(), 4);
    let entries: Vec<Entry> = entries.collect::<xsession::Result<_>>().unwrap();
    let types: Vec<&str> = entries.iter().map(Entry::entry_type).collect();
    assert_eq!(types, ["message", "message", "model_change", "branch_summary"]);
    assert_eq!((entries[1].id.as_str(), entries[1].parent_id.as_deref()), (reply.as_str(), Some(question.as_str())));
    assert_eq!(entries[1].message().unwrap().text(), "A missing include.");
    assert_eq!(
        entries[2].kind,
        EntryKind::ModelChange {
            model: Some("anthropic/claude-opus-4".into()),
            role: None,
            provider: None,
            model_id: None
        }
    );
    match &entries[3].kind {
        EntryKind::BranchSummary { from_id, summary, .. } => {
            assert_eq!((from_id.as_str(), summary.as_str()), (question.as_str(), "Tried the include theory."))
        }
        other => panic!("{other:?}"),
    }
    // Each entry keeps its stored line exactly: the array is those lines joined.
    let raws: Vec<&str> = entries.iter().map(Entry::raw).collect();
    assert_eq!(format!("[{}]", raws.join(",")), session.entries_json(BlobRefs::AsStored).unwrap());
    assert_eq!(session.entry(&reply, BlobRefs::AsStored).unwrap(), entries[1]);
    assert_eq!(session.path(None, BlobRefs::AsStored).unwrap().count(), 2); // question, then the summary
    assert_eq!(session.children(&question, BlobRefs::AsStored).unwrap().len(), 2);
}

#[test]
fn unknown_types_and_unknown_members_are_kept() {
    let (_dir, store) = store();
    let session = store.create_session("/w", &fixed()).unwrap();
    let tier = session.append(r#"{"type":"service_tier_change","serviceTier":"priority"}"#).unwrap();
    let custom = session.append(r#"{"type":"custom","customType":"ext","data":{"n":1},"mine":[true]}"#).unwrap();
    let tier = session.entry(&tier, BlobRefs::AsStored).unwrap();
    assert!(!tier.is_typed());
    assert_eq!(tier.entry_type(), "service_tier_change");
    match &tier.kind {
        EntryKind::Other { entry_type, fields } => {
            assert_eq!(entry_type, "service_tier_change");
            assert_eq!(Value::Object(fields.clone()), json!({"serviceTier": "priority"}));
        }
        other => panic!("{other:?}"),
    }
    let custom = session.entry(&custom, BlobRefs::AsStored).unwrap();
    assert!(custom.is_typed());
    assert_eq!(custom.kind, EntryKind::Custom { custom_type: "ext".into(), data: Some(json!({"n": 1})) });
    assert_eq!(Value::Object(custom.extra.clone()), json!({"mine": [true]}));
    // Encoding gives the same JSON as the stored line.
    let line: Value = serde_json::from_str(custom.raw()).unwrap();
    assert_eq!(serde_json::to_value(&custom).unwrap(), line);
}

#[test]
fn tree_labels_header_and_diagnostics_are_typed() {
    let (dir, store) = store();
    let session = store.create_session("/w", &fixed().session_id("typed-tree").title("T")).unwrap();
    let root = session.append_message(USER).unwrap();
    session.append_message(ASSISTANT).unwrap();
    session.append_label(&root, Some("start")).unwrap();
    let tree = session.tree(BlobRefs::AsStored).unwrap();
    assert_eq!(tree.len(), 3);
    assert_eq!((tree[0].id.as_str(), tree[0].depth, tree[0].label.as_deref()), (root.as_str(), 0, Some("start")));
    assert_eq!(tree[0].children.len(), 1);
    assert_eq!(tree[1].entry.entry_type(), "message");
    let labels: Vec<Label> = session.labels().unwrap();
    assert_eq!((labels[0].target_id.as_str(), labels[0].label.as_str()), (root.as_str(), "start"));
    let header = session.header().unwrap();
    assert_eq!((header.id.as_str(), header.cwd.as_str(), header.title.as_deref()), ("typed-tree", "/w", Some("T")));
    assert_eq!(header.version, Some(3));
    let path = PathBuf::from(session.info().unwrap().path);
    drop(session);

    // A line that is not JSON is skipped and reported.
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.extend_from_slice(b"{not json\n");
    std::fs::write(&path, bytes).unwrap();
    let again = store.open_session(&path, &SessionOptions::new().read_only(true)).unwrap();
    let diagnostics: Vec<Diagnostic> = again.diagnostics().unwrap();
    assert_eq!(diagnostics.len(), 1);
    assert_eq!((diagnostics[0].line, diagnostics[0].code.as_str()), (5, "invalid_json"));
    assert_eq!(again.info().unwrap().entry_types, BTreeMap::from([("label".into(), 1), ("message".into(), 2)]));
    drop(dir);
}

#[test]
fn a_pi_context_has_pis_model() {
    let dir = TempDir::new("typed-pi");
    let store = Store::open_with(dir.path(), &StoreOptions::new().default_dialect(Dialect::Pi)).unwrap();
    let session = store.create_session("/w", &fixed()).unwrap();
    assert_eq!(session.build_context(None).unwrap().model, Some(None));
    session.append_model_change("anthropic/claude-x", None).unwrap();
    session.append_message(USER).unwrap();
    let context = session.build_context(None).unwrap();
    assert_eq!(context.model, Some(Some(PiModel { provider: "anthropic".into(), model_id: "claude-x".into() })));
    let change = session.entries(BlobRefs::AsStored).unwrap().next().unwrap().unwrap();
    assert_eq!(
        change.kind,
        EntryKind::ModelChange {
            model: None,
            role: None,
            provider: Some("anthropic".into()),
            model_id: Some("claude-x".into())
        }
    );
}

#[test]
fn a_bad_entry_is_one_err_item_not_the_end() {
    let text = r#"[{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user"}},{"id":"b"},
                  {"type":"label","id":"c","parentId":"a","timestamp":"t","targetId":"a"}]"#;
    let items: Vec<xsession::Result<Entry>> = xsession::Entries::from_json(text).unwrap().collect();
    assert_eq!(items.len(), 3);
    assert!(items[0].is_ok() && items[2].is_ok());
    let err = items[1].as_ref().unwrap_err();
    assert_eq!((err.code(), err.message()), (xsession::ErrorCode::Internal, "entries: no string \"type\""));
}

#[test]
fn a_lone_surrogate_stays_in_the_raw_line_and_reads_as_fffd() {
    let line =
        r#"{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user","content":"x\ud83d"}}"#;
    let entry = xsession::Entries::from_json(&format!("[{line}]")).unwrap().next().unwrap().unwrap();
    assert_eq!(entry.raw(), line);
    assert_eq!(entry.message().unwrap().text(), "x\u{fffd}");
}

#[test]
fn upkeep_reports_and_listings_are_typed_and_round_trip() {
    let (_dir, store) = store();
    let path = {
        let session = store.create_session("/work/proj", &fixed().session_id("up-1").no_defer(true)).unwrap();
        session.append_message(USER).unwrap();
        PathBuf::from(session.info().unwrap().path)
    };
    // A line that is not JSON and a torn last line, as a crashed writer leaves them.
    let mut file = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
    std::io::Write::write_all(&mut file, b"not JSON\n{\"type\":\"mess").unwrap();
    drop(file);
    let session = store.open_session(&path, &SessionOptions::new()).unwrap();

    let text = session.verify_json().unwrap();
    json::round_trip::<VerifyReport>("verify", &text).unwrap();
    let verify = session.verify().unwrap();
    let codes: Vec<(&str, bool)> = verify.problems.iter().map(|p| (p.code.as_str(), p.fixable)).collect();
    assert_eq!(codes, [("invalid_json", false), ("incomplete_tail", true)]);
    assert_eq!((verify.id.as_str(), verify.file_version, verify.entries), ("up-1", 3, 1));

    let text = session.repair_json(&RepairOptions::new().quarantine(true)).unwrap();
    json::round_trip::<RepairReport>("repair", &text).unwrap();
    let repair: RepairReport = xsession::types::from_json(&text).unwrap();
    let quarantine = repair.quarantine.flatten().unwrap();
    assert_eq!(quarantine.lines, 2);
    assert_eq!(session.repair(&RepairOptions::new().quarantine(true)).unwrap().quarantine, Some(None));

    let hash = store.blob_put(b"hello").unwrap();
    let text = store.blob_list_json(true).unwrap();
    json::round_trip::<BlobList>("blob_list", &text).unwrap();
    let blobs = store.blob_list(true).unwrap();
    assert_eq!(
        (blobs.count, blobs.blobs[0].hash.as_str(), blobs.blobs[0].problem.clone()),
        (1, hash.as_str(), Some(None))
    );
    assert_eq!(store.blob_list(false).unwrap().blobs[0].problem, None);
    let gc = GcOptions::new().dry_run(true).grace_ms(0);
    json::round_trip::<GcReport>("blob_gc", &store.blob_gc_json(&gc).unwrap()).unwrap();
    let report = store.blob_gc(&gc).unwrap();
    assert!(report.dry_run);
    assert_eq!(report.deleted.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), [hash.as_str()]);

    let full = ListOptions::new().full(true).cwd(Path::new("/work/proj"));
    json::round_trip::<Vec<ListedSession>>("list", &store.list_json(&full).unwrap()).unwrap();
    let listed = store.list(&full).unwrap();
    assert_eq!((listed.len(), listed[0].id.as_str(), listed[0].entry_count), (1, "up-1", Some(1)));
    assert_eq!(store.list(&ListOptions::new()).unwrap()[0].entry_count, None);
}

#[test]
fn differences_name_the_member() {
    let want: Value = serde_json::from_str(r#"{"a":[1,{"b":0}],"c":"x"}"#).unwrap();
    assert_eq!(json::difference(&serde_json::from_str(r#"{"c":"x","a":[1,{"b":0.0}]}"#).unwrap(), &want, ""), None);
    assert_eq!(
        json::difference(&serde_json::from_str(r#"{"a":[1,{}],"c":"x"}"#).unwrap(), &want, ""),
        Some("/a/1/b: dropped (the library wrote 0)".to_string())
    );
    assert_eq!(
        json::difference(&serde_json::from_str(r#"{"a":[1,{"b":0}],"c":"x","d":null}"#).unwrap(), &want, ""),
        Some("/d: added (null)".to_string())
    );
    assert_eq!(
        json::difference(&serde_json::from_str(r#"{"a":[1,{"b":"0"}],"c":"x"}"#).unwrap(), &want, ""),
        Some("/a/1/b: \"0\" instead of 0".to_string())
    );
}
