// A thin RAII layer over the SQLite C API, shared by the prompt history and the session index:
// connections, prepared statements with bound parameters (user text is never spliced into SQL),
// and the mapping of SQLite's result codes to the engine's Status codes. SQLite does its own file
// I/O, outside the storage seam (docs/history.md#outside-the-seam); this layer is the only place
// that opens a database.
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "util/status.h"

namespace xs::sqlite {

// SQLite result code -> engine code: BUSY/LOCKED -> kLocked, FULL -> kNoSpace, IOERR/CANTOPEN ->
// kIo, CORRUPT/NOTADB -> kCorrupt, NOMEM -> kNoMem, TOOBIG -> kLimit, READONLY -> kReadOnly.
Code code_of(int rc);

// True for the codes a retry may clear (another connection holds the lock).
inline bool is_busy(int rc) { return (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED; }

class Db;

class Stmt {
 public:
  Stmt() = default;
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  Stmt(Stmt&& o) noexcept : db_(o.db_), s_(o.s_) { o.s_ = nullptr; }
  Stmt& operator=(Stmt&& o) noexcept;
  ~Stmt() { sqlite3_finalize(s_); }

  // Binds are 1-based, as in SQLite. Text is copied (SQLITE_TRANSIENT) only where it must outlive
  // the call: these bind SQLITE_STATIC, so the caller keeps the bytes alive until reset().
  void bind(int i, std::string_view text);
  void bind(int i, int64_t v);
  void bind_null(int i);
  // SQLITE_ROW, SQLITE_DONE or an error code.
  int step();
  void reset();

  int64_t int64(int col) const { return sqlite3_column_int64(s_, col); }
  double real(int col) const { return sqlite3_column_double(s_, col); }
  bool is_null(int col) const { return sqlite3_column_type(s_, col) == SQLITE_NULL; }
  std::string_view text(int col) const;
  // A BLOB column's bytes; nullopt for a value of any other type, NULL included.
  std::optional<std::string_view> blob(int col) const;

  sqlite3_stmt* raw() const { return s_; }

 private:
  friend class Db;
  Db* db_ = nullptr;
  sqlite3_stmt* s_ = nullptr;
};

class Db {
 public:
  Db() = default;
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;
  ~Db() { close(); }

  // Opens (creating when `create`) the database file. Nothing is read yet: SQLite reads the header
  // at the first statement, so a damaged file shows there.
  Status open(const std::string& path, bool create, std::chrono::milliseconds busy_timeout);
  void close();
  bool is_open() const { return db_ != nullptr; }

  Result<Stmt> prepare(std::string_view sql);
  // Runs statements without results (schema, pragmas, BEGIN/COMMIT).
  Status exec(const char* sql);
  // The first column of the first row of `sql` as text ("" when there is no row).
  Result<std::string> query_text(const char* sql);
  Result<int64_t> query_int(const char* sql);

  // The Status for result code `rc` of the last call on this connection, with SQLite's message.
  Status error(int rc, std::string_view what) const;
  int64_t last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }
  sqlite3* raw() const { return db_; }

 private:
  sqlite3* db_ = nullptr;
};

// Runs `body` until it returns something other than kLocked or `timeout` has passed, sleeping a
// little longer each time (1 ms up to 50 ms). The busy timeout of the connection already waits
// inside SQLite; this covers the cases it does not (a deadlock between a reader upgrading to a
// writer and another writer, which SQLite reports at once, and a WAL snapshot gone stale).
Status retry_busy(std::chrono::milliseconds timeout, const std::function<Status()>& body);

// Resets a statement when the scope ends: a statement left stepping would keep its read
// transaction, and with it every checkpoint, waiting.
class ResetOnExit {
 public:
  explicit ResetOnExit(Stmt* s) : s_(s) {}
  ~ResetOnExit() { s_->reset(); }
  ResetOnExit(const ResetOnExit&) = delete;
  ResetOnExit& operator=(const ResetOnExit&) = delete;

 private:
  Stmt* s_;
};

inline const Status& status_of(const Status& s) { return s; }
template <class T>
const Status& status_of(const Result<T>& r) {
  return r.status();
}

}  // namespace xs::sqlite
