// The PostgreSQL backend (docs/postgres.md#speed) against the file backend and against bare libpq,
// in the same run (bench/README.md; bench/report.py prints the ratios):
//
//   append (xs_append_message of a ~300-byte message, no XS_SESSION_SYNC)
//     BM_PgAppend    a store over xs_postgres_storage, a fresh schema per run
//     BM_FileAppend  the same on the disk
//     baseline       one prepared INSERT per line in autocommit, binary parameters, into a table
//                    shaped like `entries`: the goal is BM_PgAppend >= 0.8x its rate
//   open (xs_session_open read-only) of a 100,000-entry session
//     BM_PgOpen100k / BM_FileOpen100k
//     baseline       SELECT line FROM entries WHERE file_id = $1 ORDER BY seq, binary results
//
// The server is scripts/pg-test-server's, started at the first use and stopped at exit, or the
// one XS_BENCH_POSTGRES_CONNINFO names. All times are wall-clock: the work is in the server's
// process, which the bench's CPU time does not see.
#include <benchmark/benchmark.h>
#include <endian.h>
#include <libpq-fe.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "session_generator.h"
#include "xsession.h"
#include "xsession_postgres.h"

namespace xs::bench {
namespace {

// A typical user turn of about 300 bytes (its line, with the id, parentId and timestamp the
// engine adds, is about 400).
const char* const kMessage =
    R"({"role":"user","content":[{"type":"text","text":"The build fails on the CI runner but not here: )"
    R"(ld says 'undefined reference to xs_storage_error' when linking the postgres tests. Can you )"
    R"(check bench/CMakeLists.txt and tests/postgres.cmake and fix the link order?"}],"timestamp":1772442000000})";
constexpr size_t kOpenEntries = 100000;
const char* const kPgRoot = "/pgstore";

// The server for the whole run: ours (started on first use, stopped when the process exits) or
// the caller's. Schemas made on the caller's server are dropped at exit; ours goes whole.
class Server {
 public:
  static Server& get() {
    static Server server;
    return server;
  }
  const std::string& conninfo() const { return conninfo_; }
  const std::string& error() const { return error_; }
  std::string fresh_schema() {
    static std::atomic<int> counter{0};
    std::string name = "xs_bench_" + std::to_string(getpid()) + "_" + std::to_string(counter++);
    schemas_.push_back(name);
    return name;
  }

  ~Server() {
    if (own_dir_.empty()) {
      PGconn* c = PQconnectdb(conninfo_.c_str());
      for (const std::string& s : schemas_) PQclear(PQexec(c, ("DROP SCHEMA IF EXISTS " + s + " CASCADE").c_str()));
      PQfinish(c);
      return;
    }
    std::string stop = std::string(XS_PG_TEST_SERVER) + " stop " + own_dir_ + "/pg >/dev/null";
    if (std::system(stop.c_str()) != 0) std::fprintf(stderr, "postgres_bench: %s failed\n", stop.c_str());
    std::error_code ec;
    std::filesystem::remove_all(own_dir_, ec);
  }

 private:
  Server() {
    if (const char* given = getenv("XS_BENCH_POSTGRES_CONNINFO")) {
      conninfo_ = given;
      return;
    }
    char tmpl[] = "/tmp/xs-bench-pg-XXXXXX";
    if (mkdtemp(tmpl) == nullptr) {
      error_ = "mkdtemp failed";
      return;
    }
    own_dir_ = tmpl;
    // The script prints the conninfo as its last line of output (its messages go to stderr).
    std::string start = std::string(XS_PG_TEST_SERVER) + " start " + own_dir_ + "/pg";
    FILE* out = popen(start.c_str(), "r");
    char line[1024];
    while (out != nullptr && std::fgets(line, sizeof line, out) != nullptr) conninfo_ = line;
    if (out == nullptr || pclose(out) != 0) {
      error_ = "scripts/pg-test-server start failed";
      conninfo_.clear();
    }
    while (!conninfo_.empty() && conninfo_.back() == '\n') conninfo_.pop_back();
  }

  std::string conninfo_, error_, own_dir_;
  std::vector<std::string> schemas_;
};

