//! The typed half of every check: each JSON output a step produces is decoded through the typed
//! API ([`xsession::types`]), encoded again, and compared with the library's text as JSON values
//! (objects compared without regard to member order). A member the types drop, rename or give
//! the wrong type fails the case, so the binding cannot fall behind the library's output.

use xsession::types::{self, Entries, Entry};

pub(crate) use crate::common::json::{beyond_serde_json, round_trip, same_as_text};
use crate::StepResult;

thread_local! {
    /// The lines of the running case's `input` file.
    pub(crate) static CASE_INPUT: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
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
