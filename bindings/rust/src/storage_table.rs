//! A [`Storage`] as the C table `xs_storage`: one `extern "C"` trampoline per function, generic
//! over the storage type, with a strong reference to the storage (`Arc::into_raw`) as the
//! table's `user`. The engine's `release` drops that reference.
//!
//! No panic crosses into C (unwinding out of an `extern "C"` function aborts the process): each
//! trampoline runs the method under `catch_unwind`, and a panic becomes `XS_EIO` with the panic's
//! message.

use std::any::Any;
use std::ffi::{c_void, CStr, CString};
use std::fmt;
use std::os::raw::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Duration;

use crate::error::{Error, ErrorCode, Result};
use crate::storage::{OpenMode, ReadBuffer, Storage};
use crate::sys;

/// The storage of [`StoreOptions`](crate::StoreOptions): makes a fresh table (with its own
/// reference to the storage) for every store opened with the options.
#[derive(Clone)]
pub(crate) struct StorageSource(Arc<dyn Fn() -> sys::xs_storage + Send + Sync>);

impl StorageSource {
    pub(crate) fn new<S: Storage>(storage: Arc<S>) -> StorageSource {
        StorageSource(Arc::new(move || table_of(Arc::clone(&storage))))
    }

    /// A table whose `user` the caller owns until it gives it to a store.
    pub(crate) fn table(&self) -> OwnedTable {
        OwnedTable { raw: (self.0)(), given: false }
    }
}

impl fmt::Debug for StorageSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Storage")
    }
}

/// Options with the same storage object are equal.
impl PartialEq for StorageSource {
    fn eq(&self, other: &StorageSource) -> bool {
        Arc::as_ptr(&self.0).cast::<()>() == Arc::as_ptr(&other.0).cast::<()>()
    }
}

impl Eq for StorageSource {}

/// A table and the reference its `user` holds: released on drop unless a store took it
/// (`xs_store_open` succeeded; the store releases it when it is done).
pub(crate) struct OwnedTable {
    pub(crate) raw: sys::xs_storage,
    given: bool,
}

impl OwnedTable {
    /// The store that was opened with this table owns its `user` now.
    pub(crate) fn give(&mut self) {
        self.given = true;
    }
}

impl Drop for OwnedTable {
    fn drop(&mut self) {
        if let (false, Some(release)) = (self.given, self.raw.release) {
            // SAFETY: nobody else owns `user` (the store open failed or never ran).
            unsafe { release(self.raw.user) };
        }
    }
}

fn table_of<S: Storage>(storage: Arc<S>) -> sys::xs_storage {
    sys::xs_storage {
        version: sys::XS_STORAGE_VERSION,
        user: Arc::into_raw(storage) as *mut c_void,
        read: Some(read::<S>),
        stat: Some(stat::<S>),
        open: Some(open::<S>),
        write: Some(write::<S>),
        sync: Some(sync::<S>),
        fstat: Some(fstat::<S>),
        close: Some(close::<S>),
        rename: Some(rename::<S>),
        remove: Some(remove::<S>),
        make_dirs: Some(make_dirs::<S>),
        sync_dir: Some(sync_dir::<S>),
        touch: Some(touch::<S>),
        list: Some(list::<S>),
        lock: Some(lock::<S>),
        unlock: Some(unlock::<S>),
        release: Some(release::<S>),
        // The Storage trait has no one-step append: the engine calls stat() before each write().
        write_if: None,
    }
}

fn panic_text(panic: &(dyn Any + Send)) -> &str {
    if let Some(text) = panic.downcast_ref::<&str>() {
        text
    } else if let Some(text) = panic.downcast_ref::<String>() {
        text
    } else {
        "a panic without a message"
    }
}

/// The status for `e`, its message handed to the engine (an empty one leaves whatever message a
/// delegate set).
fn report(e: &Error) -> sys::xs_status {
    // An error that claims success would make the engine read outputs that were never written.
    let code = if e.code().raw() == sys::XS_OK { sys::XS_ERROR } else { e.code().raw() };
    if e.message().is_empty() {
        return code;
    }
    let message = CString::new(e.message().replace('\0', "\\0")).unwrap_or_default();
    // SAFETY: a NUL-terminated string, copied by the call, on the thread of the storage call.
    unsafe { sys::xs_storage_error(code, message.as_ptr()) }
}

