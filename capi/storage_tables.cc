// The built-in backends (posix_fs, memory_fs) as xs_storage tables (storage_bridge.h), for hosts
// that wrap or delegate to them. Each function is one call of the Fs; its Status becomes the
// status and the message (xs_storage_error) the adapter on the other side reads back.

#include <cstring>
#include <new>

#include "storage_bridge.h"

namespace xs::capi {
namespace {

struct Table {
  std::shared_ptr<storage::Fs> fs;
};

storage::Fs& fs_of(void* user) { return *static_cast<Table*>(user)->fs; }

xs_status report(const Status& st) {
  if (st.ok()) return XS_OK;
  set_storage_message(st.message());
  return static_cast<xs_status>(st.code());
}

// Runs `body` (returning Status) with no exception leaving: these are C functions.
template <class F>
xs_status run(F&& body) noexcept {
  try {
    return report(body());
  } catch (const std::bad_alloc&) {
    return XS_ENOMEM;
  } catch (const std::exception& e) {
    try {
      set_storage_message(std::string("internal error: ") + e.what());
    } catch (...) {
    }
    return XS_EIO;
  } catch (...) {
    return XS_EIO;
  }
}

void to_info(const storage::FileInfo& f, xs_storage_info* out) {
  out->size = f.size;
  out->mtime_ms = f.mtime_ms;
  out->dev = f.dev;
  out->ino = f.ino;
  out->links = f.links;
  out->kind = f.is_dir ? XS_STORAGE_DIR : f.is_regular ? XS_STORAGE_FILE : XS_STORAGE_OTHER;
}

xs_status read(void* user, const char* path, uint64_t offset, uint64_t max, xs_storage_buffer* out, uint64_t* got,
               xs_storage_info* info) {
  return run([&]() -> Status {
    storage::PaddedBuffer bytes;
    storage::FileInfo fi;
    XS_RETURN_IF_ERROR(fs_of(user).read_range(path, offset, max, &bytes, &fi));
    void* to = out->alloc(out, bytes.size());
    if (!to)
      return Status(Code::kNoMem,
                    std::string("read ") + path + ": the reader took no " + std::to_string(bytes.size()) + " bytes");
    if (bytes.size()) std::memcpy(to, bytes.data(), bytes.size());
    *got = bytes.size();
    to_info(fi, info);
    return Status::Ok();
  });
}

xs_status stat(void* user, const char* path, xs_storage_info* info) {
  return run([&]() -> Status {
    auto fi = fs_of(user).stat(path);
    if (!fi.ok()) return fi.status();
    to_info(*fi, info);
    return Status::Ok();
  });
}

xs_status open(void* user, const char* path, uint32_t flags, void** file) {
  return run([&]() -> Status {
    if (flags != XS_STORAGE_APPEND && flags != XS_STORAGE_CREATE) {
      return Status::Invalid("open " + std::string(path) + ": flags must be XS_STORAGE_APPEND or XS_STORAGE_CREATE");
    }
    auto f = flags == XS_STORAGE_APPEND ? fs_of(user).open_append(path) : fs_of(user).create_new(path);
    if (!f.ok()) return f.status();
    *file = f->release();
    return Status::Ok();
  });
}

storage::WritableFile& file_of(void* file) { return *static_cast<storage::WritableFile*>(file); }

xs_status write(void*, void* file, const void* data, size_t len) {
  return run([&] { return file_of(file).append(std::string_view(static_cast<const char*>(data), len)); });
}

xs_status sync(void*, void* file) {
  return run([&] { return file_of(file).sync(); });
}

xs_status fstat(void*, void* file, xs_storage_info* info) {
  return run([&]() -> Status {
    auto fi = file_of(file).stat();
    if (!fi.ok()) return fi.status();
    to_info(*fi, info);
    return Status::Ok();
  });
}

xs_status close(void*, void* file) {
  std::unique_ptr<storage::WritableFile> owned(&file_of(file));  // gone whatever close says
  return run([&] { return owned->close(); });
}

xs_status rename(void* user, const char* from, const char* to, uint32_t flags) {
  return run([&] {
    return flags & XS_STORAGE_NOREPLACE ? fs_of(user).rename_noreplace(from, to) : fs_of(user).rename(from, to);
  });
}

xs_status remove(void* user, const char* path) {
  return run([&] { return fs_of(user).unlink(path); });
}

xs_status make_dirs(void* user, const char* path) {
  return run([&] { return fs_of(user).make_dirs(path); });
}

xs_status sync_dir(void* user, const char* path) {
  return run([&] { return fs_of(user).sync_dir(path); });
}

xs_status touch(void* user, const char* path) {
  return run([&] { return fs_of(user).touch(path); });
}

xs_status list(void* user, const char* path, xs_status (*name)(void*, const char*, size_t), void* ctx) {
  return run([&]() -> Status {
    auto names = fs_of(user).list_dir(path);
    if (!names.ok()) return names.status();
    for (const std::string& n : *names) {
      xs_status rc = name(ctx, n.c_str(), n.size());
      if (rc != XS_OK) return Status(static_cast<Code>(rc), "list " + std::string(path) + ": stopped by the caller");
    }
    return Status::Ok();
  });
}

xs_status lock(void* user, const char* path, uint32_t timeout_ms, void** held) {
  return run([&]() -> Status {
    auto l = fs_of(user).lock(path, std::chrono::milliseconds(timeout_ms));
    if (!l.ok()) return l.status();
    *held = l->release();
    return Status::Ok();
  });
}

void unlock(void*, void* held) { delete static_cast<storage::FileLock*>(held); }

void release(void* user) { delete static_cast<Table*>(user); }

xs_status fill(xs_storage* out, std::shared_ptr<storage::Fs> (*make)()) noexcept {
  if (!out) return XS_EINVAL;
  try {
    auto* table = new Table{make()};
    *out = xs_storage{XS_STORAGE_VERSION, table,    read,  stat, open, write,  sync,    fstat,  close, rename, remove,
                      make_dirs,          sync_dir, touch, list, lock, unlock, release, nullptr};
    return XS_OK;
  } catch (...) {
    return XS_ENOMEM;
  }
}

std::shared_ptr<storage::Fs> posix() { return storage::make_posix_fs(); }

}  // namespace
}  // namespace xs::capi

extern "C" {

xs_status xs_storage_posix(xs_storage* out) { return xs::capi::fill(out, &xs::capi::posix); }

xs_status xs_storage_memory(xs_storage* out) { return xs::capi::fill(out, &xs::storage::make_memory_fs); }

}  // extern "C"
