//! The session index through the safe API (`Store::index`): rebuild and refresh reports with
//! exact counts, search with its snippet markers and every filter, verify before and after a
//! refresh, list order and fields, info, every refusal with its exact status and message, an
//! in-memory store, closing, threads, the typed results against the library's JSON, and an index
//! that follows the store's writes, with its flush (a failed update reported once).
use crate::common;

use std::ffi::CString;
use std::os::raw::{c_char, c_int, c_void};
use std::path::Path;
use std::ptr;
use std::sync::Arc;
use std::thread;
use std::time::UNIX_EPOCH;

use common::index::{report, session, sessions_of, STEP, T0};
use common::json::round_trip;
use common::TempDir;
use xsession::types::{IndexInfo, IndexReport, IndexVerifyReport, IndexedSession, SearchHit};
use xsession::{sys, Dialect, ErrorCode, Index, IndexOptions, IndexSearchOptions, Role, Store, StoreOptions};

/// A store in a fresh directory and its index (the default file, `<root>/index.db`).
fn index() -> (TempDir, Store, Index) {
    let dir = TempDir::new("index");
    let store = Store::open(dir.path().join("root")).unwrap();
    let index = store.index(&IndexOptions::new()).unwrap();
    (dir, store, index)
}

/// The code and message of a failed call.
fn failure<T>(r: xsession::Result<T>) -> (ErrorCode, String) {
    match r {
        Ok(_) => panic!("the call succeeded"),
        Err(e) => (e.code(), e.message().to_string()),
    }
}

