//! The import steps of the conformance cases (tests/conformance/README.md, "Import"; the C++
//! runner's are in tests/conformance/import_steps.cc). A case's source store is written under
//! `<root>/source/` by `write_file` steps; paths are relative to the root, and `{root}` in an
//! expected text stands for it.

use serde_json::Value;
use xsession::types::{ForeignListing, ImportReport};
use xsession::{ImportKind, ImportOptions};

use crate::typed::round_trip;
use crate::{status, text_of, Runner};

/// A listing's file times are the run's, not the case's: every number after `"mtime":` or
/// `"mtimeMs":` becomes 0.
fn without_mtimes(mut json: String) -> String {
    for name in ["\"mtime\":", "\"mtimeMs\":"] {
        let mut at = 0;
        while let Some(found) = json[at..].find(name) {
            at += found + name.len();
            let digits = json[at..].bytes().take_while(|b| b.is_ascii_digit() || *b == b'-').count();
            json.replace_range(at..at + digits, "0");
        }
    }
    json
}

impl Runner<'_> {
    /// Runs `op` if it is one of the import steps (`Ok(true)`); `Ok(false)` otherwise.
    pub(crate) fn import_step(&self, op: &str, s: &Value, expect: i32) -> Result<bool, String> {
        let str_arg = |key: &str| s.get(key).and_then(Value::as_str);
        let path = |s: &Value| format!("{}/{}", self.root(), s["path"].as_str().unwrap());
        match op {
            "check_raw_file" => {
                let got = std::fs::read(path(s)).map_err(|e| format!("{}: {e}", path(s)))?;
                let want = text_of(&s["raw"]);
                ensure!(
                    got == want.as_bytes(),
                    "bytes differ:\n  got:  {}\n  want: {want}",
                    String::from_utf8_lossy(&got)
                );
            }
            "import" | "foreign_list" => {
                let mut o = ImportOptions::new().dry_run(s.get("dry_run").and_then(Value::as_bool) == Some(true));
                if let Some(cwd) = str_arg("target_cwd") {
                    o = o.target_cwd(cwd);
                }
                if let Some(cwd) = str_arg("fallback_cwd") {
                    o = o.fallback_cwd(cwd);
                }
                if let Some(ms) = s.get("lock_wait_ms") {
                    o = o.lock_wait_ms(ms.as_i64().unwrap());
                }
                if let Some(ms) = s.get("now_ms") {
                    o = o.now_ms(ms.as_i64().unwrap());
                }
                // A kind the enum does not name fails to parse with the status the library gives it.
                let kind = str_arg("kind").unwrap().parse::<ImportKind>();
                let got = kind.and_then(|kind| {
                    if op == "import" {
                        self.store.import_json(kind, path(s), &o)
                    } else {
                        self.store.foreign_list_json(kind, path(s), &o)
                    }
                });
                if let Ok(text) = &got {
                    if op == "import" {
                        round_trip::<ImportReport>(op, text)?;
                    } else {
                        round_trip::<ForeignListing>(op, text)?;
                    }
                }
                let got = if op == "import" { got } else { got.map(without_mtimes) };
                ensure!(status(&got) == expect, "got {:?}, expected {expect}", got.as_ref().err());
                if let Ok(got) = got {
                    let want = text_of(&s["json"]).replace("{root}", self.root());
                    ensure!(got == want, "bytes differ:\n  got:  {got}\n  want: {want}");
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

#[test]
fn mtimes_become_zero() {
    let got = without_mtimes(r#"{"mtime":1772246597629,"size":3,"mtimeMs":-5,"x":"mtime"}"#.to_string());
    assert_eq!(got, r#"{"mtime":0,"size":3,"mtimeMs":0,"x":"mtime"}"#);
}
