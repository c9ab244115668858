//! Replays every case of `tests/conformance/cases/` through the safe API and compares exact
//! bytes, with the semantics of the C++ runner (`tests/conformance/conformance_runner.cc`) and
//! the format of `tests/conformance/README.md`. A case stops at its first mismatch; all cases
//! run, and the test fails listing every failed case with its step. The checks are in `checks.rs`,
//! the keyed store's steps in `keys.rs`, the session library's (planning, resume, stats,
//! retention, reset policies) in `library.rs`, the import steps in `import.rs`, the session index
//! and search steps in `search.rs`, the bundle steps and a case's several stores in `bundle.rs`.
//! The same cases run a second time over a storage written in Rust (`storage.rs`).
#[path = "../common/mod.rs"]
mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use xsession::{
    sys, BlobRefs, Compaction, CustomMessage, Dialect, Session, SessionInitEntry, SessionOptions, Store, StoreOptions,
};

use bundle::CaseStores;
use common::TempDir;

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/cases")
}

/// The `XS_*` names a case may expect.
fn status_names() -> HashMap<&'static str, i32> {
    HashMap::from([
        ("XS_OK", sys::XS_OK),
        ("XS_ERROR", sys::XS_ERROR),
        ("XS_ENOMEM", sys::XS_ENOMEM),
        ("XS_EINVAL", sys::XS_EINVAL),
        ("XS_EMISUSE", sys::XS_EMISUSE),
        ("XS_ENOTFOUND", sys::XS_ENOTFOUND),
        ("XS_EEXISTS", sys::XS_EEXISTS),
        ("XS_EBUFS", sys::XS_EBUFS),
        ("XS_ECORRUPT", sys::XS_ECORRUPT),
        ("XS_EIO", sys::XS_EIO),
        ("XS_ELOCKED", sys::XS_ELOCKED),
        ("XS_EVERSION", sys::XS_EVERSION),
        ("XS_ENOSPC", sys::XS_ENOSPC),
        ("XS_EREADONLY", sys::XS_EREADONLY),
        ("XS_ECONFLICT", sys::XS_ECONFLICT),
        ("XS_ELIMIT", sys::XS_ELIMIT),
        ("XS_ENOHEADER", sys::XS_ENOHEADER),
        ("XS_EPOISONED", sys::XS_EPOISONED),
        ("XS_EAMBIGUOUS", sys::XS_EAMBIGUOUS),
        ("XS_EDIALECT", sys::XS_EDIALECT),
        ("XS_EINTERNAL", sys::XS_EINTERNAL),
    ])
}

/// The status of a result, as the C API would have returned it.
fn status<T>(r: &xsession::Result<T>) -> i32 {
    r.as_ref().map_or_else(|e| e.code().raw(), |_| sys::XS_OK)
}

fn from_hex(hex: &str) -> Vec<u8> {
    (0..hex.len() / 2).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex")).collect()
}

/// A text argument: a string, or an array of parts (strings and `{"repeat": s, "times": n}`).
fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .map(|part| match part {
                Value::String(s) => s.clone(),
                _ => part["repeat"].as_str().expect("repeat").repeat(part["times"].as_u64().expect("times") as usize),
            })
            .collect(),
        other => panic!("not a text argument: {other}"),
    }
}

/// Lines joined with `\n`, each terminated.
fn lines_of(v: &Value) -> String {
    v.as_array().expect("lines").iter().map(|l| text_of(l) + "\n").collect()
}

/// A step mismatch: the message, and whether the case must stop here.
type StepResult = Result<(), String>;

macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}

// After the macro, which they use.
mod bundle;
mod checks;
mod import;
mod keys;
mod library;
mod search;
mod storage;
mod typed;

// Fields drop in order: the session closes, then the store, then the directory goes, then the
// case's other stores.
struct Runner<'a> {
    session: Option<Session>,
    store: Store,
    root: TempDir,
    case: &'a Value,
    path: String,
    stores: CaseStores<'a>,
}