// A libpq connection of the bench's own (the baselines, and setup the engine does not do).
class Pg {
 public:
  explicit Pg(const std::string& schema) : c_(PQconnectdb(Server::get().conninfo().c_str())) {
    if (ok()) exec("SET client_min_messages = warning; SET search_path = " + schema);
  }
  ~Pg() { PQfinish(c_); }
  Pg(const Pg&) = delete;
  Pg& operator=(const Pg&) = delete;
  bool ok() const { return PQstatus(c_) == CONNECTION_OK && error_.empty(); }
  const std::string& error() const { return error_; }
  PGconn* conn() const { return c_; }
  void exec(const std::string& sql) { check(PQexec(c_, sql.c_str()), sql.c_str()); }
  // False (and error() set) unless the result is a success.
  bool check(PGresult* r, const char* what) {
    ExecStatusType s = PQresultStatus(r);
    bool good = s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
    if (!good && error_.empty()) error_ = std::string(what) + ": " + PQerrorMessage(c_);
    PQclear(r);
    return good;
  }

 private:
  PGconn* c_;
  std::string error_;
};

xs_session_options session_options(uint32_t flags) {
  xs_session_options o;
  xs_session_options_init(&o, XS_SESSION_OPTIONS_VERSION);
  o.flags = flags;
  return o;
}

// A store on the disk (root) or over a fresh xs_postgres_storage in `schema`; NULL and the
// message in *error on failure.
xs_store* open_store(const std::string& root, const std::string& schema, std::string* error) {
  xs_store_options o;
  xs_store_options_init(&o, XS_STORE_OPTIONS_VERSION);
  xs_storage table{};
  if (!schema.empty()) {
    char err[512];
    if (xs_postgres_storage(Server::get().conninfo().c_str(), schema.c_str(), &table, err, sizeof err) != XS_OK) {
      *error = err;
      return nullptr;
    }
    o.storage = &table;
  }
  xs_store* st = xs_store_new();
  if (xs_store_open(st, root.c_str(), &o) != XS_OK) {
    *error = xs_store_errmsg(st);
    xs_store_free(st);
    if (!schema.empty()) table.release(table.user);
    return nullptr;
  }
  return st;
}

std::string temp_dir(const char* what) {
  std::string tmpl = std::string("/tmp/xs-bench-") + what + "-XXXXXX";
  return mkdtemp(tmpl.data()) ? tmpl : std::string();
}

// --- append -------------------------------------------------------------------------------------

// Appends of one message to one session, written from the first append (no deferral).
void append_bench(benchmark::State& state, bool postgres) {
  if (postgres && Server::get().conninfo().empty()) return state.SkipWithError(Server::get().error().c_str());
  std::string dir = postgres ? std::string() : temp_dir("append");
  std::string error;
  xs_store* st = open_store(postgres ? kPgRoot : dir, postgres ? Server::get().fresh_schema() : "", &error);
  if (st == nullptr) return state.SkipWithError(error.c_str());
  xs_session_options o = session_options(XS_SESSION_NO_DEFER);
  xs_session* s = nullptr;
  if (xs_session_create(st, "/work/project", &o, &s) != XS_OK) {
    state.SkipWithError(xs_store_errmsg(st));
  } else {
    std::string msg = kMessage;
    for (auto _ : state) {
      if (xs_append_message(s, msg.data(), msg.size(), nullptr) != XS_OK) {
        state.SkipWithError(xs_session_errmsg(s));
        break;
      }
    }
    state.SetItemsProcessed(state.iterations());
  }
  xs_session_close(s);
  xs_store_free(st);
  std::error_code ec;
  if (!dir.empty()) std::filesystem::remove_all(dir, ec);
}

void BM_PgAppend(benchmark::State& state) { append_bench(state, true); }
void BM_FileAppend(benchmark::State& state) { append_bench(state, false); }

