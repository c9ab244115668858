//! [`Storage`]: where a store keeps its files when the host supplies it (`xsession_storage.h`),
//! and the types its methods take and return. The C table that carries a `Storage` to the
//! engine is built in `storage_table.rs`; the built-in backends as a `Storage` are in
//! `builtin_storage.rs`.

use std::marker::PhantomData;
use std::time::Duration;

use crate::error::{Error, ErrorCode, Result};
use crate::sys;

/// What a path names (`xs_storage_info`), as stat(2) would say it. Fields a storage cannot know
/// are 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StorageInfo {
    /// Bytes in the file.
    pub size: u64,
    /// Last modification, ms since the epoch (retention and blob collection read it).
    pub mtime_ms: i64,
    /// With `ino`, the identity of the file the path names: a rename over the path gives it a
    /// new identity, appends do not (the engine notices replaced files by it). Not both 0 for a
    /// file.
    pub dev: u64,
    /// See `dev`.
    pub ino: u64,
    /// Names the file has; 1 unless the storage has hard links.
    pub links: u64,
    /// A file, a directory or something else.
    pub kind: StorageKind,
}

/// [`StorageInfo::kind`] (`XS_STORAGE_FILE`, `XS_STORAGE_DIR`, `XS_STORAGE_OTHER`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StorageKind {
    /// A regular file.
    #[default]
    File,
    /// A directory.
    Dir,
    /// Anything else (a device, a socket).
    Other,
}

impl StorageInfo {
    pub(crate) fn to_raw(self) -> sys::xs_storage_info {
        sys::xs_storage_info {
            size: self.size,
            mtime_ms: self.mtime_ms,
            dev: self.dev,
            ino: self.ino,
            links: self.links,
            kind: match self.kind {
                StorageKind::File => sys::XS_STORAGE_FILE,
                StorageKind::Dir => sys::XS_STORAGE_DIR,
                StorageKind::Other => sys::XS_STORAGE_OTHER,
            },
        }
    }

    pub(crate) fn from_raw(raw: &sys::xs_storage_info) -> StorageInfo {
        StorageInfo {
            size: raw.size,
            mtime_ms: raw.mtime_ms,
            dev: raw.dev,
            ino: raw.ino,
            links: raw.links,
            kind: match raw.kind {
                sys::XS_STORAGE_FILE => StorageKind::File,
                sys::XS_STORAGE_DIR => StorageKind::Dir,
                _ => StorageKind::Other,
            },
        }
    }
}

/// How [`Storage::open`] opens a file for writing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpenMode {
    /// An existing file, every write at its end; [`ErrorCode::NotFound`] if there is none
    /// (`XS_STORAGE_APPEND`).
    Append,
    /// A new file that must not exist ([`ErrorCode::Exists`] if it does; [`ErrorCode::NotFound`]
    /// if its directory does not): the engine's temp files and new sessions (`XS_STORAGE_CREATE`).
    Create,
}

/// The engine's memory that [`Storage::read`] fills (`xs_storage_buffer`): taken once, for the
/// number of bytes the read will give, so nothing is copied twice.
pub struct ReadBuffer<'a> {
    pub(crate) raw: *mut sys::xs_storage_buffer,
    _engine: PhantomData<&'a mut [u8]>,
}

impl<'a> ReadBuffer<'a> {
    /// # Safety
    /// `raw` must be the engine's buffer of the `read()` call running, live for `'a`.
    pub(crate) unsafe fn from_raw(raw: *mut sys::xs_storage_buffer) -> ReadBuffer<'a> {
        ReadBuffer { raw, _engine: PhantomData }
    }

    /// `size` bytes of the engine's memory, zeroed, for the read to fill (`out->alloc`). Fails
    /// with [`ErrorCode::NoMem`] when the engine cannot take that many (out of memory, or more
    /// than the caller's limit; the engine then reports its own status). Taking it consumes the
    /// buffer: the engine gives memory once per read.
    pub fn alloc(self, size: u64) -> Result<&'a mut [u8]> {
        let len = usize::try_from(size).map_err(|_| Error::new(ErrorCode::NoMem, "read larger than memory"))?;
        // SAFETY: `raw` is the engine's live buffer (from_raw's contract), used at most once
        // because `self` is consumed.
        let ptr = unsafe {
            let alloc =
                (*self.raw).alloc.ok_or_else(|| Error::new(ErrorCode::Internal, "read buffer without alloc"))?;
            alloc(self.raw, size)
        };
        if ptr.is_null() {
            return Err(Error::new(ErrorCode::NoMem, format!("the engine took no buffer of {size} bytes")));
        }
        if len == 0 {
            return Ok(&mut []);
        }
        // SAFETY: the engine gave `len` writable bytes that stay valid and unaliased until the
        // read returns (`'a`); zeroing them first makes them initialised memory for a `&mut [u8]`.
        unsafe {
            std::ptr::write_bytes(ptr.cast::<u8>(), 0, len);
            Ok(std::slice::from_raw_parts_mut(ptr.cast::<u8>(), len))
        }
    }
}

