//! Errors carry the library's status as an `ErrorCode` (unknown codes kept) and the message of
//! the failing call, read from the handle the call was made on.
use crate::common;

use common::{fixed, store, USER};
use xsession::{status_str, sys, BlobRefs, Error, ErrorCode, SessionOptions};

const KNOWN: [(i32, ErrorCode, &str); 20] = [
    (sys::XS_ERROR, ErrorCode::Error, "XS_ERROR"),
    (sys::XS_ENOMEM, ErrorCode::NoMem, "XS_ENOMEM"),
    (sys::XS_EINVAL, ErrorCode::Invalid, "XS_EINVAL"),
    (sys::XS_EMISUSE, ErrorCode::Misuse, "XS_EMISUSE"),
    (sys::XS_ENOTFOUND, ErrorCode::NotFound, "XS_ENOTFOUND"),
    (sys::XS_EEXISTS, ErrorCode::Exists, "XS_EEXISTS"),
    (sys::XS_EBUFS, ErrorCode::Bufs, "XS_EBUFS"),
    (sys::XS_ECORRUPT, ErrorCode::Corrupt, "XS_ECORRUPT"),
    (sys::XS_EIO, ErrorCode::Io, "XS_EIO"),
    (sys::XS_ELOCKED, ErrorCode::Locked, "XS_ELOCKED"),
    (sys::XS_EVERSION, ErrorCode::Version, "XS_EVERSION"),
    (sys::XS_ENOSPC, ErrorCode::NoSpace, "XS_ENOSPC"),
    (sys::XS_EREADONLY, ErrorCode::ReadOnly, "XS_EREADONLY"),
    (sys::XS_ECONFLICT, ErrorCode::Conflict, "XS_ECONFLICT"),
    (sys::XS_ELIMIT, ErrorCode::Limit, "XS_ELIMIT"),
    (sys::XS_ENOHEADER, ErrorCode::NoHeader, "XS_ENOHEADER"),
    (sys::XS_EPOISONED, ErrorCode::Poisoned, "XS_EPOISONED"),
    (sys::XS_EAMBIGUOUS, ErrorCode::Ambiguous, "XS_EAMBIGUOUS"),
    (sys::XS_EDIALECT, ErrorCode::Dialect, "XS_EDIALECT"),
    (sys::XS_EINTERNAL, ErrorCode::Internal, "XS_EINTERNAL"),
];

#[test]
fn every_status_maps_to_its_variant_and_back() {
    for (raw, code, name) in KNOWN {
        assert_eq!(ErrorCode::from_raw(raw), code);
        assert_eq!(code.raw(), raw);
        assert_eq!(code.name(), Some(name));
        // The library's own name for the code starts with the same macro name.
        assert!(status_str(raw).starts_with(&format!("{name}: ")), "{}", status_str(raw));
    }
}

#[test]
fn unknown_codes_are_kept_as_they_came() {
    for raw in [-20, -42, -98, -100, i32::MIN, 0, 7] {
        let code = ErrorCode::from_raw(raw);
        assert_eq!(code, ErrorCode::Unknown(raw));
        assert_eq!(code.raw(), raw);
        assert_eq!(code.name(), None);
    }
    assert_eq!(status_str(-42), "unknown status");
    let err = Error::new(ErrorCode::from_raw(-42), "from a newer library");
    assert_eq!(err.to_string(), "unknown status: from a newer library");
}

#[test]
fn errors_display_the_status_name_and_the_message() {
    let err = Error::new(ErrorCode::NotFound, "no entry \"x\"");
    assert_eq!(err.to_string(), format!("{}: no entry \"x\"", status_str(sys::XS_ENOTFOUND)));
    assert_eq!(Error::new(ErrorCode::Io, "").to_string(), status_str(sys::XS_EIO));
    let utf8 = Error::new(ErrorCode::InvalidUtf8, "xs_store_list: bad bytes");
    assert_eq!(utf8.to_string(), "invalid UTF-8 from the library: xs_store_list: bad bytes");
    assert_eq!(ErrorCode::InvalidUtf8.raw(), sys::XS_ERROR);
    // Usable with `?` in functions returning Box<dyn Error + Send + Sync>.
    fn boxed() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        Err(Error::new(ErrorCode::Limit, "too deep"))?
    }
    assert_eq!(boxed().unwrap_err().to_string(), format!("{}: too deep", status_str(sys::XS_ELIMIT)));
}

