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
      : fs_(std::move(fs)), base_(std::move(base)), path_(std::move(path)) {}

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
    return base_->sync();
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
    return st.ok() ? c : st;
  }

 private:
  std::shared_ptr<FaultyFs> fs_;
  std::unique_ptr<WritableFile> base_;
  std::string path_;
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
    return Status(of.code, std::string("injected fault in ") + fs_op_name(op) + " " + what);
  }
  if (fault_.at_call == 0) return Status::Ok();
  bool fire = n == fault_.at_call || (fault_.persistent && n > fault_.at_call && !is_lookup(op));
  if (!fire) return Status::Ok();
  hit_ = true;
  return Status(fault_.code, std::string("injected fault in ") + fs_op_name(op) + " " + what + " (call " +
                                 std::to_string(n) + ")");
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
  return base_->sync_dir(path);
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
  return base_->try_lock(path);
}

Status FaultyFs::touch(const std::string& path) {
  XS_RETURN_IF_ERROR(next(FsOp::kTouch, path));
  return base_->touch(path);
}

Status FaultyFs::read_range(const std::string& path, uint64_t offset, uint64_t max, PaddedBuffer* out,
                            FileInfo* info) {
  XS_RETURN_IF_ERROR(next(FsOp::kReadRange, path));
  return base_->read_range(path, offset, max, out, info);
}

}  // namespace xs::storage
