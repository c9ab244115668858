//! Replays every case of `tests/conformance/cases/` through the safe API and compares exact
//! bytes, with the semantics of the C++ runner (`tests/conformance/conformance_runner.cc`) and
//! the format of `tests/conformance/README.md`. A case stops at its first mismatch; all cases
//! run, and the test fails listing every failed case with its step.
mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use xsession::{
    sys, BlobRefs, Compaction, CustomMessage, ListOptions, Session, SessionInitEntry, SessionOptions, Store,
};

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

// Fields drop in order: the session closes, then the store, then the directory goes.
struct Runner<'a> {
    session: Option<Session>,
    store: Store,
    root: TempDir,
    case: &'a Value,
    path: String,
}

impl<'a> Runner<'a> {
    fn new(case: &'a Value) -> Runner<'a> {
        let root = TempDir::new("conformance");
        let store = Store::open(root.str()).expect("open store");
        Runner { session: None, store, root, case, path: String::new() }
    }

    fn root(&self) -> &str {
        self.root.str()
    }

    /// The case's `options` as session options; `flags` (a step's) replaces the case's flags.
    fn options(&self, flags: Option<&Value>) -> SessionOptions {
        let opts = &self.case["options"];
        let mut o = SessionOptions::new();
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
        for flag in flags.or(opts.get("flags")).and_then(Value::as_array).into_iter().flatten() {
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

    fn open_path(&mut self, path: String, flags: Option<&Value>, expect: i32) -> StepResult {
        let opened = self.store.open_session(&path, &self.options(flags));
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
        let flags = s.get("flags");

        if op == "create" || op == "open" {
            self.session = None; // one session at a time: a new one replaces the last
        }
        // Appends are checked together below (status, then expect_id).
        let appended: Option<xsession::Result<String>> = match op {
            "create" => {
                let mut o = self.options(flags);
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
                self.open_path(path, flags, expect)?;
                None
            }
            "close" => {
                self.session = None;
                None
            }
            "reopen" => {
                self.session = None;
                self.open_path(self.path.clone(), flags, expect)?;
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

    /// Compares a read's status, then (when it succeeded) its exact bytes with `s[key]`.
    fn check_text(&self, s: &Value, key: &str, expect: i32, got: xsession::Result<String>) -> StepResult {
        ensure!(status(&got) == expect, "got {:?}, expected {expect}", got.as_ref().err());
        if let Ok(got) = got {
            let want = text_of(&s[key]);
            ensure!(got == want, "bytes differ:\n  got:  {got}\n  want: {want}");
        }
        Ok(())
    }

    /// Every step that is not a session constructor or an append.
    fn other_step(&mut self, op: &str, s: &Value, expect: i32, blobs: BlobRefs) -> StepResult {
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
            "check_file" => self.check_file(s)?,
            "check_context" => {
                self.check_text(s, "context", expect, session.and_then(|x| x.build_context(str_arg("leaf"))))?
            }
            "check_leaf" => {
                let got = session.and_then(|x| x.leaf()).map_err(|e| format!("leaf: {e}"))?;
                let want = Some(&s["id"]).filter(|id| !id.is_null()).map(text_of);
                ensure!(got == want, "leaf {got:?}, expected {want:?}");
            }
            "check_header" => self.check_text(s, "json", expect, session.and_then(|x| x.header()))?,
            "check_entries" => self.check_text(s, "json", expect, session.and_then(|x| x.entries(blobs)))?,
            "check_entry" => {
                self.check_text(s, "json", expect, session.and_then(|x| x.entry(str_arg("id").unwrap(), blobs)))?
            }
            "check_path" => self.check_text(s, "json", expect, session.and_then(|x| x.path(str_arg("id"), blobs)))?,
            "check_children" => {
                self.check_text(s, "json", expect, session.and_then(|x| x.children(str_arg("id").unwrap(), blobs)))?
            }
            "check_tree" => self.check_text(s, "json", expect, session.and_then(|x| x.tree(blobs)))?,
            "check_labels" => self.check_text(s, "json", expect, session.and_then(|x| x.labels()))?,
            "check_usage" => self.check_text(s, "json", expect, session.and_then(|x| x.usage_json()))?,
            "check_info" => {
                let info = session.and_then(|x| x.info_json()).map_err(|e| format!("info: {e}"))?;
                let got: Value = serde_json::from_str(&info).map_err(|e| e.to_string())?;
                for (name, want) in s["fields"].as_object().unwrap() {
                    ensure!(got.get(name) == Some(want), "info field {name}: {:?}, expected {want}", got.get(name));
                }
            }
            "check_diagnostics" => {
                let text = session.and_then(|x| x.diagnostics()).map_err(|e| format!("diagnostics: {e}"))?;
                let got: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
                let want = s["expected"].as_array().unwrap();
                ensure!(got.as_array().map(Vec::len) == Some(want.len()), "diagnostics {text}");
                for (g, w) in got.as_array().unwrap().iter().zip(want) {
                    for (name, value) in w.as_object().unwrap() {
                        ensure!(g.get(name) == Some(value), "diagnostic field {name} in {text}");
                    }
                }
            }
            "check_preserved" => {
                let path = Path::new(&self.path);
                let prefix = format!("{}.corrupt-", path.file_name().unwrap().to_str().unwrap());
                let found: Vec<PathBuf> = std::fs::read_dir(path.parent().unwrap())
                    .map_err(|e| e.to_string())?
                    .map(|e| e.unwrap().path())
                    .filter(|p| p.file_name().unwrap().to_str().unwrap().starts_with(&prefix))
                    .collect();
                ensure!(found.len() == 1, "preserved copies: {found:?}");
                let got = std::fs::read(&found[0]).map_err(|e| e.to_string())?;
                ensure!(got == text_of(&s["raw"]).into_bytes(), "preserved bytes differ");
            }
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
                let mut o = self.options(s.get("flags"));
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
                let made = self.store.fork_from(&source, str_arg("cwd").unwrap(), &self.options(s.get("flags")));
                self.adopt(made, expect)?;
            }
            "continue_recent" => {
                let o = self.options(s.get("flags"));
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
            "blob_put" => {
                let hash = self.store.blob_put(text_of(&s["data"]).as_bytes()).map_err(|e| format!("blob_put: {e}"))?;
                if let Some(want) = str_arg("expect_hash") {
                    ensure!(hash == want, "hash {hash}, expected {want}");
                }
            }
            "check_blob" => {
                let got = self.store.blob_get(str_arg("hash").unwrap());
                ensure!(status(&got) == expect, "got {:?}, expected {expect}", got.as_ref().err());
                if let Ok(bytes) = got {
                    ensure!(bytes == text_of(&s["data"]).into_bytes(), "blob bytes differ");
                }
            }
            "check_resolve" => {
                let got = self.store.resolve(str_arg("query").unwrap(), str_arg("cwd"));
                ensure!(status(&got) == expect, "got {:?}, expected {expect}", got.as_ref().err());
                if let Ok(path) = got {
                    let want = str_arg("path").unwrap();
                    ensure!(self.relative(&path) == want, "resolved {path}, expected {want}");
                }
            }
            "check_list" => self.check_list(s)?,
            other => return Err(format!("unknown op {other}")),
        }
        Ok(())
    }

    fn check_file(&self, s: &Value) -> StepResult {
        let path = if self.path.is_empty() { self.session_path()? } else { self.path.clone() };
        let bytes = std::fs::read(&path);
        if s.get("exists") == Some(&Value::Bool(false)) {
            ensure!(bytes.is_err(), "the session file should not exist yet");
            return Ok(());
        }
        let bytes = bytes.map_err(|e| format!("{path}: {e}"))?;
        let want = if let Some(raw) = s.get("raw") {
            text_of(raw).into_bytes()
        } else if let Some(hex) = s.get("raw_hex") {
            from_hex(hex.as_str().unwrap())
        } else {
            // "{root}" stands for the store's directory (paths the library writes into files).
            lines_of(&s["lines"]).replace("{root}", self.root()).into_bytes()
        };
        ensure!(
            bytes == want,
            "file differs:\n  got:  {}\n  want: {}",
            String::from_utf8_lossy(&bytes),
            String::from_utf8_lossy(&want)
        );
        Ok(())
    }

    fn check_list(&self, s: &Value) -> StepResult {
        let mut opts = ListOptions::new();
        if let Some(cwd) = s.get("cwd").and_then(Value::as_str) {
            opts = opts.cwd(cwd);
        }
        if s.get("full").and_then(Value::as_bool) == Some(true) {
            opts = opts.full(true);
        }
        if let Some(limit) = s.get("limit") {
            opts = opts.limit(limit.as_u64().unwrap());
        }
        let text = self.store.list(&opts).map_err(|e| format!("list: {e}"))?;
        let got: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let mut items: Vec<&Value> = got.as_array().unwrap().iter().collect();
        let want = s["expected"].as_array().unwrap();
        ensure!(items.len() == want.len(), "listed {text}");
        // Listed newest first by file time, which ties within a test: compare in path order.
        items.sort_by_key(|v| v["path"].as_str().unwrap().to_string());
        for (item, w) in items.iter().zip(want) {
            for (field, value) in w.as_object().unwrap() {
                if field == "path" {
                    let rel = self.relative(item["path"].as_str().unwrap());
                    ensure!(Some(rel.as_str()) == value.as_str(), "list path {rel}, expected {value}");
                } else {
                    ensure!(item.get(field) == Some(value), "list field {field} of {text}");
                }
            }
        }
        Ok(())
    }
}

#[test]
fn every_conformance_case_gives_the_exact_bytes() {
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
        if let Err(e) = Runner::new(&case).run() {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), names.len(), failures.join("\n"));
}
