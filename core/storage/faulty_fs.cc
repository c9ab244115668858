#include "storage/faulty_fs.h"

namespace xs::storage {

namespace {

bool is_lookup(FsOp op) {
  return op == FsOp::kReadFile || op == FsOp::kStat || op == FsOp::kFileStat || op == FsOp::kListDir ||
         op == FsOp::kReadRange;
}

class FaultyFile final : public WritableFile {
 public:
  FaultyFile(std::shared_ptr<FaultyFs> fs, std::unique_ptr<WritableFile> base, std::string path)
      : fs_(std::move(fs)), base_(std::move(base)), path_(std::move(path)) {
    fs_->note_file(+1);
  }
  ~FaultyFile() override { release(); }

  Status append(std::string_view data) override {
    bool torn = fs_->torn_write_armed(FsOp::kAppend);
    Status st = fs_->next(FsOp::kAppend, path_);
    if (!st.ok()) {
      if (torn && data.size() > 1) base_->append(data.substr(0, data.size() / 2));
      return st;
    }
    return base_->append(data);
  }
  Status sync() override {
    XS_RETURN_IF_ERROR(fs_->next(FsOp::kSync, path_));
    return fs_->real_syncs() ? base_->sync() : Status::Ok();
  }
  void start_sync() override {  // a hint: nothing to fail (sync() fails instead)
    if (fs_->real_syncs()) base_->start_sync();
  }
  Result<FileInfo> stat() override {
    Status st = fs_->next(FsOp::kFileStat, path_);
    if (!st.ok()) return st;
    return base_->stat();
  }
  Status close() override {
    // The descriptor is released either way, as close(2) releases it even when it reports an error.
    Status st = fs_->next(FsOp::kClose, path_);
    Status c = base_->close();
    release();
    return st.ok() ? c : st;
  }

 private:
  void release() {
    if (open_) fs_->note_file(-1);
    open_ = false;
  }

  std::shared_ptr<FaultyFs> fs_;
  std::unique_ptr<WritableFile> base_;
  std::string path_;
  bool open_ = true;
};

class FaultyLock final : public FileLock {
 public:
  FaultyLock(std::shared_ptr<FaultyFs> fs, std::unique_ptr<FileLock> base)
      : fs_(std::move(fs)), base_(std::move(base)) {
    fs_->note_lock(+1);
  }
  ~FaultyLock() override {
    base_.reset();
    fs_->note_lock(-1);
  }

