// RAII over SQLite (sqlite_db.h).
#include "sqlite/sqlite_db.h"

#include <thread>

#include "sqlite/fts_rank.h"
#include "sqlite/rowid_set.h"

namespace xs::sqlite {

Code code_of(int rc) {
  switch (rc & 0xff) {
    case SQLITE_OK:
    case SQLITE_ROW:
    case SQLITE_DONE: return Code::kOk;
    case SQLITE_BUSY:
    case SQLITE_LOCKED: return Code::kLocked;
    case SQLITE_NOMEM: return Code::kNoMem;
    case SQLITE_FULL: return Code::kNoSpace;
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_PERM: return Code::kIo;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB: return Code::kCorrupt;
    case SQLITE_TOOBIG: return Code::kLimit;
    case SQLITE_READONLY: return Code::kReadOnly;
    case SQLITE_MISUSE: return Code::kInternal;
    default: return Code::kError;
  }
}

Stmt& Stmt::operator=(Stmt&& o) noexcept {
  if (this != &o) {
    sqlite3_finalize(s_);
    db_ = o.db_;
    s_ = o.s_;
    o.s_ = nullptr;
  }
  return *this;
}

void Stmt::bind(int i, std::string_view text) {
  sqlite3_bind_text64(s_, i, text.data() ? text.data() : "", text.size(), SQLITE_STATIC, SQLITE_UTF8);
}
void Stmt::bind(int i, int64_t v) { sqlite3_bind_int64(s_, i, v); }
void Stmt::bind_null(int i) { sqlite3_bind_null(s_, i); }
int Stmt::step() { return sqlite3_step(s_); }
void Stmt::reset() {
  sqlite3_reset(s_);
  sqlite3_clear_bindings(s_);
}

std::string_view Stmt::text(int col) const {
  const unsigned char* p = sqlite3_column_text(s_, col);
  if (!p) return {};
  return {reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(s_, col))};
}

std::optional<std::string_view> Stmt::blob(int col) const {
  if (sqlite3_column_type(s_, col) != SQLITE_BLOB) return std::nullopt;
  const void* p = sqlite3_column_blob(s_, col);  // null for a blob of no bytes
  size_t n = static_cast<size_t>(sqlite3_column_bytes(s_, col));
  return std::string_view(p ? static_cast<const char*>(p) : "", n);
}

Status Db::open(const std::string& path, bool create, std::chrono::milliseconds busy_timeout) {
  close();
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
  int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    Status st = error(rc, "open " + path);
    close();
    return st;
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, static_cast<int>(busy_timeout.count()));
  // Both databases rank their searches with it (fts_rank.h); the history filters by cwd with the
  // other (rowid_set.h).
  Status registered = register_sampled_bm25(db_);
  if (registered.ok()) registered = register_rowid_set(db_);
  if (!registered.ok()) close();
  return registered;
}

void Db::close() {
  if (db_) sqlite3_close_v2(db_);
  db_ = nullptr;
}

Result<Stmt> Db::prepare(std::string_view sql) {
  Stmt s;
  s.db_ = this;
  int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &s.s_, nullptr);
  if (rc != SQLITE_OK) return error(rc, "prepare");
  return s;
}

Status Db::exec(const char* sql) {
  int rc = sqlite3_exec(db_, sql, nullptr, nullptr, nullptr);
  return rc == SQLITE_OK ? Status::Ok() : error(rc, sql);
}

Result<std::string> Db::query_text(const char* sql) {
  Result<Stmt> s = prepare(sql);
  if (!s.ok()) return s.status();
  int rc = s->step();
  if (rc == SQLITE_DONE) return std::string();
  if (rc != SQLITE_ROW) return error(rc, sql);
  return std::string(s->text(0));
}

Result<int64_t> Db::query_int(const char* sql) {
  Result<Stmt> s = prepare(sql);
  if (!s.ok()) return s.status();
  int rc = s->step();
  if (rc == SQLITE_DONE) return int64_t{0};
  if (rc != SQLITE_ROW) return error(rc, sql);
  return s->int64(0);
}

Status Db::error(int rc, std::string_view what) const {
  std::string msg(what);
  msg += ": ";
  msg += db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
  return Status(code_of(rc), std::move(msg));
}

Status retry_busy(std::chrono::milliseconds timeout, const std::function<Status()>& body) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  std::chrono::milliseconds pause(1);
  for (;;) {
    Status st = body();
    if (st.code() != Code::kLocked || std::chrono::steady_clock::now() >= deadline) return st;
    std::this_thread::sleep_for(pause);
    if (pause < std::chrono::milliseconds(50)) pause *= 2;
  }
}

}  // namespace xs::sqlite