#[test]
fn a_failing_call_carries_its_own_message_and_the_handle_keeps_it() {
    let (_dir, store) = store();
    let session = store.create_session("/work/proj", &fixed()).unwrap();
    let err = session.entry_json("no-such-entry", BlobRefs::AsStored).unwrap_err();
    assert_eq!(err.code(), ErrorCode::NotFound);
    assert!(err.message().contains("no-such-entry"), "{err}");
    assert_eq!(session.last_error(), Some(err));
    // A success clears the handle's error.
    session.append_message(USER).unwrap();
    assert_eq!(session.last_error(), None);
}

#[test]
fn constructor_errors_are_read_from_the_store() {
    let (dir, store) = store();
    let missing = format!("{}/sessions/none.jsonl", dir.str());
    let err = store.open_session(&missing, &SessionOptions::new()).err().expect("no such file");
    assert_eq!(err.code(), ErrorCode::NotFound);
    assert!(err.message().contains("none.jsonl"), "{err}");
    assert_eq!(store.last_error(), Some(err));
    store.session_dir("/p").unwrap();
    assert_eq!(store.last_error(), None);
}

#[test]
fn bad_json_is_refused_and_changes_nothing() {
    let (_dir, store) = store();
    let session = store.create_session("/work/proj", &fixed()).unwrap();
    for bad in ["{", "[]", r#"{"role":"user","content":"x"} trailing"#, "{\"role\":\"user\",\"content\":\"\0\"}"] {
        let err = session.append_message(bad).unwrap_err();
        assert_eq!(err.code(), ErrorCode::Invalid, "{bad:?}: {err}");
        assert!(!err.message().is_empty());
    }
    assert_eq!(session.entries_json(BlobRefs::AsStored).unwrap(), "[]");
    assert_eq!(session.info().unwrap().entry_count, 0);
}

#[test]
fn nul_bytes_in_c_string_arguments_are_refused_before_the_call() {
    let (_dir, store) = store();
    let err = store.create_session("/work/\0proj", &fixed()).err().unwrap();
    assert_eq!((err.code(), err.message()), (ErrorCode::Invalid, "cwd contains a NUL byte"));
    let err = store.create_session("/work/proj", &fixed().title("a\0b")).err().unwrap();
    assert_eq!((err.code(), err.message()), (ErrorCode::Invalid, "title contains a NUL byte"));
    let session = store.create_session("/work/proj", &fixed()).unwrap();
    let err = session.append_label("x\0y", Some("l")).unwrap_err();
    assert_eq!((err.code(), err.message()), (ErrorCode::Invalid, "target id contains a NUL byte"));
    // Nothing reached the library, so the handles hold no error from these calls.
    assert_eq!(session.last_error(), None);
}

#[test]
fn a_read_only_session_refuses_every_write() {
    let (_dir, store) = store();
    let writer = store.create_session("/work/proj", &fixed().no_defer(true)).unwrap();
    writer.append_message(USER).unwrap();
    let path = writer.info().unwrap().path;
    drop(writer);
    let before = std::fs::read(&path).unwrap();

    let reader = store.open_session(&path, &SessionOptions::new().read_only(true)).unwrap();
    let results = [
        reader.append_message(USER).map(drop),
        reader.append(r#"{"type":"custom","customType":"x"}"#).map(drop),
        reader.append_thinking_level(Some("high")).map(drop),
        reader.set_title(Some("t")),
        reader.persist(),
    ];
    for result in results {
        let err = result.unwrap_err();
        assert_eq!(err.code(), ErrorCode::ReadOnly, "{err}");
    }
    drop(reader);
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_caller_supplied_id_that_is_taken_is_exists() {
    let (_dir, store) = store();
    let session = store.create_session("/work/proj", &fixed()).unwrap();
    let entry = r#"{"type":"custom","id":"mine","customType":"x"}"#;
    assert_eq!(session.append(entry).unwrap(), "mine");
    assert_eq!(session.append(entry).unwrap_err().code(), ErrorCode::Exists);
}
