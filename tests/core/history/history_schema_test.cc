// The history file's life: migration by user_version (from a version-0 file), a newer file
// refused, a damaged file preserved beside a fresh one, several handles opening one file at once.
#include "history/history_schema.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "history/history.h"
#include "storage/fs.h"
#include "raw_sql.h"
#include "test_util.h"

namespace xs::history {
namespace {

int64_t user_version(const std::string& path) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* s = nullptr;
  sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, nullptr);
  sqlite3_step(s);
  int64_t v = sqlite3_column_int64(s, 0);
  sqlite3_finalize(s);
  sqlite3_close(db);
  return v;
}

std::vector<std::string> names_in(const std::string& dir) {
  auto r = storage::make_posix_fs()->list_dir(dir);
  std::vector<std::string> names = r.ok() ? *r : std::vector<std::string>{};
  std::sort(names.begin(), names.end());
  return names;
}

TEST(HistorySchema, VersionZeroFileIsMigratedAndIndexed) {
  test::TempDir dir;
  std::string path = dir.file("history.db");
  exec_raw(path,
           "CREATE TABLE history(id INTEGER PRIMARY KEY, prompt TEXT NOT NULL, created_at INTEGER NOT NULL, cwd TEXT);"
           "INSERT INTO history(prompt, created_at, cwd) VALUES ('old prompt about rust', 5, '/old');"
           "INSERT INTO history(prompt, created_at, cwd) VALUES ('older still', 6, NULL);");
  ASSERT_EQ(user_version(path), 0);
  auto h = History::open(storage::make_posix_fs(), path, {});
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_EQ(user_version(path), kSchemaVersion);
  Result<std::string> r = (*h)->search_json("rust", {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->rfind("[{\"id\":1,\"prompt\":\"old prompt about rust\",\"createdAt\":5,\"cwd\":\"/old\",", 0), 0u) << *r;
  // New rows are indexed by the triggers, beside the rebuilt old ones.
  ASSERT_TRUE((*h)->add("new rust prompt", std::nullopt, 7).ok());
  ASSERT_TRUE((*h)->flush().ok());
  r = (*h)->search_json("rust", {});
  EXPECT_NE(r->find("\"id\":3"), std::string::npos);
  // The last-prompt cache was seeded from the version-0 rows.
  ASSERT_TRUE((*h)->close().ok());
}

// A version-1 file (prefix indexes of 2 and 3 characters only) gets those of 4 and 5 as well, its
// rows indexed again; triggers keep indexing new rows.
TEST(HistorySchema, VersionOneFileGetsLongerPrefixIndexes) {
  test::TempDir dir;
  std::string path = dir.file("history.db");
  exec_raw(path,
           "CREATE TABLE history(id INTEGER PRIMARY KEY, prompt TEXT NOT NULL, created_at INTEGER NOT NULL, cwd TEXT);"
           "CREATE INDEX history_cwd_id ON history(cwd, id);"
           "CREATE VIRTUAL TABLE history_fts USING fts5(prompt, content='history', content_rowid='id',"
           "  tokenize='unicode61 remove_diacritics 2', prefix='2 3');"
           "CREATE TRIGGER history_ai AFTER INSERT ON history BEGIN"
           "  INSERT INTO history_fts(rowid, prompt) VALUES (new.id, new.prompt); END;"
           "INSERT INTO history(prompt, created_at, cwd) VALUES ('configure the presets', 5, '/p');"
           "PRAGMA user_version=1;");
  auto h = History::open(storage::make_posix_fs(), path, {});
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_EQ(user_version(path), kSchemaVersion);
  ASSERT_TRUE((*h)->add("preset configuration", std::nullopt, 6).ok());
  ASSERT_TRUE((*h)->flush().ok());
  Result<std::string> r = (*h)->search_json("confi*", {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_NE(r->find("\"id\":1,"), std::string::npos) << *r;
  EXPECT_NE(r->find("\"id\":2,"), std::string::npos) << *r;
  ASSERT_TRUE((*h)->close().ok());
  Db db;
  ASSERT_TRUE(db.open(path, false, std::chrono::milliseconds(100)).ok());
  Result<std::string> sql = db.query_text("SELECT sql FROM sqlite_schema WHERE name = 'history_fts'");
  ASSERT_TRUE(sql.ok());
  EXPECT_NE(sql->find("prefix='2 3 4 5'"), std::string::npos) << *sql;
  // Version 3: the count of changes other than appends, none so far; another program's delete,
  // update and insert below the newest id each count one, an append none.
  EXPECT_EQ(*db.query_int("SELECT n FROM history_changes"), 0);
  db.close();
  exec_raw(path,
           "INSERT INTO history(prompt, created_at, cwd) VALUES ('appended', 7, '/p');"
           "UPDATE history SET cwd = '/q' WHERE id = 1;"
           "DELETE FROM history WHERE id = 2;"
           "INSERT INTO history(id, prompt, created_at, cwd) VALUES (2, 'below the newest', 8, '/p');");
  ASSERT_TRUE(db.open(path, false, std::chrono::milliseconds(100)).ok());
  EXPECT_EQ(*db.query_int("SELECT n FROM history_changes"), 3);
}

TEST(HistorySchema, EmptyFileAndMigrateFromZeroDirectly) {
  test::TempDir dir;
  std::string path = dir.file("history.db");
  Db db;
  ASSERT_TRUE(db.open(path, true, std::chrono::milliseconds(100)).ok());
  ASSERT_TRUE(db.exec("BEGIN IMMEDIATE").ok());
  ASSERT_TRUE(migrate(db, 0).ok());
  ASSERT_TRUE(db.exec("COMMIT").ok());
  EXPECT_EQ(*db.query_int("PRAGMA user_version"), kSchemaVersion);
  EXPECT_EQ(*db.query_int("SELECT count(*) FROM sqlite_schema WHERE name IN "
                          "('history','history_fts','history_ai','history_ad','history_au','history_cwd_id')"),
            6);
  EXPECT_EQ(migrate(db, kSchemaVersion + 1).code(), Code::kVersion);
  EXPECT_EQ(migrate(db, -1).code(), Code::kCorrupt);
}

TEST(HistorySchema, NewerFileIsRefusedAndLeftAlone) {
  test::TempDir dir;
  std::string path = dir.file("history.db");
  exec_raw(path, "CREATE TABLE future(x); PRAGMA user_version=7;");
  auto h = History::open(storage::make_posix_fs(), path, {});
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.status().code(), Code::kVersion);
  EXPECT_NE(h.status().message().find("schema version 7"), std::string::npos) << h.status().message();
  EXPECT_EQ(user_version(path), 7);
}

TEST(HistorySchema, DamagedFileIsPreservedAndAFreshOneStarted) {
  test::TempDir dir;
  std::string path = dir.file("history.db");
  const std::string garbage = "this is not a database, it is a text file with some bytes\n";
  {
    std::ofstream f(path, std::ios::binary);
    f << garbage;
  }
  {
    std::ofstream f(path + "-wal", std::ios::binary);
    f << "wal bytes";
  }
  auto h = History::open(storage::make_posix_fs(), path, {});
  ASSERT_TRUE(h.ok()) << h.status().message();
  const DamagedNote& note = (*h)->damaged();
  EXPECT_EQ(note.preserved_path.rfind(path + ".damaged-", 0), 0u) << note.preserved_path;
  EXPECT_EQ(note.reason, "not a SQLite database (the file's first 16 bytes are not its header)");
  storage::PaddedBuffer kept;
  ASSERT_TRUE(storage::make_posix_fs()->read_file(note.preserved_path, 1 << 20, &kept).ok());
  EXPECT_EQ(std::string(kept.data(), kept.size()), garbage);
  storage::PaddedBuffer kept_wal;
  ASSERT_TRUE(storage::make_posix_fs()->read_file(note.preserved_path + "-wal", 1 << 20, &kept_wal).ok());
  EXPECT_EQ(std::string(kept_wal.data(), kept_wal.size()), "wal bytes");
  Result<std::string> info = (*h)->info_json();
  ASSERT_TRUE(info.ok());
  EXPECT_NE(info->find("\"damaged\":{\"path\":\"" + note.preserved_path + "\",\"reason\":"), std::string::npos)
      << *info;
  ASSERT_TRUE((*h)->add("works again", std::nullopt, 1).ok());
  ASSERT_TRUE((*h)->close().ok());
  EXPECT_EQ(user_version(path), kSchemaVersion);
}

TEST(HistorySchema, FileDamagedInsideIsFoundByQuickCheck) {
  test::TempDir dir;
  std::string path = dir.file("history.db");
  {
    auto h = History::open(storage::make_posix_fs(), path, {});
    ASSERT_TRUE(h.ok());
    for (int i = 0; i < 2000; ++i) ASSERT_TRUE((*h)->add("prompt number " + std::to_string(i), std::nullopt, 1).ok());
    ASSERT_TRUE((*h)->close().ok());
  }
  // Overwrite pages after the first with junk: the header still says "SQLite format 3".
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(4096);
    std::string junk(4096 * 8, '\x5a');
    f.write(junk.data(), junk.size());
  }
  auto h = History::open(storage::make_posix_fs(), path, {});
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_FALSE((*h)->damaged().preserved_path.empty());
  EXPECT_FALSE((*h)->damaged().reason.empty());
  Result<std::string> r = (*h)->recent_json(std::nullopt, 0);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, "[]");
  std::vector<std::string> names = names_in(dir.path());
  EXPECT_EQ(std::count_if(names.begin(), names.end(),
                          [](const std::string& n) { return n.rfind("history.db.damaged-", 0) == 0; }),
            1);
}

TEST(HistorySchema, ManyHandlesOpeningAFreshFileAtOnce) {
  test::TempDir dir;
  std::string path = dir.file("history.db");
  std::vector<std::thread> threads;
  std::vector<Status> results(6);
  for (size_t i = 0; i < results.size(); ++i) {
    threads.emplace_back([&, i] {
      auto h = History::open(storage::make_posix_fs(), path, {});
      if (!h.ok()) {
        results[i] = h.status();
        return;
      }
      Status st = (*h)->add("from " + std::to_string(i), std::nullopt, 1);
      results[i] = st.ok() ? (*h)->close() : st;
    });
  }
  for (auto& t : threads) t.join();
  for (const Status& st : results) EXPECT_TRUE(st.ok()) << st.message();
  auto h = History::open(storage::make_posix_fs(), path, {});
  ASSERT_TRUE(h.ok());
  Result<std::string> info = (*h)->info_json();
  EXPECT_NE(info->find("\"count\":6,"), std::string::npos) << *info;
}

}  // namespace
}  // namespace xs::history
