//! The keyed store's steps of the conformance cases (tests/conformance/README.md, "Keyed store";
//! the C++ runner's are in tests/conformance/keys_steps.cc), through [`xsession::Keys`].

use serde_json::Value;
use xsession::{Error, ErrorCode, KeyRecord, Update};

use crate::{status, status_names, text_of, Runner, StepResult};

/// What the C API returns where `get` answers `None` and `delete` `false`.
fn not_found() -> Error {
    Error::new(ErrorCode::NotFound, "no record")
}

impl Runner<'_> {
    /// Runs `op` if it is a keyed-store step (`Ok(true)`); `Ok(false)` for any other op.
    pub(crate) fn keys_step(&self, op: &str, s: &Value, expect: i32) -> Result<bool, String> {
        let keys = self.store.keys();
        let key = || s["key"].as_str().expect("key");
        let rc_check = |r: xsession::Result<()>| -> StepResult {
            ensure!(status(&r) == expect, "got {:?}, expected {expect}", r.err());
            Ok(())
        };
        match op {
            "keys_put" => rc_check(keys.put(key(), &text_of(&s["record"])))?,
            "keys_patch" => rc_check(keys.patch(key(), &text_of(&s["patch"])))?,
            "keys_delete" => {
                rc_check(keys.delete(key()).and_then(|gone| if gone { Ok(()) } else { Err(not_found()) }))?
            }
            "keys_update" => self.keys_update(s, expect)?,
            "check_keys_get" => {
                self.check_keys_text(s, expect, keys.get(key()).and_then(|r| r.ok_or_else(not_found)))?
            }
            "check_keys_list" => {
                // Absent and "" both mean every key (the C runner passes NULL).
                let got = keys.list_json(s.get("prefix").and_then(Value::as_str).unwrap_or(""));
                if let Ok(text) = &got {
                    // Typed: the records encode again as exactly the library's text.
                    let typed = KeyRecord::list_from_json(text).map_err(|e| format!("typed key list: {e}"))?;
                    let again = serde_json::to_string(&typed).map_err(|e| e.to_string())?;
                    ensure!(&again == text, "the typed key list encodes as\n{again}\nnot\n{text}");
                }
                self.check_keys_text(s, expect, got)?
            }
            "check_keys_file" => {
                let got = std::fs::read(self.root.path().join("sessions.json"));
                if s.get("exists") == Some(&Value::Bool(false)) {
                    ensure!(
                        got.is_err(),
                        "sessions.json exists: {:?}",
                        got.map(|b| String::from_utf8_lossy(&b).into_owned())
                    );
                } else {
                    let got = got.map_err(|e| format!("sessions.json: {e}"))?;
                    let want = text_of(&s["raw"]);
                    ensure!(got == want.as_bytes(), "got\n{}\nexpected\n{want}", String::from_utf8_lossy(&got));
                }
            }
            "check_keys_preserved" => {
                let found: Vec<_> = std::fs::read_dir(self.root.path())
                    .map_err(|e| e.to_string())?
                    .map(|e| e.unwrap().path())
                    .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("sessions.json.corrupt-"))
                    .collect();
                ensure!(found.len() == 1, "preserved copies: {found:?}");
                let got = std::fs::read(&found[0]).map_err(|e| e.to_string())?;
                ensure!(got == text_of(&s["raw"]).as_bytes(), "preserved: {}", String::from_utf8_lossy(&got));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// `keys_update`: the closure answers with `result` (text, or null to remove) or `cancel`
    /// (a status), and what it was given is compared with `expect_current`.
    fn keys_update(&self, s: &Value, expect: i32) -> StepResult {
        let answer = match (s.get("cancel"), s.get("result")) {
            (Some(name), _) => {
                let code = status_names()[name.as_str().unwrap()];
                Update::Cancel(Error::new(ErrorCode::from_raw(code), ""))
            }
            (None, Some(Value::Null)) | (None, None) => Update::Remove,
            (None, Some(result)) => Update::Set(text_of(result)),
        };
        let mut seen: Option<Option<String>> = None;
        let r = self.store.keys().update(s["key"].as_str().unwrap(), |current| {
            seen = Some(current.map(str::to_owned));
            answer
        });
        ensure!(status(&r) == expect, "got {:?}, expected {expect}", r.err());
        if let Some(want) = s.get("expect_current") {
            let want = Some(want).filter(|w| !w.is_null()).map(text_of);
            ensure!(seen == Some(want.clone()), "the closure saw {seen:?}, expected {want:?}");
        }
        Ok(())
    }

    fn check_keys_text(&self, s: &Value, expect: i32, got: xsession::Result<String>) -> StepResult {
        ensure!(status(&got) == expect, "got {:?}, expected {expect}", got.as_ref().err());
        if let Ok(text) = got {
            let want = text_of(&s["json"]);
            ensure!(text == want, "got\n{text}\nexpected\n{want}");
        }
        Ok(())
    }
}