// The line an append of the bench's message writes: the last line of a session on the disk that
// got one such append ("" on failure).
std::string message_line() {
  std::string dir = temp_dir("line"), error, line;
  xs_store* st = open_store(dir, "", &error);
  xs_session_options o = session_options(XS_SESSION_NO_DEFER);
  xs_session* s = nullptr;
  std::string msg = kMessage;
  if (st != nullptr && xs_session_create(st, "/work/project", &o, &s) == XS_OK &&
      xs_append_message(s, msg.data(), msg.size(), nullptr) == XS_OK) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
      if (e.path().extension() != ".jsonl") continue;
      std::ifstream in(e.path(), std::ios::binary);
      for (std::string l; std::getline(in, l);) line = l + "\n";
    }
  }
  xs_session_close(s);
  xs_store_free(st);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return line;
}

// The least an append to PostgreSQL can cost: one prepared INSERT of the line per call, in
// autocommit (so one commit per line, as the backend's), every parameter binary, into a table
// with the columns and primary key `entries` has for a line (no foreign key, no id columns, no
// update of a files row).
void BM_Baseline_LibpqInsertLoop(benchmark::State& state) {
  if (Server::get().conninfo().empty()) return state.SkipWithError(Server::get().error().c_str());
  std::string schema = Server::get().fresh_schema();
  {
    Pg setup("public");
    setup.exec("CREATE SCHEMA " + schema);
    if (!setup.ok()) return state.SkipWithError(setup.error().c_str());
  }
  Pg pg(schema);
  pg.exec(
      "CREATE TABLE lines (file_id bigint NOT NULL, seq bigint NOT NULL, line bytea NOT NULL,"
      " end_offset bigint NOT NULL, PRIMARY KEY (file_id, seq))");
  pg.check(PQprepare(pg.conn(), "insert_line",
                     "INSERT INTO lines (file_id, seq, line, end_offset) VALUES ($1, $2, $3, $4)", 0, nullptr),
           "prepare");
  if (!pg.ok()) return state.SkipWithError(pg.error().c_str());
  std::string line = message_line();
  if (line.empty()) return state.SkipWithError("no line from an append on the disk");
  uint64_t file_id = htobe64(1), seq = 0, end = 0;
  for (auto _ : state) {
    uint64_t seq_be = htobe64(seq++), end_be = htobe64(end += line.size());
    const char* values[4] = {reinterpret_cast<const char*>(&file_id), reinterpret_cast<const char*>(&seq_be),
                             line.data(), reinterpret_cast<const char*>(&end_be)};
    int lengths[4] = {8, 8, static_cast<int>(line.size()), 8};
    int formats[4] = {1, 1, 1, 1};
    if (!pg.check(PQexecPrepared(pg.conn(), "insert_line", 4, values, lengths, formats, 1), "insert")) {
      state.SkipWithError(pg.error().c_str());
      break;
    }
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["line_bytes"] = static_cast<double>(line.size());
}

// --- open ---------------------------------------------------------------------------------------

// One session of 100,000 generated entries (bench/session_generator.h), on the disk and in
// PostgreSQL, made once per process. The rows are written through the backend's own table
// functions (make_dirs, open, one write of the whole file), as `xs copy` copies a store.
struct OpenFixture {
  std::string disk_root, disk_path;
  std::string schema, pg_path;
  int64_t file_id = 0;
  size_t bytes = 0;
  std::string error;

  ~OpenFixture() {
    std::error_code ec;
    if (!disk_root.empty()) std::filesystem::remove_all(disk_root, ec);
  }
};

void make_open_fixture(OpenFixture& f) {
  std::string text = generate_session(kOpenEntries, 42);
  f.bytes = text.size();
  std::string rel = "/sessions/--work-project--/2026-03-01T00-00-00-000Z_0123456789abcdef.jsonl";
  f.disk_root = temp_dir("open");
  f.disk_path = f.disk_root + rel;
  std::filesystem::create_directories(std::filesystem::path(f.disk_path).parent_path());
  FILE* out = std::fopen(f.disk_path.c_str(), "wb");
  if (out == nullptr || std::fwrite(text.data(), 1, text.size(), out) != text.size() || std::fclose(out) != 0) {
    f.error = "cannot write " + f.disk_path;
    return;
  }
  if (Server::get().conninfo().empty()) {
    f.error = Server::get().error();
    return;
  }
  f.schema = Server::get().fresh_schema();
  f.pg_path = kPgRoot + rel;
  xs_storage t{};
  char err[512];
  if (xs_postgres_storage(Server::get().conninfo().c_str(), f.schema.c_str(), &t, err, sizeof err) != XS_OK) {
    f.error = err;
    return;
  }
  void* file = nullptr;
  std::string dir = f.pg_path.substr(0, f.pg_path.rfind('/'));
  if (t.make_dirs(t.user, dir.c_str()) != XS_OK ||
      t.open(t.user, f.pg_path.c_str(), XS_STORAGE_CREATE, &file) != XS_OK ||
      t.write(t.user, file, text.data(), text.size()) != XS_OK || t.close(t.user, file) != XS_OK) {
    f.error = "writing the session into PostgreSQL failed";
  }
  t.release(t.user);
  Pg pg(f.schema);
  const char* values[1] = {f.pg_path.c_str()};
  PGresult* r =
      PQexecParams(pg.conn(), "SELECT id FROM files WHERE path = $1", 1, nullptr, values, nullptr, nullptr, 0);
  if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) f.file_id = std::atoll(PQgetvalue(r, 0, 0));
  PQclear(r);
  // Statistics for the planner, as autovacuum would have them on a server that ran a while.
  pg.exec("VACUUM ANALYZE entries");
  if (f.error.empty() && (f.file_id == 0 || !pg.ok())) f.error = "the session's row is missing: " + pg.error();
}

