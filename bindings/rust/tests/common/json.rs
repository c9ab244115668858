//! Comparing a typed value with the library's JSON text (the round trip of the typed outputs):
//! as JSON values, objects without regard to member order.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use xsession::types;

/// Where `got` and `want` first differ (a JSON pointer and both values), `None` when they are
/// the same JSON. Numbers are the same when they are equal as numbers (`0` and `0.0`: a cost the
/// library writes as `0` is an `f64` here).
pub fn difference(got: &Value, want: &Value, at: &str) -> Option<String> {
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
pub fn same_as_text<T: Serialize>(what: &str, typed: &T, text: &str) -> Result<(), String> {
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
pub fn round_trip<T: Serialize + DeserializeOwned>(what: &str, text: &str) -> Result<(), String> {
    match types::from_json::<T>(text) {
        Ok(typed) => same_as_text(what, &typed, text),
        Err(e) => beyond_serde_json(what, text, &e),
    }
}

/// A failed typed decoding is right only where serde_json has no value for the text at all: a
/// number beyond `f64` (the typed API documents it as an error; `*_json` keeps the bytes).
pub fn beyond_serde_json(what: &str, text: &str, e: &xsession::Error) -> Result<(), String> {
    let value = serde_json::from_str::<Value>(&types::replace_lone_surrogates(text));
    match value {
        Err(v) if v.to_string().starts_with("number out of range") && e.message().contains("number out of range") => {
            Ok(())
        }
        _ => Err(format!("{what}: typed decoding failed: {e}")),
    }
}
