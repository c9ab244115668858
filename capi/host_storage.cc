// A host's xs_storage table as the engine's Fs (storage_bridge.h). Only translation: each Fs call
// is one call of the table, its status mapped back with the host's message. What the engine
// builds on these calls (atomic rewrites, the writer lock, reloads) is the same code that runs over
// the built-in backends.

#include <climits>
#include <cstddef>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "handles.h"
#include "storage_bridge.h"

namespace xs::capi {

namespace {

thread_local std::string t_message;
thread_local bool t_has_message = false;

// The statuses a storage function may return (xsession_storage.h); anything else is the host's
// bug, reported as an I/O error that says so.
bool known_storage_status(xs_status rc) {
  switch (rc) {
    case XS_ERROR:
    case XS_ENOMEM:
    case XS_EINVAL:
    case XS_ENOTFOUND:
    case XS_EEXISTS:
    case XS_EIO:
    case XS_ELOCKED:
    case XS_ENOSPC:
    case XS_EREADONLY:
    case XS_ECONFLICT:
    case XS_ELIMIT: return true;
    default: return false;
  }
}

Status outcome(xs_status rc, const char* op, const std::string& path) {
  std::string message = take_storage_message();
  if (rc == XS_OK) return Status::Ok();
  std::string what = std::string("storage ") + op + " " + path;
  if (!known_storage_status(rc)) {
    return Status(Code::kIo, what + ": the storage returned status " + std::to_string(rc) +
                                 (message.empty() ? std::string() : " (" + message + ")"));
  }
  if (message.empty()) message = what + ": " + xs_status_str(rc);
  return Status(static_cast<Code>(rc), std::move(message));
}

storage::FileInfo info_of(const xs_storage_info& i) {
  storage::FileInfo f;
  f.dev = i.dev;
  f.ino = i.ino;
  f.size = i.size;
  f.mtime_ms = i.mtime_ms;
  f.is_dir = i.kind == XS_STORAGE_DIR;
  f.is_regular = i.kind == XS_STORAGE_FILE;
  f.links = i.links;
  return f;
}

// Where a read's bytes go: one PaddedBuffer of the size the host asks for, refused past `limit`.
struct ReadSink {
  xs_storage_buffer buffer;
  uint64_t limit;
  storage::PaddedBuffer bytes;
  uint64_t allocated = 0;
  bool called = false, over_limit = false, no_memory = false;

  static void* alloc(xs_storage_buffer* self, uint64_t size) {
    auto* sink = static_cast<ReadSink*>(self->opaque);
    if (sink->called) return nullptr;  // once per read
    sink->called = true;
    if (size > sink->limit) {
      sink->over_limit = true;
      return nullptr;
    }
    if (size > SIZE_MAX / 2) {
      sink->no_memory = true;
      return nullptr;
    }
    try {
      sink->bytes = storage::PaddedBuffer(static_cast<size_t>(size));
    } catch (const std::bad_alloc&) {
      sink->no_memory = true;
      return nullptr;
    }
    sink->allocated = size;
    return sink->bytes.data();
  }
};

class HostFile final : public storage::WritableFile {
 public:
  HostFile(std::shared_ptr<HostTable> table, void* file, std::string path)
      : table_(std::move(table)), file_(file), path_(std::move(path)) {}
  ~HostFile() override {
    if (open_) (void)close();
  }
  Status append(std::string_view data) override {
    const xs_storage& t = table_->fns();
    return outcome(t.write(t.user, file_, data.data(), data.size()), "write", path_);
  }
  bool has_append_if() const override { return table_->fns().write_if != nullptr; }
  Status append_if(const std::string& path, uint64_t expected_size, std::string_view data) override {
    const xs_storage& t = table_->fns();
    return outcome(t.write_if(t.user, file_, path.c_str(), expected_size, data.data(), data.size()), "write_if", path_);
  }
  Status sync() override {
    const xs_storage& t = table_->fns();
    return outcome(t.sync(t.user, file_), "sync", path_);
  }
  Result<storage::FileInfo> stat() override {
    const xs_storage& t = table_->fns();
    xs_storage_info info{};
    XS_RETURN_IF_ERROR(outcome(t.fstat(t.user, file_, &info), "fstat", path_));
    return info_of(info);
  }
  Status close() override {
    if (!open_) return Status::Ok();
    open_ = false;  // the host's handle is gone whatever close says
    const xs_storage& t = table_->fns();
    return outcome(t.close(t.user, file_), "close", path_);
  }

