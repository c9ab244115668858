//! The prompt history through the safe API (`Store::history`): add, flush, search with its
//! snippet markers, recent, the cwd filter, literal queries, every refusal with its exact status
//! and message, the duplicate rule, info (and a damaged file kept aside), closing, threads, and
//! the typed results against the library's JSON.
use crate::common;

use std::path::Path;
use std::sync::Arc;
use std::thread;

use common::json::round_trip;
use common::TempDir;
use xsession::types::{HistoryHit, HistoryInfo, HistoryPrompt};
use xsession::{sys, ErrorCode, History, HistoryOptions, SearchOptions, Store, StoreOptions};

/// A store in a fresh directory and its history (the default file, `<root>/history.db`).
fn history() -> (TempDir, Store, History) {
    let dir = TempDir::new("history");
    let store = Store::open(dir.path().join("root")).unwrap();
    let history = store.history(&HistoryOptions::new()).unwrap();
    (dir, store, history)
}

/// [`history`] holding `prompts` (text, cwd, time), added in order and flushed: only committed
/// prompts are found, and before the flush the writer may not have run.
fn history_with(prompts: &[(&str, Option<&Path>, i64)]) -> (TempDir, Store, History) {
    let (dir, store, history) = history();
    for (prompt, cwd, time_ms) in prompts {
        history.add(prompt, *cwd, Some(*time_ms)).unwrap();
    }
    history.flush().unwrap();
    (dir, store, history)
}

fn app() -> Option<&'static Path> {
    Some(Path::new("/w/app"))
}

/// The code and message of a failed call.
fn failure<T>(r: xsession::Result<T>) -> (ErrorCode, String) {
    match r {
        Ok(_) => panic!("the call succeeded"),
        Err(e) => (e.code(), e.message().to_string()),
    }
}

