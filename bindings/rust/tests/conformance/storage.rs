//! The conformance cases replayed over a storage written in Rust (`common/local_fs.rs`, std::fs
//! and flock(2)) passed as the store's storage: the whole suite holds for a host's storage, as
//! for the plain C table of the C++ runner.
use std::sync::Arc;

use xsession::StoreOptions;

use super::common::local_fs::{Counts, LocalFs};
use super::{replay_all, Runner};

#[test]
fn every_conformance_case_gives_the_exact_bytes_over_a_storage_written_in_rust() {
    replay_all(|case| {
        let counts = Arc::new(Counts::default());
        let opts = StoreOptions::new().storage(Arc::new(LocalFs::new(Arc::clone(&counts))));
        // The runner (its session, store and directory) and the options are gone after this line.
        let replayed = Runner::new(case, opts).run();
        replayed?;
        // The storage was really used, and the store let go of it once.
        ensure!(counts.calls() > 0, "the storage was never called");
        ensure!(counts.released() == 1, "the storage was released {} times", counts.released());
        Ok(())
    })
}
