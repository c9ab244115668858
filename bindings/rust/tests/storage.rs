//! Storage of the host's own ([`Storage`], `xsession_storage.h`): what a failing, locked or
//! panicking storage gives the caller, when the store lets go of it, and the built-in backends
//! as a store's storage. The conformance replay over a Rust storage is in
//! tests/conformance/storage.rs.
use crate::common;

use std::sync::Arc;

use common::local_fs::{Counts, Fault, LocalFs};
use common::{fixed, TempDir, ASSISTANT, USER};
use xsession::{
    BlobRefs, BuiltinStorage, Error, ErrorCode, OpenMode, SessionOptions, Storage, StorageKind, Store, StoreOptions,
};

/// A store in a fresh directory over a [`LocalFs`] the test keeps a handle on.
fn local_store() -> (TempDir, Arc<Counts>, Arc<LocalFs>, Store) {
    let dir = TempDir::new("storage");
    let counts = Arc::new(Counts::default());
    let fs = Arc::new(LocalFs::new(Arc::clone(&counts)));
    let store = Store::open_with(dir.str(), &StoreOptions::new().storage(Arc::clone(&fs))).unwrap();
    (dir, counts, fs, store)
}

#[test]
fn a_write_that_fails_with_enospc_fails_the_append_with_its_status_and_message() {
    let (_dir, _counts, fs, store) = local_store();
    let session = store.create_session("/work/proj", &fixed().no_defer(true)).unwrap();
    fs.inject("write", Fault::Fail(Error::new(ErrorCode::NoSpace, "the test's quota is used up")));
    let e = session.append_message(USER).unwrap_err();
    assert_eq!(e.code(), ErrorCode::NoSpace, "{e}");
    assert!(e.message().contains("the test's quota is used up"), "{e}");
}

#[test]
fn a_lock_that_reports_elocked_refuses_a_writer() {
    let (_dir, _counts, fs, store) = local_store();
    let session = store.create_session("/work/proj", &fixed().no_defer(true)).unwrap();
    let path = session.info().unwrap().path;
    session.close().unwrap();

    fs.inject("lock", Fault::Fail(Error::new(ErrorCode::Locked, "held on another host")));
    let e = store.open_session(&path, &SessionOptions::new()).err().expect("the lock is held");
    // The engine words a held lock itself ("locked by another writer: <path> …").
    assert_eq!(e.code(), ErrorCode::Locked, "{e}");
    assert!(e.message().contains(&path), "{e}");
    // A reader takes no lock.
    assert!(store.open_session(&path, &SessionOptions::new().read_only(true)).is_ok());
    fs.heal();
    store.open_session(&path, &SessionOptions::new()).unwrap();
}

#[test]
fn a_panic_in_a_storage_method_is_an_io_error_with_the_panic_text() {
    let (_dir, _counts, fs, store) = local_store();
    let session = store.create_session("/work/proj", &fixed().no_defer(true)).unwrap();
    fs.inject("write", Fault::Panic("the disk layer fell over"));
    let e = session.append_message(USER).unwrap_err();
    assert_eq!(e.code(), ErrorCode::Io, "{e}");
    assert!(e.message().contains("storage write panicked: the disk layer fell over"), "{e}");

    // The process and the store carry on.
    fs.heal();
    let again = store.create_session("/work/proj", &SessionOptions::new().no_defer(true)).unwrap();
    again.append_message(USER).unwrap();
}

#[test]
fn the_store_releases_the_storage_once_after_the_store_and_its_sessions() {
    let dir = TempDir::new("release");
    let counts = Arc::new(Counts::default());
    let opts = StoreOptions::new().storage(Arc::new(LocalFs::new(Arc::clone(&counts))));
    let store = Store::open_with(dir.str(), &opts).unwrap();
    drop(opts); // the store holds the only reference now
    let session = store.create_session("/work/proj", &fixed().no_defer(true)).unwrap();
    drop(store);
    assert_eq!(counts.released(), 0, "a session still uses the storage");
    session.append_message(USER).unwrap();
    session.close().unwrap();
    assert_eq!(counts.released(), 1);
    assert!(counts.calls() > 0);
}

