// A file-system seam that fails on command (reliability.md T4, SQLite's ioerr loop): it wraps a
// real seam, numbers every call (including calls on the files it opened), and makes the chosen
// call fail with the chosen error, once (transient) or from then on (persistent). A failing
// write can first pass half its bytes through, which is what a torn write looks like on disk.
//
// Tests only; it lives in core/ because it is part of the seam, and the engine never uses it.
#pragma once

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
};

const char* fs_op_name(FsOp op);

struct Fault {
  uint64_t at_call = 0;  // 1-based call number to fail; 0 = no fault armed
  Code code = Code::kIo;
  bool persistent = false;  // every call from at_call on fails (mutating ones, see below)
  bool torn_write = false;  // a failing append first writes half of its bytes
};

class FaultyFs final : public Fs, public std::enable_shared_from_this<FaultyFs> {
 public:
  explicit FaultyFs(std::shared_ptr<Fs> base) : base_(std::move(base)) {}

  // By call number: the call numbered f.at_call fails (and later ones, when persistent).
  void arm(const Fault& f);
  void disarm();
  // By operation: every call of `op` fails with `code` until cleared; `torn` makes a failing
  // append write half of its bytes first.
  void fail(FsOp op, Code code = Code::kIo, bool torn = false);
  void clear(FsOp op);
  uint64_t count(FsOp op) const;  // calls of `op` so far

  uint64_t calls() const;       // seam calls so far
  bool fault_hit() const;       // whether the armed fault fired at least once
  std::vector<FsOp> log() const;  // the ops, in call order

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
  Status touch(const std::string& path) override;
  Status read_range(const std::string& path, uint64_t offset, uint64_t max, PaddedBuffer* out,
                    FileInfo* info) override;

  bool torn_write_armed(FsOp op) const;

 private:
  struct OpFault {
    bool on = false;
    Code code = Code::kIo;
    bool torn = false;
  };
  static constexpr size_t kOps = static_cast<size_t>(FsOp::kReadRange) + 1;

  std::shared_ptr<Fs> base_;
  mutable std::mutex mu_;
  Fault fault_;
  OpFault op_faults_[kOps];
  uint64_t op_counts_[kOps] = {};
  uint64_t calls_ = 0;
  bool hit_ = false;
  std::vector<FsOp> log_;
};

}  // namespace xs::storage
