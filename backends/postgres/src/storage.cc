// xs_postgres_storage: the table, its instance, and the guard that keeps C++ exceptions (an
// allocation that failed) from crossing the C functions.
#include <cstring>
#include <new>
#include <string>

#include "schema.h"
#include "storage.h"
#include "xsession_postgres.h"

namespace xspg {

namespace {

template <typename F>
xs_status guarded(const char* op, const char* path, F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return xs_storage_error(XS_ENOMEM, "postgres: out of memory");
  } catch (const std::exception& e) {
    try {
      return fail_text(XS_EIO, op, path, e.what());
    } catch (...) {
      return XS_EIO;
    }
  } catch (...) {
    return XS_EIO;
  }
}

xs_status t_read(void* u, const char* p, uint64_t off, uint64_t max, xs_storage_buffer* out, uint64_t* got,
                 xs_storage_info* info) {
  return guarded("read", p, [&] { return pg_read(u, p, off, max, out, got, info); });
}
xs_status t_stat(void* u, const char* p, xs_storage_info* info) {
  return guarded("stat", p, [&] { return pg_stat(u, p, info); });
}
xs_status t_open(void* u, const char* p, uint32_t flags, void** file) {
  return guarded("open", p, [&] { return pg_open(u, p, flags, file); });
}
xs_status t_write(void* u, void* file, const void* data, size_t len) {
  return guarded("write", "", [&] { return pg_write(u, file, data, len); });
}
xs_status t_write_if(void* u, void* file, const char* p, uint64_t expected_size, const void* data, size_t len) {
  return guarded("write", p, [&] { return pg_write_if(u, file, p, expected_size, data, len); });
}
xs_status t_sync(void* u, void* file) { return pg_sync(u, file); }
xs_status t_fstat(void* u, void* file, xs_storage_info* info) { return pg_fstat(u, file, info); }
xs_status t_close(void* u, void* file) { return pg_close(u, file); }
xs_status t_rename(void* u, const char* from, const char* to, uint32_t flags) {
  return guarded("rename", from, [&] { return pg_rename(u, from, to, flags); });
}
xs_status t_remove(void* u, const char* p) {
  return guarded("remove", p, [&] { return pg_remove(u, p); });
}
xs_status t_make_dirs(void* u, const char* p) {
  return guarded("make_dirs", p, [&] { return pg_make_dirs(u, p); });
}
xs_status t_sync_dir(void* u, const char* p) { return pg_sync_dir(u, p); }
xs_status t_touch(void* u, const char* p) {
  return guarded("touch", p, [&] { return pg_touch(u, p); });
}
xs_status t_list(void* u, const char* p, xs_status (*name)(void*, const char*, size_t), void* ctx) {
  return guarded("list", p, [&] { return pg_list(u, p, name, ctx); });
}
xs_status t_lock(void* u, const char* p, uint32_t timeout_ms, void** lock) {
  return guarded("lock", p, [&] { return pg_lock(u, p, timeout_ms, lock); });
}
void t_unlock(void* u, void* lock) {
  guarded("unlock", "", [&] {
    pg_unlock(u, lock);
    return XS_OK;
  });
}
void t_release(void* u) { delete static_cast<Instance*>(u); }  // closes every pooled connection

void set_error(char* buf, size_t cap, const std::string& text) {
  if (buf == nullptr || cap == 0) return;
  size_t n = text.size() < cap - 1 ? text.size() : cap - 1;
  std::memcpy(buf, text.data(), n);
  buf[n] = '\0';
}

xs_status make(const char* conninfo, const char* schema_arg, xs_storage* out, char* errbuf, size_t errcap) {
  set_error(errbuf, errcap, "");
  if (conninfo == nullptr || out == nullptr) {
    set_error(errbuf, errcap, "xs_postgres_storage: conninfo and out are required");
    return XS_EINVAL;
  }
  std::string schema = schema_arg ? schema_arg : "xsession";
  if (!valid_schema_name(schema)) {
    set_error(errbuf, errcap,
              "xs_postgres_storage: bad schema name (1-63 chars of [a-z0-9_], not starting with a digit)");
    return XS_EINVAL;
  }
  auto inst = std::make_unique<Instance>(conninfo, schema);
  std::string error;
  std::unique_ptr<Conn> conn = inst->pool.take(&error);
  if (!conn) {
    set_error(errbuf, errcap, "xs_postgres_storage: cannot connect: " + error);
    return XS_EIO;
  }
  xs_status rc = migrate(*conn, schema, &error);
  if (rc != XS_OK) {
    set_error(errbuf, errcap, "xs_postgres_storage: " + error);
    return rc;
  }
  // Statements prepared before the tables existed would not be valid: start the pool afresh.
  conn.reset();
  std::memset(out, 0, sizeof *out);
  out->version = XS_STORAGE_VERSION;
  out->read = t_read;
  out->stat = t_stat;
  out->open = t_open;
  out->write = t_write;
  out->sync = t_sync;
  out->fstat = t_fstat;
  out->close = t_close;
  out->rename = t_rename;
  out->remove = t_remove;
  out->make_dirs = t_make_dirs;
  out->sync_dir = t_sync_dir;
  out->touch = t_touch;
  out->list = t_list;
  out->lock = t_lock;
  out->unlock = t_unlock;
  out->release = t_release;
  out->write_if = t_write_if;
  out->user = inst.release();
  return XS_OK;
}

}  // namespace

}  // namespace xspg

extern "C" XS_API xs_status xs_postgres_storage(const char* conninfo, const char* schema, xs_storage* out, char* errbuf,
                                                size_t errcap) {
  try {
    return xspg::make(conninfo, schema, out, errbuf, errcap);
  } catch (const std::bad_alloc&) {
    return XS_ENOMEM;
  } catch (...) {
    return XS_EIO;
  }
}
