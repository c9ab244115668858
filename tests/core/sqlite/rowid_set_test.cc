// xs_in_rowid_set (sqlite/rowid_set.h): a set bound by pointer answers 1 or 0 for a row id, NULL for
// NULL; anything else in its place is an SQL error.
#include "sqlite/rowid_set.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <optional>
#include <string>

#include "sqlite/sqlite_db.h"

namespace xs::sqlite {
namespace {

TEST(RowidSet, HoldsWhatWasAddedAndNothingOutOfItsRange) {
  RowidSet set;
  for (int64_t id : {0, 1, 63, 64, 1000000}) EXPECT_TRUE(set.add(id)) << id;
  EXPECT_FALSE(set.add(-5));  // no bit for these: refused, never held
  EXPECT_FALSE(set.add(RowidSet::kMaxRowid + 1));
  EXPECT_FALSE(set.add(int64_t{1} << 62));
  EXPECT_LE(set.bytes(), 1000000 / 8 * 9 / 8 + 64);
  for (int64_t id : {0, 1, 63, 64, 1000000}) EXPECT_TRUE(set.has(id)) << id;
  for (int64_t id : std::initializer_list<int64_t>{-5, -1, 2, 62, 65, 999999, 1000001, RowidSet::kMaxRowid + 1,
                                                   int64_t{1} << 62})
    EXPECT_FALSE(set.has(id)) << id;
}

TEST(RowidSet, InRowidSetFromSql) {
  Db db;
  ASSERT_TRUE(db.open(":memory:", true, std::chrono::milliseconds(100)).ok());
  RowidSet set;
  set.add(3);
  set.add(130);
  auto s = db.prepare("SELECT xs_in_rowid_set(?1, ?2)");
  ASSERT_TRUE(s.ok()) << s.status().message();
  auto answer = [&](std::optional<int64_t> id) -> std::string {
    if (id) {
      s->bind(1, *id);
    } else {
      s->bind_null(1);
    }
    bind_rowid_set(*s, 2, &set);
    int rc = s->step();
    std::string out = rc != SQLITE_ROW ? "error" : s->is_null(0) ? "null" : std::to_string(s->int64(0));
    s->reset();
    return out;
  };
  EXPECT_EQ(answer(3), "1");
  EXPECT_EQ(answer(130), "1");
  EXPECT_EQ(answer(4), "0");
  EXPECT_EQ(answer(-3), "0");
  EXPECT_EQ(answer(std::nullopt), "null");

  // Text, a blob or nothing where the set goes: refused, by name.
  auto text = db.prepare("SELECT xs_in_rowid_set(3, 'xs_rowid_set')");
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text->step(), SQLITE_ERROR);
  EXPECT_STREQ(sqlite3_errmsg(db.raw()), "xs_in_rowid_set: the second argument is not a row id set");
}

}  // namespace
}  // namespace xs::sqlite
