#include "store_files.h"

#include <algorithm>

namespace xs::cli {
namespace {

[[noreturn]] void storage_failed(xs_status st, const std::string& what) {
  throw ApiError(st, what + ": " + xs_status_str(st));
}

}  // namespace

std::string read_in(const xs_storage& t, const std::string& path) {
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

namespace {

// Creates `path` with `bytes`, durably: XS_EEXISTS (nothing written) if it exists; any other
// failure removes what was made (a partial copy passes for nothing).
xs_status create_with(const xs_storage& t, const std::string& path, const std::string& bytes) {
  void* file = nullptr;
  xs_status st = t.open(t.user, path.c_str(), XS_STORAGE_CREATE, &file);
  if (st != XS_OK) return st;
  st = t.write(t.user, file, bytes.data(), bytes.size());
  if (st == XS_OK) st = t.sync(t.user, file);
  xs_status closed = t.close(t.user, file);
  if (st == XS_OK) st = closed;
  if (st == XS_OK) st = t.sync_dir(t.user, path.substr(0, path.rfind('/')).c_str());
  if (st != XS_OK) remove_in(t, path);
  return st;
}

}  // namespace

void write_new_in(const xs_storage& t, const std::string& path, const std::string& bytes) {
  xs_status st = create_with(t, path, bytes);
  if (st != XS_OK) storage_failed(st, path);
}

std::string copy_in(const xs_storage& t, const std::string& from, const std::vector<std::string>& candidates) {
  std::string bytes = read_in(t, from);
  for (const std::string& to : candidates) {
    xs_status st = create_with(t, to, bytes);
    if (st == XS_EEXISTS) continue;
    if (st != XS_OK) storage_failed(st, to);
    return to;
  }
  storage_failed(XS_EEXISTS, candidates.empty() ? from : candidates.back());
}

void remove_in(const xs_storage& t, const std::string& path) { (void)t.remove(t.user, path.c_str()); }

}  // namespace xs::cli