 private:
  std::shared_ptr<HostTable> table_;
  void* file_;
  std::string path_;
  bool open_ = true;
};

class HostLock final : public storage::FileLock {
 public:
  HostLock(std::shared_ptr<HostTable> table, void* lock) : table_(std::move(table)), lock_(lock) {}
  ~HostLock() override { table_->fns().unlock(table_->fns().user, lock_); }

 private:
  std::shared_ptr<HostTable> table_;
  void* lock_;
};

class HostFs final : public storage::Fs {
 public:
  explicit HostFs(std::shared_ptr<HostTable> table) : table_(std::move(table)), t_(table_->fns()) {}

  Status read_file(const std::string& path, uint64_t max_bytes, storage::PaddedBuffer* out,
                   storage::FileInfo* info) override {
    Status st = read(path, 0, UINT64_MAX, max_bytes, out, info);
    if (st.ok() && info) info->size = out->size();  // a whole file: exactly what was read
    return st;
  }
  Status read_range(const std::string& path, uint64_t offset, uint64_t max, storage::PaddedBuffer* out,
                    storage::FileInfo* info) override {
    return read(path, offset, max, UINT64_MAX, out, info);
  }
  Result<std::unique_ptr<storage::WritableFile>> open_append(const std::string& path) override {
    return open_table_file(path, XS_STORAGE_APPEND, "open");
  }
  Result<std::unique_ptr<storage::WritableFile>> create_new(const std::string& path) override {
    return open_table_file(path, XS_STORAGE_CREATE, "create");
  }
  Status rename(const std::string& from, const std::string& to) override {
    return outcome(t_.rename(t_.user, from.c_str(), to.c_str(), 0), "rename", from + " -> " + to);
  }
  Status rename_noreplace(const std::string& from, const std::string& to) override {
    return outcome(t_.rename(t_.user, from.c_str(), to.c_str(), XS_STORAGE_NOREPLACE), "rename", from + " -> " + to);
  }
  Status unlink(const std::string& path) override { return outcome(t_.remove(t_.user, path.c_str()), "remove", path); }
  Status make_dirs(const std::string& path) override {
    if (path.empty()) return Status::Ok();
    return outcome(t_.make_dirs(t_.user, path.c_str()), "make_dirs", path);
  }
  Status sync_dir(const std::string& path) override {
    return outcome(t_.sync_dir(t_.user, path.c_str()), "sync_dir", path);
  }
  Result<storage::FileInfo> stat(const std::string& path) override {
    xs_storage_info info{};
    XS_RETURN_IF_ERROR(outcome(t_.stat(t_.user, path.c_str(), &info), "stat", path));
    return info_of(info);
  }
  Status touch(const std::string& path) override { return outcome(t_.touch(t_.user, path.c_str()), "touch", path); }
  Result<std::vector<std::string>> list_dir(const std::string& path) override {
    struct Names {
      std::vector<std::string> names;
      static xs_status add(void* ctx, const char* name, size_t len) {
        try {
          static_cast<Names*>(ctx)->names.emplace_back(name, len);
          return XS_OK;
        } catch (const std::bad_alloc&) {
          return XS_ENOMEM;
        }
      }
    } names;
    XS_RETURN_IF_ERROR(outcome(t_.list(t_.user, path.c_str(), &Names::add, &names), "list", path));
    return std::move(names.names);
  }
  Result<std::unique_ptr<storage::FileLock>> try_lock(const std::string& path) override {
    return lock(path, std::chrono::milliseconds(0));
  }
  Result<std::unique_ptr<storage::FileLock>> lock(const std::string& path, std::chrono::milliseconds timeout) override {
    uint32_t ms = timeout.count() <= 0            ? 0
                  : timeout.count() >= UINT32_MAX ? UINT32_MAX
                                                  : static_cast<uint32_t>(timeout.count());
    void* handle = nullptr;
    XS_RETURN_IF_ERROR(outcome(t_.lock(t_.user, path.c_str(), ms, &handle), "lock", path));
    try {
      return std::unique_ptr<storage::FileLock>(new HostLock(table_, handle));
    } catch (...) {
      t_.unlock(t_.user, handle);
      throw;
    }
  }

