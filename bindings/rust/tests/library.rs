//! The session library's calls beyond what the conformance cases replay: argument errors, typed
//! stats, reset reasons, the archive progress closure (its calls, a panic in it, a call back
//! into its store), and an archive opened back.
use crate::common;

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};

use common::{fixed, store, TempDir, ASSISTANT, USER};
use xsession::{
    sys, ArchiveOptions, CompactionSettings, ErrorCode, ResetPolicy, ResetReason, SessionOptions, Store, StoreOptions,
};

const DAY_MS: i64 = 24 * 60 * 60 * 1000;
/// 2100-01-01: every session of `fixed()` (2026) is idle for decades by then.
const FAR_FUTURE_MS: i64 = 4_102_444_800_000;

/// `n` written sessions in the cwd `/w`, their timestamps in 2026 (`fixed()`); their paths.
fn old_sessions(store: &Store, n: u64) -> Vec<String> {
    (0..n)
        .map(|i| {
            let s = store.create_session("/w", &fixed().id_seed(i + 1).no_defer(true)).unwrap();
            s.append_message(USER).unwrap();
            s.append_message(ASSISTANT).unwrap();
            let path = s.info().unwrap().path;
            s.close().unwrap();
            path
        })
        .collect()
}

#[test]
fn decisions_refuse_bad_settings_with_the_status_name() {
    let settings = CompactionSettings::new().context_window(200_000);
    assert!(xsession::should_compact(&settings, 180_001).unwrap());
    let err = xsession::should_compact(&CompactionSettings::new(), 1).unwrap_err();
    assert_eq!(err.code(), ErrorCode::Invalid);
    assert!(err.message().starts_with("xs_should_compact: XS_EINVAL"), "{}", err.message());
    assert_eq!(xsession::should_compact(&settings.reserve_tokens(-1), 1).unwrap_err().code(), ErrorCode::Invalid);

    // None is "never flushed"; an explicit negative count other than the C API's -1 is refused.
    assert!(xsession::should_flush_memory(&settings, 176_001, 0, None).unwrap());
    assert!(!xsession::should_flush_memory(&settings, 176_001, 0, Some(0)).unwrap());
    assert_eq!(xsession::should_flush_memory(&settings, 1, 0, Some(-2)).unwrap_err().code(), ErrorCode::Invalid);
}

#[test]
fn the_mirrored_option_versions_are_the_headers_and_the_next_is_refused() {
    let mut store_opts = std::mem::MaybeUninit::<sys::xs_store_options>::zeroed();
    let mut session_opts = std::mem::MaybeUninit::<sys::xs_session_options>::zeroed();
    let mut settings = std::mem::MaybeUninit::<sys::xs_compaction_settings>::zeroed();
    // SAFETY: zeroed structs of the types the init functions fill.
    unsafe {
        assert_eq!(sys::xs_store_options_init(store_opts.as_mut_ptr(), sys::XS_STORE_OPTIONS_VERSION), sys::XS_OK);
        assert_eq!(
            sys::xs_store_options_init(store_opts.as_mut_ptr(), sys::XS_STORE_OPTIONS_VERSION + 1),
            sys::XS_EVERSION
        );
        assert_eq!(
            sys::xs_session_options_init(session_opts.as_mut_ptr(), sys::XS_SESSION_OPTIONS_VERSION),
            sys::XS_OK
        );
        assert_eq!(sys::xs_session_options_init(session_opts.as_mut_ptr(), 3), sys::XS_EVERSION);
        assert_eq!(sys::xs_compaction_settings_init(settings.as_mut_ptr(), 2), sys::XS_EVERSION);
        let s = settings.assume_init_mut();
        assert_eq!(sys::xs_compaction_settings_init(s, sys::XS_COMPACTION_SETTINGS_VERSION), sys::XS_OK);
        assert_eq!(
            (s.context_window, s.reserve_tokens, s.reserve_floor, s.keep_recent_tokens, s.soft_threshold_tokens),
            (0, 16384, 20000, 20000, 4000)
        );
    }
}

