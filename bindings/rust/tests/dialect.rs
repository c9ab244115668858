//! The pi dialect through the safe API (docs/dialects.md): which dialect a session writes, pi's
//! titles as `session_info` entries, and the calls a dialect refuses with `ErrorCode::Dialect`.
use crate::common;

use common::{fixed, store, TempDir, ASSISTANT, USER};
use xsession::{sys, BlobRefs, Dialect, ErrorCode, SessionOptions, Store, StoreOptions};

/// A store in a fresh temp dir whose new sessions default to pi.
fn pi_store() -> (TempDir, Store) {
    let dir = TempDir::new("pi-store");
    let store = Store::open_with(dir.str(), &StoreOptions::new().default_dialect(Dialect::Pi)).expect("open store");
    (dir, store)
}

#[test]
fn a_store_default_and_a_forced_dialect_decide_a_new_session() {
    let (_omp_dir, omp_store) = store();
    let (_pi_dir, pi_store) = pi_store();
    let cases = [
        (&omp_store, None, Dialect::Omp),
        (&omp_store, Some(Dialect::Pi), Dialect::Pi),
        (&pi_store, None, Dialect::Pi),
        (&pi_store, Some(Dialect::Omp), Dialect::Omp),
    ];
    for (store, forced, want) in cases {
        let session = store.create_session("/work/proj", &fixed().dialect(forced)).unwrap();
        assert_eq!(session.dialect().unwrap(), want, "forced {forced:?}");
        assert_eq!(session.info().unwrap().dialect, want);
    }
    let in_memory = Store::open_with("", &StoreOptions::new().in_memory(true).default_dialect(Dialect::Pi)).unwrap();
    assert_eq!(in_memory.create_session("/w", &SessionOptions::new()).unwrap().dialect().unwrap(), Dialect::Pi);
}

#[test]
fn an_existing_file_keeps_its_dialect_and_a_fork_takes_its_source_s() {
    let (_dir, pi_store) = pi_store();
    let session = pi_store.create_session("/work/proj", &fixed().session_id("pi-1").no_defer(true)).unwrap();
    session.append_session_info("First").unwrap();
    let path = session.info().unwrap().path;
    let fork = session.fork(&fixed().session_id("pi-fork")).unwrap();
    assert_eq!(fork.dialect().unwrap(), Dialect::Pi);
    drop((session, fork));

    // An omp-default store reads the file's session_info line as pi's mark, read-only too.
    let (_omp_dir, omp_store) = store();
    let reader = omp_store.open_session(&path, &SessionOptions::new().read_only(true)).unwrap();
    assert_eq!(reader.dialect().unwrap(), Dialect::Pi);
    drop(reader);
    let forced = omp_store.open_session(&path, &SessionOptions::new().dialect(Dialect::Omp)).unwrap();
    assert_eq!(forced.dialect().unwrap(), Dialect::Omp);
}

#[test]
fn append_session_info_writes_pi_s_title_entry_and_the_title_follows() {
    let (_dir, store) = pi_store();
    let session = store.create_session("/work/proj", &fixed().session_id("pi-2").no_defer(true)).unwrap();
    assert_eq!(
        session.header_json().unwrap(),
        r#"{"type":"session","version":3,"id":"pi-2","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/work/proj"}"#
    );
    let id = session.append_session_info("  Fix the build\n").unwrap();
    assert_eq!(id.len(), 8, "{id}");
    assert_eq!(
        session.entry_json(&id, BlobRefs::AsStored).unwrap(),
        format!(
            r#"{{"type":"session_info","id":"{id}","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","name":"Fix the build"}}"#
        )
    );
    assert_eq!(session.leaf().unwrap(), Some(id.clone()));
    assert_eq!(session.info().unwrap().title.as_deref(), Some("Fix the build"));

    // set_title in a pi session appends one more entry rather than rewriting the header.
    session.set_title(Some("Renamed")).unwrap();
    let info = session.info().unwrap();
    assert_eq!((info.title.as_deref(), info.entry_count), (Some("Renamed"), 2));
    let renamed = info.leaf_id.unwrap();
    assert_eq!(
        session.entry_json(&renamed, BlobRefs::AsStored).unwrap(),
        format!(
            r#"{{"type":"session_info","id":"{renamed}","parentId":"{id}","timestamp":"2026-01-01T00:00:02.000Z","name":"Renamed"}}"#
        )
    );
    assert!(!session.header_json().unwrap().contains("title"));
    // An empty name clears the title.
    session.append_session_info("").unwrap();
    assert_eq!(session.info().unwrap().title, None);
}

#[test]
fn each_dialect_refuses_the_other_s_forms_and_changes_nothing() {
    let (_dir, store) = pi_store();
    let pi = store.create_session("/work/proj", &fixed()).unwrap();
    pi.append_message(USER).unwrap();
    let refused = [
        pi.append_ttsr_injection(r#"["rule"]"#).unwrap_err(),
        pi.append_mode_change("plan", None).unwrap_err(),
        pi.append_model_change("anthropic/claude-x", Some("smol")).unwrap_err(),
    ];
    for err in &refused {
        assert_eq!(err.code(), ErrorCode::Dialect, "{err}");
        assert_eq!(err.code().raw(), sys::XS_EDIALECT);
        assert!(!err.message().is_empty());
    }
    // The handle holds the error of its last call, the refused append.
    assert_eq!(pi.last_error().unwrap().code(), ErrorCode::Dialect);
    assert_eq!(pi.info().unwrap().entry_count, 1);

    let omp = store.create_session("/work/proj", &fixed().dialect(Dialect::Omp)).unwrap();
    let err = omp.append_session_info("A title").unwrap_err();
    assert_eq!(err.code(), ErrorCode::Dialect, "{err}");
    assert_eq!(omp.info().unwrap().entry_count, 0);
}

#[test]
fn the_context_of_a_pi_session_carries_pi_s_model() {
    let (_dir, store) = pi_store();
    let session = store.create_session("/work/proj", &fixed()).unwrap();
    assert_eq!(
        session.build_context_json(None).unwrap(),
        r#"{"leafId":null,"messages":[],"thinkingLevel":"off","model":null,"models":{},"injectedTtsrRules":[],"mode":"none"}"#
    );
    session.append_message(USER).unwrap();
    session.append_message(ASSISTANT).unwrap();
    let context: serde_json::Value = serde_json::from_str(&session.build_context_json(None).unwrap()).unwrap();
    assert_eq!(context["model"], serde_json::json!({"provider": "anthropic", "modelId": "claude-x"}));
}
