//! [`BuiltinStorage`]: the library's own backends (`xs_storage_posix`, `xs_storage_memory`) as a
//! [`Storage`], to pass as a store's storage or to delegate to from a storage of one's own.

use std::ffi::c_void;
use std::os::raw::c_char;
use std::time::Duration;

use crate::buffer::c_string;
use crate::error::{Error, ErrorCode, Result};
use crate::storage::{OpenMode, ReadBuffer, Storage, StorageInfo};
use crate::sys;

/// One of the library's built-in backends, each call one call of its C table.
///
/// An error carries the backend's status and an empty message: the backend has handed its own
/// message (the path, the system's error text) to the engine already, so a [`Storage`] method
/// that returns such an error as is reports that message with it.
///
/// ```
/// use std::sync::Arc;
/// use xsession::{BuiltinStorage, SessionOptions, Store, StoreOptions};
/// # fn main() -> xsession::Result<()> {
/// let memory = Arc::new(BuiltinStorage::memory()?);
/// let store = Store::open_with("/agent", &StoreOptions::new().storage(memory))?;
/// let session = store.create_session("/project", &SessionOptions::new().no_defer(true))?;
/// # let _ = session;
/// # Ok(())
/// # }
/// ```
pub struct BuiltinStorage {
    table: sys::xs_storage,
}

// SAFETY: the built-in tables are thread-safe as xsession_storage.h requires of every table, and
// `user` is released only by drop.
unsafe impl Send for BuiltinStorage {}
// SAFETY: as above.
unsafe impl Sync for BuiltinStorage {}

/// A file open in a [`BuiltinStorage`]: give it back to [`Storage::close`] of the same storage
/// (dropping it instead leaks the backend's handle).
#[derive(Debug)]
pub struct BuiltinFile(*mut c_void);
// SAFETY: the backend's handle may be used from any thread (one call at a time: `&mut`).
unsafe impl Send for BuiltinFile {}

/// A lock held in a [`BuiltinStorage`]: give it back to [`Storage::unlock`] of the same storage
/// (dropping it instead keeps the lock until the process ends).
#[derive(Debug)]
pub struct BuiltinLock(*mut c_void);
// SAFETY: as for BuiltinFile.
unsafe impl Send for BuiltinLock {}

fn check(rc: sys::xs_status) -> Result<()> {
    if rc == sys::XS_OK {
        Ok(())
    } else {
        Err(Error::new(ErrorCode::from_raw(rc), ""))
    }
}

/// The built-in tables fill every function; a missing one is the library's bug.
macro_rules! function {
    ($self:ident, $name:ident) => {
        $self.table.$name.expect(concat!("the built-in storage has no ", stringify!($name)))
    };
}

impl BuiltinStorage {
    /// The POSIX backend, the one a store uses without a storage of its own (`xs_storage_posix`).
    pub fn posix() -> Result<BuiltinStorage> {
        BuiltinStorage::fill(sys::xs_storage_posix)
    }

    /// A new, empty in-memory file system, the one of [`Store::in_memory`](crate::Store::in_memory)
    /// (`xs_storage_memory`); it lives as long as this value and every store that uses it.
    pub fn memory() -> Result<BuiltinStorage> {
        BuiltinStorage::fill(sys::xs_storage_memory)
    }

    fn fill(make: unsafe extern "C" fn(*mut sys::xs_storage) -> sys::xs_status) -> Result<BuiltinStorage> {
        let mut table = std::mem::MaybeUninit::<sys::xs_storage>::zeroed();
        // SAFETY: `table` is a writable xs_storage; the function fills it or fails.
        match unsafe { make(table.as_mut_ptr()) } {
            // SAFETY: filled by the successful call.
            sys::XS_OK => Ok(BuiltinStorage { table: unsafe { table.assume_init() } }),
            rc => Err(Error::new(ErrorCode::from_raw(rc), "cannot make the built-in storage")),
        }
    }

    fn stat_call(
        &self,
        call: impl FnOnce(*mut c_void, *mut sys::xs_storage_info) -> sys::xs_status,
    ) -> Result<StorageInfo> {
        let mut info = sys::xs_storage_info::default();
        check(call(self.table.user, &mut info))?;
        Ok(StorageInfo::from_raw(&info))
    }

    fn path_call(
        &self,
        path: &str,
        call: unsafe extern "C" fn(*mut c_void, *const c_char) -> sys::xs_status,
    ) -> Result<()> {
        let path = c_string(path, "path")?;
        // SAFETY: the table's own `user`, a NUL-terminated path that outlives the call.
        check(unsafe { call(self.table.user, path.as_ptr()) })
    }
}

impl Drop for BuiltinStorage {
    fn drop(&mut self) {
        if let Some(release) = self.table.release {
            // SAFETY: the last use of `user`: the stores that used this storage held a reference.
            unsafe { release(self.table.user) };
        }
    }
}

