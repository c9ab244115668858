// The file-system seam: every open, read, write, sync, rename and lock the engine performs goes
// through this interface (SQLite's VFS, RocksDB's Env). Production uses posix_fs; the in-memory
// store uses memory_fs; tests plug in fault-injecting or recording implementations to prove the
// storage guarantees (docs/guarantees.md). Nothing above this layer calls the OS directly.
//
// Implementations must be safe to call from several threads at once: distinct session handles
// share one Fs and may be used concurrently.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "storage/buffer.h"
#include "util/status.h"

namespace xs::storage {

struct FileInfo {
  uint64_t dev = 0;
  uint64_t ino = 0;
  uint64_t size = 0;
  int64_t mtime_ms = 0;
  bool is_dir = false;
  bool is_regular = false;
  uint64_t links = 1;  // names the file has (hard links); the in-memory seams have one each
};

// An open file we write: the session log (append mode) or a fresh temp file.
class WritableFile {
 public:
  virtual ~WritableFile() = default;
  // Writes all of `data` at the end of the file. A short write or EINTR is continued until the
  // whole buffer is written; any other failure is an error (and part of the data may be written).
  virtual Status append(std::string_view data) = 0;
  // True when append_if checks and writes in one step. A backend where every call is a round
  // trip (a database) says so, and the engine's append is one call instead of stat + append; on
  // a disk the two system calls cost less than a third would, so posix_fs and memory_fs do not.
  virtual bool has_append_if() const { return false; }
  // Appends `data` only while `path` still names this file and the file is `expected_size` bytes
  // long, checked and written as one atomic step; otherwise writes nothing and returns kConflict
  // (the caller then looks at what changed). Called only when has_append_if() says so.
  virtual Status append_if(const std::string& path, uint64_t expected_size, std::string_view data) {
    (void)path, (void)expected_size, (void)data;
    return Status::Internal("append_if is not supported by this storage");
  }
  // Makes written data durable: fdatasync on Linux, F_FULLFSYNC on macOS, fsync elsewhere.
  virtual Status sync() = 0;
  // A hint, promising nothing: start writing what was appended to the disk without waiting, so
  // that the sync() to come has less left to wait for (sync_file_range on Linux: a 100 MB file
  // written while a bundle is read costs its sync a few milliseconds, not 40). Storage that
  // cannot does nothing; errors are left for sync() to report.
  virtual void start_sync() {}
  virtual Result<FileInfo> stat() = 0;
  // Closes the descriptor; reports a close error (which can carry a deferred write error).
  virtual Status close() = 0;
};

// An exclusive lock, held until the object is destroyed.
class FileLock {
 public:
  virtual ~FileLock() = default;
};

class Fs {
 public:
  virtual ~Fs() = default;

  // Reads a whole file (NotFound when missing, Limit when larger than max_bytes). *info (when
  // given) describes the file that was read, from the same descriptor.
  virtual Status read_file(const std::string& path, uint64_t max_bytes, PaddedBuffer* out,
                           FileInfo* info = nullptr) = 0;
  // Opens an existing file for appending.
  virtual Result<std::unique_ptr<WritableFile>> open_append(const std::string& path) = 0;
  // Creates a new file (mode 0600) that must not exist yet, open for writing.
  virtual Result<std::unique_ptr<WritableFile>> create_new(const std::string& path) = 0;
  virtual Status rename(const std::string& from, const std::string& to) = 0;
  // Like rename, but fails with Exists instead of replacing an existing target. A failure moves
  // nothing (unless its message says the file was left under both names). Where the platform has
  // no atomic form (posix_fs's generic path: link, then unlink) a crash in the middle can leave a
  // file under both names, each whole.
  virtual Status rename_noreplace(const std::string& from, const std::string& to) = 0;
  virtual Status unlink(const std::string& path) = 0;
  // Creates a directory and its missing parents (mode 0700), durably: the parent of each
  // directory it creates is synced, so a file synced inside survives power loss with its path.
  virtual Status make_dirs(const std::string& path) = 0;
  // Makes a directory's entries (a create or rename inside it) durable.
  virtual Status sync_dir(const std::string& path) = 0;
  virtual Result<FileInfo> stat(const std::string& path) = 0;
  // Sets a file's modification time to now (a blob put again is fresh again for the GC's grace
  // period).
  virtual Status touch(const std::string& path) = 0;
  // Reads up to `max` bytes from `offset` (a reload reads only the new tail). *info (when given)
  // describes the file, from the same descriptor.
  virtual Status read_range(const std::string& path, uint64_t offset, uint64_t max, PaddedBuffer* out,
                            FileInfo* info = nullptr) = 0;
  // Names in a directory (no "." or ".."), unsorted.
  virtual Result<std::vector<std::string>> list_dir(const std::string& path) = 0;
  // Takes an exclusive lock on `path` (created 0600 if missing) without waiting: Locked when
  // another holder has it. The lock dies with its holder, so a crash leaves nothing stale.
  virtual Result<std::unique_ptr<FileLock>> try_lock(const std::string& path) = 0;
  // The same lock, waiting up to `timeout` for another holder to let go: Locked when it still
  // holds it then. There is always one attempt, so a timeout of zero is try_lock. For a short
  // read-modify-write of a shared document, where a second writer should queue, not fail.
  virtual Result<std::unique_ptr<FileLock>> lock(const std::string& path, std::chrono::milliseconds timeout) = 0;
};

// The Locked status of a lock another holder keeps, after waiting `waited` for it (0: not at all).
inline Status held_by_another(const std::string& path, std::chrono::milliseconds waited) {
  std::string msg = path + " is held by another writer";
  if (waited.count() > 0) msg += " (waited " + std::to_string(waited.count()) + " ms)";
  return Status(Code::kLocked, std::move(msg));
}

// `write_fn` replaces write(2) below the retry loop (tests inject EINTR and short writes there);
// nullptr means the real one.
using WriteFn = long (*)(int fd, const void* buf, unsigned long n);
std::shared_ptr<Fs> make_posix_fs(WriteFn write_fn = nullptr);
// The system calls make_posix_fs was compiled to make where platforms differ, by name ("renameat2",
// "link+unlink"; "fdatasync", "fsync"): a test asserts that a build took the path it was
// configured for (XS_GENERIC_POSIX_FS takes the generic one on Linux).
struct PosixFsCalls {
  const char* rename_noreplace;
  const char* sync;
};
PosixFsCalls posix_fs_calls();
std::shared_ptr<Fs> make_memory_fs();

}  // namespace xs::storage