impl<'a> Runner<'a> {
    /// The case's store ("main") in a fresh directory, as every store of the case: opened with
    /// the options `opts` gives and the case's own store options.
    fn new(case: &'a Value, opts: impl Fn() -> StoreOptions + 'a) -> Runner<'a> {
        let stores = CaseStores::new(case, opts);
        let (store, root) = stores.open();
        Runner { session: None, store, root, case, path: String::new(), stores }
    }

    fn root(&self) -> &str {
        self.root.str()
    }

    /// The case's `options` as session options; a step's `flags` and `dialect` replace the
    /// case's (`"auto"`: none forced).
    fn options(&self, step: &Value) -> SessionOptions {
        let opts = &self.case["options"];
        let mut o = SessionOptions::new();
        if let Some(name) = step.get("dialect").or(opts.get("dialect")).and_then(Value::as_str) {
            o = o.dialect(if name == "auto" { None } else { Some(name.parse::<Dialect>().expect("dialect")) });
        }
        if let Some(start) = opts.get("clock_start_ms") {
            o = o.fixed_clock(start.as_i64().unwrap(), opts.get("clock_step_ms").map_or(0, |s| s.as_i64().unwrap()));
        }
        if let Some(seed) = opts.get("id_seed") {
            o = o.id_seed(seed.as_u64().unwrap());
        }
        if let Some(max) = opts.get("max_line_bytes") {
            o = o.max_line_bytes(max.as_u64().unwrap());
        }
        if let Some(max) = opts.get("max_depth") {
            o = o.max_depth(max.as_u64().unwrap() as u32);
        }
        if let Some(cwd) = opts.get("cwd") {
            o = o.cwd(cwd.as_str().unwrap());
        }
        if let Some(key) = step.get("key").and_then(Value::as_str) {
            o = o.key(key); // a session bound to a key (its stats go into the key's record)
        }
        for flag in step.get("flags").or(opts.get("flags")).and_then(Value::as_array).into_iter().flatten() {
            o = match flag.as_str().unwrap() {
                "read_only" => o.read_only(true),
                "create" => o.create(true),
                "no_defer" => o.no_defer(true),
                "sync" => o.sync(true),
                other => panic!("unknown flag {other}"),
            };
        }
        o
    }

    /// The current session; a step on no session gets what the C API gives a NULL handle.
    fn session(&self) -> xsession::Result<&Session> {
        self.session.as_ref().ok_or_else(|| xsession::Error::new(xsession::ErrorCode::Misuse, "no current session"))
    }

    fn session_path(&self) -> Result<String, String> {
        self.session().and_then(|s| s.info()).map(|i| i.path).map_err(|e| format!("info: {e}"))
    }

    fn relative(&self, path: &str) -> String {
        let prefix = format!("{}/", self.root());
        path.strip_prefix(&prefix).unwrap_or(path).to_string()
    }

    fn write_file(&self, rel: &str, bytes: &[u8]) {
        let path = self.root.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).expect("mkdir");
        std::fs::write(path, bytes).expect("write");
    }

    fn run(&mut self) -> Result<(), String> {
        let case = self.case;
        let input = case.get("input").and_then(Value::as_array).map_or_else(Vec::new, |lines| {
            lines.iter().map(|l| l.as_str().unwrap().to_owned()).collect::<Vec<String>>()
        });
        typed::CASE_INPUT.with(|lines| *lines.borrow_mut() = input);
        if let Some(lines) = case.get("input") {
            // Unlike step texts, input lines are plain strings.
            let bytes: String =
                lines.as_array().unwrap().iter().map(|l| format!("{}\n", l.as_str().unwrap())).collect();
            self.write_file("input.jsonl", bytes.as_bytes());
        } else if let Some(raw) = case.get("input_raw") {
            self.write_file("input.jsonl", raw.as_str().unwrap().as_bytes());
        } else if let Some(hex) = case.get("input_hex") {
            self.write_file("input.jsonl", &from_hex(hex.as_str().unwrap()));
        }
        for (i, step) in case["steps"].as_array().unwrap().iter().enumerate() {
            self.step(step).map_err(|e| format!("step {i} ({}): {e}", step["op"].as_str().unwrap()))?;
        }
        Ok(())
    }

    fn open_path(&mut self, path: String, step: &Value, expect: i32) -> StepResult {
        let mut o = self.options(step);
        if let Some(cwd) = step.get("cwd") {
            o = o.cwd(cwd.as_str().unwrap()); // an open's own cwd replaces the case's
        }
        let opened = self.store.open_session(&path, &o);
        ensure!(status(&opened) == expect, "open: got {:?}, expected {expect}", opened.as_ref().err());
        if let Ok(session) = opened {
            self.session = Some(session);
            self.path = path;
        }
        Ok(())
    }

    /// A session made by fork and friends becomes the current one.
    fn adopt(&mut self, made: xsession::Result<Session>, expect: i32) -> StepResult {
        ensure!(status(&made) == expect, "got {:?}, expected {expect}", made.as_ref().err());
        if let Ok(session) = made {
            self.session = Some(session);
            self.path = self.session_path()?;
        }
        Ok(())
    }

    fn step(&mut self, s: &Value) -> StepResult {
        let op = s["op"].as_str().unwrap();
        let expect = match s.get("expect") {
            Some(name) => *status_names().get(name.as_str().unwrap()).ok_or(format!("unknown status {name}"))?,
            None => sys::XS_OK,
        };
        let str_arg = |key: &str| s.get(key).and_then(Value::as_str);
        let text = |key: &str| s.get(key).map(text_of);
        let tri = |key: &str| s.get(key).map(|v| v.as_bool().unwrap());
        let blobs = if s.get("resolve_blobs").and_then(Value::as_bool) == Some(true) {
            BlobRefs::Resolved
        } else {
            BlobRefs::AsStored
        };

        if op == "create" || op == "open" {
            self.session = None; // one session at a time: a new one replaces the last
        }
        // Appends are checked together below (status, then expect_id).
        let appended: Option<xsession::Result<String>> = match op {
            "create" => {
                let mut o = self.options(s);
                if let Some(id) = str_arg("session_id") {
                    o = o.session_id(id);
                }
                if let Some(title) = str_arg("title") {
                    o = o.title(title);
                }
                if let Some(parent) = str_arg("parent_session") {
                    o = o.parent_session(parent);
                }
                let made = self.store.create_session(str_arg("cwd").unwrap(), &o);
                self.adopt(made, expect)?;
                None
            }
            "open" => {
                let path = format!("{}/{}", self.root(), str_arg("path").unwrap_or("input.jsonl"));
                self.open_path(path, s, expect)?;
                None
            }
            "close" => {
                self.session = None;
                None
            }
            "reopen" => {
                self.session = None;
                self.open_path(self.path.clone(), s, expect)?;
                None
            }
            "append" => Some(self.session().and_then(|x| x.append(&text("entry").unwrap()))),
            "append_message" => Some(self.session().and_then(|x| x.append_message(&text("message").unwrap()))),
            "append_thinking_level" => Some(self.session().and_then(|x| x.append_thinking_level(str_arg("level")))),
            "append_model_change" => {
                Some(self.session().and_then(|x| x.append_model_change(str_arg("model").unwrap(), str_arg("role"))))
            }
            "append_compaction" => {
                let (summary, short, details, preserve) =
                    (text("summary").unwrap(), text("short_summary"), text("details"), text("preserve_data"));
                let mut c = Compaction::new(
                    &summary,
                    str_arg("first_kept_entry_id").unwrap(),
                    s["tokens_before"].as_i64().unwrap(),
                );
                c.short_summary = short.as_deref();
                c.details_json = details.as_deref();
                c.preserve_data_json = preserve.as_deref();
                c.from_extension = tri("from_extension");
                Some(self.session().and_then(|x| x.append_compaction(&c)))
            }
            "append_custom" => Some(
                self.session().and_then(|x| x.append_custom(str_arg("custom_type").unwrap(), text("data").as_deref())),
            ),
            "append_custom_message" => {
                let (content, details) = (text("content").unwrap(), text("details"));
                let mut m = CustomMessage::new(str_arg("custom_type").unwrap(), &content);
                m.display = tri("display").unwrap_or(true);
                m.details_json = details.as_deref();
                m.attribution = str_arg("attribution");
                Some(self.session().and_then(|x| x.append_custom_message(&m)))
            }
            "append_label" => {
                Some(self.session().and_then(|x| x.append_label(str_arg("target_id").unwrap(), str_arg("label"))))
            }
            "append_ttsr_injection" => {
                Some(self.session().and_then(|x| x.append_ttsr_injection(&text("rules").unwrap())))
            }
            "append_session_init" => {
                let (prompt, task, tools) =
                    (text("system_prompt").unwrap(), text("task").unwrap(), text("tools").unwrap());
                let schema = text("output_schema");
                let mut si = SessionInitEntry::new(&prompt, &task, &tools);
                si.output_schema_json = schema.as_deref();
                Some(self.session().and_then(|x| x.append_session_init(&si)))
            }
            "append_mode_change" => Some(
                self.session().and_then(|x| x.append_mode_change(str_arg("mode").unwrap(), text("data").as_deref())),
            ),
            "append_session_info" => Some(self.session().and_then(|x| x.append_session_info(&text("name").unwrap()))),
            "branch_with_summary" => {
                let (summary, details) = (text("summary").unwrap(), text("details"));
                Some(self.session().and_then(|x| {
                    x.branch_with_summary(str_arg("from_id"), &summary, details.as_deref(), tri("from_extension"))
                }))
            }
            _ => {
                self.other_step(op, s, expect, blobs)?;
                None
            }
        };
        if let Some(result) = appended {
            ensure!(status(&result) == expect, "got {:?}, expected {expect}", result.as_ref().err());
            if let (Ok(id), Some(want)) = (&result, str_arg("expect_id")) {
                ensure!(id == want, "id {id:?}, expected {want:?}");
            }
        }
        Ok(())
    }

    /// Every step that is not a session constructor or an append.
    fn other_step(&mut self, op: &str, s: &Value, expect: i32, blobs: BlobRefs) -> StepResult {
        if self.keys_step(op, s, expect)?
            || self.library_step(op, s, expect)?
            || self.import_step(op, s, expect)?
            || self.search_step(op, s, expect)?
            || self.bundle_step(op, s, expect)?
        {
            return Ok(());
        }
        if op.starts_with("check_") {
            return self.check_step(op, s, expect, blobs);
        }
        let str_arg = |key: &str| s.get(key).and_then(Value::as_str);
        let rc_check = |r: xsession::Result<()>| -> StepResult {
            ensure!(status(&r) == expect, "got {:?}, expected {expect}", r.err());
            Ok(())
        };
        let session = self.session();
        match op {
            // "id": null (no string) moves the leaf to none.
            "set_leaf" => rc_check(session.and_then(|x| x.set_leaf(str_arg("id"))))?,
            "set_title" => rc_check(session.and_then(|x| x.set_title(str_arg("title"))))?,
            "flush" => rc_check(session.and_then(|x| x.flush()))?,
            "persist" => rc_check(session.and_then(|x| x.persist()))?,
            "write_file" => {
                let bytes = s.get("raw").map_or_else(|| lines_of(&s["lines"]), text_of);
                self.write_file(str_arg("path").unwrap(), bytes.as_bytes());
            }
            "append_to_file" => {
                use std::io::Write;
                let mut file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&self.path)
                    .map_err(|e| e.to_string())?;
                file.write_all(text_of(&s["raw"]).as_bytes()).map_err(|e| e.to_string())?;
            }
            "reload" => {
                let added = session.and_then(|x| x.reload());
                ensure!(status(&added) == expect, "got {:?}, expected {expect}", added.as_ref().err());
                if let Some(want) = s.get("expect_added") {
                    // As the C runner: a failed reload leaves the count at 0.
                    let got = added.unwrap_or(0);
                    ensure!(Some(got) == want.as_i64(), "added {got}, expected {want}");
                }
            }
            "fork" | "create_branched" => {
                let mut o = self.options(s);
                if let Some(id) = str_arg("session_id") {
                    o = o.session_id(id);
                }
                let made =
                    session
                        .and_then(|x| if op == "fork" { x.fork(&o) } else { x.create_branched(str_arg("leaf"), &o) });
                self.adopt(made, expect)?;
            }
            "fork_from" => {
                let source = format!("{}/{}", self.root(), str_arg("source").unwrap());
                let made = self.store.fork_from(&source, str_arg("cwd").unwrap(), &self.options(s));
                self.adopt(made, expect)?;
            }
            "continue_recent" => {
                let o = self.options(s);
                let made = self.store.continue_recent(str_arg("cwd").unwrap(), str_arg("terminal_id"), &o);
                self.adopt(made, expect)?;
            }
            "move_to" => {
                let moved = session.and_then(|x| x.move_to(str_arg("cwd").unwrap()));
                let ok = moved.is_ok();
                rc_check(moved)?;
                if ok {
                    self.path = self.session_path()?;
                }
            }
            "write_breadcrumb" => {
                let target = format!("{}/{}", self.root(), str_arg("path").unwrap());
                rc_check(self.store.write_breadcrumb(
                    str_arg("terminal_id").unwrap(),
                    str_arg("cwd").unwrap(),
                    &target,
                ))?
            }
            "session_for_key" => {
                self.session = None; // the key's session may be the one held: let go of it first
                let mut o = self.options(s);
                if let Some(id) = str_arg("session_id") {
                    o = o.session_id(id);
                }
                if let Some(seed) = s.get("id_seed") {
                    o = o.id_seed(seed.as_u64().unwrap());
                }
                let policy = s.get("policy").map(library::policy_of);
                let force = s.get("force").and_then(Value::as_bool) == Some(true);
                let got = self.store.session_for_key(
                    str_arg("key").unwrap(),
                    s["now_ms"].as_i64().unwrap(),
                    policy.as_ref(),
                    force,
                    &o,
                );
                ensure!(status(&got) == expect, "got {:?}, expected {expect}", got.as_ref().err());
                if let Ok((session, reason)) = got {
                    if let Some(want) = str_arg("expect_reason") {
                        ensure!(reason.as_str() == want, "reason {reason}, expected {want}");
                    }
                    self.session = Some(session);
                    self.path = self.session_path()?;
                }
            }
            "blob_put" => {
                let hash = self.store.blob_put(text_of(&s["data"]).as_bytes()).map_err(|e| format!("blob_put: {e}"))?;
                if let Some(want) = str_arg("expect_hash") {
                    ensure!(hash == want, "hash {hash}, expected {want}");
                }
            }
            other => return Err(format!("unknown op {other}")),
        }
        Ok(())
    }
}

#[test]
fn every_conformance_case_gives_the_exact_bytes() {
    replay_all(|case| Runner::new(case, StoreOptions::new).run());
}

/// Runs `replay` on every case and fails listing each case it failed, with its step.
fn replay_all(mut replay: impl FnMut(&Value) -> Result<(), String>) {
    let mut names: Vec<String> = std::fs::read_dir(cases_dir())
        .expect("tests/conformance/cases")
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    assert!(names.len() >= 30, "only {} conformance cases found in {:?}", names.len(), cases_dir());

    let mut failures = Vec::new();
    for name in &names {
        let text = std::fs::read_to_string(cases_dir().join(name)).unwrap();
        let case: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name} is not valid JSON: {e}"));
        assert!(case.get("description").is_some() && case.get("steps").is_some(), "{name}");
        if let Err(e) = replay(&case) {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), names.len(), failures.join("\n"));
}
