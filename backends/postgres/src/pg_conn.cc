#include "pg_conn.h"

#include <chrono>
#include <cstdlib>
#include <cstring>

namespace xspg {

Result& Result::operator=(Result&& o) noexcept {
  if (this != &o) {
    PQclear(res_);
    res_ = o.res_;
    o.res_ = nullptr;
  }
  return *this;
}

bool Result::ok() const {
  ExecStatusType s = PQresultStatus(res_);
  return s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
}

std::string Result::sqlstate() const {
  const char* s = res_ ? PQresultErrorField(res_, PG_DIAG_SQLSTATE) : nullptr;
  return s ? s : "";
}

namespace {

// libpq's messages run over several lines ("…failed: No such file or directory\n\tIs the server
// running…?"); the caller's message is one line, so the breaks become "; ".
std::string one_line(const char* m) {
  std::string out;
  for (const char* p = m; *p; ++p) {
    if (*p != '\n') {
      out += *p;
      continue;
    }
    while (p[1] == '\t' || p[1] == ' ') ++p;
    if (p[1]) out += "; ";
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

std::string Result::message() const {
  const char* m = res_ ? PQresultErrorMessage(res_) : nullptr;
  return m && *m ? one_line(m) : "no result from the server (out of memory or connection lost)";
}

int Result::affected() const { return std::atoi(PQcmdTuples(res_)); }

int64_t Result::int64(int row, int col) const {
  const char* v = PQgetvalue(res_, row, col);
  int len = PQgetlength(res_, row, col);
  if (PQfformat(res_, col) == 0) {
    if (len == 1 && (v[0] == 't' || v[0] == 'f')) return v[0] == 't';
    return std::strtoll(v, nullptr, 10);
  }
  // Binary integers are big-endian two's complement of their type's width.
  uint64_t u = 0;
  for (int i = 0; i < len; ++i) u = (u << 8) | static_cast<unsigned char>(v[i]);
  if (len > 0 && len < 8 && (static_cast<unsigned char>(v[0]) & 0x80) != 0) u |= ~uint64_t{0} << (len * 8);
  return static_cast<int64_t>(u);
}

namespace {

Result exec_params(Conn& c, const char* name, const char* sql, const Param* params, size_t n, bool binary) {
  std::vector<const char*> values(n);
  std::vector<int> lengths(n), formats(n);
  for (size_t i = 0; i < n; ++i) {
    values[i] = params[i].data;
    lengths[i] = params[i].len;
    formats[i] = params[i].binary;
  }
  int fmt = binary ? 1 : 0;
  if (name == nullptr) {
    return Result(
        PQexecParams(c.pg, sql, static_cast<int>(n), nullptr, values.data(), lengths.data(), formats.data(), fmt));
  }
  if (c.prepared.count(name) == 0) {
    Result prep(PQprepare(c.pg, name, sql, 0, nullptr));
    if (!prep.ok()) return prep;
    c.prepared.insert(name);
  }
  return Result(PQexecPrepared(c.pg, name, static_cast<int>(n), values.data(), lengths.data(), formats.data(), fmt));
}

}  // namespace

Result Conn::run(const Statement& st, std::initializer_list<Param> params) {
  return exec_params(*this, st.name, st.sql, params.begin(), params.size(), st.binary_results);
}

Result Conn::run(const Statement& st, const std::vector<Param>& params) {
  return exec_params(*this, st.name, st.sql, params.data(), params.size(), st.binary_results);
}

Result Conn::run_sql(const std::string& sql, const std::vector<Param>& params) {
  return exec_params(*this, nullptr, sql.c_str(), params.data(), params.size(), false);
}

bool Conn::command(const char* sql, std::string* error) {
  Result r(PQexec(pg, sql));
  if (r.ok()) return true;
  if (error) *error = r.message();
  return false;
}

std::unique_ptr<Conn> Pool::take(std::string* error) {
  {
    std::lock_guard<std::mutex> hold(mu_);
    if (!idle_.empty()) {
      std::unique_ptr<Conn> c = std::move(idle_.back());
      idle_.pop_back();
      return c;
    }
  }
  auto conn = std::make_unique<Conn>(PQconnectdb(conninfo_.c_str()));
  if (conn->pg == nullptr) {
    *error = "out of memory";
    return nullptr;
  }
  if (!conn->healthy()) {
    *error = one_line(PQerrorMessage(conn->pg));
    return nullptr;
  }
  // A library prints nothing: the server's notices ("schema already exists, skipping") are dropped.
  PQsetNoticeProcessor(
      conn->pg, [](void*, const char*) {}, nullptr);
  // Unqualified names in every statement are the store's tables; the schema name was checked
  // to be a plain lowercase identifier, so it needs no quoting here.
  std::string path = schema_;
  const char* values[1] = {path.c_str()};
  Result r(PQexecParams(conn->pg, "SELECT pg_catalog.set_config('search_path', $1, false)", 1, nullptr, values, nullptr,
                        nullptr, 0));
  if (!r.ok()) {
    *error = r.message();
    return nullptr;
  }
  return conn;
}

void Pool::give(std::unique_ptr<Conn> conn) {
  if (!conn) return;
  PGTransactionStatusType ts = PQtransactionStatus(conn->pg);
  if (conn->healthy() && ts != PQTRANS_IDLE && ts != PQTRANS_UNKNOWN && ts != PQTRANS_ACTIVE) {
    conn->command("ROLLBACK", nullptr);
    ts = PQtransactionStatus(conn->pg);
  }
  if (!conn->healthy() || ts != PQTRANS_IDLE) return;  // dropped: the next call connects afresh
  std::lock_guard<std::mutex> hold(mu_);
  if (idle_.size() < max_idle_) idle_.push_back(std::move(conn));
}

void Pool::close_all() {
  std::lock_guard<std::mutex> hold(mu_);
  idle_.clear();
}

xs_status Lease::acquire(const char* op, const char* path) {
  std::string error;
  conn_ = pool_.take(&error);
  if (!conn_) return fail_text(XS_EIO, op, path, "cannot connect: " + error);
  return XS_OK;
}

Transaction::~Transaction() {
  if (open_) conn_.command("ROLLBACK", nullptr);
}

xs_status Transaction::begin(const char* op, const char* path) {
  std::string error;
  if (!conn_.command("BEGIN", &error)) return fail_text(XS_EIO, op, path, error);
  open_ = true;
  return XS_OK;
}

xs_status Transaction::commit(const char* op, const char* path) {
  std::string error;
  open_ = false;
  if (!conn_.command("COMMIT", &error)) return fail_text(XS_EIO, op, path, error);
  return XS_OK;
}

xs_status fail_text(xs_status code, const char* op, const char* path, const std::string& message) {
  std::string text = std::string("postgres: ") + op + " " + (path ? path : "") + ": " + message;
  return xs_storage_error(code, text.c_str());
}

xs_status fail(const Result& r, const char* op, const char* path) {
  std::string state = r.sqlstate();
  xs_status code = XS_EIO;
  if (state == "53100") code = XS_ENOSPC;  // disk_full
  if (state == "53200") code = XS_ENOMEM;  // out_of_memory
  return fail_text(code, op, path, r.message());
}

int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace xspg