 private:
  std::shared_ptr<FaultyFs> fs_;
  std::unique_ptr<FileLock> base_;
};

}  // namespace

const char* fs_op_name(FsOp op) {
  switch (op) {
    case FsOp::kReadFile: return "read_file";
    case FsOp::kOpenAppend: return "open_append";
    case FsOp::kCreateNew: return "create_new";
    case FsOp::kAppend: return "append";
    case FsOp::kSync: return "sync";
    case FsOp::kFileStat: return "fstat";
    case FsOp::kClose: return "close";
    case FsOp::kRename: return "rename";
    case FsOp::kRenameNoReplace: return "rename_noreplace";
    case FsOp::kUnlink: return "unlink";
    case FsOp::kMakeDirs: return "make_dirs";
    case FsOp::kSyncDir: return "sync_dir";
    case FsOp::kStat: return "stat";
    case FsOp::kListDir: return "list_dir";
    case FsOp::kTryLock: return "try_lock";
    case FsOp::kTouch: return "touch";
    case FsOp::kReadRange: return "read_range";
    case FsOp::kLock: return "lock";
  }
  return "?";
}

void FaultyFs::arm(const Fault& f) {
  std::lock_guard<std::mutex> g(mu_);
  fault_ = f;
  hit_ = false;
}

void FaultyFs::disarm() {
  std::lock_guard<std::mutex> g(mu_);
  fault_ = Fault{};
}

uint64_t FaultyFs::calls() const {
  std::lock_guard<std::mutex> g(mu_);
  return calls_;
}

uint64_t FaultyFs::calls_of(uint32_t mask) const {
  std::lock_guard<std::mutex> g(mu_);
  uint64_t n = 0;
  for (size_t i = 0; i < kOps; ++i) {
    if (mask & (1u << i)) n += op_counts_[i];
  }
  return n;
}

std::vector<InjectedFault> FaultyFs::injected() const {
  std::lock_guard<std::mutex> g(mu_);
  return injected_;
}

int FaultyFs::open_files() const {
  std::lock_guard<std::mutex> g(mu_);
  return open_files_;
}

int FaultyFs::held_locks() const {
  std::lock_guard<std::mutex> g(mu_);
  return held_locks_;
}

void FaultyFs::note_file(int delta) {
  std::lock_guard<std::mutex> g(mu_);
  open_files_ += delta;
}

void FaultyFs::note_lock(int delta) {
  std::lock_guard<std::mutex> g(mu_);
  held_locks_ += delta;
}

bool FaultyFs::fault_hit() const {
  std::lock_guard<std::mutex> g(mu_);
  return hit_;
}

std::vector<FsOp> FaultyFs::log() const {
  std::lock_guard<std::mutex> g(mu_);
  return log_;
}

bool FaultyFs::torn_write_armed(FsOp op) const {
  std::lock_guard<std::mutex> g(mu_);
  return fault_.torn_write || op_faults_[static_cast<size_t>(op)].torn;
}

void FaultyFs::fail(FsOp op, Code code, bool torn) {
  std::lock_guard<std::mutex> g(mu_);
  op_faults_[static_cast<size_t>(op)] = {true, code, torn};
}

void FaultyFs::clear(FsOp op) {
  std::lock_guard<std::mutex> g(mu_);
  op_faults_[static_cast<size_t>(op)] = {};
}

uint64_t FaultyFs::count(FsOp op) const {
  std::lock_guard<std::mutex> g(mu_);
  return op_counts_[static_cast<size_t>(op)];
}

Status FaultyFs::next(FsOp op, const std::string& what) {
  std::lock_guard<std::mutex> g(mu_);
  uint64_t n = ++calls_;
  log_.push_back(op);
  ++op_counts_[static_cast<size_t>(op)];
  const OpFault& of = op_faults_[static_cast<size_t>(op)];
  if (of.on) {
    hit_ = true;
    injected_.push_back({n, op, what, of.code});
    return Status(of.code, std::string("injected fault in ") + fs_op_name(op) + " " + what);
  }
  if (fault_.at_call == 0) return Status::Ok();
  uint64_t k = n;  // this call's number in the count the fault uses
  if (fault_.only_ops) {
    if (!(fault_.only_ops & op_bit(op))) return Status::Ok();
    k = 0;
    for (size_t i = 0; i < kOps; ++i) {
      if (fault_.only_ops & (1u << i)) k += op_counts_[i];
    }
  }
  bool fire = k == fault_.at_call || (fault_.persistent && k > fault_.at_call && !is_lookup(op));
  if (!fire) return Status::Ok();
  hit_ = true;
  injected_.push_back({n, op, what, fault_.code});
  return Status(fault_.code,
                std::string("injected fault in ") + fs_op_name(op) + " " + what + " (call " + std::to_string(n) + ")");
}

Status FaultyFs::read_file(const std::string& path, uint64_t max_bytes, PaddedBuffer* out, FileInfo* info) {
  XS_RETURN_IF_ERROR(next(FsOp::kReadFile, path));
  return base_->read_file(path, max_bytes, out, info);
}

Result<std::unique_ptr<WritableFile>> FaultyFs::open_append(const std::string& path) {
  XS_RETURN_IF_ERROR(next(FsOp::kOpenAppend, path));
  auto f = base_->open_append(path);
  if (!f.ok()) return f.status();
  return std::unique_ptr<WritableFile>(new FaultyFile(shared_from_this(), std::move(*f), path));
}

Result<std::unique_ptr<WritableFile>> FaultyFs::create_new(const std::string& path) {
  XS_RETURN_IF_ERROR(next(FsOp::kCreateNew, path));
  auto f = base_->create_new(path);
  if (!f.ok()) return f.status();
  return std::unique_ptr<WritableFile>(new FaultyFile(shared_from_this(), std::move(*f), path));
}

Status FaultyFs::rename(const std::string& from, const std::string& to) {
  XS_RETURN_IF_ERROR(next(FsOp::kRename, from));
  return base_->rename(from, to);
}

Status FaultyFs::rename_noreplace(const std::string& from, const std::string& to) {
  XS_RETURN_IF_ERROR(next(FsOp::kRenameNoReplace, from));
  return base_->rename_noreplace(from, to);
}

Status FaultyFs::unlink(const std::string& path) {
  XS_RETURN_IF_ERROR(next(FsOp::kUnlink, path));
  return base_->unlink(path);
}

Status FaultyFs::make_dirs(const std::string& path) {
  XS_RETURN_IF_ERROR(next(FsOp::kMakeDirs, path));
  return base_->make_dirs(path);
}

Status FaultyFs::sync_dir(const std::string& path) {
  XS_RETURN_IF_ERROR(next(FsOp::kSyncDir, path));
  return real_syncs_ ? base_->sync_dir(path) : Status::Ok();
}

Result<FileInfo> FaultyFs::stat(const std::string& path) {
  Status st = next(FsOp::kStat, path);
  if (!st.ok()) return st;
  return base_->stat(path);
}

Result<std::vector<std::string>> FaultyFs::list_dir(const std::string& path) {
  Status st = next(FsOp::kListDir, path);
  if (!st.ok()) return st;
  return base_->list_dir(path);
}

Result<std::unique_ptr<FileLock>> FaultyFs::try_lock(const std::string& path) {
  Status st = next(FsOp::kTryLock, path);
  if (!st.ok()) return st;
  return wrap_lock(base_->try_lock(path));
}

Result<std::unique_ptr<FileLock>> FaultyFs::lock(const std::string& path, std::chrono::milliseconds timeout) {
  Status st = next(FsOp::kLock, path);
  if (!st.ok()) return st;
  return wrap_lock(base_->lock(path, timeout));
}

Result<std::unique_ptr<FileLock>> FaultyFs::wrap_lock(Result<std::unique_ptr<FileLock>> base) {
  if (!base.ok()) return base.status();
  return std::unique_ptr<FileLock>(new FaultyLock(shared_from_this(), std::move(*base)));
}

Status FaultyFs::touch(const std::string& path) {
  XS_RETURN_IF_ERROR(next(FsOp::kTouch, path));
  return base_->touch(path);
}

Status FaultyFs::read_range(const std::string& path, uint64_t offset, uint64_t max, PaddedBuffer* out, FileInfo* info) {
  XS_RETURN_IF_ERROR(next(FsOp::kReadRange, path));
  return base_->read_range(path, offset, max, out, info);
}

}  // namespace xs::storage
