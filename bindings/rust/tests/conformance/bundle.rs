//! The stores of a case and the bundle steps (tests/conformance/README.md, "Bundles"; the C++
//! runner's are in tests/conformance/bundle_steps.cc). A case may name more than one store:
//! `use_store` makes the named one current, opening it on first use in a fresh directory with the
//! case's store options and the runner's storage. The current store lives in the runner's `store`
//! and `root`, so every other step acts on it unchanged; the others wait in [`CaseStores`].
//! Bundles are files in the case's bundle directory, written and read through
//! [`Store::export_json`] and [`Store::import_bundle_json`], and their reports compared parsed,
//! member by member, with `{bundles}`, `{root}` and `{root:NAME}` replaced in the expected text.

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::Value;
use xsession::types::{BundleExportReport, BundleImportReport};
use xsession::{ExportOptions, ImportBundleOptions, Store, StoreOptions};

use crate::common::TempDir;
use crate::typed::round_trip;
use crate::{library, status, Runner, StepResult};

/// The case's stores other than the current one, by name, and what opens a new one.
pub(crate) struct CaseStores<'a> {
    case: &'a Value,
    /// The options of every store of the case: the runner's storage.
    options: Box<dyn Fn() -> StoreOptions + 'a>,
    /// The name of the store in the runner's `store` and `root` ("main" first).
    current: String,
    // A store drops before its directory goes.
    others: HashMap<String, (Store, TempDir)>,
    bundles: Option<TempDir>,
}

impl<'a> CaseStores<'a> {
    pub(crate) fn new(case: &'a Value, options: impl Fn() -> StoreOptions + 'a) -> CaseStores<'a> {
        let options = Box::new(options);
        CaseStores { case, options, current: "main".to_string(), others: HashMap::new(), bundles: None }
    }

    /// A store in a fresh directory, with the runner's options and the case's own store options.
    pub(crate) fn open(&self) -> (Store, TempDir) {
        let root = TempDir::new("conformance");
        let mut opts = (self.options)();
        if let Some(name) = self.case.get("store_dialect") {
            opts = opts.default_dialect(name.as_str().unwrap().parse().expect("store_dialect"));
        }
        if let Some(policy) = self.case.get("store_reset_policy") {
            opts = opts.reset_policy(library::policy_of(policy));
        }
        let store = Store::open_with(root.str(), &opts).expect("open store");
        (store, root)
    }

    /// The bundle directory, made on first use (empty, outside every store root).
    fn bundles(&mut self) -> String {
        self.bundles.get_or_insert_with(|| TempDir::new("conformance-bundles")).str().to_string()
    }
}