/// Storage of a store's files that the host supplies ([`StoreOptions::storage`]): every read,
/// write, rename and lock of the store goes through these methods instead of the disk.
///
/// The contract is `xsession_storage.h`'s (docs/storage.md), in short:
///
/// - Paths are `/`-separated UTF-8 under the store's root (`<root>/sessions/…`, lock files
///   `….lock`, temp files `.<name>.xs-tmp-<random>`); a storage may keep them however it likes.
/// - Errors are [`Error`]s whose [`ErrorCode`] the engine acts on, so it must be exact:
///   [`ErrorCode::NotFound`] (no such path, or its parent is missing), [`ErrorCode::Exists`],
///   [`ErrorCode::Locked`], [`ErrorCode::NoSpace`], [`ErrorCode::NoMem`], [`ErrorCode::Invalid`]
///   (a path of the wrong kind), [`ErrorCode::Io`] for anything else. The message becomes the
///   message of the failed call (`xs_storage_error`); an empty one leaves the message a
///   delegate ([`BuiltinStorage`]) set, or the engine's own (`storage <op> <path>: …`).
/// - Atomicity and durability: [`Storage::write`] appends all the bytes or fails;
///   [`Storage::sync`] makes them durable; [`Storage::rename`] replaces its target atomically
///   (a reader sees the old file or the new one); [`Storage::lock`] is exclusive across every
///   process that can reach the store and dies with its holder.
/// - Threads: the engine calls the methods from any thread, several at once (hence
///   `Send + Sync`); calls on one open file or one lock never overlap.
/// - Reentrancy: a method runs inside a call of the store that uses it, so it must not call
///   that store (or a session of it): the store's lock is held and the call would wait for ever.
/// - A panic in a method does not cross into C: the call fails with [`ErrorCode::Io`] and the
///   panic's message.
///
/// The store owns a clone of the `Arc` given to [`StoreOptions::storage`] until the store and
/// every session opened from it are gone; then it drops it (the table's `release`).
///
/// [`StoreOptions::storage`]: crate::StoreOptions::storage
/// [`BuiltinStorage`]: crate::BuiltinStorage
pub trait Storage: Send + Sync + 'static {
    /// An open file ([`Storage::open`]).
    type File: Send + 'static;
    /// A held lock ([`Storage::lock`]).
    type Lock: Send + 'static;

    /// Reads up to `max` bytes at `offset` of the file `path` (fewer at its end, none past it):
    /// takes `buffer.alloc(n)` with the count it will give, fills it, and returns the count
    /// written (less than `n` only if the file shrank meanwhile) and the file's [`StorageInfo`],
    /// read at the same time so that its size and identity match the bytes.
    fn read(&self, path: &str, offset: u64, max: u64, buffer: ReadBuffer<'_>) -> Result<(u64, StorageInfo)>;
    /// Describes `path` (a file or a directory).
    fn stat(&self, path: &str) -> Result<StorageInfo>;
    /// Opens `path` for writing ([`OpenMode`]).
    fn open(&self, path: &str, mode: OpenMode) -> Result<Self::File>;
    /// Appends all of `data` at the end of the file, or fails (some may be written then).
    fn write(&self, file: &mut Self::File, data: &[u8]) -> Result<()>;
    /// Makes every byte written to the file so far durable.
    fn sync(&self, file: &mut Self::File) -> Result<()>;
    /// Describes the open file.
    fn fstat(&self, file: &mut Self::File) -> Result<StorageInfo>;
    /// Closes the file (an error reports a deferred write failure). Default: drops it.
    fn close(&self, file: Self::File) -> Result<()> {
        drop(file);
        Ok(())
    }
    /// Renames `from` to `to` atomically, replacing `to`; with `no_replace`, fails with
    /// [`ErrorCode::Exists`] instead of replacing.
    fn rename(&self, from: &str, to: &str, no_replace: bool) -> Result<()>;
    /// Removes the file `path` (not a directory).
    fn remove(&self, path: &str) -> Result<()>;
    /// Creates the directory `path` and its missing parents, durably; `Ok` if it exists;
    /// [`ErrorCode::Invalid`] if `path` or a parent is a file.
    fn make_dirs(&self, path: &str) -> Result<()>;
    /// Makes the names in directory `path` (creates and renames inside it) durable.
    fn sync_dir(&self, path: &str) -> Result<()>;
    /// Sets the file's modification time to now.
    fn touch(&self, path: &str) -> Result<()>;
    /// The names in directory `path` (not `.` or `..`), in any order.
    fn list(&self, path: &str) -> Result<Vec<String>>;
    /// Takes the exclusive lock named `path`, waiting up to `timeout` for another holder (zero:
    /// one attempt); [`ErrorCode::Locked`] when it is still held then. The lock may be a file at
    /// `path` (created if missing; the engine never removes it).
    fn lock(&self, path: &str, timeout: Duration) -> Result<Self::Lock>;
    /// Lets go of a lock. Default: drops it.
    fn unlock(&self, lock: Self::Lock) {
        drop(lock);
    }
}
