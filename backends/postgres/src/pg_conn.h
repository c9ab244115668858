// Connections to the server and the statements run on them: a pool of libpq connections, results
// that free themselves, prepared statements made once per connection, and the failure of a
// statement turned into an xs_status with the server's message (docs/postgres.md#connections-and-threads).
#ifndef XS_POSTGRES_PG_CONN_H
#define XS_POSTGRES_PG_CONN_H

#include <libpq-fe.h>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "xsession_storage.h"

namespace xspg {

// One parameter of a statement: text (numbers, names) or binary (bytea: the bytes as they are).
// A null `data` is SQL NULL.
struct Param {
  const char* data = nullptr;
  int len = 0;
  int binary = 0;

  static Param text(const std::string& s) { return {s.c_str(), 0, 0}; }
  static Param bytes(std::string_view b) { return {b.empty() ? "" : b.data(), static_cast<int>(b.size()), 1}; }
  static Param null() { return {}; }
};

// A statement prepared by name on each connection the first time it runs there. Results come as
// text unless `binary_results` (read: the lines' bytes without hex decoding).
struct Statement {
  const char* name;
  const char* sql;
  bool binary_results = false;
};

class Result {
 public:
  explicit Result(PGresult* r = nullptr) : res_(r) {}
  Result(Result&& o) noexcept : res_(o.res_) { o.res_ = nullptr; }
  Result& operator=(Result&& o) noexcept;
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;
  ~Result() { PQclear(res_); }

  bool ok() const;
  // The SQLSTATE of a failed statement ("" when none): 23505 is a unique violation.
  std::string sqlstate() const;
  std::string message() const;
  int rows() const { return PQntuples(res_); }
  int affected() const;  // rows an INSERT/UPDATE/DELETE touched
  bool null(int row, int col) const { return PQgetisnull(res_, row, col) != 0; }
  std::string_view bytes(int row, int col) const {
    return {PQgetvalue(res_, row, col), static_cast<size_t>(PQgetlength(res_, row, col))};
  }
  // An int8/int4/bool column, text or binary.
  int64_t int64(int row, int col) const;

 private:
  PGresult* res_;
};

struct Conn {
  explicit Conn(PGconn* c) : pg(c) {}
  ~Conn() { PQfinish(pg); }
  Conn(const Conn&) = delete;
  Conn& operator=(const Conn&) = delete;

  Result run(const Statement& st, std::initializer_list<Param> params);
  Result run(const Statement& st, const std::vector<Param>& params);
  // A statement made at run time (several rows at once), not prepared.
  Result run_sql(const std::string& sql, const std::vector<Param>& params);
  // A statement without parameters or rows (BEGIN, COMMIT): true when it succeeded.
  bool command(const char* sql, std::string* error);
  bool healthy() const { return PQstatus(pg) == CONNECTION_OK; }

  PGconn* pg;
  std::unordered_set<std::string> prepared;
};

// Idle connections to one database, with search_path set to the store's schema. Thread-safe.
class Pool {
 public:
  Pool(std::string conninfo, std::string schema, size_t max_idle)
      : conninfo_(std::move(conninfo)), schema_(std::move(schema)), max_idle_(max_idle) {}
  // An idle connection or a new one; nullptr with *error set when the server cannot be reached.
  std::unique_ptr<Conn> take(std::string* error);
  // Back into the pool when it is healthy and outside a transaction (one left open by a failure
  // is rolled back); closed otherwise.
  void give(std::unique_ptr<Conn> conn);
  void close_all();
  const std::string& schema() const { return schema_; }

 private:
  std::string conninfo_, schema_;
  size_t max_idle_;
  std::mutex mu_;
  std::vector<std::unique_ptr<Conn>> idle_;
};

// A connection of the pool for one storage call, given back when the call ends.
class Lease {
 public:
  explicit Lease(Pool& pool) : pool_(pool) {}
  ~Lease() {
    if (conn_) pool_.give(std::move(conn_));
  }
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
  // XS_OK with a connection, or XS_EIO with libpq's message (xs_storage_error).
  xs_status acquire(const char* op, const char* path);
  Conn& operator*() { return *conn_; }
  Conn* operator->() { return conn_.get(); }

 private:
  Pool& pool_;
  std::unique_ptr<Conn> conn_;
};

// BEGIN … COMMIT on a connection; rolled back when it goes out of scope uncommitted.
class Transaction {
 public:
  explicit Transaction(Conn& c) : conn_(c) {}
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  xs_status begin(const char* op, const char* path);
  xs_status commit(const char* op, const char* path);

 private:
  Conn& conn_;
  bool open_ = false;
};

// XS_EIO (XS_ENOSPC for a full disk, XS_ENOMEM for the server's out of memory) with the message
// "postgres: <op> <path>: <server's message>", through xs_storage_error.
xs_status fail(const Result& r, const char* op, const char* path);
xs_status fail_text(xs_status code, const char* op, const char* path, const std::string& message);

// Milliseconds since the epoch, this process's clock (files' mtime_ms).
int64_t now_ms();

}  // namespace xspg

#endif  // XS_POSTGRES_PG_CONN_H
