// The xs_storage table over PostgreSQL: one instance per xs_postgres_storage call (its `user`),
// the handles of open files and held locks, and the functions split by what they touch
// (docs/postgres.md).
#ifndef XS_POSTGRES_STORAGE_H
#define XS_POSTGRES_STORAGE_H

#include <cstdint>
#include <string>
#include <string_view>

#include "pg_conn.h"
#include "xsession_storage.h"

namespace xspg {

// Identity of xs_storage_info: which table a row is in (ino is its id).
constexpr uint64_t kDevFile = 1, kDevBlob = 2, kDevDir = 3;

struct Instance {
  Instance(const std::string& conninfo, const std::string& schema)
      : pool(conninfo, schema, 8), lock_pool(conninfo, schema, 4) {}
  Pool pool;       // every statement but the locks
  Pool lock_pool;  // a connection per held lock (advisory locks belong to a connection)
};

inline Instance& instance(void* user) { return *static_cast<Instance*>(user); }

// An open file: the row it writes and what the next write needs without asking the server.
struct OpenFile {
  bool blob = false;
  int64_t id = 0;
  std::string path;  // for messages
  uint64_t size = 0;
  int64_t mtime_ms = 0;
  int64_t next_seq = 0;       // files: seq of the next new line
  bool partial = false;       // files: the last row lacks its '\n'
  bool session_kind = false;  // files: kind 'session' (its seq 0 fills the session columns)
  bool stale = false;         // a write failed: read the state again before the next one
};

// True when `data` is one complete line that append_lines can write as one autocommit statement.
bool one_statement_append(const OpenFile& f, std::string_view data);

// Appends `data` to a file row as lines (docs/postgres.md#paths, `write`): the caller's transaction is
// open unless `fast_ok` and one_statement_append(f, data).
xs_status append_lines(Conn& c, OpenFile& f, std::string_view data, bool fast_ok);

// The file's session columns from its seq 0 line, after a rename gave it a new name.
xs_status refresh_session_columns(Conn& c, int64_t id, std::string_view name, const char* path);

// The table's functions, in storage_files.cc, storage_names.cc and storage_locks.cc.
xs_status pg_read(void* user, const char* path, uint64_t offset, uint64_t max, xs_storage_buffer* out, uint64_t* got,
                  xs_storage_info* info);
xs_status pg_stat(void* user, const char* path, xs_storage_info* info);
xs_status pg_open(void* user, const char* path, uint32_t flags, void** file);
xs_status pg_write(void* user, void* file, const void* data, size_t len);
xs_status pg_write_if(void* user, void* file, const char* path, uint64_t expected_size, const void* data, size_t len);
xs_status pg_sync(void* user, void* file);
xs_status pg_fstat(void* user, void* file, xs_storage_info* info);
xs_status pg_close(void* user, void* file);
xs_status pg_touch(void* user, const char* path);
xs_status pg_rename(void* user, const char* from, const char* to, uint32_t flags);
xs_status pg_remove(void* user, const char* path);
xs_status pg_make_dirs(void* user, const char* path);
xs_status pg_sync_dir(void* user, const char* path);
xs_status pg_list(void* user, const char* path, xs_status (*name)(void*, const char*, size_t), void* ctx);
xs_status pg_lock(void* user, const char* path, uint32_t timeout_ms, void** lock);
void pg_unlock(void* user, void* lock);

}  // namespace xspg

#endif  // XS_POSTGRES_STORAGE_H
