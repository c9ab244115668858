//! Import beyond the conformance cases (106-110): a dry run against the real import that follows,
//! `target_cwd`, a listing that writes nothing, the statuses of bad arguments, the options'
//! defaults and version as the C API defines them, and the import's progress callback.
use crate::common;

use std::cell::{Cell, RefCell};
use std::ffi::{c_void, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use common::TempDir;
use xsession::{sys, ErrorCode, ImportKind, ImportOptions, SessionOptions, Store};

const SESSION_ID: &str = "22222222-3333-4444-8555-666666666666";

/// A Claude Code project directory `<dir>/source/-work-demo` with one conversation of two rows.
fn claude_project(dir: &TempDir) -> String {
    let project = dir.path().join("source/-work-demo");
    std::fs::create_dir_all(&project).unwrap();
    let user = format!(
        r#"{{"parentUuid":null,"cwd":"/work/demo","sessionId":"{SESSION_ID}","type":"user","message":{{"role":"user","content":"Why does the build fail?"}},"uuid":"bbbbbbbb-0000-4000-8000-000000000001","timestamp":"2026-03-01T10:00:00.000Z"}}"#
    );
    let assistant = format!(
        r#"{{"parentUuid":"bbbbbbbb-0000-4000-8000-000000000001","cwd":"/work/demo","sessionId":"{SESSION_ID}","type":"assistant","message":{{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{{"type":"text","text":"A missing include."}}],"usage":{{"input_tokens":3,"output_tokens":4}}}},"uuid":"bbbbbbbb-0000-4000-8000-000000000002","timestamp":"2026-03-01T10:00:02.000Z"}}"#
    );
    std::fs::write(project.join(format!("{SESSION_ID}.jsonl")), format!("{user}\n{assistant}\n")).unwrap();
    project.to_str().unwrap().to_string()
}

/// A store rooted at `<dir>/store`, a directory nothing has created yet.
fn store_in(dir: &TempDir) -> (PathBuf, Store) {
    let root = dir.path().join("store");
    let store = Store::open(root.to_str().unwrap()).unwrap();
    (root, store)
}

/// The report of importing [`claude_project`] with `dry_run`, `imported` rows new,
/// `already` rows imported before, and the session written to `session_file`.
fn claude_report(source: &str, dry_run: bool, created: bool, counts: (u32, u32), session_file: &str) -> String {
    let (imported, already) = counts;
    format!(
        r#"{{"source":"claude","root":"{source}","dryRun":{dry_run},"rowsRead":2,"imported":{imported},"keptAsCustom":0,"alreadyImported":{already},"skipped":0,"sessions":[{{"sourceFile":"{SESSION_ID}.jsonl","sessionId":"{SESSION_ID}","sessionFile":"{session_file}","created":{created},"rowsRead":2,"imported":{imported},"keptAsCustom":0,"alreadyImported":{already},"skipped":0}}],"skippedRows":[],"notes":[]}}"#
    )
}

fn session_file(root: &Path, cwd_dir: &str) -> String {
    format!("{}/sessions/{cwd_dir}/2026-03-01T10-00-00-000Z_{SESSION_ID}.jsonl", root.display())
}

#[test]
fn a_dry_run_reports_what_the_import_then_does_and_writes_nothing() {
    let dir = TempDir::new("import-dry");
    let source = claude_project(&dir);
    let (root, store) = store_in(&dir);

    let dry = store.import_json(ImportKind::Claude, &source, &ImportOptions::new().dry_run(true)).unwrap();
    assert_eq!(dry, claude_report(&source, true, true, (2, 0), ""));
    assert!(!root.exists(), "a dry run created the store's directory");

    let file = session_file(&root, "--work-demo--");
    let real = store.import_json(ImportKind::Claude, &source, &ImportOptions::new()).unwrap();
    assert_eq!(real, claude_report(&source, false, true, (2, 0), &file));
    let again = store.import_json(ImportKind::Claude, &source, &ImportOptions::new()).unwrap();
    assert_eq!(again, claude_report(&source, false, false, (0, 2), &file));

    let session = store.open_session(&file, &SessionOptions::new().read_only(true)).unwrap();
    assert_eq!(session.leaf().unwrap().as_deref(), Some("bbbbbbbb-0000-4000-8000-000000000002"));
}

#[test]
fn target_cwd_is_the_cwd_of_every_imported_session() {
    let dir = TempDir::new("import-cwd");
    let source = claude_project(&dir);
    let (root, store) = store_in(&dir);
    let opts = ImportOptions::new().target_cwd("/work/elsewhere");
    let report = store.import_json(ImportKind::Claude, &source, &opts).unwrap();
    let file = session_file(&root, "--work-elsewhere--");
    assert_eq!(report, claude_report(&source, false, true, (2, 0), &file));
    let session = store.open_session(&file, &SessionOptions::new().read_only(true)).unwrap();
    assert_eq!(session.info().unwrap().cwd, "/work/elsewhere");
}

#[test]
fn a_listing_writes_nothing_and_leaves_the_source() {
    let dir = TempDir::new("import-list");
    let source = claude_project(&dir);
    let transcript = Path::new(&source).join(format!("{SESSION_ID}.jsonl"));
    let before = std::fs::read(&transcript).unwrap();
    let (root, store) = store_in(&dir);
    let listing = store.foreign_list_json(ImportKind::Claude, &source, &ImportOptions::new()).unwrap();
    let head = format!(r#"{{"source":"claude","root":"{source}","projects":[{{"dir":"{source}","#);
    assert!(listing.starts_with(&head), "{listing}");
    assert!(listing.contains(&format!(r#""sessionId":"{SESSION_ID}""#)), "{listing}");
    assert!(!root.exists());
    assert_eq!(std::fs::read(&transcript).unwrap(), before);
}

#[test]
fn a_missing_source_is_not_found_for_every_kind() {
    let dir = TempDir::new("import-missing");
    let (root, store) = store_in(&dir);
    let nowhere = dir.path().join("nowhere");
    let nowhere = nowhere.to_str().unwrap();
    for kind in [ImportKind::Claude, ImportKind::MyAgents, ImportKind::Gateway, ImportKind::Codex] {
        let imported = store.import_json(kind, nowhere, &ImportOptions::new()).unwrap_err();
        assert_eq!(imported.code(), ErrorCode::NotFound, "{kind}: {imported}");
        assert!(!imported.message().is_empty());
        let listed = store.foreign_list_json(kind, nowhere, &ImportOptions::new()).unwrap_err();
        assert_eq!(listed.code(), ErrorCode::NotFound, "{kind}: {listed}");
    }
    // A MyAgents directory needs sessions.json or sessions/.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let err = store.import_json(ImportKind::MyAgents, empty.to_str().unwrap(), &ImportOptions::new()).unwrap_err();
    assert_eq!(err.code(), ErrorCode::NotFound, "{err}");
    assert!(!root.exists());
}

#[test]
fn bad_arguments_are_invalid_and_write_nothing() {
    let dir = TempDir::new("import-invalid");
    let source = claude_project(&dir);
    let file = format!("{source}/{SESSION_ID}.jsonl");
    let (root, store) = store_in(&dir);
    let new = ImportOptions::new;
    let cases: Vec<(ImportKind, &str, ImportOptions)> = vec![
        (ImportKind::Claude, "", new()),
        (ImportKind::Claude, &file, new()),
        (ImportKind::Claude, "/a\0b", new()),
        (ImportKind::Claude, &source, new().target_cwd("work/demo")),
        (ImportKind::Claude, &source, new().target_cwd("/work/../demo")),
        (ImportKind::Claude, &source, new().fallback_cwd("/work/demo")),
        (ImportKind::Gateway, &source, new().target_cwd("/work/demo")),
        (ImportKind::MyAgents, &source, new().fallback_cwd("relative")),
        (ImportKind::Claude, &source, new().lock_wait_ms(-1)),
    ];
    for (kind, path, opts) in &cases {
        let err = store.import_json(*kind, path, opts).unwrap_err();
        assert_eq!(err.code(), ErrorCode::Invalid, "{kind} {path:?} {opts:?}: {err}");
    }
    // The listing reads only the lock wait of the options; its paths are checked as the import's.
    for path in ["", file.as_str()] {
        let err = store.foreign_list_json(ImportKind::Claude, path, &new()).unwrap_err();
        assert_eq!(err.code(), ErrorCode::Invalid, "{path:?}: {err}");
    }
    let err = store.foreign_list_json(ImportKind::Claude, &source, &new().lock_wait_ms(-1)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::Invalid, "{err}");
    assert!(!root.exists());
}

/// A raw store handle on `root`, freed on drop, for what the safe API cannot express.
struct RawStore(*mut sys::xs_store);

impl RawStore {
    fn open(root: &Path) -> RawStore {
        let root = CString::new(root.to_str().unwrap()).unwrap();
        // SAFETY: a fresh handle, opened once with a live root string and default options.
        unsafe {
            let st = sys::xs_store_new();
            assert_eq!(sys::xs_store_open(st, root.as_ptr(), std::ptr::null()), sys::XS_OK);
            RawStore(st)
        }
    }

    /// The status of `xs_import` (`list`: `xs_foreign_list`) with no buffer (a success is XS_EBUFS).
    fn call(&self, list: bool, kind: &str, source: &str, opts: Option<&sys::xs_import_options>) -> sys::xs_status {
        let (kind, source) = (CString::new(kind).unwrap(), CString::new(source).unwrap());
        let opts = opts.map_or(std::ptr::null(), |o| o as *const _);
        let mut len = 0;
        let f = if list { sys::xs_foreign_list } else { sys::xs_import };
        // SAFETY: live handle; every pointer is valid for the call; cap 0 with a NULL buffer.
        unsafe { f(self.0, kind.as_ptr(), source.as_ptr(), opts, std::ptr::null_mut(), 0, &mut len) }
    }
}

impl Drop for RawStore {
    fn drop(&mut self) {
        // SAFETY: the handle is live and used by nothing else.
        unsafe { sys::xs_store_free(self.0) }
    }
}

#[test]
fn the_library_refuses_an_unknown_kind_with_the_status_the_enum_gives() {
    let dir = TempDir::new("import-kind");
    let source = claude_project(&dir);
    let store = RawStore::open(&dir.path().join("store"));
    for list in [false, true] {
        assert_eq!(store.call(list, "opencode", &source, None), sys::XS_EINVAL);
        assert_eq!(store.call(list, "Claude", &source, None), sys::XS_EINVAL);
        // The same source under a known kind, NULL options (the defaults): only the buffer is short.
        assert_eq!(store.call(list, "claude", &source, None), sys::XS_EBUFS);
    }
    assert_eq!("opencode".parse::<ImportKind>().unwrap_err().code().raw(), sys::XS_EINVAL);
    assert_eq!("codex".parse::<ImportKind>().unwrap(), ImportKind::Codex);
}

#[test]
fn options_init_gives_the_current_version_defaults_and_refuses_unknown_versions() {
    let mut o = std::mem::MaybeUninit::<sys::xs_import_options>::zeroed();
    // SAFETY: `o` is a writable struct of the right type.
    assert_eq!(unsafe { sys::xs_import_options_init(o.as_mut_ptr(), sys::XS_IMPORT_OPTIONS_VERSION) }, sys::XS_OK);
    // SAFETY: initialised by the call above.
    let o = unsafe { o.assume_init() };
    assert_eq!((o.version, o.flags, o.lock_wait_ms, o.now_ms), (2, 0, 2000, 0));
    assert!(o.target_cwd.is_null() && o.fallback_cwd.is_null());
    assert!(o.progress.is_none() && o.progress_user.is_null());
    for version in [0, 3] {
        let mut other = o;
        // SAFETY: as above.
        assert_eq!(unsafe { sys::xs_import_options_init(&mut other, version) }, sys::XS_EVERSION);
    }
    // SAFETY: NULL is refused before anything is written.
    assert_eq!(unsafe { sys::xs_import_options_init(std::ptr::null_mut(), 1) }, sys::XS_EINVAL);
    if cfg!(target_pointer_width = "64") {
        assert_eq!(std::mem::size_of::<sys::xs_import_options>(), 56);
    }

    // A struct of another version is refused by both calls, and nothing is imported.
    let dir = TempDir::new("import-version");
    let source = claude_project(&dir);
    let root = dir.path().join("store");
    let store = RawStore::open(&root);
    let future = sys::xs_import_options { version: 3, ..o };
    for list in [false, true] {
        assert_eq!(store.call(list, "claude", &source, Some(&future)), sys::XS_EVERSION);
    }
    let unknown_flag = sys::xs_import_options { flags: 0x2, ..o };
    assert_eq!(store.call(false, "claude", &source, Some(&unknown_flag)), sys::XS_EINVAL);
    assert!(!root.exists());
}

/// Checks `calls` as docs/import.md#progress promises them for a source of `total` bytes: 0
/// first, `total` last, every call of the same total, `done` never decreasing.
fn assert_progress(calls: &[(u64, u64)], total: u64) {
    assert!(calls.len() >= 2, "{calls:?}");
    assert_eq!((calls[0], calls[calls.len() - 1]), ((0, total), (total, total)), "{calls:?}");
    assert!(calls.iter().all(|&(_, t)| t == total), "{calls:?}");
    assert!(calls.windows(2).all(|w| w[0].0 <= w[1].0), "{calls:?}");
}

fn transcript_size(source: &str) -> u64 {
    std::fs::metadata(Path::new(source).join(format!("{SESSION_ID}.jsonl"))).unwrap().len()
}

#[test]
fn progress_counts_the_transcripts_bytes_and_a_dry_run_calls_it_too() {
    let dir = TempDir::new("import-progress");
    let source = claude_project(&dir);
    let total = transcript_size(&source);
    let (root, store) = store_in(&dir);
    let calls = RefCell::new(Vec::new());
    let record = |done, total| calls.borrow_mut().push((done, total));

    let opts = ImportOptions::new().dry_run(true);
    let dry = store.import_with_progress_json(ImportKind::Claude, &source, &opts, record).unwrap();
    assert_eq!(dry, claude_report(&source, true, true, (2, 0), ""));
    assert_progress(&calls.borrow(), total);
    assert!(!root.exists(), "a dry run created the store's directory");

    calls.borrow_mut().clear();
    let report = store.import_with_progress(ImportKind::Claude, &source, &ImportOptions::new(), record).unwrap();
    assert_eq!((report.imported, report.already_imported), (2, 0));
    assert_progress(&calls.borrow(), total);
    let file = session_file(&root, "--work-demo--");
    let again = store.import_json(ImportKind::Claude, &source, &ImportOptions::new()).unwrap();
    assert_eq!(again, claude_report(&source, false, false, (0, 2), &file));
}

#[test]
fn a_panic_in_the_import_progress_closure_resumes_after_the_import() {
    let dir = TempDir::new("import-progress-panic");
    let source = claude_project(&dir);
    let (root, store) = store_in(&dir);
    let calls = RefCell::new(0);
    let panic = catch_unwind(AssertUnwindSafe(|| {
        store.import_with_progress_json(ImportKind::Claude, &source, &ImportOptions::new(), |_, _| {
            *calls.borrow_mut() += 1;
            panic!("progress {}", "boom");
        })
    }))
    .unwrap_err();
    let message =
        panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()));
    assert_eq!(message.as_deref(), Some("progress boom"));
    assert_eq!(calls.into_inner(), 1, "the closure ran again after it panicked");
    // The import was not cut short, and the store still works: a re-import finds it all imported.
    let file = session_file(&root, "--work-demo--");
    let again = store.import_json(ImportKind::Claude, &source, &ImportOptions::new()).unwrap();
    assert_eq!(again, claude_report(&source, false, false, (0, 2), &file));
}

#[test]
fn a_call_on_the_store_from_the_import_progress_closure_is_misuse() {
    let dir = TempDir::new("import-progress-misuse");
    let source = claude_project(&dir);
    let (root, store) = store_in(&dir);
    let mut inner = Vec::new();
    let opts = ImportOptions::new();
    store
        .import_with_progress_json(ImportKind::Claude, &source, &opts, |_, _| {
            inner.push(store.keys().get("k").map_err(|e| e.code()))
        })
        .unwrap();
    assert!(inner.len() >= 2 && inner.iter().all(|r| *r == Err(ErrorCode::Misuse)), "{inner:?}");
    // Another store on the same root is another handle: usable from the closure.
    let other = Store::open(root.to_str().unwrap()).unwrap();
    let mut seen = Vec::new();
    store
        .import_with_progress_json(ImportKind::Claude, &source, &opts, |_, _| {
            seen.push(other.keys().get("k").map_err(|e| e.code()))
        })
        .unwrap();
    assert!(!seen.is_empty() && seen.iter().all(|r| *r == Ok(None)), "{seen:?}");
}

/// `xs_import_progress_fn` that counts its calls in the `Cell<u32>` at `user`.
unsafe extern "C" fn count_calls(_done: u64, _total: u64, user: *mut c_void) {
    // SAFETY: `user` is the live counter the test passed.
    let count = unsafe { &*user.cast::<Cell<u32>>() };
    count.set(count.get() + 1);
}

#[test]
fn a_listing_never_calls_the_progress_function() {
    let dir = TempDir::new("import-progress-list");
    let source = claude_project(&dir);
    let store = RawStore::open(&dir.path().join("store"));
    let count = Cell::new(0u32);
    let mut opts = std::mem::MaybeUninit::<sys::xs_import_options>::zeroed();
    // SAFETY: `opts` is a writable struct of the right type.
    assert_eq!(unsafe { sys::xs_import_options_init(opts.as_mut_ptr(), sys::XS_IMPORT_OPTIONS_VERSION) }, sys::XS_OK);
    // SAFETY: initialised by the call above.
    let mut opts = unsafe { opts.assume_init() };
    opts.progress = Some(count_calls);
    opts.progress_user = &count as *const Cell<u32> as *mut c_void;
    // The listing was made (only the buffer is short) without a call; the import with the same
    // options calls it.
    assert_eq!(store.call(true, "claude", &source, Some(&opts)), sys::XS_EBUFS);
    assert_eq!(count.get(), 0);
    assert_eq!(store.call(false, "claude", &source, Some(&opts)), sys::XS_EBUFS);
    assert!(count.get() >= 2, "{}", count.get());
}
