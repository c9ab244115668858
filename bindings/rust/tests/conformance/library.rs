//! The session library's steps of the conformance cases (tests/conformance/README.md,
//! "Compaction planning", "Resume analysis", "Session stats", "Retention", "Reset policies"; the
//! C++ runner's are in tests/conformance/{library,stats,archive,reset}_steps.cc).

use serde_json::Value;
use xsession::types::{ArchiveReport, CompactionPlan, FixStatsReport, PruneReport, ResumeCheck};
use xsession::{sys, ArchiveOptions, CompactionSettings, ResetPolicy, SessionStats};

use crate::typed::round_trip;
use crate::{status, text_of, Runner, StepResult};

/// The step's `settings`: the library's defaults, then the fields it names; and its `version`,
/// which only the raw struct can carry (a case tests a wrong one).
fn settings_of(s: &Value) -> (CompactionSettings, Option<u32>) {
    let mut c = CompactionSettings::new();
    let given = match s.get("settings") {
        Some(given) => given,
        None => return (c, None),
    };
    let field = |name: &str| given.get(name).map(|v| v.as_i64().expect(name));
    if let Some(v) = field("context_window") {
        c = c.context_window(v);
    }
    if let Some(v) = field("reserve_tokens") {
        c = c.reserve_tokens(v);
    }
    if let Some(v) = field("reserve_floor") {
        c = c.reserve_floor(v);
    }
    if let Some(v) = field("keep_recent_tokens") {
        c = c.keep_recent_tokens(v);
    }
    if let Some(v) = field("soft_threshold_tokens") {
        c = c.soft_threshold_tokens(v);
    }
    (c, field("version").map(|v| v as u32))
}

/// A policy object: `{"daily_hour"?, "idle_minutes"?, "time_zone"?}`.
pub(crate) fn policy_of(v: &Value) -> ResetPolicy {
    let mut p = ResetPolicy::new();
    if let Some(hour) = v.get("daily_hour") {
        p = p.daily_hour(hour.as_i64().unwrap() as i32);
    }
    if let Some(minutes) = v.get("idle_minutes") {
        p = p.idle_minutes(minutes.as_i64().unwrap());
    }
    if let Some(zone) = v.get("time_zone").and_then(Value::as_str) {
        p = p.time_zone(zone);
    }
    p
}

/// `{root}` in an expected text stands for the store root.
fn rooted(text: String, root: &str) -> String {
    text.replace("{root}", root)
}