/// Runs one method: its error or panic becomes the status (and message) the engine gets.
fn guard(op: &str, body: impl FnOnce() -> Result<()>) -> sys::xs_status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => sys::XS_OK,
        Ok(Err(e)) => report(&e),
        Err(panic) => {
            report(&Error::new(ErrorCode::Io, format!("storage {op} panicked: {}", panic_text(panic.as_ref()))))
        }
    }
}

/// # Safety
/// `user` is a table's `user` made by [`table_of::<S>`], not yet released.
unsafe fn storage<'a, S: Storage>(user: *mut c_void) -> &'a S {
    // SAFETY: `user` came from Arc::into_raw of an Arc<S> that release() has not dropped yet.
    unsafe { &*(user as *const S) }
}

/// # Safety
/// `path` is NULL or a NUL-terminated string valid for `'a`.
unsafe fn path_arg<'a>(path: *const c_char) -> Result<&'a str> {
    if path.is_null() {
        return Err(Error::new(ErrorCode::Invalid, "NULL path"));
    }
    // SAFETY: guaranteed by the caller.
    unsafe { CStr::from_ptr(path) }
        .to_str()
        .map_err(|_| Error::new(ErrorCode::Invalid, "a storage path that is not UTF-8"))
}

/// # Safety
/// `file` came from [`open`] of the same storage type and is not closed.
unsafe fn file_arg<'a, S: Storage>(file: *mut c_void) -> &'a mut S::File {
    // SAFETY: a Box<S::File> leaked by open(); the engine never overlaps calls on one file.
    unsafe { &mut *(file as *mut S::File) }
}

// The trampolines. Safety, for all: the engine calls them as xsession_storage.h says, with the
// `user` of a live table made by table_of::<S>, valid pointers, and handles this table gave.

unsafe extern "C" fn read<S: Storage>(
    user: *mut c_void,
    path: *const c_char,
    offset: u64,
    max: u64,
    out: *mut sys::xs_storage_buffer,
    got: *mut u64,
    info: *mut sys::xs_storage_info,
) -> sys::xs_status {
    guard("read", || unsafe {
        let (n, i) = storage::<S>(user).read(path_arg(path)?, offset, max, ReadBuffer::from_raw(out))?;
        *got = n;
        *info = i.to_raw();
        Ok(())
    })
}

unsafe extern "C" fn stat<S: Storage>(
    user: *mut c_void,
    path: *const c_char,
    info: *mut sys::xs_storage_info,
) -> sys::xs_status {
    guard("stat", || unsafe {
        *info = storage::<S>(user).stat(path_arg(path)?)?.to_raw();
        Ok(())
    })
}

unsafe extern "C" fn open<S: Storage>(
    user: *mut c_void,
    path: *const c_char,
    flags: u32,
    file: *mut *mut c_void,
) -> sys::xs_status {
    guard("open", || unsafe {
        let mode = match flags {
            sys::XS_STORAGE_APPEND => OpenMode::Append,
            sys::XS_STORAGE_CREATE => OpenMode::Create,
            other => return Err(Error::new(ErrorCode::Invalid, format!("unknown open flags {other:#x}"))),
        };
        let opened = storage::<S>(user).open(path_arg(path)?, mode)?;
        *file = Box::into_raw(Box::new(opened)).cast();
        Ok(())
    })
}

unsafe extern "C" fn write<S: Storage>(
    user: *mut c_void,
    file: *mut c_void,
    data: *const c_void,
    len: usize,
) -> sys::xs_status {
    guard("write", || unsafe {
        let data: &[u8] = if len == 0 { &[] } else { std::slice::from_raw_parts(data.cast(), len) };
        storage::<S>(user).write(file_arg::<S>(file), data)
    })
}

unsafe extern "C" fn sync<S: Storage>(user: *mut c_void, file: *mut c_void) -> sys::xs_status {
    guard("sync", || unsafe { storage::<S>(user).sync(file_arg::<S>(file)) })
}