#[test]
fn added_prompts_are_found_with_their_matches_marked() {
    let (dir, _store, history) =
        history_with(&[("deploy the staging server", app(), 1000), ("write a unit test", None, 2000)]);

    let hits = history.search("stag*", &SearchOptions::new()).unwrap();
    assert_eq!(hits.len(), 1);
    let hit = &hits[0];
    assert_eq!((hit.id, hit.prompt.as_str(), hit.created_at), (1, "deploy the staging server", 1000));
    assert_eq!(hit.cwd.as_deref(), Some("/w/app"));
    assert_eq!(hit.snippet, "deploy the \u{2}staging\u{3} server");
    assert_eq!(hit.matches(), ["staging"]);
    assert!(hit.score < 0.0, "bm25 is negative for a match: {}", hit.score);
    // The raw twin: the same hit, the markers as JSON escapes.
    let raw = history.search_json("stag*", &SearchOptions::new()).unwrap();
    assert!(
        raw.starts_with(r#"[{"id":1,"prompt":"deploy the staging server","createdAt":1000,"cwd":"/w/app","score":"#),
        "{raw}"
    );
    assert!(raw.ends_with(r#","snippet":"deploy the \u0002staging\u0003 server"}]"#), "{raw}");

    let file = dir.path().join("root/history.db");
    assert!(file.is_file());
    assert_eq!(
        history.info_json().unwrap(),
        format!(
            r#"{{"path":"{}","schemaVersion":3,"count":2,"pending":0,"synchronous":"normal","damaged":null}}"#,
            file.display()
        )
    );
    let info = history.info().unwrap();
    assert_eq!((info.count, info.pending, info.synchronous.as_str()), (2, 0, "normal"));
    assert_eq!((info.path.as_str(), info.damaged), (file.to_str().unwrap(), None));
    history.close().unwrap();
}

#[test]
fn recent_is_newest_first_and_filters_by_cwd() {
    let (_dir, _store, history) = history_with(&[
        ("deploy the staging server", app(), 1000),
        ("write a unit test", None, 2000),
        ("fix the staging deploy", app(), 3000),
    ]);

    assert_eq!(
        history.recent_json(None, 0).unwrap(),
        concat!(
            r#"[{"id":3,"prompt":"fix the staging deploy","createdAt":3000,"cwd":"/w/app"},"#,
            r#"{"id":2,"prompt":"write a unit test","createdAt":2000,"cwd":null},"#,
            r#"{"id":1,"prompt":"deploy the staging server","createdAt":1000,"cwd":"/w/app"}]"#
        )
    );
    let prompts: Vec<String> = history.recent(app(), 0).unwrap().into_iter().map(|p| p.prompt).collect();
    assert_eq!(prompts, ["fix the staging deploy", "deploy the staging server"]);
    assert_eq!(
        history.recent(None, 1).unwrap(),
        [HistoryPrompt {
            id: 3,
            prompt: "fix the staging deploy".into(),
            created_at: 3000,
            cwd: Some("/w/app".into())
        }]
    );
    assert_eq!(history.recent(Some(Path::new("/elsewhere")), 0).unwrap(), []);

    // The cwd filter and the limit of search.
    let ids = |opts: &SearchOptions| -> Vec<i64> {
        history.search("staging", opts).unwrap().into_iter().map(|h| h.id).collect()
    };
    assert_eq!(ids(&SearchOptions::new().cwd("/elsewhere")), Vec::<i64>::new());
    assert_eq!(history.search_json("staging", &SearchOptions::new().cwd("/elsewhere")).unwrap(), "[]");
    let mut both = ids(&SearchOptions::new().cwd("/w/app"));
    both.sort_unstable();
    assert_eq!(both, [1, 3]);
    assert_eq!(ids(&SearchOptions::new().limit(1)).len(), 1);
    assert_eq!(ids(&SearchOptions::new().cwd("/w/app").limit(10000)).len(), 2);
}

#[test]
fn literal_queries_take_quotes_and_operators_as_text() {
    let (_dir, _store, history) =
        history_with(&[(r#"say "hello" AND NOT goodbye"#, None, 1), ("write a unit test", None, 2)]);
    let literal = SearchOptions::new().literal(true);

    // As FTS5 syntax these are errors or operators; as plain words they are the prompt's words.
    let (code, message) = failure(history.search(r#""hello" AND"#, &SearchOptions::new()));
    assert_eq!(code, ErrorCode::Invalid);
    assert!(message.starts_with("bad history query: "), "{message}");
    let hits = history.search(r#""hello" AND"#, &literal).unwrap();
    assert_eq!(hits.iter().map(|h| h.id).collect::<Vec<_>>(), [1]);
    assert_eq!(hits[0].matches(), ["hello", "AND"]);
    assert_eq!(history.search("NOT goodbye", &literal).unwrap().len(), 1);
    // Without the flag, NOT excludes: nothing matches "say NOT goodbye".
    assert_eq!(history.search("say NOT goodbye", &SearchOptions::new()).unwrap(), []);
    // The last word is a prefix; every word must occur.
    assert_eq!(history.search("unit te", &literal).unwrap()[0].id, 2);
    assert_eq!(history.search("unit hello", &literal).unwrap(), []);
}

#[test]
fn bad_queries_and_arguments_have_exact_statuses() {
    let (_dir, _store, history) = history();
    let fts = SearchOptions::new();
    assert_eq!(
        failure(history.search(r#""open"#, &fts)),
        (ErrorCode::Invalid, "bad history query: unterminated string".to_string())
    );
    assert_eq!(history.last_error().map(|e| e.code()), Some(ErrorCode::Invalid));
    assert_eq!(
        failure(history.search_json("a AND", &fts)),
        (ErrorCode::Invalid, r#"bad history query: fts5: syntax error near """#.to_string())
    );
    assert_eq!(failure(history.search("", &fts)).0, ErrorCode::Invalid);
    assert_eq!(failure(history.search("ok", &fts.clone().limit(10001))).0, ErrorCode::Invalid);
    assert_eq!(failure(history.recent(None, 10001)).0, ErrorCode::Invalid);
    // A NUL cannot reach C in a query: the binding refuses it the way the library refuses NULs.
    assert_eq!(failure(history.search("a\0b", &fts)), (ErrorCode::Invalid, "query contains a NUL byte".to_string()));
    history.recent(None, 10000).unwrap();
    assert_eq!(history.last_error(), None);
}

#[test]
fn prompts_are_checked_at_once() {
    let (dir, store, history) = history();
    let refused = |r| failure(r);
    assert_eq!(refused(history.add("", None, None)), (ErrorCode::Invalid, "the prompt is empty".into()));
    assert_eq!(refused(history.add("a\0b", None, None)), (ErrorCode::Invalid, "the prompt contains a NUL byte".into()));
    assert_eq!(
        refused(history.add(b"\xc0\xaf", None, None)),
        (ErrorCode::Invalid, "the prompt is not valid UTF-8".into())
    );
    assert_eq!(refused(history.add("x", None, Some(-5))).0, ErrorCode::Invalid);
    let over = vec![b'p'; 1024 * 1024 + 1];
    assert_eq!(
        refused(history.add(&over, None, Some(1))),
        (ErrorCode::Limit, "the prompt has 1048577 bytes; the limit is 1048576".into())
    );
    // Exactly the limit is taken.
    history.add(&over[1..], None, Some(1)).unwrap();
    assert_eq!(history.last_error(), None);

    // A limit of one's own.
    let small = store.history(&HistoryOptions::new().path(dir.path().join("small/h.db")).max_prompt_bytes(4)).unwrap();
    assert_eq!(
        refused(small.add("12345", None, None)),
        (ErrorCode::Limit, "the prompt has 5 bytes; the limit is 4".into())
    );
    small.add("1234", None, None).unwrap();
    small.close().unwrap();
    assert!(dir.path().join("small/h.db").is_file());
}

#[test]
fn a_repeated_prompt_is_kept_once() {
    let (_dir, store, history) = history();
    history.add("run the tests", app(), Some(1)).unwrap();
    history.add("run the tests", app(), Some(2)).unwrap(); // skipped: the same as the last, same cwd
    history.add("run the tests", None, Some(3)).unwrap(); // another cwd: kept
    history.add("build", None, Some(4)).unwrap();
    history.add("run the tests", None, Some(5)).unwrap(); // not the last one: kept
    history.close().unwrap();
    // A new handle's first add is compared with the file's last row.
    let again = store.history(&HistoryOptions::new()).unwrap();
    again.add("run the tests", None, Some(6)).unwrap();
    again.flush().unwrap();
    let rows: Vec<(i64, i64)> = again.recent(None, 0).unwrap().iter().map(|p| (p.id, p.created_at)).collect();
    assert_eq!(rows, [(4, 5), (3, 4), (2, 3), (1, 1)]);
    assert_eq!(again.info().unwrap().count, 4);
}

#[test]
fn options_reach_the_library() {
    let dir = TempDir::new("history-opts");
    let store = Store::open(dir.path().join("root")).unwrap();
    let path = dir.path().join("elsewhere/prompts.db");
    let history = store.history(&HistoryOptions::new().sync(true).path(&path).busy_timeout_ms(100)).unwrap();
    let info = history.info().unwrap();
    assert_eq!((info.path.as_str(), info.synchronous.as_str()), (path.to_str().unwrap(), "full"));
    history.close().unwrap();
    assert!(!dir.path().join("root/history.db").exists());

    // An in-memory store has no root: a path is required, and the store reports the refusal.
    let memory = Store::open_with("", &StoreOptions::new().in_memory(true)).unwrap();
    assert_eq!(
        failure(memory.history(&HistoryOptions::new())),
        (ErrorCode::Invalid, "an in-memory store keeps no history.db: name a path in the options".into())
    );
    assert_eq!(memory.last_error().map(|e| e.code()), Some(ErrorCode::Invalid));
    let in_memory = memory.history(&HistoryOptions::new().path(dir.path().join("mem.db"))).unwrap();
    in_memory.add("from memory", None, Some(7)).unwrap();
    in_memory.close().unwrap();
}

#[test]
fn a_damaged_file_is_kept_aside_and_a_fresh_one_started() {
    let dir = TempDir::new("history-damaged");
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("history.db"), "garbage that is not a database").unwrap();
    let store = Store::open(&root).unwrap();
    let history = store.history(&HistoryOptions::new()).unwrap();
    let info = history.info().unwrap();
    let damaged = info.damaged.clone().expect("the open reports the damaged file");
    let kept = format!("{}.damaged-", root.join("history.db").display());
    assert!(damaged.path.starts_with(&kept), "{}", damaged.path);
    assert!(!damaged.reason.is_empty());
    assert_eq!(std::fs::read_to_string(&damaged.path).unwrap(), "garbage that is not a database");
    assert_eq!(info.count, 0);
    round_trip::<HistoryInfo>("xs_history_info", &history.info_json().unwrap()).unwrap();
    history.add("fresh", None, Some(1)).unwrap();
    history.flush().unwrap();
    assert_eq!(history.recent_json(None, 0).unwrap(), r#"[{"id":1,"prompt":"fresh","createdAt":1,"cwd":null}]"#);
}

#[test]
fn closing_returns_the_flush_and_handles_outlive_the_store() {
    let (_dir, store, history) = history();
    let second = store.history(&HistoryOptions::new()).unwrap();
    drop(store); // the history handles are independent of the store
    history.add("queued, then closed", None, Some(1)).unwrap();
    history.close().unwrap(); // flushes: the other handle sees the prompt
    assert_eq!(second.recent(None, 0).unwrap()[0].prompt, "queued, then closed");
    second.add("dropped without close", None, Some(2)).unwrap();
    drop(second); // flushes too, its status ignored

    // Closing twice does not compile (History::close takes self; see its compile_fail example);
    // the C API's close of NULL, what a second close reaches in the other bindings, is XS_OK.
    // SAFETY: xs_history_close accepts NULL.
    assert_eq!(unsafe { sys::xs_history_close(std::ptr::null_mut()) }, sys::XS_OK);
}

#[test]
fn a_shared_history_takes_adds_from_several_threads() {
    let (_dir, _store, history) = history();
    let history = Arc::new(history);
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let history = Arc::clone(&history);
            thread::spawn(move || {
                for i in 0..25 {
                    history.add(format!("thread {t} prompt {i}"), None, Some(1 + i)).unwrap();
                }
                // Each call's error is its own: a refusal here does not leak into other threads.
                assert_eq!(failure(history.add("", None, None)).1, "the prompt is empty");
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    history.flush().unwrap();
    assert_eq!(history.info().unwrap().count, 100);
    assert_eq!(history.search("prompt", &SearchOptions::new().limit(10000)).unwrap().len(), 100);
}

#[test]
fn typed_results_round_trip_to_the_library_json() {
    let (_dir, _store, history) = history_with(&[
        ("deploy the staging server", app(), 1000),
        ("a unicode prompt: café ✓ \"quoted\"\ttab", None, 2000),
    ]);
    let opts = SearchOptions::new();
    for query in ["staging", "caf*", "quoted OR server"] {
        let text = history.search_json(query, &opts).unwrap();
        assert_ne!(text, "[]", "{query}");
        round_trip::<Vec<HistoryHit>>("xs_history_search", &text).unwrap();
        let typed = history.search(query, &opts).unwrap();
        assert_eq!(typed, xsession::types::from_json::<Vec<HistoryHit>>(&text).unwrap());
    }
    let recent = history.recent_json(None, 0).unwrap();
    round_trip::<Vec<HistoryPrompt>>("xs_history_recent", &recent).unwrap();
    assert_eq!(history.recent(None, 0).unwrap()[0].prompt, "a unicode prompt: café ✓ \"quoted\"\ttab");
    round_trip::<HistoryInfo>("xs_history_info", &history.info_json().unwrap()).unwrap();
}