impl Runner<'_> {
    /// Runs `op` if it is one of the session library's steps (`Ok(true)`); `Ok(false)` otherwise.
    pub(crate) fn library_step(&self, op: &str, s: &Value, expect: i32) -> Result<bool, String> {
        let str_arg = |key: &str| s.get(key).and_then(Value::as_str);
        let int = |key: &str| s[key].as_i64().unwrap_or_else(|| panic!("{key}"));
        let (settings, version) = settings_of(s);
        let session = self.session();
        match op {
            "compaction_plan" => self.check_output(
                s,
                "plan",
                expect,
                session.and_then(|x| x.compaction_plan_json(str_arg("leaf"), &settings)),
                round_trip::<CompactionPlan>,
            )?,
            "check_resume" => self.check_output(
                s,
                "json",
                expect,
                session.and_then(|x| x.resume_check_json(str_arg("leaf"))),
                round_trip::<ResumeCheck>,
            )?,
            "check_should_compact" => {
                let got = match version {
                    None => xsession::should_compact(&settings, int("context_tokens")),
                    Some(version) => raw_decision(&settings, version, |raw, out| {
                        // SAFETY: `raw` and `out` are valid for the call.
                        unsafe { sys::xs_should_compact(raw, int("context_tokens"), out) }
                    }),
                };
                self.check_decision(s, expect, got)?
            }
            "check_should_flush_memory" => {
                let last = int("last_flush_compaction_count");
                let got = match version {
                    // The safe API's `None` is the C API's -1 ("never"); any other value goes as it is.
                    None => xsession::should_flush_memory(
                        &settings,
                        int("context_tokens"),
                        int("compaction_count"),
                        if last == -1 { None } else { Some(last) },
                    ),
                    Some(version) => raw_decision(&settings, version, |raw, out| {
                        // SAFETY: `raw` and `out` are valid for the call.
                        unsafe {
                            sys::xs_should_flush_memory(raw, int("context_tokens"), int("compaction_count"), last, out)
                        }
                    }),
                };
                self.check_decision(s, expect, got)?
            }
            "keys_claim_memory_flush" => {
                assert!(version.is_none(), "a version on keys_claim_memory_flush's settings");
                let got = self.store.keys().claim_memory_flush(
                    str_arg("key").unwrap(),
                    &settings,
                    int("context_tokens"),
                    int("now_ms"),
                );
                self.check_decision(s, expect, got)?
            }
            "check_stats" => {
                self.check_output(s, "json", expect, session.and_then(|x| x.stats_json()), round_trip::<SessionStats>)?
            }
            "keys_fix_stats" => {
                // Absent and "" both mean every key (the C runner passes NULL).
                let got = self.store.keys().fix_stats_json(str_arg("prefix").unwrap_or(""));
                ensure!(status(&got) == expect, "got {:?}, expected {expect}", got.as_ref().err());
                if let Ok(got) = &got {
                    round_trip::<FixStatsReport>("fix_stats", got)?;
                }
                if let (Ok(got), Some(want)) = (got, s.get("json")) {
                    let want = rooted(text_of(want), self.root());
                    ensure!(got == want, "got\n{got}\nexpected\n{want}");
                }
            }
            "check_stats_document" | "check_keys_file_rooted" => {
                let got =
                    std::fs::read(self.root.path().join("sessions.json")).map_err(|e| format!("sessions.json: {e}"))?;
                let want = rooted(text_of(&s["raw"]), self.root());
                ensure!(got == want.as_bytes(), "got\n{}\nexpected\n{want}", String::from_utf8_lossy(&got));
            }
            "check_store_files" => {
                let mut found: Vec<String> = std::fs::read_dir(self.root.path())
                    .map_err(|e| e.to_string())?
                    .map(|e| e.unwrap().file_name().into_string().unwrap())
                    .collect();
                found.sort();
                let want: Vec<String> =
                    s["files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap().to_string()).collect();
                ensure!(found == want, "store files {found:?}, expected {want:?}");
            }
            "check_path_exists" => {
                let path = str_arg("path").unwrap();
                let exists = self.root.path().join(path).exists();
                ensure!(Some(exists) == s["exists"].as_bool(), "{path} exists: {exists}");
            }
            "archive" | "prune" => self.retention(op, s, expect)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// A decision's status, and its `result` when it succeeded.
    fn check_decision(&self, s: &Value, expect: i32, got: xsession::Result<bool>) -> StepResult {
        ensure!(status(&got) == expect, "got {:?}, expected {expect}", got.as_ref().err());
        if let Ok(got) = got {
            ensure!(Some(got) == s["result"].as_bool(), "decided {got}, expected {}", s["result"]);
        }
        Ok(())
    }

    /// `archive` / `prune`: the report's `dryRun` and lists, compared parsed (paths relative to
    /// the root; only the members a case lists).
    fn retention(&self, op: &str, s: &Value, expect: i32) -> StepResult {
        // Absent: -1, as xs_archive_options_init leaves it (the library refuses it).
        let mut o = ArchiveOptions::older_than_ms(s.get("older_than_ms").map_or(-1, |v| v.as_i64().unwrap()));
        if let Some(now) = s.get("now_ms") {
            o = o.now_ms(now.as_i64().unwrap());
        }
        let dry_run = s.get("dry_run").and_then(Value::as_bool) == Some(true);
        o = o.dry_run(dry_run);
        let got = if op == "archive" { self.store.archive_json(&o) } else { self.store.prune_json(&o) };
        ensure!(status(&got) == expect, "got {:?}, expected {expect}", got.as_ref().err());
        let text = match got {
            Ok(text) => text,
            Err(_) => return Ok(()),
        };
        if op == "archive" {
            round_trip::<ArchiveReport>(op, &text)?;
        } else {
            round_trip::<PruneReport>(op, &text)?;
        }
        let report: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        ensure!(report["dryRun"] == Value::Bool(dry_run), "dryRun in {text}");
        let lists: &[&str] = if op == "archive" { &["archived", "skipped"] } else { &["pruned"] };
        for list in lists {
            let got = report[*list].as_array().ok_or(format!("{list} in {text}"))?;
            let want = s[*list].as_array().unwrap();
            ensure!(got.len() == want.len(), "{list}: {} items, expected {} in {text}", got.len(), want.len());
            for (g, w) in got.iter().zip(want) {
                for (member, value) in w.as_object().unwrap() {
                    let mine = if member == "path" {
                        g["path"].as_str().map(|p| Value::String(self.relative(p)))
                    } else {
                        g.get(member).cloned()
                    };
                    ensure!(
                        mine.as_ref() == Some(value),
                        "{list} member {member}: {mine:?}, expected {value} in {text}"
                    );
                }
            }
        }
        Ok(())
    }
}

/// A decision through the raw C call, with the step's settings version in the struct.
fn raw_decision(
    settings: &CompactionSettings,
    version: u32,
    call: impl FnOnce(&sys::xs_compaction_settings, &mut std::os::raw::c_int) -> i32,
) -> xsession::Result<bool> {
    let mut raw = settings.to_raw()?;
    raw.version = version;
    let mut out = 0;
    match call(&raw, &mut out) {
        sys::XS_OK => Ok(out != 0),
        rc => Err(xsession::Error::new(xsession::ErrorCode::from_raw(rc), xsession::status_str(rc))),
    }
}