// Safety, for every call below: `user` is the table's own, live until drop; every pointer
// argument outlives the call; files and locks are handles this table gave.
impl Storage for BuiltinStorage {
    type File = BuiltinFile;
    type Lock = BuiltinLock;

    fn read(&self, path: &str, offset: u64, max: u64, buffer: ReadBuffer<'_>) -> Result<(u64, StorageInfo)> {
        let path = c_string(path, "path")?;
        let (mut got, mut info) = (0, sys::xs_storage_info::default());
        // The engine's own buffer goes straight to the backend: the bytes land where the engine
        // wants them.
        check(unsafe {
            function!(self, read)(self.table.user, path.as_ptr(), offset, max, buffer.raw, &mut got, &mut info)
        })?;
        Ok((got, StorageInfo::from_raw(&info)))
    }

    fn stat(&self, path: &str) -> Result<StorageInfo> {
        let path = c_string(path, "path")?;
        self.stat_call(|user, info| unsafe { function!(self, stat)(user, path.as_ptr(), info) })
    }

    fn open(&self, path: &str, mode: OpenMode) -> Result<BuiltinFile> {
        let path = c_string(path, "path")?;
        let flags = match mode {
            OpenMode::Append => sys::XS_STORAGE_APPEND,
            OpenMode::Create => sys::XS_STORAGE_CREATE,
        };
        let mut file = std::ptr::null_mut();
        check(unsafe { function!(self, open)(self.table.user, path.as_ptr(), flags, &mut file) })?;
        Ok(BuiltinFile(file))
    }

    fn write(&self, file: &mut BuiltinFile, data: &[u8]) -> Result<()> {
        check(unsafe { function!(self, write)(self.table.user, file.0, data.as_ptr().cast(), data.len()) })
    }

    fn sync(&self, file: &mut BuiltinFile) -> Result<()> {
        check(unsafe { function!(self, sync)(self.table.user, file.0) })
    }

    fn fstat(&self, file: &mut BuiltinFile) -> Result<StorageInfo> {
        self.stat_call(|user, info| unsafe { function!(self, fstat)(user, file.0, info) })
    }

    fn close(&self, file: BuiltinFile) -> Result<()> {
        check(unsafe { function!(self, close)(self.table.user, file.0) })
    }

    fn rename(&self, from: &str, to: &str, no_replace: bool) -> Result<()> {
        let (from, to) = (c_string(from, "path")?, c_string(to, "path")?);
        let flags = if no_replace { sys::XS_STORAGE_NOREPLACE } else { 0 };
        check(unsafe { function!(self, rename)(self.table.user, from.as_ptr(), to.as_ptr(), flags) })
    }

    fn remove(&self, path: &str) -> Result<()> {
        self.path_call(path, function!(self, remove))
    }

    fn make_dirs(&self, path: &str) -> Result<()> {
        self.path_call(path, function!(self, make_dirs))
    }

    fn sync_dir(&self, path: &str) -> Result<()> {
        self.path_call(path, function!(self, sync_dir))
    }

    fn touch(&self, path: &str) -> Result<()> {
        self.path_call(path, function!(self, touch))
    }

    fn list(&self, path: &str) -> Result<Vec<String>> {
        unsafe extern "C" fn add(ctx: *mut c_void, name: *const c_char, len: usize) -> sys::xs_status {
            // SAFETY: `ctx` is the Vec below; the backend passes `len` readable bytes.
            let (names, bytes) =
                unsafe { (&mut *(ctx as *mut Vec<String>), std::slice::from_raw_parts(name.cast::<u8>(), len)) };
            match std::str::from_utf8(bytes) {
                Ok(name) => {
                    names.push(name.to_owned());
                    sys::XS_OK
                }
                // A lossy name would be another file's.
                Err(_) => sys::XS_EINVAL,
            }
        }
        let path = c_string(path, "path")?;
        let mut names: Vec<String> = Vec::new();
        let ctx: *mut Vec<String> = &mut names;
        check(unsafe { function!(self, list)(self.table.user, path.as_ptr(), Some(add), ctx.cast()) })?;
        Ok(names)
    }

    fn lock(&self, path: &str, timeout: Duration) -> Result<BuiltinLock> {
        let path = c_string(path, "path")?;
        let ms = u32::try_from(timeout.as_millis()).unwrap_or(u32::MAX);
        let mut lock = std::ptr::null_mut();
        check(unsafe { function!(self, lock)(self.table.user, path.as_ptr(), ms, &mut lock) })?;
        Ok(BuiltinLock(lock))
    }

    fn unlock(&self, lock: BuiltinLock) {
        unsafe { function!(self, unlock)(self.table.user, lock.0) }
    }
}
