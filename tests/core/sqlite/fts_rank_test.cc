// bm25_sampled against FTS5's bm25 on the same rows (sqlite/fts_rank.h): equal when every phrase
// has fewer than kSampledMatches matches or is spread evenly, estimated from the oldest matches
// otherwise.
#include "sqlite/fts_rank.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "sqlite/sqlite_db.h"

namespace xs::sqlite {
namespace {

class FtsRankTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.open(":memory:", true, std::chrono::milliseconds(100)).ok());
    ASSERT_TRUE(db_.exec("CREATE VIRTUAL TABLE t USING fts5(body)").ok());
    auto insert = db_.prepare("INSERT INTO t(rowid, body) VALUES (?1, ?2)");
    ASSERT_TRUE(insert.ok());
    insert_ = std::move(*insert);
  }

  void add(int64_t rowid, const std::string& body) {
    insert_.bind(1, rowid);
    insert_.bind(2, body);
    ASSERT_EQ(insert_.step(), SQLITE_DONE);
    insert_.reset();
  }

  // (bm25, bm25_sampled) of every match of `query`, oldest first.
  std::vector<std::pair<double, double>> scores(const std::string& query) {
    auto s = db_.prepare(
        "SELECT bm25(t), bm25_sampled(t, (SELECT min(rowid) FROM t), (SELECT max(rowid) FROM t)) "
        "FROM t WHERE t MATCH ?1 ORDER BY rowid");
    EXPECT_TRUE(s.ok());
    std::vector<std::pair<double, double>> out;
    s->bind(1, query);
    while (s->step() == SQLITE_ROW) out.emplace_back(s->real(0), s->real(1));
    return out;
  }

  Db db_;
  Stmt insert_;
};

TEST_F(FtsRankTest, FewMatchesScoreExactlyAsBm25) {
  // Rows of different lengths and word counts, so that IDF, term frequency and length all weigh.
  const char* words[] = {"apple", "pear", "plum", "fig", "apple pear", "pear pear plum"};
  for (int64_t i = 1; i <= 300; ++i) {
    std::string body = words[i % 6];
    for (int64_t j = 0; j < i % 7; ++j) body += " filler";
    add(i, body);
  }
  for (const char* q : {"apple", "pear", "apple pear", "pear OR fig", "\"pear plum\"", "fil*", "plum NOT apple"}) {
    auto got = scores(q);
    ASSERT_FALSE(got.empty()) << q;
    for (const auto& [bm25, sampled] : got) {
      EXPECT_DOUBLE_EQ(sampled, bm25) << q;
      EXPECT_LT(sampled, 0) << q;
    }
  }
}

TEST_F(FtsRankTest, AnEvenlySpreadCommonWordIsEstimatedExactly) {
  // "common" in every other row of 4 * kSampledMatches: its kSampledMatches-th match is halfway,
  // so the estimate is 2 * kSampledMatches, its true count.
  for (int64_t i = 1; i <= 4 * kSampledMatches; ++i) add(i, i % 2 == 0 ? "common rare" + std::to_string(i % 3) : "other");
  auto got = scores("common");
  ASSERT_EQ(got.size(), static_cast<size_t>(2 * kSampledMatches));
  for (const auto& [bm25, sampled] : got) EXPECT_DOUBLE_EQ(sampled, bm25);
  // With a rare word beside it, each phrase is counted on its own: the rare one exactly.
  for (const auto& [bm25, sampled] : scores("common rare0")) EXPECT_DOUBLE_EQ(sampled, bm25);
}

TEST_F(FtsRankTest, AWordCrowdedIntoTheOldRowsIsEstimatedAsSpreadEvenly) {
  // "early" in the oldest 1.5 * kSampledMatches rows of 4 * kSampledMatches: its
  // kSampledMatches-th match is at a quarter of the rowids, so it is taken to be in every row
  // (the estimate is capped at the row count) and weighs as little as bm25 lets a word weigh,
  // while bm25 knows it is in 37.5 % of rows. The ranking of its matches does not change.
  for (int64_t i = 1; i <= 4 * kSampledMatches; ++i) {
    std::string body = i <= kSampledMatches * 3 / 2 ? "early" : "late";
    for (int64_t j = 0; j < i % 5; ++j) body += " filler";
    add(i, body);
  }
  auto got = scores("early");
  ASSERT_EQ(got.size(), static_cast<size_t>(kSampledMatches * 3 / 2));
  for (size_t i = 1; i < got.size(); ++i) {
    EXPECT_EQ(got[i].first < got[i - 1].first, got[i].second < got[i - 1].second) << i;
    EXPECT_EQ(got[i].first == got[i - 1].first, got[i].second == got[i - 1].second) << i;
  }
  EXPECT_LT(got[0].first, -0.1);
  EXPECT_GT(got[0].second, -1e-5);
  EXPECT_LT(got[0].second, 0);
}

TEST_F(FtsRankTest, WrongArgumentsAreAnError) {
  add(1, "apple");
  auto s = db_.prepare("SELECT bm25_sampled(t) FROM t WHERE t MATCH 'apple'");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->step(), SQLITE_ERROR);
  EXPECT_EQ(std::string(sqlite3_errmsg(db_.raw())), "bm25_sampled(table, lowest_rowid, highest_rowid)");
}

}  // namespace
}  // namespace xs::sqlite