// Made at the first use; destroyed (its directory removed) at exit, before the server stops.
const OpenFixture& open_fixture() {
  static OpenFixture f;
  static const bool made = (make_open_fixture(f), true);
  (void)made;
  return f;
}

void open_bench(benchmark::State& state, bool postgres) {
  const OpenFixture& f = open_fixture();
  if (!f.error.empty()) return state.SkipWithError(f.error.c_str());
  std::string error;
  xs_store* st = open_store(postgres ? kPgRoot : f.disk_root, postgres ? f.schema : "", &error);
  if (st == nullptr) return state.SkipWithError(error.c_str());
  xs_session_options o = session_options(XS_SESSION_READ_ONLY);
  const std::string& path = postgres ? f.pg_path : f.disk_path;
  for (auto _ : state) {
    xs_session* s = nullptr;
    if (xs_session_open(st, path.c_str(), &o, &s) != XS_OK) {
      state.SkipWithError(xs_store_errmsg(st));
      break;
    }
    xs_session_close(s);
  }
  xs_store_free(st);
  state.SetBytesProcessed(static_cast<int64_t>(f.bytes) * state.iterations());
}

void BM_PgOpen100k(benchmark::State& state) { open_bench(state, true); }
void BM_FileOpen100k(benchmark::State& state) { open_bench(state, false); }

// The least reading the session back can cost: its rows in order, in one binary result.
void BM_Baseline_LibpqSelectLines100k(benchmark::State& state) {
  const OpenFixture& f = open_fixture();
  if (!f.error.empty()) return state.SkipWithError(f.error.c_str());
  Pg pg(f.schema);
  pg.check(PQprepare(pg.conn(), "select_lines", "SELECT line FROM entries WHERE file_id = $1 ORDER BY seq", 0, nullptr),
           "prepare");
  if (!pg.ok()) return state.SkipWithError(pg.error().c_str());
  uint64_t id = htobe64(static_cast<uint64_t>(f.file_id));
  const char* values[1] = {reinterpret_cast<const char*>(&id)};
  int lengths[1] = {8}, formats[1] = {1};
  for (auto _ : state) {
    PGresult* r = PQexecPrepared(pg.conn(), "select_lines", 1, values, lengths, formats, 1);
    size_t bytes = 0;
    for (int i = 0; i < PQntuples(r); ++i) bytes += static_cast<size_t>(PQgetlength(r, i, 0));
    if (!pg.check(r, "select") || bytes != f.bytes) {
      state.SkipWithError(pg.ok() ? "the rows do not add up to the file" : pg.error().c_str());
      break;
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(f.bytes) * state.iterations());
}

BENCHMARK(BM_PgAppend)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FileAppend)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Baseline_LibpqInsertLoop)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PgOpen100k)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FileOpen100k)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Baseline_LibpqSelectLines100k)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace xs::bench
