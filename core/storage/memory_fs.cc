// An in-memory file system: the seed's non-persistent sessions (MemorySessionStorage) and fast
// tests. It mirrors POSIX where the engine relies on it: parent directories must exist, inodes
// change on rename-over, an open append handle keeps writing to the node it opened, and a lock is
// exclusive until its holder is destroyed.
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>

#include "storage/fs.h"
#include "storage/path.h"

namespace xs::storage {

namespace {

struct Node {
  std::string data;
  uint64_t ino = 0;
  int64_t mtime_ms = 0;
};

int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

class MemoryFs;

class MemFile final : public WritableFile {
 public:
  MemFile(std::shared_ptr<MemoryFs> fs, std::shared_ptr<Node> node) : fs_(std::move(fs)), node_(std::move(node)) {}
  Status append(std::string_view data) override;
  Status sync() override { return node_ ? Status::Ok() : closed(); }
  Result<FileInfo> stat() override;
  Status close() override {
    node_.reset();
    return Status::Ok();
  }

 private:
  static Status closed() { return Status(Code::kMisuse, "file is closed"); }
  std::shared_ptr<MemoryFs> fs_;
  std::shared_ptr<Node> node_;
};

class MemLock final : public FileLock {
 public:
  MemLock(std::shared_ptr<MemoryFs> fs, std::string path) : fs_(std::move(fs)), path_(std::move(path)) {}
  ~MemLock() override;
  void arm() { armed_ = true; }  // from now on, destroying it releases the lock

 private:
  std::shared_ptr<MemoryFs> fs_;
  std::string path_;
  bool armed_ = false;
};

class MemoryFs final : public Fs, public std::enable_shared_from_this<MemoryFs> {
 public:
  MemoryFs() { dirs_.insert("/"); }

  Status read_file(const std::string& path, uint64_t max_bytes, PaddedBuffer* out, FileInfo* fi) override {
    std::lock_guard<std::mutex> g(mu_);
    auto it = files_.find(path);
    if (it == files_.end()) return dirs_.count(path) ? Status::Invalid(path + " is a directory") : missing(path);
    if (it->second->data.size() > max_bytes) {
      return Status::Limit(path + " is larger than " + std::to_string(max_bytes) + " bytes");
    }
    *out = PaddedBuffer::Copy(it->second->data);
    if (fi) *fi = info(*it->second);
    return Status::Ok();
  }

  Result<std::unique_ptr<WritableFile>> open_append(const std::string& path) override {
    std::lock_guard<std::mutex> g(mu_);
    auto it = files_.find(path);
    if (it == files_.end()) return missing(path);
    return std::unique_ptr<WritableFile>(new MemFile(shared_from_this(), it->second));
  }

  Result<std::unique_ptr<WritableFile>> create_new(const std::string& path) override {
    std::lock_guard<std::mutex> g(mu_);
    if (files_.count(path) || dirs_.count(path)) return Status::Exists("create " + path + ": exists");
    if (!dirs_.count(dir_name(path))) return missing(dir_name(path));
    auto node = std::make_shared<Node>();
    node->ino = next_ino_++;
    node->mtime_ms = now_ms();
    files_[path] = node;
    return std::unique_ptr<WritableFile>(new MemFile(shared_from_this(), node));
  }

  Status rename(const std::string& from, const std::string& to) override {
    std::lock_guard<std::mutex> g(mu_);
    return rename_locked(from, to, true);
  }

  Status rename_noreplace(const std::string& from, const std::string& to) override {
    std::lock_guard<std::mutex> g(mu_);
    return rename_locked(from, to, false);
  }

  Status unlink(const std::string& path) override {
    std::lock_guard<std::mutex> g(mu_);
    if (!files_.erase(path)) return missing(path);
    return Status::Ok();
  }

  Status make_dirs(const std::string& path) override {
    std::lock_guard<std::mutex> g(mu_);
    for (std::string p = path; !p.empty() && p != "." && !dirs_.count(p); p = dir_name(p)) {
      if (files_.count(p)) return Status::Invalid(p + " is not a directory");
      dirs_.insert(p);
    }
    return Status::Ok();
  }

  Status sync_dir(const std::string& path) override {
    std::lock_guard<std::mutex> g(mu_);
    return dirs_.count(path) ? Status::Ok() : missing(path);
  }

  Status touch(const std::string& path) override {
    std::lock_guard<std::mutex> g(mu_);
    auto it = files_.find(path);
    if (it == files_.end()) return missing(path);
    it->second->mtime_ms = now_ms();
    return Status::Ok();
  }