#[test]
fn stats_are_typed_and_a_bound_session_writes_them_into_its_record() {
    let (dir, store) = store();
    store.keys().put("agent:main:main", r#"{"sessionId":"placeholder","mine":1}"#).unwrap();
    let s = store.create_session("/w", &fixed().key("agent:main:main")).unwrap();
    s.append_message(USER).unwrap();
    s.append_message(ASSISTANT).unwrap();
    let stats = s.stats().unwrap();
    assert_eq!(
        (stats.input_tokens, stats.output_tokens, stats.cache_read, stats.cache_write, stats.total_tokens),
        (10, 5, 2, 1, 18)
    );
    assert_eq!(stats.cost, 0.25);
    assert_eq!(stats.message_counts.get("user"), Some(&1));
    assert_eq!(stats.message_counts.get("assistant"), Some(&1));
    let record = store.keys().get("agent:main:main").unwrap().unwrap();
    let id = s.info().unwrap().id;
    assert!(record.starts_with(&format!(r#"{{"sessionId":"{id}","mine":1,"#)), "{record}");
    assert!(record.contains(r#""inputTokens":10"#) && record.contains(r#""totalTokens":18"#), "{record}");
    drop(s);
    drop(dir);
}

#[test]
fn a_key_binding_is_refused_on_a_read_only_session() {
    let (_dir, store) = store();
    let path = old_sessions(&store, 1).remove(0);
    let err = store.open_session(&path, &SessionOptions::new().read_only(true).key("k")).err().unwrap();
    assert_eq!(err.code(), ErrorCode::Invalid);
    let err = store.session_for_key("k", 0, None, false, &SessionOptions::new().read_only(true)).err().unwrap();
    assert_eq!(err.code(), ErrorCode::Invalid);
}

#[test]
fn session_for_key_reports_why_and_refuses_bad_policies() {
    let (dir, store) = store();
    let opts = SessionOptions::new().cwd("/w");
    let (first, reason) = store.session_for_key("agent:a:main", 1_000, None, false, &opts).unwrap();
    assert_eq!((reason, reason.as_str(), reason.is_new_session()), (ResetReason::New, "new", true));
    let first_id = first.info().unwrap().id;
    drop(first);
    let (again, reason) = store.session_for_key("agent:a:main", 2_000, None, false, &opts).unwrap();
    assert_eq!((reason, again.info().unwrap().id), (ResetReason::Continued, first_id.clone()));
    drop(again);
    let idle = ResetPolicy::new().idle_minutes(1);
    let (next, reason) = store.session_for_key("agent:a:main", 2_000 + 61_000, Some(&idle), false, &opts).unwrap();
    assert_eq!(reason, ResetReason::Idle);
    assert_ne!(next.info().unwrap().id, first_id);
    drop(next);
    let (_, reason) = store.session_for_key("agent:a:main", 70_000, None, true, &opts).unwrap();
    assert_eq!(reason.to_string(), "forced");

    let document = std::fs::read(dir.path().join("sessions.json")).unwrap();
    for bad in [
        ResetPolicy::new().daily_hour(24),
        ResetPolicy::new().idle_minutes(-1),
        ResetPolicy::new().daily_hour(4).time_zone("Not/AZone"),
    ] {
        let err = store.session_for_key("agent:a:main", 80_000, Some(&bad), false, &opts).err().unwrap();
        assert_eq!(err.code(), ErrorCode::Invalid, "{bad:?}: {err}");
    }
    let err = store.session_for_key("agent/a", 80_000, None, false, &opts).err().unwrap();
    assert_eq!(err.code(), ErrorCode::Invalid);
    let err = store.session_for_key("a\0b", 80_000, None, false, &opts).err().unwrap();
    assert_eq!(err.code(), ErrorCode::Invalid);
    assert_eq!(std::fs::read(dir.path().join("sessions.json")).unwrap(), document, "a refused call wrote");

    let bad_store = TempDir::new("bad-policy");
    let opts = StoreOptions::new().reset_policy(ResetPolicy::new().daily_hour(4).time_zone("Not/AZone"));
    assert_eq!(Store::open_with(bad_store.str(), &opts).err().unwrap().code(), ErrorCode::Invalid);
}

#[test]
fn reset_reasons_have_the_librarys_names() {
    let names: Vec<String> = (0..6).map(|raw| ResetReason::from_raw(raw).to_string()).collect();
    assert_eq!(names, ["continued", "new", "daily", "idle", "forced", "unknown"]);
    assert_eq!(ResetReason::from_raw(99), ResetReason::Unknown(99));
    assert_eq!(ResetReason::Unknown(99).raw(), 99);
}

#[test]
fn claim_memory_flush_needs_a_record_and_runs_once_per_cycle() {
    let (_dir, store) = store();
    let settings = CompactionSettings::new().context_window(200_000);
    let err = store.keys().claim_memory_flush("agent:a:main", &settings, 190_000, 5).unwrap_err();
    assert_eq!(err.code(), ErrorCode::NotFound);
    store.keys().put("agent:a:main", r#"{"sessionId":"s1","compactionCount":2}"#).unwrap();
    assert!(store.keys().claim_memory_flush("agent:a:main", &settings, 190_000, 5).unwrap());
    assert!(!store.keys().claim_memory_flush("agent:a:main", &settings, 190_000, 6).unwrap());
    assert_eq!(
        store.keys().get("agent:a:main").unwrap().as_deref(),
        Some(r#"{"sessionId":"s1","compactionCount":2,"memoryFlushAt":5,"memoryFlushCompactionCount":2}"#)
    );
}

#[test]
fn archive_progress_counts_every_candidate_and_the_archive_opens_read_only() {
    let (_dir, store) = store();
    let paths = old_sessions(&store, 3);
    let calls = RefCell::new(Vec::new());
    let opts = ArchiveOptions::older_than_ms(DAY_MS).now_ms(FAR_FUTURE_MS);
    let dry =
        store.archive_with_progress_json(&opts.dry_run(true), |done, total| calls.borrow_mut().push((done, total)));
    assert!(dry.unwrap().starts_with(r#"{"dryRun":true,"archived":["#));
    calls.borrow_mut().clear();
    let report = store.archive_with_progress_json(&opts, |done, total| calls.borrow_mut().push((done, total))).unwrap();
    assert_eq!(calls.into_inner(), [(0, 3), (1, 3), (2, 3), (3, 3)]);
    for path in &paths {
        assert!(report.contains(&format!(r#""path":"{path}""#)), "{report}");
        assert!(!std::path::Path::new(path).exists());
    }

    let archived = store.open_session(format!("{}.gz", paths[0]), &SessionOptions::new()).unwrap();
    let info = archived.info().unwrap();
    assert!(info.archived && info.read_only, "{info:?}");
    assert_eq!(archived.append_message(USER).unwrap_err().code(), ErrorCode::ReadOnly);
    assert!(store.list_json(&xsession::ListOptions::new()).unwrap().contains(r#""archived":true"#));

    // Pruning a century later than the archives' mtimes: none is old enough yet.
    let pruned = store.prune_json(&ArchiveOptions::older_than_ms(100 * 365 * DAY_MS).now_ms(FAR_FUTURE_MS)).unwrap();
    assert_eq!(pruned, r#"{"dryRun":false,"pruned":[]}"#);
    assert_eq!(store.prune_json(&ArchiveOptions::older_than_ms(-1)).unwrap_err().code(), ErrorCode::Invalid);
    assert_eq!(store.archive_json(&ArchiveOptions::older_than_ms(-1)).unwrap_err().code(), ErrorCode::Invalid);
}

#[test]
fn a_panic_in_the_progress_closure_resumes_after_the_run() {
    let (_dir, store) = store();
    let paths = old_sessions(&store, 2);
    let calls = RefCell::new(0);
    let opts = ArchiveOptions::older_than_ms(DAY_MS).now_ms(FAR_FUTURE_MS);
    let panic = catch_unwind(AssertUnwindSafe(|| {
        store.archive_with_progress_json(&opts, |_, _| {
            *calls.borrow_mut() += 1;
            panic!("progress {}", "boom");
        })
    }))
    .unwrap_err();
    let message =
        panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()));
    assert_eq!(message.as_deref(), Some("progress boom"));
    assert_eq!(calls.into_inner(), 1, "the closure ran again after it panicked");
    // The run was not cut short, and the store still works.
    for path in &paths {
        assert!(std::path::Path::new(&format!("{path}.gz")).exists(), "{path} was not archived");
    }
    assert_eq!(store.keys().get("k").unwrap(), None);
}

#[test]
fn a_call_on_the_store_from_the_progress_closure_is_misuse() {
    let (_dir, store) = store();
    old_sessions(&store, 1);
    let mut inner = Vec::new();
    let opts = ArchiveOptions::older_than_ms(DAY_MS).now_ms(FAR_FUTURE_MS);
    store.archive_with_progress_json(&opts, |_, _| inner.push(store.keys().get("k").map_err(|e| e.code()))).unwrap();
    assert_eq!(inner, [Err(ErrorCode::Misuse), Err(ErrorCode::Misuse)]);
    // Another store on the same root is another handle: usable from the closure.
    let other = Store::open(store_root(&store)).unwrap();
    let mut seen = Vec::new();
    store.archive_with_progress_json(&opts, |_, _| seen.push(other.keys().get("k").map_err(|e| e.code()))).unwrap();
    assert_eq!(seen, [Ok(None)]);
}

fn store_root(store: &Store) -> String {
    let dir = store.session_dir("/w").unwrap();
    // <root>/sessions/--w--: the root is two levels up.
    dir.parent().and_then(|d| d.parent()).unwrap().to_str().unwrap().to_string()
}

#[test]
fn plan_and_resume_check_name_an_unknown_leaf() {
    let (_dir, store) = store();
    let s = store.create_session("/w", &fixed()).unwrap();
    s.append_message(USER).unwrap();
    let settings = CompactionSettings::new();
    assert_eq!(s.compaction_plan_json(Some("nope"), &settings).unwrap_err().code(), ErrorCode::NotFound);
    assert_eq!(s.resume_check_json(Some("nope")).unwrap_err().code(), ErrorCode::NotFound);
    let plan = s.compaction_plan_json(None, &settings.keep_recent_tokens(-1)).unwrap_err();
    assert_eq!(plan.code(), ErrorCode::Invalid);
    let report = s.resume_check_json(None).unwrap();
    assert!(report.ends_with(r#""orphans":[],"pendingToolCalls":[]}"#), "{report}");
}
