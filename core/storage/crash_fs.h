// Simulated power loss through the seam (docs/guarantees.md#t2: SQLite's crash VFS, src/test6.c, and
// ALICE's replay of a system-call trace into every crash state the file system may leave).
//
// CrashFs runs a workload in memory (like memory_fs: parent directories must exist, a rename over a
// file gives the name a new inode, an append handle keeps writing to the inode it opened) and logs
// every call that changes the disk, with its barriers (sync, sync_dir). Reads see the state before
// any crash. CrashStates then builds, for a crash after any prefix of that log, a disk a power loss
// may leave behind, under this conservative persistence model:
//
//  1. Data. A file's bytes are durable up to its length at its last sync(). What was appended after
//     that may be lost from any byte on (the file cut anywhere between its durable and its current
//     length), and each unsynced append inside the surviving length may independently be intact,
//     zeros or garbage (random bytes), torn (intact up to a sector boundary, then zeros or garbage),
//     or a mix of those sector by sector: the size can reach the disk before the data, and sectors
//     are written back in any order (SQLite's atomic-commit assumptions, ALICE's BOB on writeback
//     file systems). A 512-byte sector is written whole or not at all, so damage inside the file
//     starts and ends at sector boundaries or at the ends of an append; garbage is random bytes,
//     never text that happens to complete a JSON line (which no reader could tell from data).
//  2. Names. A create (create_new, a lock file try_lock or lock makes), mkdir, rename or unlink is durable
//     once every directory it changes was synced (sync_dir) after it. Until then it may be undone,
//     independently of operations on other names; operations on the same name keep their order
//     (a rename persists only with the create that made its source). A directory whose own entry
//     did not persist takes everything below it; make_dirs logs the sync of each new directory's
//     parent that its contract promises (fs.h). A name and its file's data are independent: a
//     rename of a file that was never synced may persist with the file empty or short — what the
//     engine's fsync-before-rename must prevent.
//  3. Nothing else reaches the disk: touch (mtime), close and locks leave nothing in a crash state.
//  4. A no-replace rename is atomic (renameat2, renamex_np) or, on the generic POSIX path
//     (posix_fs's link+unlink, XS_GENERIC_POSIX_FS), two name operations: a link of the new name,
//     durable once the new name's directory is synced, and an unlink of the old one, durable once
//     the old name's directory is synced. By rule 2 the unlink never persists without the link, so
//     a crash between them can leave the file under both names (each with the inode's bytes), never
//     under neither. CrashFs records the form its constructor is given; by default the form
//     posix_fs takes in this build.
//
// Tests only; it lives in core/ because it is part of the seam, and the engine never uses it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "storage/fs.h"

namespace xs::storage {

class CrashFs final : public Fs, public std::enable_shared_from_this<CrashFs> {
 public:
  enum class Op : uint8_t {
    kMkdir,   // path: a directory make_dirs created
    kCreate,  // path, ino: a new empty file (create_new, or the lock file of try_lock or lock)
    kAppend,  // ino, offset, size: bytes appended to a file
    kSync,    // ino: fdatasync of a file
    kClose,   // ino
    kRename,  // path -> to, ino (replacing whatever `to` named)
    kRenameNoReplace,
    kUnlink,   // path, ino
    kSyncDir,  // path: fsync of a directory
    kTouch,    // path, ino
    kLink,     // path -> to, ino: a second name for the file (the first half of a generic no-replace rename)
  };
  // How rename_noreplace reaches the disk: one atomic rename, or link then unlink (point 4 above).
  enum class NoReplaceRename : uint8_t { kAtomic, kLinkThenUnlink };
  static NoReplaceRename build_default();
  struct Record {
    Op op = Op::kMkdir;
    std::string path;
    std::string to;
    uint64_t ino = 0;
    uint64_t offset = 0;
    uint64_t size = 0;
  };

  explicit CrashFs(NoReplaceRename how = build_default());
  NoReplaceRename no_replace_rename() const { return how_; }