unsafe extern "C" fn fstat<S: Storage>(
    user: *mut c_void,
    file: *mut c_void,
    info: *mut sys::xs_storage_info,
) -> sys::xs_status {
    guard("fstat", || unsafe {
        *info = storage::<S>(user).fstat(file_arg::<S>(file))?.to_raw();
        Ok(())
    })
}

unsafe extern "C" fn close<S: Storage>(user: *mut c_void, file: *mut c_void) -> sys::xs_status {
    // SAFETY: the handle open() leaked; the engine never uses it after close, whatever it returns.
    let file = unsafe { Box::from_raw(file as *mut S::File) };
    guard("close", || unsafe { storage::<S>(user).close(*file) })
}

unsafe extern "C" fn rename<S: Storage>(
    user: *mut c_void,
    from: *const c_char,
    to: *const c_char,
    flags: u32,
) -> sys::xs_status {
    guard("rename", || unsafe {
        storage::<S>(user).rename(path_arg(from)?, path_arg(to)?, flags & sys::XS_STORAGE_NOREPLACE != 0)
    })
}

unsafe extern "C" fn remove<S: Storage>(user: *mut c_void, path: *const c_char) -> sys::xs_status {
    guard("remove", || unsafe { storage::<S>(user).remove(path_arg(path)?) })
}

unsafe extern "C" fn make_dirs<S: Storage>(user: *mut c_void, path: *const c_char) -> sys::xs_status {
    guard("make_dirs", || unsafe { storage::<S>(user).make_dirs(path_arg(path)?) })
}

unsafe extern "C" fn sync_dir<S: Storage>(user: *mut c_void, path: *const c_char) -> sys::xs_status {
    guard("sync_dir", || unsafe { storage::<S>(user).sync_dir(path_arg(path)?) })
}

unsafe extern "C" fn touch<S: Storage>(user: *mut c_void, path: *const c_char) -> sys::xs_status {
    guard("touch", || unsafe { storage::<S>(user).touch(path_arg(path)?) })
}

type NameFn = unsafe extern "C" fn(ctx: *mut c_void, name: *const c_char, len: usize) -> sys::xs_status;

unsafe extern "C" fn list<S: Storage>(
    user: *mut c_void,
    path: *const c_char,
    name: Option<NameFn>,
    ctx: *mut c_void,
) -> sys::xs_status {
    guard("list", || unsafe {
        let name = name.ok_or_else(|| Error::new(ErrorCode::Invalid, "list without a name callback"))?;
        for entry in storage::<S>(user).list(path_arg(path)?)? {
            // What name() returned goes back as is: the engine's status, with its message.
            let rc = name(ctx, entry.as_ptr().cast(), entry.len());
            if rc != sys::XS_OK {
                return Err(Error::new(ErrorCode::from_raw(rc), ""));
            }
        }
        Ok(())
    })
}

unsafe extern "C" fn lock<S: Storage>(
    user: *mut c_void,
    path: *const c_char,
    timeout_ms: u32,
    lock: *mut *mut c_void,
) -> sys::xs_status {
    guard("lock", || unsafe {
        let held = storage::<S>(user).lock(path_arg(path)?, Duration::from_millis(u64::from(timeout_ms)))?;
        *lock = Box::into_raw(Box::new(held)).cast();
        Ok(())
    })
}

unsafe extern "C" fn unlock<S: Storage>(user: *mut c_void, lock: *mut c_void) {
    // SAFETY: the handle lock() leaked, given back once.
    let lock = unsafe { Box::from_raw(lock as *mut S::Lock) };
    // unlock has no status to fail with; the panic hook has already printed the panic.
    let _ = guard("unlock", || unsafe {
        storage::<S>(user).unlock(*lock);
        Ok(())
    });
}

unsafe extern "C" fn release<S: Storage>(user: *mut c_void) {
    // SAFETY: the engine calls release once, after the last use of `user`.
    let storage = unsafe { Arc::from_raw(user as *const S) };
    let _ = guard("release", move || {
        drop(storage);
        Ok(())
    });
}
