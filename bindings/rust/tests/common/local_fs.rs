//! A [`Storage`] written in Rust over the local file system (std::fs, and flock(2) declared here:
//! the crate depends on no libc crate, and std links the C library anyway), as a host that keeps
//! its sessions on its own disk layer would write it. It counts its calls and its drop (the
//! table's release), and fails or panics on request, for the tests of tests/storage.rs and the
//! conformance replay over it. Linux error numbers: the tests run on Linux.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::raw::{c_char, c_int, c_void};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileExt, MetadataExt, OpenOptionsExt};
use std::os::unix::io::AsRawFd;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use xsession::{Error, ErrorCode, OpenMode, ReadBuffer, Result, Storage, StorageInfo, StorageKind};

extern "C" {
    fn flock(fd: c_int, operation: c_int) -> c_int;
    fn utimes(path: *const c_char, times: *const c_void) -> c_int;
}
const LOCK_EX: c_int = 2;
const LOCK_NB: c_int = 4;

/// What the storage did: calls of any method, and drops (the store's release).
#[derive(Default)]
pub struct Counts {
    calls: AtomicUsize,
    released: AtomicUsize,
}

impl Counts {
    pub fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }
    pub fn released(&self) -> usize {
        self.released.load(Ordering::SeqCst)
    }
}

/// What a method named in a fault does instead of its work.
#[derive(Clone)]
pub enum Fault {
    Fail(Error),
    Panic(&'static str),
}

pub struct LocalFs {
    counts: Arc<Counts>,
    faults: Mutex<Vec<(&'static str, Fault)>>,
}

impl LocalFs {
    pub fn new(counts: Arc<Counts>) -> LocalFs {
        LocalFs { counts, faults: Mutex::new(Vec::new()) }
    }

    /// From now on, method `op` ("write", "lock", …) fails or panics as `fault` says.
    pub fn inject(&self, op: &'static str, fault: Fault) {
        self.faults.lock().unwrap().push((op, fault));
    }

    pub fn heal(&self) {
        self.faults.lock().unwrap().clear();
    }

    fn enter(&self, op: &str) -> Result<()> {
        self.counts.calls.fetch_add(1, Ordering::SeqCst);
        let fault = self.faults.lock().unwrap().iter().find(|(name, _)| *name == op).map(|(_, f)| f.clone());
        match fault {
            Some(Fault::Fail(e)) => Err(e),
            Some(Fault::Panic(text)) => panic!("{text}"),
            None => Ok(()),
        }
    }
}

impl Drop for LocalFs {
    fn drop(&mut self) {
        self.counts.released.fetch_add(1, Ordering::SeqCst);
    }
}

/// The status xsession_storage.h asks for, with the system's message.
fn failed(op: &str, path: &str, e: io::Error) -> Error {
    let code = match e.raw_os_error() {
        Some(2) | Some(20) => ErrorCode::NotFound, // ENOENT, ENOTDIR
        Some(17) => ErrorCode::Exists,
        Some(27) | Some(28) | Some(122) => ErrorCode::NoSpace, // EFBIG, ENOSPC, EDQUOT
        Some(11) => ErrorCode::Locked,                         // EWOULDBLOCK
        Some(12) => ErrorCode::NoMem,
        Some(21) => ErrorCode::Invalid, // EISDIR
        _ => ErrorCode::Io,
    };
    Error::new(code, format!("rust storage: {op} {path}: {e}"))
}

fn info_of(m: &fs::Metadata) -> StorageInfo {
    StorageInfo {
        size: m.size(),
        mtime_ms: m.mtime() * 1000 + m.mtime_nsec() / 1_000_000,
        dev: m.dev(),
        ino: m.ino(),
        links: m.nlink(),
        kind: if m.is_file() {
            StorageKind::File
        } else if m.is_dir() {
            StorageKind::Dir
        } else {
            StorageKind::Other
        },
    }
}

impl Storage for LocalFs {
    type File = File;
    type Lock = File; // flock's lock goes with the descriptor

    fn read(&self, path: &str, offset: u64, max: u64, buffer: ReadBuffer<'_>) -> Result<(u64, StorageInfo)> {
        self.enter("read")?;
        let file = File::open(path).map_err(|e| failed("open", path, e))?;
        let meta = file.metadata().map_err(|e| failed("fstat", path, e))?;
        if meta.is_dir() {
            return Err(Error::new(ErrorCode::Invalid, format!("rust storage: read {path}: a directory")));
        }
        let want = meta.size().saturating_sub(offset).min(max);
        let bytes = buffer.alloc(want)?;
        let mut done = 0;
        while done < bytes.len() {
            match file.read_at(&mut bytes[done..], offset + done as u64) {
                Ok(0) => break, // shrank meanwhile
                Ok(n) => done += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(failed("read", path, e)),
            }
        }
        Ok((done as u64, info_of(&meta)))
    }

