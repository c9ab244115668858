// Helpers of the PostgreSQL backend's tests: the server's conninfo (tests/postgres.cmake), a
// fresh schema per test, dropped at its end, and a libpq connection of the test's own to look at
// the tables the backend wrote.
#ifndef XS_TESTS_POSTGRES_PG_TEST_UTIL_H
#define XS_TESTS_POSTGRES_PG_TEST_UTIL_H

#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "xsession_postgres.h"

namespace pgtest {

inline std::string conninfo() {
  const char* file = std::getenv("XS_TEST_POSTGRES_CONNINFO_FILE");
  if (file == nullptr) return "";
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

// A schema no other test (of this process or another) uses.
inline std::string fresh_schema_name() {
  static std::atomic<int> counter{0};
  return "xs_t" + std::to_string(getpid()) + "_" + std::to_string(counter++);
}

// Rows of a query as text (NULL as "<null>"), one string per row, columns joined by '|'.
class Sql {
 public:
  explicit Sql(const std::string& schema) : conn_(PQconnectdb(conninfo().c_str())) {
    EXPECT_EQ(PQstatus(conn_), CONNECTION_OK) << PQerrorMessage(conn_);
    exec("SET client_min_messages = warning");
    if (!schema.empty()) exec("SET search_path = " + schema);
  }
  ~Sql() { PQfinish(conn_); }
  Sql(const Sql&) = delete;
  Sql& operator=(const Sql&) = delete;

  std::vector<std::string> rows(const std::string& sql) {
    PGresult* r = PQexec(conn_, sql.c_str());
    std::vector<std::string> out;
    EXPECT_TRUE(PQresultStatus(r) == PGRES_TUPLES_OK || PQresultStatus(r) == PGRES_COMMAND_OK)
        << sql << ": " << PQerrorMessage(conn_);
    for (int i = 0; i < PQntuples(r); ++i) {
      std::string row;
      for (int j = 0; j < PQnfields(r); ++j) {
        if (j > 0) row += "|";
        row += PQgetisnull(r, i, j) ? "<null>" : std::string(PQgetvalue(r, i, j), PQgetlength(r, i, j));
      }
      out.push_back(row);
    }
    PQclear(r);
    return out;
  }
  void exec(const std::string& sql) { rows(sql); }
  // One bytea column of one row, as its bytes (binary result).
  std::string bytes(const std::string& sql) {
    PGresult* r = PQexecParams(conn_, sql.c_str(), 0, nullptr, nullptr, nullptr, nullptr, 1);
    std::string out;
    EXPECT_EQ(PQresultStatus(r), PGRES_TUPLES_OK) << sql << ": " << PQerrorMessage(conn_);
    if (PQntuples(r) == 1) out.assign(PQgetvalue(r, 0, 0), PQgetlength(r, 0, 0));
    PQclear(r);
    return out;
  }

 private:
  PGconn* conn_;
};

// A test in a schema of its own: `table` is xs_postgres_storage over it (released at the end
// unless the test handed it to a store), and the schema is dropped at the end.
class PgTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(conninfo().empty()) << "XS_TEST_POSTGRES_CONNINFO_FILE is not set (run through ctest)";
    schema = fresh_schema_name();
    char err[512];
    ASSERT_EQ(xs_postgres_storage(conninfo().c_str(), schema.c_str(), &table, err, sizeof err), XS_OK) << err;
    owned = true;
  }
  void TearDown() override {
    if (owned) table.release(table.user);
    Sql(std::string()).exec("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
  }

  std::string schema;
  xs_storage table{};
  bool owned = false;  // false once a store owns the table
};

}  // namespace pgtest

#endif  // XS_TESTS_POSTGRES_PG_TEST_UTIL_H
