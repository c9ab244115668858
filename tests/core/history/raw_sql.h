// What another program does to a history file: SQL through its own SQLite connection (the file's
// triggers run for it as for the engine).
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>

namespace xs::history {

inline void exec_raw(const std::string& path, const char* sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
}

}  // namespace xs::history
