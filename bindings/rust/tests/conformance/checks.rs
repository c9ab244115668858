//! The checks of the conformance cases (tests/conformance/README.md, "Checks"): each compares
//! exact bytes unless the README says "parsed comparison".

use std::path::{Path, PathBuf};

use serde_json::Value;
use xsession::types::{Diagnostic, Header, Label, ListedSession, TreeNode};
use xsession::{BlobRefs, Context, Entry, ListOptions, SessionInfo, Usage};

use crate::typed::{entries_round_trip, round_trip};
use crate::{from_hex, lines_of, status, text_of, Runner, StepResult};

impl Runner<'_> {
    /// Runs the check `op` (a step whose op starts with `check_`).
    pub(crate) fn check_step(&self, op: &str, s: &Value, expect: i32, blobs: BlobRefs) -> StepResult {
        let str_arg = |key: &str| s.get(key).and_then(Value::as_str);
        let session = self.session();
        match op {
            "check_file" => self.check_file(s)?,
            "check_context" => self.check_output(
                s,
                "context",
                expect,
                session.and_then(|x| x.build_context_json(str_arg("leaf"))),
                round_trip::<Context>,
            )?,
            "check_leaf" => {
                let got = session.and_then(|x| x.leaf()).map_err(|e| format!("leaf: {e}"))?;
                let want = Some(&s["id"]).filter(|id| !id.is_null()).map(text_of);
                ensure!(got == want, "leaf {got:?}, expected {want:?}");
            }
            "check_dialect" => {
                let got = session.and_then(|x| x.dialect()).map_err(|e| format!("dialect: {e}"))?;
                let want = str_arg("dialect").unwrap();
                ensure!(got.to_string() == want, "dialect {got}, expected {want}");
            }
            "check_header" => {
                self.check_output(s, "json", expect, session.and_then(|x| x.header_json()), round_trip::<Header>)?
            }
            "check_entries" => {
                self.check_output(s, "json", expect, session.and_then(|x| x.entries_json(blobs)), entries_round_trip)?
            }
            "check_entry" => self.check_output(
                s,
                "json",
                expect,
                session.and_then(|x| x.entry_json(str_arg("id").unwrap(), blobs)),
                round_trip::<Entry>,
            )?,
            "check_path" => self.check_output(
                s,
                "json",
                expect,
                session.and_then(|x| x.path_json(str_arg("id"), blobs)),
                entries_round_trip,
            )?,
            "check_children" => self.check_output(
                s,
                "json",
                expect,
                session.and_then(|x| x.children_json(str_arg("id").unwrap(), blobs)),
                entries_round_trip,
            )?,
            "check_tree" => self.check_output(
                s,
                "json",
                expect,
                session.and_then(|x| x.tree_json(blobs)),
                round_trip::<Vec<TreeNode>>,
            )?,
            "check_labels" => {
                self.check_output(s, "json", expect, session.and_then(|x| x.labels_json()), round_trip::<Vec<Label>>)?
            }
            "check_usage" => {
                self.check_output(s, "json", expect, session.and_then(|x| x.usage_json()), round_trip::<Usage>)?
            }
            "check_info" => {
                let info = session.and_then(|x| x.info_json()).map_err(|e| format!("info: {e}"))?;
                round_trip::<SessionInfo>("info", &info)?;
                let got: Value = serde_json::from_str(&info).map_err(|e| e.to_string())?;
                for (name, want) in s["fields"].as_object().unwrap() {
                    ensure!(got.get(name) == Some(want), "info field {name}: {:?}, expected {want}", got.get(name));
                }
            }
            "check_diagnostics" => {
                let text = session.and_then(|x| x.diagnostics_json()).map_err(|e| format!("diagnostics: {e}"))?;
                round_trip::<Vec<Diagnostic>>("diagnostics", &text)?;
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
            "check_blob" => {
                let got = self.store.blob_get(str_arg("hash").unwrap());
                ensure!(status(&got) == expect, "got {:?}, expected {expect}", got.as_ref().err());
                if let Ok(bytes) = got {
                    ensure!(bytes == text_of(&s["data"]).into_bytes(), "blob bytes differ");
                }
            }
            "check_resolve" => {
                let got = self.store.resolve(str_arg("query").unwrap(), str_arg("cwd").map(Path::new));
                ensure!(status(&got) == expect, "got {:?}, expected {expect}", got.as_ref().err());
                if let Ok(path) = got {
                    let path = path.to_str().ok_or("a resolved path that is not UTF-8")?;
                    let want = str_arg("path").unwrap();
                    ensure!(self.relative(path) == want, "resolved {path}, expected {want}");
                }
            }
            "check_list" => self.check_list(s)?,
            other => return Err(format!("unknown op {other}")),
        }
        Ok(())
    }

    /// [`Runner::check_text`], then the typed round trip of the text (`typed`, from `typed.rs`).
    pub(crate) fn check_output(
        &self,
        s: &Value,
        key: &str,
        expect: i32,
        got: xsession::Result<String>,
        typed: fn(&str, &str) -> StepResult,
    ) -> StepResult {
        let text = got.as_ref().ok().cloned();
        self.check_text(s, key, expect, got)?;
        match text {
            Some(text) => typed(key, &text),
            None => Ok(()),
        }
    }

    /// Compares a read's status, then (when it succeeded) its exact bytes with `s[key]`.
    pub(crate) fn check_text(&self, s: &Value, key: &str, expect: i32, got: xsession::Result<String>) -> StepResult {
        ensure!(status(&got) == expect, "got {:?}, expected {expect}", got.as_ref().err());
        if let Ok(got) = got {
            let want = text_of(&s[key]);
            ensure!(got == want, "bytes differ:\n  got:  {got}\n  want: {want}");
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
        let text = self.store.list_json(&opts).map_err(|e| format!("list: {e}"))?;
        round_trip::<Vec<ListedSession>>("list", &text)?;
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
