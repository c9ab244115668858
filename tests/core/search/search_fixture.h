// A store of hand-written session files and an index over it, for the search tests.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>

#include "format/session_paths.h"
#include "search/session_index.h"
#include "sqlite/sqlite_db.h"
#include "store/store.h"
#include "test_util.h"

namespace xs::search {

// A message entry line (content a JSON value as written).
inline std::string msg(std::string_view id, std::string_view parent, int sec, std::string_view role,
                       std::string_view content, std::string_view extra = "") {
  std::string p = parent.empty() ? "null" : "\"" + std::string(parent) + "\"";
  char ts[40];
  std::snprintf(ts, sizeof ts, "2026-01-01T00:%02d:%02d.000Z", sec / 60, sec % 60);
  return "{\"type\":\"message\",\"id\":\"" + std::string(id) + "\",\"parentId\":" + p + ",\"timestamp\":\"" + ts +
         "\",\"message\":{\"role\":\"" + std::string(role) + "\",\"content\":" + std::string(content) +
         std::string(extra) + "}}\n";
}

// 2026-01-01T00:00:00Z in ms: the entries of msg() are stamped this plus `sec` seconds.
inline constexpr int64_t kDay = 1767225600000;

inline std::string header(std::string_view id, std::string_view cwd, std::string_view title = "") {
  std::string h = "{\"type\":\"session\",\"version\":3,\"id\":\"" + std::string(id) +
                  "\",\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"cwd\":\"" + std::string(cwd) + "\"";
  if (!title.empty()) h += ",\"title\":\"" + std::string(title) + "\"";
  return h + "}\n";
}

class SearchFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = store::Store::open(root_, options_);
    ASSERT_TRUE(s.ok()) << s.status().message();
    store_ = *s;
  }
  std::string session_path(std::string_view cwd, std::string_view id) {
    return format::session_dir(root_, cwd) + "/2026-01-01T00-00-00-000Z_" + std::string(id) + ".jsonl";
  }
  // Writes a session file and sets its mtime (listings order by it).
  std::string put(std::string_view cwd, std::string_view id, const std::string& bytes, int64_t mtime_ms) {
    std::string path = session_path(cwd, id);
    test::put_file(*fs_, path, bytes);
    EXPECT_TRUE(test::set_mtime(path, mtime_ms));
    return path;
  }
  std::unique_ptr<SessionIndex> open_index(IndexOptions o = {}) {
    auto x = SessionIndex::open(store_, o);
    EXPECT_TRUE(x.ok()) << x.status().message();
    return x.ok() ? std::move(*x) : nullptr;
  }
  RefreshReport refresh(SessionIndex& x) {
    auto r = x.refresh();
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : RefreshReport();
  }
  std::string search(SessionIndex& x, std::string_view q, SearchOptions o = {}) {
    auto r = x.search_json(q, o);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : "";
  }
  // The rows of `sql`, one line each, columns joined with '|' (NULL as '-').
  std::string rows(const std::string& sql) {
    sqlite::Db db;
    EXPECT_TRUE(db.open(root_ + "/index.db", false, std::chrono::milliseconds(5000)).ok());
    auto s = db.prepare(sql);
    EXPECT_TRUE(s.ok()) << s.status().message();
    if (!s.ok()) return "";
    std::string out;
    while (s->step() == SQLITE_ROW) {
      int n = sqlite3_column_count(s->raw());
      for (int i = 0; i < n; ++i) {
        if (i) out += '|';
        out += s->is_null(i) ? std::string("-") : std::string(s->text(i));
      }
      out += '\n';
    }
    return out;
  }

  test::TempDir dir_;
  std::string root_ = dir_.file("store");
  store::StoreOptions options_;
  std::shared_ptr<store::Store> store_;
  std::shared_ptr<storage::Fs> fs_ = storage::make_posix_fs();
};

}  // namespace xs::search