    fn stat(&self, path: &str) -> Result<StorageInfo> {
        self.enter("stat")?;
        fs::metadata(path).map(|m| info_of(&m)).map_err(|e| failed("stat", path, e))
    }

    fn open(&self, path: &str, mode: OpenMode) -> Result<File> {
        self.enter("open")?;
        let mut options = OpenOptions::new();
        match mode {
            OpenMode::Append => options.append(true),
            OpenMode::Create => options.write(true).create_new(true).mode(0o600),
        };
        options.open(path).map_err(|e| failed("open", path, e))
    }

    fn write(&self, file: &mut File, data: &[u8]) -> Result<()> {
        self.enter("write")?;
        file.write_all(data).map_err(|e| failed("write", "(open file)", e))
    }

    fn sync(&self, file: &mut File) -> Result<()> {
        self.enter("sync")?;
        file.sync_data().map_err(|e| failed("fdatasync", "(open file)", e))
    }

    fn fstat(&self, file: &mut File) -> Result<StorageInfo> {
        self.enter("fstat")?;
        file.metadata().map(|m| info_of(&m)).map_err(|e| failed("fstat", "(open file)", e))
    }

    fn close(&self, file: File) -> Result<()> {
        self.enter("close")?;
        drop(file);
        Ok(())
    }

    fn rename(&self, from: &str, to: &str, no_replace: bool) -> Result<()> {
        self.enter("rename")?;
        if no_replace {
            // link(2) refuses an existing target atomically; then the old name goes.
            fs::hard_link(from, to).map_err(|e| failed("link", to, e))?;
            return fs::remove_file(from).map_err(|e| failed("unlink", from, e));
        }
        fs::rename(from, to).map_err(|e| failed("rename", to, e))
    }

    fn remove(&self, path: &str) -> Result<()> {
        self.enter("remove")?;
        fs::remove_file(path).map_err(|e| failed("unlink", path, e))
    }

    fn make_dirs(&self, path: &str) -> Result<()> {
        self.enter("make_dirs")?;
        let not_a_dir = || Error::new(ErrorCode::Invalid, format!("rust storage: mkdir {path}: a file is in the way"));
        match fs::metadata(path) {
            Ok(m) if m.is_dir() => return Ok(()),
            Ok(_) => return Err(not_a_dir()),
            Err(_) => {}
        }
        match fs::create_dir_all(path) {
            Err(e) if matches!(e.raw_os_error(), Some(17) | Some(20)) => Err(not_a_dir()),
            Err(e) => Err(failed("mkdir", path, e)),
            Ok(()) => self.sync_dir(Path::new(path).parent().and_then(Path::to_str).unwrap_or("/")),
        }
    }

    fn sync_dir(&self, path: &str) -> Result<()> {
        self.enter("sync_dir")?;
        let dir = File::open(path).map_err(|e| failed("open", path, e))?;
        match dir.sync_all() {
            Err(e) if e.raw_os_error() != Some(22) => Err(failed("fsync", path, e)), // EINVAL: cannot
            _ => Ok(()),
        }
    }

    fn touch(&self, path: &str) -> Result<()> {
        self.enter("touch")?;
        let c_path = std::ffi::CString::new(Path::new(path).as_os_str().as_bytes()).unwrap();
        // SAFETY: a NUL-terminated path; NULL times mean now.
        if unsafe { utimes(c_path.as_ptr(), std::ptr::null()) } != 0 {
            return Err(failed("utimes", path, io::Error::last_os_error()));
        }
        Ok(())
    }

    fn list(&self, path: &str) -> Result<Vec<String>> {
        self.enter("list")?;
        let mut names = Vec::new();
        for entry in fs::read_dir(path).map_err(|e| failed("opendir", path, e))? {
            let name = entry.map_err(|e| failed("readdir", path, e))?.file_name();
            names.push(name.into_string().map_err(|_| Error::new(ErrorCode::Invalid, "a name that is not UTF-8"))?);
        }
        Ok(names)
    }

    fn lock(&self, path: &str, timeout: Duration) -> Result<File> {
        self.enter("lock")?;
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(path)
            .map_err(|e| failed("open", path, e))?;
        let deadline = Instant::now() + timeout;
        // SAFETY: flock on a descriptor this function owns.
        while unsafe { flock(file.as_raw_fd(), LOCK_EX | LOCK_NB) } != 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            if e.kind() != io::ErrorKind::WouldBlock || Instant::now() >= deadline {
                return Err(failed("flock", path, e));
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        Ok(file)
    }

    fn unlock(&self, lock: File) {
        let _ = self.enter("unlock");
        drop(lock);
    }
}