 private:
  Status read(const std::string& path, uint64_t offset, uint64_t max, uint64_t limit, storage::PaddedBuffer* out,
              storage::FileInfo* info) {
    ReadSink sink{{&ReadSink::alloc, nullptr}, limit, {}};
    sink.buffer.opaque = &sink;
    uint64_t got = 0;
    xs_storage_info host_info{};
    xs_status rc = t_.read(t_.user, path.c_str(), offset, max, &sink.buffer, &got, &host_info);
    if (sink.over_limit) {
      take_storage_message();
      return Status::Limit(path + " is larger than " + std::to_string(limit) + " bytes");
    }
    if (sink.no_memory) {
      take_storage_message();
      throw std::bad_alloc();  // as any other allocation of the engine's that fails
    }
    XS_RETURN_IF_ERROR(outcome(rc, "read", path));
    if (!sink.called) sink.bytes = storage::PaddedBuffer(0);
    if (got > sink.allocated) {
      return Status(Code::kIo, "storage read " + path + ": the storage wrote " + std::to_string(got) +
                                   " bytes where it asked for " + std::to_string(sink.allocated));
    }
    sink.bytes.truncate(static_cast<size_t>(got));
    *out = std::move(sink.bytes);
    if (info) *info = info_of(host_info);
    return Status::Ok();
  }

  Result<std::unique_ptr<storage::WritableFile>> open_table_file(const std::string& path, uint32_t flags,
                                                                 const char* op) {
    void* file = nullptr;
    XS_RETURN_IF_ERROR(outcome(t_.open(t_.user, path.c_str(), flags, &file), op, path));
    try {
      return std::unique_ptr<storage::WritableFile>(new HostFile(table_, file, path));
    } catch (...) {
      t_.close(t_.user, file);
      take_storage_message();
      throw;
    }
  }

  std::shared_ptr<HostTable> table_;
  const xs_storage& t_;
};

}  // namespace

std::string take_storage_message() {
  if (!t_has_message) return {};
  t_has_message = false;
  return std::move(t_message);
}

void set_storage_message(std::string message) {
  t_message = std::move(message);
  t_has_message = true;
}

HostTable::HostTable(const xs_storage& table) {
  std::memset(&table_, 0, sizeof table_);
  std::memcpy(&table_, &table, table.version >= 2 ? sizeof table_ : offsetof(xs_storage, write_if));
}

Status check_storage(const xs_storage& t) {
  if (t.version != 1) XS_RETURN_IF_ERROR(check_struct_version(t.version, XS_STORAGE_VERSION, "xs_storage"));
  const std::pair<bool, const char*> required[] = {
      {t.read != nullptr, "read"},           {t.stat != nullptr, "stat"},         {t.open != nullptr, "open"},
      {t.write != nullptr, "write"},         {t.sync != nullptr, "sync"},         {t.fstat != nullptr, "fstat"},
      {t.close != nullptr, "close"},         {t.rename != nullptr, "rename"},     {t.remove != nullptr, "remove"},
      {t.make_dirs != nullptr, "make_dirs"}, {t.sync_dir != nullptr, "sync_dir"}, {t.touch != nullptr, "touch"},
      {t.list != nullptr, "list"},           {t.lock != nullptr, "lock"},         {t.unlock != nullptr, "unlock"},
  };
  for (const auto& [present, name] : required) {
    if (!present)
      return Status::Invalid(std::string("xs_storage.") + name + " is NULL (only release and write_if may be)");
  }
  return Status::Ok();
}

std::shared_ptr<storage::Fs> make_host_fs(std::shared_ptr<HostTable> table) {
  return std::make_shared<HostFs>(std::move(table));
}

}  // namespace xs::capi

extern "C" xs_status xs_storage_error(xs_status code, const char* message) {
  try {
    if (message) {
      xs::capi::set_storage_message(message);
    } else {
      xs::capi::take_storage_message();
    }
  } catch (...) {
    // No room for the message: the engine then reports the status with a message of its own.
  }
  return code;
}
