//! The conformance cases replayed over a storage written in Rust (`common/local_fs.rs`, std::fs
//! and flock(2)) passed as the store's storage: the whole suite holds for a host's storage, as
//! for the plain C table of the C++ runner. Each store of a case gets a storage of its own.
use std::cell::RefCell;
use std::sync::Arc;

use xsession::StoreOptions;

use super::common::local_fs::{Counts, LocalFs};
use super::{replay_all, Runner};

#[test]
fn every_conformance_case_gives_the_exact_bytes_over_a_storage_written_in_rust() {
    replay_all(|case| {
        let stores: RefCell<Vec<Arc<Counts>>> = RefCell::default();
        let opts = || {
            let counts = Arc::new(Counts::default());
            stores.borrow_mut().push(Arc::clone(&counts));
            StoreOptions::new().storage(Arc::new(LocalFs::new(counts)))
        };
        // The runner (its sessions, stores and directories) and the options are gone after this line.
        let replayed = Runner::new(case, opts).run();
        replayed?;
        // Each storage was really used, and its store let go of it once.
        for (i, counts) in stores.borrow().iter().enumerate() {
            ensure!(counts.calls() > 0, "store {i}: the storage was never called");
            ensure!(counts.released() == 1, "store {i}: the storage was released {} times", counts.released());
        }
        Ok(())
    })
}