#[test]
fn a_store_that_fails_to_open_does_not_release_the_storage() {
    let dir = TempDir::new("release-failed");
    let root = dir.path().join("a-file");
    std::fs::write(&root, b"not a directory").unwrap();
    let counts = Arc::new(Counts::default());
    let fs = Arc::new(LocalFs::new(Arc::clone(&counts)));
    let opts = StoreOptions::new().storage(Arc::clone(&fs));

    // The storage's stat says the root is a file.
    let e = Store::open_with(&root, &opts).err().expect("a root that is a file");
    assert_eq!(e.code(), ErrorCode::Invalid, "{e}");
    assert!(counts.calls() > 0, "the root was looked at through the storage");
    // The failed open's table let go of its reference exactly once (the library did not release
    // it, the binding did): the test's and the options' remain.
    assert_eq!(Arc::strong_count(&fs), 2);
    assert_eq!(counts.released(), 0);
    drop(opts);
    drop(fs);
    assert_eq!(counts.released(), 1);
}

#[test]
fn the_built_in_memory_storage_keeps_sessions_across_stores() {
    let memory = Arc::new(BuiltinStorage::memory().unwrap());
    let opts = StoreOptions::new().storage(Arc::clone(&memory));
    let store = Store::open_with("/agent", &opts).unwrap();
    let session = store.create_session("/work/proj", &fixed()).unwrap();
    session.append_message(USER).unwrap();
    session.append_message(ASSISTANT).unwrap();
    let entries = session.entries_json(BlobRefs::AsStored).unwrap();
    let path = session.info().unwrap().path;
    session.close().unwrap();
    drop(store);
    assert!(!std::path::Path::new(&path).exists(), "{path} is in memory, not on disk");

    // Another store over the same memory sees the same session.
    let again = Store::open_with("/agent", &opts).unwrap();
    let reopened = again.open_session(&path, &SessionOptions::new()).unwrap();
    assert_eq!(reopened.entries_json(BlobRefs::AsStored).unwrap(), entries);
    assert_eq!(reopened.entries(BlobRefs::AsStored).unwrap().len(), 2);
}

#[test]
fn the_built_in_posix_storage_writes_the_same_bytes_as_the_default() {
    let run = |opts: &StoreOptions| {
        let dir = TempDir::new("posix");
        let store = Store::open_with(dir.str(), opts).unwrap();
        let session = store.create_session("/work/proj", &fixed().session_id("posix-1")).unwrap();
        session.append_message(USER).unwrap();
        session.append_message(ASSISTANT).unwrap();
        let path = session.info().unwrap().path;
        session.close().unwrap();
        std::fs::read_to_string(path).unwrap()
    };
    let posix = StoreOptions::new().storage(Arc::new(BuiltinStorage::posix().unwrap()));
    let bytes = run(&posix);
    assert!(bytes.starts_with(r#"{"type":"session","version":3,"id":"posix-1""#), "{bytes}");
    assert_eq!(bytes, run(&StoreOptions::new()));
}

#[test]
fn a_built_in_storage_can_be_called_directly() {
    let memory = BuiltinStorage::memory().unwrap();
    assert_eq!(memory.stat("/a").unwrap_err().code(), ErrorCode::NotFound);
    memory.make_dirs("/a/b").unwrap();
    assert_eq!(memory.stat("/a/b").unwrap().kind, StorageKind::Dir);

    let mut file = memory.open("/a/b/f", OpenMode::Create).unwrap();
    memory.write(&mut file, b"hello").unwrap();
    memory.sync(&mut file).unwrap();
    assert_eq!(memory.fstat(&mut file).unwrap().size, 5);
    memory.close(file).unwrap();
    assert_eq!(memory.open("/a/b/f", OpenMode::Create).unwrap_err().code(), ErrorCode::Exists);

    memory.rename("/a/b/f", "/a/b/g", true).unwrap();
    assert_eq!(memory.list("/a/b").unwrap(), vec!["g".to_string()]);
    let info = memory.stat("/a/b/g").unwrap();
    assert_eq!((info.size, info.kind), (5, StorageKind::File));

    let lock = memory.lock("/a/b/g.lock", std::time::Duration::ZERO).unwrap();
    let second = memory.lock("/a/b/g.lock", std::time::Duration::ZERO).unwrap_err();
    assert_eq!(second.code(), ErrorCode::Locked);
    memory.unlock(lock);
    memory.unlock(memory.lock("/a/b/g.lock", std::time::Duration::ZERO).unwrap());

    memory.remove("/a/b/g").unwrap();
    assert_eq!(memory.stat("/a/b/g").unwrap_err().code(), ErrorCode::NotFound);
}

#[test]
fn in_memory_and_a_storage_together_are_refused() {
    let opts = StoreOptions::new().in_memory(true).storage(Arc::new(BuiltinStorage::memory().unwrap()));
    assert_eq!(Store::open_with("", &opts).err().expect("refused").code(), ErrorCode::Invalid);
}
