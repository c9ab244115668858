//! The session index and search steps of the conformance cases (tests/conformance/README.md,
//! "Session index and search"; the C++ runner's are in tests/conformance/search_steps.cc). Each
//! step opens an [`Index`](xsession::Index) on the case's store at `<root>/index.db` (a store on
//! a host's storage has no directory of its own), makes its one call and closes it. Outputs are
//! compared parsed: each member a step lists equals the output's, a list item by item, in order;
//! a path under the store root is compared relative to it. Scores are not compared.

use serde_json::Value;
use xsession::types::{IndexReport, IndexVerifyReport, IndexedSession, SearchHit};
use xsession::{IndexOptions, IndexSearchOptions, Role};

use crate::common::json::difference;
use crate::typed::round_trip;
use crate::{status, Runner, StepResult};

/// The step's search filters. A role that is none of the five fails to parse with the status the
/// library gives it (the typed role cannot carry it to the library).
fn search_options(s: &Value) -> xsession::Result<IndexSearchOptions> {
    let str_arg = |key: &str| s.get(key).and_then(Value::as_str);
    let mut o = IndexSearchOptions::new().literal(s.get("literal").and_then(Value::as_bool) == Some(true));
    if let Some(cwd) = str_arg("cwd") {
        o = o.cwd(cwd);
    }
    if let Some(role) = str_arg("role") {
        o = o.role(role.parse::<Role>()?);
    }
    if let Some(id) = str_arg("session_id") {
        o = o.session_id(id);
    }
    if let Some(ms) = s.get("since_ms") {
        o = o.since_ms(ms.as_i64().expect("since_ms"));
    }
    if let Some(limit) = s.get("limit") {
        o = o.limit(limit.as_u64().expect("limit") as u32);
    }
    Ok(o)
}

impl Runner<'_> {
    /// Runs `op` if it is one of the index steps (`Ok(true)`); `Ok(false)` otherwise.
    pub(crate) fn search_step(&self, op: &str, s: &Value, expect: i32) -> Result<bool, String> {
        if !matches!(op, "index_refresh" | "index_rebuild" | "index_verify" | "index_list" | "search") {
            return Ok(false);
        }
        let opts = IndexOptions::new().path(format!("{}/index.db", self.root()));
        let index = self.store.index(&opts).map_err(|e| format!("opening the index: {e}"))?;
        let got = match op {
            "index_refresh" => index.refresh_json(),
            "index_rebuild" => index.rebuild_json(),
            "index_verify" => index.verify_json(),
            "index_list" => {
                let cwd = s.get("cwd").and_then(Value::as_str).map(std::path::Path::new);
                index.list_json(cwd, s.get("limit").map_or(0, |l| l.as_u64().expect("limit") as u32))
            }
            _ => search_options(s).and_then(|o| index.search_json(s["query"].as_str().expect("query"), &o)),
        };
        index.close();
        ensure!(status(&got) == expect, "got {:?}, expected {expect}", got.as_ref().err());
        let text = match got {
            Ok(text) => text,
            Err(e) => {
                if let Some(prefix) = s.get("message_prefix").and_then(Value::as_str) {
                    let message = e.message();
                    ensure!(message.starts_with(prefix), "message {message:?}, expected it to start {prefix:?}");
                }
                return Ok(true);
            }
        };
        match op {
            "index_refresh" | "index_rebuild" => round_trip::<IndexReport>(op, &text)?,
            "index_verify" => round_trip::<IndexVerifyReport>(op, &text)?,
            "index_list" => round_trip::<Vec<IndexedSession>>(op, &text)?,
            _ => round_trip::<Vec<SearchHit>>(op, &text)?,
        }
        let out: Value = serde_json::from_str(&text).map_err(|e| format!("{op}: not JSON: {e}: {text}"))?;
        match op {
            "search" => self.expect_items(&out, &s["hits"], &text)?,
            "index_list" => self.expect_items(&out, &s["sessions"], &text)?,
            _ => self.expect_members(&out, &s["report"], &text)?,
        }
        Ok(true)
    }

    /// A string naming a path under the store root, as relative to it; any other value as it is.
    fn relative_value(&self, v: &Value) -> Value {
        match v {
            Value::String(path) => Value::String(self.relative(path)),
            other => other.clone(),
        }
    }

    /// The expected items `want` against the output array `got`, in order: as many, each a path
    /// equal to the output's, or an object each of whose members equals the output item's.
    fn expect_items(&self, got: &Value, want: &Value, text: &str) -> StepResult {
        let (got, wanted) = (got.as_array().ok_or("the output is not an array")?, want.as_array().expect("items"));
        ensure!(got.len() == wanted.len(), "{} items, expected {}: {text}", got.len(), wanted.len());
        for (i, (item, want)) in got.iter().zip(wanted).enumerate() {
            if want.is_string() {
                same(&self.relative_value(item), want, &format!("item {i}"), text)?;
                continue;
            }
            for (member, value) in want.as_object().expect("an item is a path or an object") {
                let have = item.get(member).ok_or_else(|| format!("item {i} has no {member}: {text}"))?;
                same(&self.relative_value(have), value, &format!("item {i} member {member}"), text)?;
            }
        }
        Ok(())
    }

    /// The members `want` lists equal to the report's (its lists item by item).
    fn expect_members(&self, report: &Value, want: &Value, text: &str) -> StepResult {
        for (member, value) in want.as_object().expect("report") {
            let have = report.get(member).ok_or_else(|| format!("no {member}: {text}"))?;
            if have.is_array() {
                self.expect_items(have, value, text).map_err(|e| format!("{member}: {e}"))?;
            } else {
                same(have, value, member, text)?;
            }
        }
        Ok(())
    }
}

/// `got` equals `want` as JSON (numbers as numbers).
fn same(got: &Value, want: &Value, what: &str, text: &str) -> StepResult {
    match difference(got, want, what) {
        None => Ok(()),
        Some(d) => Err(format!("{d} in {text}")),
    }
}