  // Records so far: a crash "now" is crash point ops().
  size_t ops() const;
  std::vector<Record> trace() const;
  // Every byte ever appended to a file (its bytes at any point are a prefix: files only grow).
  std::string contents(uint64_t ino) const;

  Status read_file(const std::string& path, uint64_t max_bytes, PaddedBuffer* out, FileInfo* info) override;
  Result<std::unique_ptr<WritableFile>> open_append(const std::string& path) override;
  Result<std::unique_ptr<WritableFile>> create_new(const std::string& path) override;
  Status rename(const std::string& from, const std::string& to) override;
  Status rename_noreplace(const std::string& from, const std::string& to) override;
  Status unlink(const std::string& path) override;
  Status make_dirs(const std::string& path) override;
  Status sync_dir(const std::string& path) override;
  Result<FileInfo> stat(const std::string& path) override;
  Status touch(const std::string& path) override;
  Status read_range(const std::string& path, uint64_t offset, uint64_t max, PaddedBuffer* out, FileInfo* info) override;
  Result<std::vector<std::string>> list_dir(const std::string& path) override;
  Result<std::unique_ptr<FileLock>> try_lock(const std::string& path) override;
  Result<std::unique_ptr<FileLock>> lock(const std::string& path, std::chrono::milliseconds timeout) override;

  // For the open files and locks this seam hands out.
  Status file_append(uint64_t ino, std::string_view data);
  Status file_sync(uint64_t ino);
  Status file_close(uint64_t ino);
  Result<FileInfo> file_stat(uint64_t ino);
  void release_lock(const std::string& path);

 private:
  struct Inode {
    std::string data;
    int64_t mtime_ms = 0;
  };
  Status rename_locked(const std::string& from, const std::string& to, bool replace);
  uint64_t new_inode_locked(const std::string& path);
  FileInfo info_locked(uint64_t ino) const;
  void log_locked(Record r);

  const NoReplaceRename how_;
  mutable std::mutex mu_;
  std::map<std::string, uint64_t> names_;  // file path -> inode
  std::set<std::string> dirs_;
  std::map<uint64_t, Inode> inodes_;  // every file ever made, linked or not
  std::set<std::string> locks_;
  std::condition_variable lock_released_;
  std::vector<Record> trace_;
  uint64_t next_ino_ = 1;
};

// A disk after a crash: the files (path -> bytes) and the directories that exist.
struct CrashState {
  std::map<std::string, std::string> files;
  std::set<std::string> dirs;

  // Of the names and bytes: two states with the same hash hold the same files (64 bits).
  uint64_t hash() const;
  // Writes the state into an empty seam (a fresh make_memory_fs(), for instance). A file under two
  // names (a link) becomes two files with the same bytes: the seam has no link, so an append
  // through one name after the install is not seen under the other.
  Status install(Fs& fs) const;
};

class CrashStates {
 public:
  // Snapshots the log and the file contents: the workload is over (or paused) when this runs.
  explicit CrashStates(const CrashFs& fs);

  // Crash points are 0..ops(): crash point k is a crash after the first k records.
  size_t ops() const { return trace_.size(); }
  const std::vector<CrashFs::Record>& trace() const { return trace_; }

  // Only what was durable at crash point k: every unsynced effect lost.
  CrashState durable(size_t k) const;
  // Everything done before crash point k, as it was (what kill -9 leaves: nothing is lost).
  CrashState complete(size_t k) const;
  // One state the model allows at crash point k, chosen by `seed` (see the header comment).
  CrashState sample(size_t k, uint64_t seed) const;

 private:
  enum class Mode { kDurable, kComplete, kSampled };
  CrashState build(size_t k, Mode mode, uint64_t seed) const;

  std::vector<CrashFs::Record> trace_;
  std::map<uint64_t, std::string> contents_;
  // For each name operation: the earlier name operations it needs (the last one on each of its
  // names) and the directories it changes.
  std::vector<std::vector<size_t>> deps_;
  std::vector<std::vector<std::string>> dirs_changed_;
};

}  // namespace xs::storage
