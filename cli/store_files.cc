#include "store_files.h"

#include <algorithm>

namespace xs::cli {
namespace {

[[noreturn]] void storage_failed(xs_status st, const std::string& what) {
  throw ApiError(st, what + ": " + xs_status_str(st));
}

std::string read_whole(const xs_storage& t, const std::string& path) {
  struct Into {
    xs_storage_buffer buffer;
    std::string bytes;
    static void* alloc(xs_storage_buffer* self, uint64_t size) {
      auto* into = static_cast<Into*>(self->opaque);
      try {
        into->bytes.resize(size);
      } catch (...) {
        return nullptr;
      }
      return into->bytes.data();
    }
  } into{{&Into::alloc, nullptr}, {}};
  into.buffer.opaque = &into;
  uint64_t got = 0;
  xs_storage_info info{};
  xs_status st = t.read(t.user, path.c_str(), 0, UINT64_MAX, &into.buffer, &got, &info);
  if (st != XS_OK) storage_failed(st, path);
  into.bytes.resize(got);
  return std::move(into.bytes);
}

}  // namespace

uint32_t kind_in(const xs_storage& t, const std::string& path) {
  xs_storage_info info{};
  xs_status st = t.stat(t.user, path.c_str(), &info);
  if (st == XS_ENOTFOUND) return 0;
  if (st != XS_OK) storage_failed(st, path);
  return info.kind;
}

void find_in(const xs_storage& t, const std::string& dir, bool (*want)(const std::string& name),
             std::vector<std::string>* out) {
  std::vector<std::string> names;
  auto add = [](void* ctx, const char* name, size_t len) -> xs_status {
    try {
      static_cast<std::vector<std::string>*>(ctx)->emplace_back(name, len);
      return XS_OK;
    } catch (...) {
      return XS_ENOMEM;
    }
  };
  xs_status st = t.list(t.user, dir.c_str(), add, &names);
  if (st != XS_OK) storage_failed(st, dir);
  std::sort(names.begin(), names.end());
  for (const std::string& n : names) {
    std::string path = dir + "/" + n;
    uint32_t kind = kind_in(t, path);
    if (kind == XS_STORAGE_DIR) {
      find_in(t, path, want, out);
    } else if (kind == XS_STORAGE_FILE && want(n)) {
      out->push_back(path);
    }
  }
}

std::string copy_in(const xs_storage& t, const std::string& from, const std::vector<std::string>& candidates) {
  std::string bytes = read_whole(t, from);
  for (const std::string& to : candidates) {
    void* file = nullptr;
    xs_status st = t.open(t.user, to.c_str(), XS_STORAGE_CREATE, &file);
    if (st == XS_EEXISTS) continue;
    if (st != XS_OK) storage_failed(st, to);
    st = t.write(t.user, file, bytes.data(), bytes.size());
    if (st == XS_OK) st = t.sync(t.user, file);
    xs_status closed = t.close(t.user, file);
    if (st == XS_OK) st = closed;
    if (st == XS_OK) st = t.sync_dir(t.user, to.substr(0, to.rfind('/')).c_str());
    if (st != XS_OK) {
      remove_in(t, to);  // a partial copy is no backup
      storage_failed(st, to);
    }
    return to;
  }
  storage_failed(XS_EEXISTS, candidates.empty() ? from : candidates.back());
}

void remove_in(const xs_storage& t, const std::string& path) { (void)t.remove(t.user, path.c_str()); }

}  // namespace xs::cli