#[test]
fn rebuild_then_search_finds_prompts_with_their_matches_marked() {
    let (dir, store, index) = index();
    let s1 = session(&store, 1, "/w/app", "deploy the staging server", "staging is deployed");
    session(&store, 2, "/w/lib", "write a unit test", "the test passes");
    let file = dir.path().join("root/index.db");
    let info = |sessions: u64, entries: u64| {
        format!(
            r#"{{"path":"{}","schemaVersion":2,"sessions":{sessions},"entries":{entries},"damaged":null}}"#,
            file.display()
        )
    };
    assert_eq!(index.info_json().unwrap(), info(0, 0));
    assert_eq!(index.rebuild_json().unwrap(), report(2, 0, 2, 4));
    assert_eq!(index.info_json().unwrap(), info(2, 4));
    assert_eq!(
        index.info().unwrap(),
        IndexInfo { path: file.to_str().unwrap().into(), schema_version: 2, sessions: 2, entries: 4, damaged: None }
    );
    // A rebuild starts from nothing: every file is added again.
    let again = index.rebuild().unwrap();
    assert_eq!((again.files, again.added, again.unchanged, again.entries), (2, 2, 0, 4));

    let hits = index.search("staging", &IndexSearchOptions::new()).unwrap();
    assert_eq!(sessions_of(&hits), ["s1", "s1"]);
    let prompt = hits.iter().find(|h| h.role == Some(Role::User)).expect("the prompt is found");
    assert_eq!(
        SearchHit { score: 0.0, ..prompt.clone() },
        SearchHit {
            session_id: "s1".into(),
            session_title: None,
            session_path: s1.path.clone(),
            cwd: "/w/app".into(),
            entry_id: s1.user.clone(),
            role: Some(Role::User),
            on_path: true,
            timestamp: Some(T0 + 60_000 + STEP),
            score: 0.0,
            snippet: "deploy the \u{2}staging\u{3} server".into(),
        }
    );
    assert!(prompt.score < 0.0, "bm25 is negative for a match: {}", prompt.score);
    assert_eq!(prompt.matches(), ["staging"]);
    let answer = hits.iter().find(|h| h.role == Some(Role::Assistant)).unwrap();
    assert_eq!(
        (answer.entry_id.as_str(), answer.snippet.as_str()),
        (s1.assistant.as_str(), "\u{2}staging\u{3} is deployed")
    );
    // The raw twin: the markers as JSON escapes.
    let raw = index.search_json("staging", &IndexSearchOptions::new()).unwrap();
    assert!(raw.contains(r#","snippet":"deploy the \u0002staging\u0003 server"}"#), "{raw}");
    assert!(raw.starts_with(r#"[{"sessionId":"s1","sessionTitle":null,"sessionPath":""#), "{raw}");
    assert_eq!(index.search("nowhere", &IndexSearchOptions::new()).unwrap(), []);
    assert_eq!(index.last_error(), None);
}

#[test]
fn each_filter_changes_the_hits() {
    let (_dir, store, index) = index();
    session(&store, 1, "/w/app", "deploy the staging server", "staging is deployed");
    session(&store, 2, "/w/lib", "write a unit test", "the test passes");
    index.rebuild().unwrap();
    let search = |query: &str, opts: IndexSearchOptions| index.search(query, &opts).unwrap();
    let all = IndexSearchOptions::new;

    // role
    let assistant = search("staging", all().role(Role::Assistant));
    assert_eq!(
        assistant.iter().map(|h| (h.session_id.as_str(), h.role)).collect::<Vec<_>>(),
        [("s1", Some(Role::Assistant))]
    );
    assert_eq!(search("staging", all().role(Role::User)).len(), 1);
    assert_eq!(search("staging", all().role(Role::Tool)), []);
    // cwd
    assert_eq!(search("staging", all().cwd("/w/lib")), []);
    assert_eq!(search("staging", all().cwd("/w/app")).len(), 2);
    // literal: plain words, the last one a prefix; in FTS5 syntax "te" is a whole word
    assert_eq!(search("unit te", all()), []);
    assert_eq!(sessions_of(&search("unit te", all().cwd("/w/lib").literal(true))), ["s2"]);
    let (code, message) = failure(index.search(r#"staging""#, &all()));
    assert_eq!(code, ErrorCode::Invalid);
    assert!(message.starts_with("bad search query: "), "{message}");
    assert_eq!(sessions_of(&search(r#"staging""#, all().literal(true))), ["s1", "s1"]);
    // session id
    assert_eq!(search("test OR staging", all()).len(), 4);
    assert_eq!(sessions_of(&search("test OR staging", all().session_id("s2"))), ["s2", "s2"]);
    assert_eq!(search("test OR staging", all().session_id("s9")), []);
    // since: only the second session's entries are that new
    assert_eq!(sessions_of(&search("test OR staging", all().since_ms(T0 + 2 * 60_000))), ["s2", "s2"]);
    assert_eq!(search("test OR staging", all().since_ms(T0 + 2 * 60_000 + 2 * STEP)).len(), 1);
    assert_eq!(search("test OR staging", all().since_ms(T0 + 3 * 60_000)), []);
    // limit
    assert_eq!(search("test OR staging", all().limit(1)).len(), 1);
    assert_eq!(search("test OR staging", all().limit(3)).len(), 3);
    assert_eq!(sessions_of(&search("test", all().session_id("s2").limit(1))), ["s2"]);
}

#[test]
fn refresh_reads_what_changed_and_verify_reports_differences() {
    let (_dir, store, index) = index();
    let s1 = session(&store, 1, "/w/app", "first prompt", "first answer");
    let before = index.verify().unwrap();
    assert_eq!(
        before,
        IndexVerifyReport {
            ok: false,
            files: 1,
            indexed: 0,
            missing: vec![s1.path.clone()],
            extra: vec![],
            stale: vec![]
        }
    );
    assert_eq!(
        index.verify_json().unwrap(),
        format!(r#"{{"ok":false,"files":1,"indexed":0,"missing":["{}"],"extra":[],"stale":[]}}"#, s1.path)
    );
    assert_eq!(index.refresh_json().unwrap(), report(1, 0, 1, 2));
    assert_eq!(
        index.refresh().unwrap(),
        IndexReport {
            files: 1,
            unchanged: 1,
            appended: 0,
            reindexed: 0,
            added: 0,
            removed: 0,
            unreadable: 0,
            raced: 0,
            entries: 0
        }
    );
    assert_eq!(index.verify_json().unwrap(), r#"{"ok":true,"files":1,"indexed":1,"missing":[],"extra":[],"stale":[]}"#);
    assert!(index.verify().unwrap().ok);

    // A new session is not searchable until a refresh adds it; the first is not read again.
    assert_eq!(index.search("second", &IndexSearchOptions::new()).unwrap(), []);
    session(&store, 2, "/w/app", "second prompt", "second answer");
    assert!(!index.verify().unwrap().ok);
    assert_eq!(index.refresh_json().unwrap(), report(2, 1, 1, 2));
    assert_eq!(sessions_of(&index.search("second", &IndexSearchOptions::new()).unwrap()), ["s2", "s2"]);

    // A file gone: its rows are removed.
    std::fs::remove_file(&s1.path).unwrap();
    assert_eq!(index.verify().unwrap().extra, [s1.path.as_str()]);
    let gone = index.refresh().unwrap();
    assert_eq!((gone.files, gone.unchanged, gone.removed, gone.entries), (1, 1, 1, 0));
    assert_eq!(index.search("first", &IndexSearchOptions::new()).unwrap(), []);
}

#[test]
fn list_is_newest_first_with_every_field() {
    let (_dir, store, index) = index();
    let s1 = session(&store, 1, "/w/app", "deploy the staging server", "staging is deployed");
    let s2 = session(&store, 2, "/w/lib", "write a unit test", "the test passes");
    assert_eq!(index.list_json(None, 0).unwrap(), "[]"); // not indexed yet
    index.refresh().unwrap();

    let all = index.list(None, 0).unwrap();
    // Newest first by file mtime, then creation: s2 was written last and created later.
    assert_eq!(all.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(), ["s2", "s1"]);
    assert_eq!(index.list(None, 1).unwrap().len(), 1);
    let lib = index.list(Some(Path::new("/w/lib")), 5).unwrap();
    let meta = std::fs::metadata(&s2.path).unwrap();
    let modified = meta.modified().unwrap().duration_since(UNIX_EPOCH).unwrap().as_millis() as i64;
    assert_eq!(
        lib,
        [IndexedSession {
            path: s2.path.clone(),
            id: "s2".into(),
            cwd: "/w/lib".into(),
            title: None,
            first_prompt: Some("write a unit test".into()),
            created: Some(T0 + 2 * 60_000),
            updated: Some(T0 + 2 * 60_000 + 2 * STEP),
            modified,
            size: meta.len(),
            entries: 2,
            messages: 2,
            input_tokens: 10,
            output_tokens: 5,
            cost: 0.25,
            dialect: Some(Dialect::Omp),
            source_agent: None,
            parent_session: None,
            archived: false,
            leaf_id: Some(s2.assistant.clone()),
        }]
    );
    let raw = index.list_json(Some(Path::new("/w/app")), 0).unwrap();
    assert!(raw.starts_with(&format!(r#"[{{"path":"{}","id":"s1","cwd":"/w/app","title":null,"#, s1.path)), "{raw}");
    assert!(
        raw.contains(r#""entries":2,"messages":2,"inputTokens":10,"outputTokens":5,"cost":0.25,"dialect":"omp""#),
        "{raw}"
    );
    assert_eq!(index.list(Some(Path::new("/elsewhere")), 0).unwrap(), []);
    assert_eq!(failure(index.list(None, 10001)).0, ErrorCode::Invalid);
    index.list(None, 10000).unwrap();
}

#[test]
fn refusals_have_their_status_and_message() {
    let (_dir, store, index) = index();
    session(&store, 1, "/w/app", "a prompt", "an answer");
    index.refresh().unwrap();
    let fts = IndexSearchOptions::new();

    let (code, message) = failure(index.search("(", &fts));
    assert_eq!(code, ErrorCode::Invalid);
    assert!(message.starts_with("bad search query: "), "{message}");
    assert_eq!(index.last_error().map(|e| (e.code(), e.message().to_string())), Some((code, message)));
    assert_eq!(
        failure(index.search_json("a AND", &fts)),
        (ErrorCode::Invalid, r#"bad search query: fts5: syntax error near """#.to_string())
    );
    assert_eq!(failure(index.search("", &fts)).0, ErrorCode::Invalid);
    assert_eq!(failure(index.search("prompt", &fts.clone().limit(10001))).0, ErrorCode::Invalid);
    assert_eq!(failure(index.search("prompt", &fts.clone().since_ms(-1))).0, ErrorCode::Invalid);
    // A role that is none of the five cannot be passed: it is refused where it is named, with
    // the library's status.
    let robot = "robot".parse::<Role>().unwrap_err();
    assert_eq!(
        (robot.code(), robot.message()),
        (ErrorCode::Invalid, "unknown role \"robot\" (user, assistant, tool, summary or label)")
    );
    // NULs cannot reach C: the binding refuses them as the library refuses its own.
    assert_eq!(failure(index.search("a\0b", &fts)), (ErrorCode::Invalid, "query contains a NUL byte".to_string()));
    assert_eq!(
        failure(index.search("a", &fts.clone().session_id("s\0"))),
        (ErrorCode::Invalid, "session id contains a NUL byte".to_string())
    );
    assert_eq!(index.search("prompt", &fts.clone().limit(10000)).unwrap().len(), 1);
    assert_eq!(index.last_error(), None);
}

#[test]
fn an_in_memory_store_needs_a_path_and_the_index_outlives_the_store() {
    let dir = TempDir::new("index-memory");
    let memory = Store::open_with("", &StoreOptions::new().in_memory(true)).unwrap();
    assert_eq!(
        failure(memory.index(&IndexOptions::new())),
        (ErrorCode::Invalid, "an in-memory store keeps no index.db: name a path in the options".into())
    );
    assert_eq!(memory.last_error().map(|e| e.code()), Some(ErrorCode::Invalid));
    let path = dir.path().join("elsewhere/mem-index.db");
    let in_memory = memory.index(&IndexOptions::new().path(&path).busy_timeout_ms(100)).unwrap();
    assert!(path.is_file());
    session(&memory, 1, "/w/mem", "a prompt kept in memory", "an answer");
    drop(memory); // the index keeps what it reads through
    assert_eq!(in_memory.refresh_json().unwrap(), report(1, 0, 1, 2));
    assert_eq!(sessions_of(&in_memory.search("memory", &IndexSearchOptions::new()).unwrap()), ["s1"]);
    assert_eq!(in_memory.info().unwrap().path, path.to_str().unwrap());
    in_memory.close();

    // On disk too: the store handle released, the index goes on.
    let (_dir, store, index) = index();
    session(&store, 1, "/w/app", "after the store", "still found");
    drop(store);
    assert_eq!(index.refresh().unwrap().added, 1);
    assert_eq!(index.search("still", &IndexSearchOptions::new()).unwrap().len(), 1);
    index.close();
    // Closing twice does not compile (Index::close takes self; see its compile_fail example);
    // the C API's close of NULL, what a second close reaches in the other bindings, is a no-op.
    // SAFETY: xs_index_close accepts NULL.
    unsafe { sys::xs_index_close(std::ptr::null_mut()) };
}

#[test]
fn a_damaged_index_is_kept_aside_and_a_fresh_one_started() {
    let dir = TempDir::new("index-damaged");
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    let garbage = "x".repeat(4096);
    std::fs::write(root.join("index.db"), &garbage).unwrap();
    let store = Store::open(&root).unwrap();
    let index = store.index(&IndexOptions::new()).unwrap();
    let info = index.info().unwrap();
    let damaged = info.damaged.clone().expect("the open reports the damaged file");
    let kept = format!("{}.damaged-", root.join("index.db").display());
    assert!(damaged.path.starts_with(&kept), "{}", damaged.path);
    assert!(!damaged.reason.is_empty());
    assert_eq!(std::fs::read_to_string(&damaged.path).unwrap(), garbage);
    assert_eq!((info.sessions, info.entries), (0, 0));
    round_trip::<IndexInfo>("xs_index_info", &index.info_json().unwrap()).unwrap();
}

#[test]
fn a_shared_index_serves_several_threads() {
    let (_dir, store, index) = index();
    for n in 1..=4 {
        session(&store, n, "/w/app", &format!("prompt number {n}"), "an answer");
    }
    let index = Arc::new(index);
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let index = Arc::clone(&index);
            thread::spawn(move || {
                for _ in 0..10 {
                    index.refresh().unwrap();
                    assert_eq!(index.search("prompt", &IndexSearchOptions::new()).unwrap().len(), 4);
                    // Each call's error is its own: a refusal here does not leak into other threads.
                    let message = failure(index.search("(", &IndexSearchOptions::new())).1;
                    assert!(message.starts_with("bad search query: "), "thread {t}: {message}");
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(index.info().unwrap().sessions, 4);
}

#[test]
fn typed_results_round_trip_to_the_library_json() {
    let (_dir, store, index) = index();
    session(&store, 1, "/w/app", "deploy the staging server", "staging is deployed");
    session(&store, 2, "/w/lib", "a unicode prompt: café ✓ \\\"quoted\\\"\\ttab", "the test passes");
    round_trip::<IndexVerifyReport>("xs_index_verify", &index.verify_json().unwrap()).unwrap();
    round_trip::<IndexReport>("xs_index_rebuild", &index.rebuild_json().unwrap()).unwrap();
    round_trip::<IndexReport>("xs_index_refresh", &index.refresh_json().unwrap()).unwrap();
    round_trip::<IndexVerifyReport>("xs_index_verify", &index.verify_json().unwrap()).unwrap();
    round_trip::<IndexInfo>("xs_index_info", &index.info_json().unwrap()).unwrap();
    let list = index.list_json(None, 0).unwrap();
    round_trip::<Vec<IndexedSession>>("xs_index_list", &list).unwrap();
    assert_eq!(index.list(None, 0).unwrap(), xsession::types::from_json::<Vec<IndexedSession>>(&list).unwrap());
    let opts = IndexSearchOptions::new();
    for query in ["staging", "caf*", "quoted OR test"] {
        let text = index.search_json(query, &opts).unwrap();
        assert_ne!(text, "[]", "{query}");
        round_trip::<Vec<SearchHit>>("xs_search", &text).unwrap();
        assert_eq!(index.search(query, &opts).unwrap(), xsession::types::from_json::<Vec<SearchHit>>(&text).unwrap());
    }
    let unicode = index.search("café", &opts).unwrap();
    assert_eq!(unicode[0].snippet, "a unicode prompt: \u{2}café\u{3} ✓ \"quoted\"\ttab");
}

/// An index that follows the store's writes (`IndexOptions::follow_writes`), rebuilt (empty), in
/// a fresh store.
fn following(busy_timeout_ms: u32) -> (TempDir, Store, Index) {
    let dir = TempDir::new("index-follow");
    let store = Store::open(dir.path().join("root")).unwrap();
    let opts = IndexOptions::new().follow_writes(true).busy_timeout_ms(busy_timeout_ms);
    let index = store.index(&opts).unwrap();
    assert_eq!(index.rebuild_json().unwrap(), report(0, 0, 0, 0));
    (dir, store, index)
}

#[test]
fn with_follow_writes_a_session_written_after_the_open_is_found_after_flush() {
    let (_dir, store, index) = following(0);
    session(&store, 1, "/w/app", "launch the zeppelin", "zeppelin launched");
    // The index's own thread indexes it shortly after; flush waits for it.
    index.flush().unwrap();
    assert_eq!(index.last_error(), None);
    let hits = index.search("zeppelin", &IndexSearchOptions::new()).unwrap();
    assert_eq!(sessions_of(&hits), ["s1", "s1"]);
    // Nothing left for a refresh to do.
    assert_eq!(index.refresh_json().unwrap(), report(1, 1, 0, 0));
}

#[test]
fn without_follow_writes_flush_succeeds_and_only_a_refresh_indexes() {
    let (_dir, store, index) = index();
    assert_eq!(index.rebuild_json().unwrap(), report(0, 0, 0, 0));
    session(&store, 1, "/w/app", "launch the zeppelin", "zeppelin launched");
    index.flush().unwrap(); // nothing to wait for
    assert_eq!(index.search_json("zeppelin", &IndexSearchOptions::new()).unwrap(), "[]");
    assert_eq!(index.refresh_json().unwrap(), report(1, 0, 1, 2));
    assert_eq!(sessions_of(&index.search("zeppelin", &IndexSearchOptions::new()).unwrap()), ["s1", "s1"]);
}

// The system SQLite the library itself links (libsqlite3-dev builds the library), as a second
// connection to the index's database: no crate is added for it.
#[link(name = "sqlite3")]
extern "C" {
    fn sqlite3_open(filename: *const c_char, db: *mut *mut c_void) -> c_int;
    fn sqlite3_exec(
        db: *mut c_void,
        sql: *const c_char,
        callback: *const c_void,
        arg: *mut c_void,
        errmsg: *mut *mut c_char,
    ) -> c_int;
    fn sqlite3_close(db: *mut c_void) -> c_int;
}

/// Another connection to the database at `path`, holding its write lock (BEGIN IMMEDIATE) until
/// dropped (COMMIT).
struct WriteLock(*mut c_void);

impl WriteLock {
    fn hold(path: &Path) -> WriteLock {
        let path = CString::new(path.to_str().unwrap()).unwrap();
        let mut db = std::ptr::null_mut();
        // SAFETY: `path` is NUL-terminated and `db` writable; the statement is NUL-terminated.
        unsafe {
            assert_eq!(sqlite3_open(path.as_ptr(), &mut db), 0);
            let begin = b"BEGIN IMMEDIATE\0";
            assert_eq!(sqlite3_exec(db, begin.as_ptr().cast(), ptr::null(), ptr::null_mut(), ptr::null_mut()), 0);
        }
        WriteLock(db)
    }
}

impl Drop for WriteLock {
    fn drop(&mut self) {
        // SAFETY: the connection `hold` opened, closed once here.
        unsafe {
            let commit = b"COMMIT\0";
            assert_eq!(sqlite3_exec(self.0, commit.as_ptr().cast(), ptr::null(), ptr::null_mut(), ptr::null_mut()), 0);
            assert_eq!(sqlite3_close(self.0), 0);
        }
    }
}

#[test]
fn flush_reports_a_failed_update_once_and_a_refresh_makes_it() {
    let (dir, store, index) = following(50);
    // Another connection holds the write lock longer than the index waits for it.
    let lock = WriteLock::hold(&dir.path().join("root/index.db"));
    session(&store, 1, "/w/app", "launch the zeppelin", "zeppelin launched");
    let (code, message) = failure(index.flush());
    assert_eq!(code, ErrorCode::Locked);
    assert!(message.starts_with("indexing what sessions wrote: "), "{message}");
    assert_eq!(index.last_error().map(|e| e.code()), Some(ErrorCode::Locked));
    index.flush().unwrap(); // reported once
    drop(lock);
    assert_eq!(index.search_json("zeppelin", &IndexSearchOptions::new()).unwrap(), "[]");
    assert_eq!(index.refresh_json().unwrap(), report(1, 0, 1, 2));
    assert_eq!(sessions_of(&index.search("zeppelin", &IndexSearchOptions::new()).unwrap()), ["s1", "s1"]);
}
