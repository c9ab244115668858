// A file-system seam that fails on command (docs/guarantees.md#t4, SQLite's ioerr loop): it wraps a
// real seam, numbers every call (including calls on the files it opened), and makes the chosen
// call fail with the chosen error, once (transient) or from then on (persistent). A failing
// write can first pass half its bytes through, which is what a torn write looks like on disk.
// A fault can also number only some kinds of call (the N-th sync, the N-th rename), so a test can
// fail every sync of an operation once without walking all its other calls.
//
// It also keeps the books a leak check needs on any underlying seam (the in-memory one has no
// descriptors to count): the files it opened that are neither closed nor destroyed, the locks
// still held, and every failure it injected (which call, on which path).
//
// Tests only; it lives in core/ because it is part of the seam, and the engine never uses it.
#pragma once

#include <initializer_list>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "storage/fs.h"

namespace xs::storage {

enum class FsOp {
  kReadFile,
  kOpenAppend,
  kCreateNew,
  kAppend,
  kSync,
  kFileStat,
  kClose,
  kRename,
  kRenameNoReplace,
  kUnlink,
  kMakeDirs,
  kSyncDir,
  kStat,
  kListDir,
  kTryLock,
  kTouch,
  kReadRange,
  kLock,  // the waiting lock (kTryLock: the one that does not wait)
};

const char* fs_op_name(FsOp op);

// A set of FsOps, for Fault::only_ops and FaultyFs::calls_of.
constexpr uint32_t op_bit(FsOp op) { return 1u << static_cast<unsigned>(op); }
inline uint32_t op_mask(std::initializer_list<FsOp> ops) {
  uint32_t m = 0;
  for (FsOp op : ops) m |= op_bit(op);
  return m;
}

struct Fault {
  uint64_t at_call = 0;  // 1-based call number to fail; 0 = no fault armed
  Code code = Code::kIo;
  bool persistent = false;  // every call from at_call on fails (mutating ones, see below)
  bool torn_write = false;  // a failing append first writes half of its bytes
  // Non-zero: at_call numbers only the calls of these ops (op_mask; counted, like all calls, from
  // the seam's creation), and only they fail; e.g. {3, kIo, false, false, op_mask({kSync,
  // kSyncDir})} fails the third sync or directory sync made through the seam.
  uint32_t only_ops = 0;
};

// One failure the seam injected.
struct InjectedFault {
  uint64_t call = 0;  // its number among all calls
  FsOp op = FsOp::kReadFile;
  std::string path;  // the file (for a rename, its source)
  Code code = Code::kIo;
};

class FaultyFs final : public Fs, public std::enable_shared_from_this<FaultyFs> {
 public:
  explicit FaultyFs(std::shared_ptr<Fs> base) : base_(std::move(base)) {}
  // `real_syncs` false: a sync or directory sync is still counted and can still fail, but one that
  // passes does not reach the base seam. For matrices that test errors, not power loss, on a real
  // disk, where fsync is most of a run's time.
  FaultyFs(std::shared_ptr<Fs> base, bool real_syncs) : base_(std::move(base)), real_syncs_(real_syncs) {}

  // By call number (counted from the seam's creation): the call numbered f.at_call fails (and
  // later ones, when persistent).
  void arm(const Fault& f);
  void disarm();
  // By operation: every call of `op` fails with `code` until cleared; `torn` makes a failing
  // append write half of its bytes first.
  void fail(FsOp op, Code code = Code::kIo, bool torn = false);
  void clear(FsOp op);
  uint64_t count(FsOp op) const;  // calls of `op` so far

  uint64_t calls() const;                  // seam calls so far
  uint64_t calls_of(uint32_t mask) const;  // calls of the ops in `mask` (op_mask) so far
  bool fault_hit() const;                  // whether the armed fault fired at least once
  std::vector<FsOp> log() const;           // the ops, in call order
  // Every failure injected since the seam was made (arm() does not reset it), in call order.
  std::vector<InjectedFault> injected() const;

  // Files opened through this seam that are neither closed nor destroyed, and locks it handed out
  // that are still held: both are 0 once every handle on the seam is gone, unless one leaked.
  int open_files() const;
  int held_locks() const;

  // Counts the call, and returns the injected failure for it (or OK). Read-only calls (stat,
  // list, read) fail only when they are the exact armed call, so a persistent fault models a
  // device that refuses writes while still answering lookups.
  Status next(FsOp op, const std::string& what);

  Status read_file(const std::string& path, uint64_t max_bytes, PaddedBuffer* out, FileInfo* info) override;
  Result<std::unique_ptr<WritableFile>> open_append(const std::string& path) override;
  Result<std::unique_ptr<WritableFile>> create_new(const std::string& path) override;
  Status rename(const std::string& from, const std::string& to) override;
  Status rename_noreplace(const std::string& from, const std::string& to) override;
  Status unlink(const std::string& path) override;
  Status make_dirs(const std::string& path) override;
  Status sync_dir(const std::string& path) override;
  Result<FileInfo> stat(const std::string& path) override;
  Result<std::vector<std::string>> list_dir(const std::string& path) override;
  Result<std::unique_ptr<FileLock>> try_lock(const std::string& path) override;
  Result<std::unique_ptr<FileLock>> lock(const std::string& path, std::chrono::milliseconds timeout) override;
  Status touch(const std::string& path) override;
  Status read_range(const std::string& path, uint64_t offset, uint64_t max, PaddedBuffer* out, FileInfo* info) override;

  bool torn_write_armed(FsOp op) const;
  bool real_syncs() const { return real_syncs_; }
  // Bookkeeping of the wrappers (FaultyFile, FaultyLock): +1 when one opens, -1 when it is released.
  void note_file(int delta);
  void note_lock(int delta);

 private:
  // A lock of the base seam, counted while held.
  Result<std::unique_ptr<FileLock>> wrap_lock(Result<std::unique_ptr<FileLock>> base);

  struct OpFault {
    bool on = false;
    Code code = Code::kIo;
    bool torn = false;
  };
  static constexpr size_t kOps = static_cast<size_t>(FsOp::kLock) + 1;

  std::shared_ptr<Fs> base_;
  const bool real_syncs_ = true;
  mutable std::mutex mu_;
  Fault fault_;
  OpFault op_faults_[kOps];
  uint64_t op_counts_[kOps] = {};
  uint64_t calls_ = 0;
  bool hit_ = false;
  std::vector<FsOp> log_;
  std::vector<InjectedFault> injected_;
  int open_files_ = 0;
  int held_locks_ = 0;
};

}  // namespace xs::storage