  Status read_range(const std::string& path, uint64_t offset, uint64_t max, PaddedBuffer* out, FileInfo* fi) override {
    std::lock_guard<std::mutex> g(mu_);
    auto it = files_.find(path);
    if (it == files_.end()) return missing(path);
    const std::string& d = it->second->data;
    std::string_view part = offset >= d.size() ? std::string_view() : std::string_view(d).substr(offset, max);
    *out = PaddedBuffer::Copy(part);
    if (fi) *fi = info(*it->second);
    return Status::Ok();
  }

  Result<FileInfo> stat(const std::string& path) override {
    std::lock_guard<std::mutex> g(mu_);
    FileInfo fi;
    if (auto it = files_.find(path); it != files_.end()) return info(*it->second);
    if (!dirs_.count(path)) return missing(path);
    fi.is_dir = true;
    return fi;
  }

  Result<std::vector<std::string>> list_dir(const std::string& path) override {
    std::lock_guard<std::mutex> g(mu_);
    if (!dirs_.count(path)) return missing(path);
    std::vector<std::string> names;
    for (const auto& [p, node] : files_) {
      if (dir_name(p) == path) names.push_back(base_name(p));
    }
    for (const std::string& d : dirs_) {
      if (d != path && dir_name(d) == path) names.push_back(base_name(d));
    }
    return names;
  }

  Result<std::unique_ptr<FileLock>> try_lock(const std::string& path) override {
    return lock(path, std::chrono::milliseconds(0));
  }

  // The holders are threads of this process: a waiter sleeps until a release wakes it.
  Result<std::unique_ptr<FileLock>> lock(const std::string& path, std::chrono::milliseconds timeout) override {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::unique_lock<std::mutex> g(mu_);
    if (!dirs_.count(dir_name(path))) return missing(dir_name(path));
    while (locks_.count(path)) {
      if (lock_released_.wait_until(g, deadline) == std::cv_status::timeout && locks_.count(path)) {
        return held_by_another(path, timeout);
      }
    }
    // Everything that allocates comes before the lock is marked held, so running out of memory
    // leaves it free (the unarmed MemLock releases nothing).
    if (!files_.count(path)) {
      auto node = std::make_shared<Node>();
      node->ino = next_ino_++;
      node->mtime_ms = now_ms();
      files_[path] = node;
    }
    std::unique_ptr<MemLock> held(new MemLock(shared_from_this(), path));
    locks_.insert(path);
    held->arm();
    return std::unique_ptr<FileLock>(std::move(held));
  }

  void release(const std::string& path) {
    {
      std::lock_guard<std::mutex> g(mu_);
      locks_.erase(path);
    }
    lock_released_.notify_all();
  }

  Status append_to(Node& node, std::string_view data) {
    std::lock_guard<std::mutex> g(mu_);
    node.data.append(data);
    node.mtime_ms = now_ms();
    return Status::Ok();
  }

  FileInfo info(const Node& node) {
    FileInfo fi;
    fi.ino = node.ino;
    fi.size = node.data.size();
    fi.mtime_ms = node.mtime_ms;
    fi.is_regular = true;
    return fi;
  }

  std::mutex mu_;

 private:
  static Status missing(const std::string& path) { return Status::NotFound(path + ": no such file or directory"); }

  Status rename_locked(const std::string& from, const std::string& to, bool replace) {
    auto it = files_.find(from);
    if (it == files_.end()) return missing(from);
    if (!dirs_.count(dir_name(to))) return missing(dir_name(to));
    if (!replace && files_.count(to)) return Status::Exists("rename " + from + " -> " + to + ": exists");
    auto node = it->second;
    files_.erase(it);
    files_[to] = node;
    return Status::Ok();
  }

  std::map<std::string, std::shared_ptr<Node>> files_;
  std::set<std::string> dirs_;
  std::set<std::string> locks_;
  std::condition_variable lock_released_;
  uint64_t next_ino_ = 1;
};

Status MemFile::append(std::string_view data) {
  if (!node_) return closed();
  return fs_->append_to(*node_, data);
}

Result<FileInfo> MemFile::stat() {
  if (!node_) return closed();
  std::lock_guard<std::mutex> g(fs_->mu_);
  return fs_->info(*node_);
}

MemLock::~MemLock() {
  if (armed_) fs_->release(path_);
}

}  // namespace

std::shared_ptr<Fs> make_memory_fs() { return std::make_shared<MemoryFs>(); }

}  // namespace xs::storage
