//! Helpers shared by the integration tests (`tests/integration.rs`) and the conformance replay
//! (not every module uses every helper).
#![allow(dead_code)]

pub mod index;
pub mod json;
pub mod local_fs;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use xsession::{SessionOptions, Store};

/// A fresh directory under the system temp dir, removed with its contents on drop. (The crate
/// takes no dependencies, so no `tempfile`.)
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("xs-rust-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path); // a leftover of a killed run with the same pid
        std::fs::create_dir_all(&path).expect("create temp dir");
        TempDir(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn str(&self) -> &str {
        self.0.to_str().expect("temp dir paths are UTF-8")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Deterministic sessions: timestamps from 2026-01-01T00:00:00.000Z one second apart, ids
/// from a fixed seed.
pub fn fixed() -> SessionOptions {
    SessionOptions::new().fixed_clock(1_767_225_600_000, 1000).id_seed(1)
}

/// A store in a fresh temp dir (kept alive by the returned guard).
pub fn store() -> (TempDir, Store) {
    let dir = TempDir::new("store");
    let store = Store::open(dir.str()).expect("open store");
    (dir, store)
}

pub const USER: &str = r#"{"role":"user","content":"Why does the build fail?"}"#;
pub const ASSISTANT: &str = r#"{"role":"assistant","content":[{"type":"text","text":"A missing include."}],"provider":"anthropic","model":"claude-x","usage":{"input":10,"output":5,"cacheRead":2,"cacheWrite":1,"cost":{"total":0.25}}}"#;
