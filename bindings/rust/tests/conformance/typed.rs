//! The typed half of every check: each JSON output a step produces is decoded through the typed
//! API ([`xsession::types`]), encoded again, and compared with the library's text as JSON values
//! (objects compared without regard to member order). A member the types drop, rename or give
//! the wrong type fails the case, so the binding cannot fall behind the library's output.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use xsession::types::{self, Entries, Entry};

use crate::StepResult;

thread_local! {
    /// The lines of the running case's `input` file.
    pub(crate) static CASE_INPUT: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Where `got` and `want` first differ (a JSON pointer and both values), `None` when they are
/// the same JSON. Numbers are the same when they are equal as numbers (`0` and `0.0`: a cost the
/// library writes as `0` is an `f64` here).
fn difference(got: &Value, want: &Value, at: &str) -> Option<String> {
    match (got, want) {
        (Value::Number(g), Value::Number(w)) => {
            let same = match (g.as_i64(), w.as_i64(), g.as_u64(), w.as_u64()) {
                (Some(g), Some(w), _, _) => g == w,
                (_, _, Some(g), Some(w)) => g == w,
                _ => g.as_f64() == w.as_f64(),
            };
            (!same).then(|| format!("{at}: {g} instead of {w}"))
        }
        (Value::Object(g), Value::Object(w)) => {
            for (name, w_value) in w {
                match g.get(name) {
                    None => return Some(format!("{at}/{name}: dropped (the library wrote {w_value})")),
                    Some(g_value) => {
                        if let Some(d) = difference(g_value, w_value, &format!("{at}/{name}")) {
                            return Some(d);
                        }
                    }
                }
            }
            g.keys().find(|name| !w.contains_key(*name)).map(|name| format!("{at}/{name}: added ({})", g[name]))
        }
        (Value::Array(g), Value::Array(w)) => {
            if g.len() != w.len() {
                return Some(format!("{at}: {} items instead of {}", g.len(), w.len()));
            }
            g.iter().zip(w).enumerate().find_map(|(i, (g, w))| difference(g, w, &format!("{at}/{i}")))
        }
        (g, w) => (g != w).then(|| format!("{at}: {g} instead of {w}")),
    }
}

/// `typed` encoded again equals `text` as JSON.
fn same_as_text<T: Serialize>(what: &str, typed: &T, text: &str) -> StepResult {
    let got = serde_json::to_value(typed).map_err(|e| format!("{what}: encoding the typed value: {e}"))?;
    // Lone surrogates read as U+FFFD, as the typed values hold them.
    let want: Value =
        serde_json::from_str(&types::replace_lone_surrogates(text)).map_err(|e| format!("{what}: not JSON: {e}"))?;
    match difference(&got, &want, "") {
        None => Ok(()),
        Some(d) => Err(format!("{what}: the typed value differs from the library's JSON at {d}\n  library: {text}")),
    }
}

/// Decodes `text` as a `T` ([`types::from_json`], what the typed methods use) and checks the
/// round trip.
pub(crate) fn round_trip<T: Serialize + DeserializeOwned>(what: &str, text: &str) -> StepResult {
    match types::from_json::<T>(text) {
        Ok(typed) => same_as_text(what, &typed, text),
        Err(e) => beyond_serde_json(what, text, &e),
    }
}

/// A failed typed decoding is right only where serde_json has no value for the text at all: a
/// number beyond `f64` (the typed API documents it as an error; `*_json` keeps the bytes).
fn beyond_serde_json(what: &str, text: &str, e: &xsession::Error) -> StepResult {
    let value = serde_json::from_str::<Value>(&types::replace_lone_surrogates(text));
    match value {
        Err(v) if v.to_string().starts_with("number out of range") && e.message().contains("number out of range") => {
            Ok(())
        }
        _ => Err(format!("{what}: typed decoding failed: {e}")),
    }
}

/// An array of entries through [`Entries`]: every entry decodes, round-trips, and keeps its
/// element's exact text as [`Entry::raw`].
pub(crate) fn entries_round_trip(what: &str, text: &str) -> StepResult {
    let entries: Vec<Entry> = match Entries::from_json(text).and_then(|entries| entries.collect()) {
        Ok(entries) => entries,
        Err(e) => return beyond_serde_json(what, text, &e),
    };
    for entry in &entries {
        // A known type that does not fit its variant is only expected of a line the case wrote
        // itself (a deliberately malformed input); anywhere else it is the types falling behind.
        let known = types::KNOWN_TYPES.contains(&entry.entry_type());
        let from_input = CASE_INPUT.with(|input| input.borrow().iter().any(|line| line == entry.raw()));
        ensure!(
            !known || entry.is_typed() || from_input,
            "{what}: entry {} does not fit its type: {}",
            entry.id,
            entry.raw()
        );
    }
    let raws: Vec<&str> = entries.iter().map(Entry::raw).collect();
    let rejoined = format!("[{}]", raws.join(","));
    ensure!(
        rejoined == text,
        "{what}: the entries' raw texts are not the library's:\n  got:  {rejoined}\n  want: {text}"
    );
    same_as_text(what, &entries, text)
}

#[test]
fn differences_name_the_member() {
    let want: Value = serde_json::from_str(r#"{"a":[1,{"b":0}],"c":"x"}"#).unwrap();
    assert_eq!(difference(&serde_json::from_str(r#"{"c":"x","a":[1,{"b":0.0}]}"#).unwrap(), &want, ""), None);
    assert_eq!(
        difference(&serde_json::from_str(r#"{"a":[1,{}],"c":"x"}"#).unwrap(), &want, ""),
        Some("/a/1/b: dropped (the library wrote 0)".to_string())
    );
    assert_eq!(
        difference(&serde_json::from_str(r#"{"a":[1,{"b":0}],"c":"x","d":null}"#).unwrap(), &want, ""),
        Some("/d: added (null)".to_string())
    );
    assert_eq!(
        difference(&serde_json::from_str(r#"{"a":[1,{"b":"0"}],"c":"x"}"#).unwrap(), &want, ""),
        Some("/a/1/b: \"0\" instead of 0".to_string())
    );
}