impl Runner<'_> {
    /// Runs `op` if it is one of the bundle steps (`Ok(true)`); `Ok(false)` otherwise.
    pub(crate) fn bundle_step(&mut self, op: &str, s: &Value, expect: i32) -> Result<bool, String> {
        match op {
            "use_store" => self.use_store(s["store"].as_str().expect("store")),
            "damage_bundle" => self.damage_bundle(s)?,
            "export_bundle" | "import_bundle" => self.bundle(op, s, expect)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Closes the current session; the store `name` becomes the current one.
    fn use_store(&mut self, name: &str) {
        self.session = None;
        self.path.clear();
        if name == self.stores.current {
            return;
        }
        let (store, root) = self.stores.others.remove(name).unwrap_or_else(|| self.stores.open());
        let store = std::mem::replace(&mut self.store, store);
        let root = std::mem::replace(&mut self.root, root);
        let left = std::mem::replace(&mut self.stores.current, name.to_string());
        self.stores.others.insert(left, (store, root));
    }

    /// The root of the store `name`, opened by now if it was not yet.
    fn root_of(&mut self, name: &str) -> String {
        if name == self.stores.current {
            return self.root().to_string();
        }
        if !self.stores.others.contains_key(name) {
            let opened = self.stores.open();
            self.stores.others.insert(name.to_string(), opened);
        }
        self.stores.others[name].1.str().to_string()
    }

    /// `text` with its placeholders replaced: `{bundles}`, `{root:NAME}`, then `{root}`.
    fn placed(&mut self, text: &str) -> Result<String, String> {
        let mut text = text.replace("{bundles}", &self.stores.bundles());
        while let Some(start) = text.find("{root:") {
            let end = text[start..].find('}').ok_or_else(|| format!("unclosed {{root: in {text}"))? + start;
            let root = self.root_of(&text[start + 6..end]);
            text.replace_range(start..=end, &root);
        }
        Ok(text.replace("{root}", self.root()))
    }

    /// `got` has the minified JSON text of `want` once its placeholders are replaced.
    fn same_text(&mut self, got: &Value, want: &Value, what: &str, text: &str) -> StepResult {
        let (got, want) = (got.to_string(), self.placed(&want.to_string())?);
        ensure!(got == want, "{what}: {got} instead of {want} in {text}");
        Ok(())
    }

    /// Each member `want` lists equals the report's; a list has as many items as the report's,
    /// each equal to the report's item, or an object each of whose members equals the item's.
    fn expect_report(&mut self, report: &Value, want: &Value, text: &str) -> StepResult {
        for (member, value) in want.as_object().expect("report") {
            let have = report.get(member).ok_or_else(|| format!("no member {member} in {text}"))?;
            // (No let-else: the crate's rust-version is 1.63.)
            let wanted = match value.as_array() {
                Some(wanted) => wanted,
                None => {
                    self.same_text(have, value, member, text)?;
                    continue;
                }
            };
            let got = have.as_array().ok_or_else(|| format!("{member} is not a list in {text}"))?;
            ensure!(got.len() == wanted.len(), "{member}: {} items, expected {} in {text}", got.len(), wanted.len());
            for (i, (item, want)) in got.iter().zip(wanted).enumerate() {
                let members = match want.as_object() {
                    Some(members) => members,
                    None => {
                        self.same_text(item, want, &format!("{member} {i}"), text)?;
                        continue;
                    }
                };
                for (key, value) in members {
                    let have = item.get(key).ok_or_else(|| format!("{member} {i} has no {key} in {text}"))?;
                    self.same_text(have, value, &format!("{member} {i} {key}"), text)?;
                }
            }
        }
        Ok(())
    }

    /// An export or an import through the binding's bundle API, its report or error checked.
    fn bundle(&mut self, op: &str, s: &Value, expect: i32) -> StepResult {
        let flag = |key: &str| s.get(key).and_then(Value::as_bool) == Some(true);
        let bundle = PathBuf::from(self.stores.bundles()).join(s["bundle"].as_str().expect("bundle"));
        let got = if op == "export_bundle" {
            let ids: Vec<&str> =
                s["sessions"].as_array().expect("sessions").iter().map(|id| id.as_str().unwrap()).collect();
            let opts = ExportOptions::new().lineage(!flag("no_lineage")).gzip(flag("gzip"));
            self.store.export_json(ids, &bundle, &opts)
        } else {
            let pairs = s.get("cwd_map").and_then(Value::as_array).into_iter().flatten().map(|pair| {
                let pair = pair.as_array().expect("a cwd_map pair");
                (pair[0].as_str().unwrap(), pair[1].as_str().unwrap())
            });
            let opts = ImportBundleOptions::new().cwd_map(pairs).rename(flag("rename")).dry_run(flag("dry_run"));
            self.store.import_bundle_json(&bundle, &opts)
        };
        ensure!(status(&got) == expect, "got {:?}, expected {expect}", got.as_ref().err());
        let text = match got {
            Ok(text) => text,
            Err(e) => {
                if let Some(prefix) = s.get("message_prefix").and_then(Value::as_str) {
                    let prefix = self.placed(prefix)?;
                    let message = e.message();
                    ensure!(message.starts_with(&prefix), "message {message:?}, expected it to start {prefix:?}");
                }
                return Ok(());
            }
        };
        if op == "export_bundle" {
            round_trip::<BundleExportReport>(op, &text)?;
        } else {
            round_trip::<BundleImportReport>(op, &text)?;
        }
        let report: Value = serde_json::from_str(&text).map_err(|e| format!("{op}: not JSON: {e}: {text}"))?;
        self.expect_report(&report, &s["report"], &text)
    }

    /// A bundle cut short (`truncate`: its first N bytes kept) and/or with the byte at offset
    /// `flip` inverted, written to `to` (a name in the bundle directory; absent: in place).
    fn damage_bundle(&mut self, s: &Value) -> StepResult {
        let dir = PathBuf::from(self.stores.bundles());
        let from = dir.join(s["bundle"].as_str().expect("bundle"));
        let mut bytes = std::fs::read(&from).map_err(|e| format!("{}: {e}", from.display()))?;
        if let Some(cut) = s.get("truncate").and_then(Value::as_u64) {
            ensure!(cut < bytes.len() as u64, "the bundle ({} bytes) is not longer than the cut {cut}", bytes.len());
            bytes.truncate(cut as usize);
        }
        if let Some(at) = s.get("flip").and_then(Value::as_u64) {
            ensure!(at < bytes.len() as u64, "the bundle ({} bytes) is not longer than the offset {at}", bytes.len());
            bytes[at as usize] ^= 0xff;
        }
        let to = s.get("to").and_then(Value::as_str).map_or(from, |name| dir.join(name));
        std::fs::write(&to, bytes).map_err(|e| format!("{}: {e}", to.display()))
    }
}
