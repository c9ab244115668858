//! Sessions for the session index tests (tests/index.rs): written through the binding with a
//! fixed clock and ids, so that reports, hits and timestamps are exact.

use xsession::types::SearchHit;
use xsession::{SessionOptions, Store};

/// The first timestamp of session n's fixed clock is `T0 + n * 60000`, one step a second.
pub const T0: i64 = 1_771_237_230_000;
pub const STEP: i64 = 1000;

/// What [`session`] wrote: the file and the ids of its two entries.
pub struct Written {
    pub path: String,
    pub user: String,
    pub assistant: String,
}

/// A session "s<n>" in `cwd` holding a user prompt and an assistant answer (fixed clock and ids),
/// written through the binding and closed.
pub fn session(store: &Store, n: i64, cwd: &str, prompt: &str, answer: &str) -> Written {
    let opts =
        SessionOptions::new().fixed_clock(T0 + n * 60_000, STEP).id_seed(42 + n as u64).session_id(&format!("s{n}"));
    let session = store.create_session(cwd, &opts).unwrap();
    let user = session.append_message(&format!(r#"{{"role":"user","content":"{prompt}","timestamp":1}}"#)).unwrap();
    let assistant = session
        .append_message(&format!(
            concat!(
                r#"{{"role":"assistant","content":[{{"type":"text","text":"{}"}}],"api":"x","provider":"p","#,
                r#""model":"m","usage":{{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"#,
                r#""cost":{{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0.25}}}},"#,
                r#""stopReason":"stop","timestamp":2}}"#
            ),
            answer
        ))
        .unwrap();
    let path = session.info().unwrap().path;
    session.close().unwrap();
    Written { path, user, assistant }
}

/// The report JSON with these counts, in the library's member order.
pub fn report(files: u64, unchanged: u64, added: u64, entries: u64) -> String {
    format!(
        r#"{{"files":{files},"unchanged":{unchanged},"appended":0,"reindexed":0,"added":{added},"removed":0,"unreadable":0,"raced":0,"entries":{entries}}}"#
    )
}

/// The session ids of the hits, in order.
pub fn sessions_of(hits: &[SearchHit]) -> Vec<&str> {
    hits.iter().map(|h| h.session_id.as_str()).collect()
}
