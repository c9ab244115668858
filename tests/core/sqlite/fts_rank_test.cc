// bm25_sampled against FTS5's bm25 on the same rows (sqlite/fts_rank.h): equal when every phrase
// has fewer than kSampledMatches matches or is spread evenly, estimated from the oldest matches
// otherwise.
#include "sqlite/fts_rank.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
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
  EXPECT_EQ(std::string(sqlite3_errmsg(db_.raw())), "bm25_sampled(table, lowest_rowid, highest_rowid [, row_sizes])");
}

// Sizes kept in a RowSizes, read from t_docsize as the history reads them, give every score to
// the last bit; a size that differs from FTS5's moves the score, so the kept size is what is
// used; rows it does not hold (none kept, or any other fourth argument) are looked up by FTS5.
TEST_F(FtsRankTest, KeptSizesScoreAsFts5sOwn) {
  for (int64_t i = 1; i <= 500; ++i) {
    std::string body = i % 3 ? "apple" : "pear apple";
    for (int64_t j = 0; j < i % 11; ++j) body += " filler";
    add(i * 70, body);
  }
  RowSizes kept, none, wrong;
  auto docsize = db_.prepare("SELECT id, sz FROM t_docsize ORDER BY id");
  ASSERT_TRUE(docsize.ok());
  while (docsize->step() == SQLITE_ROW) {
    std::optional<uint32_t> tokens = fts5_docsize_tokens(docsize->blob(1));
    ASSERT_TRUE(tokens.has_value()) << docsize->int64(0);
    ASSERT_TRUE(kept.set(docsize->int64(0), tokens));
    ASSERT_TRUE(wrong.set(docsize->int64(0), *tokens + (docsize->int64(0) == 700 ? 5 : 0)));
  }
  auto s = db_.prepare(
      "SELECT rowid, bm25_sampled(t, 70, 35000), bm25_sampled(t, 70, 35000, ?2), bm25_sampled(t, 70, 35000, ?3),"
      " bm25_sampled(t, 70, 35000, ?4), bm25_sampled(t, 70, 35000, 'text'), bm25_sampled(t, 70, 35000, ?5)"
      " FROM t WHERE t MATCH ?1 ORDER BY rowid");
  ASSERT_TRUE(s.ok());
  for (const char* q : {"apple", "pear", "pear OR filler"}) {
    s->bind(1, std::string_view(q));
    bind_row_sizes(*s, 2, &kept);
    bind_row_sizes(*s, 3, &none);
    bind_row_sizes(*s, 4, &wrong);
    bind_row_sizes(*s, 5, nullptr);
    int rows = 0;
    while (s->step() == SQLITE_ROW) {
      ++rows;
      double looked_up = s->real(1);
      for (int col : {2, 3, 5, 6}) EXPECT_EQ(s->real(col), looked_up) << q << " " << s->int64(0) << " " << col;
      if (s->int64(0) == 700) {
        EXPECT_GT(s->real(4), looked_up) << q;  // five more tokens: a weaker match
      } else {
        EXPECT_EQ(s->real(4), looked_up) << q << " " << s->int64(0);
      }
    }
    EXPECT_GT(rows, 100) << q;
    s->reset();
  }
}

TEST(RowSizes, KeepsSmallSizesOfRowIdsInRange) {
  RowSizes sizes;
  EXPECT_TRUE(sizes.set(0, 0u));
  EXPECT_TRUE(sizes.set(5, 253u));
  EXPECT_TRUE(sizes.set(1000000, 17u));
  EXPECT_EQ(sizes.get(0), 0u);
  EXPECT_EQ(sizes.get(5), 253u);
  EXPECT_EQ(sizes.get(1000000), 17u);
  for (int64_t id : std::initializer_list<int64_t>{-1, 1, 4, 6, 999999, 1000001, RowSizes::kMaxRowid, int64_t{1} << 62})
    EXPECT_EQ(sizes.get(id), std::nullopt) << id;
  EXPECT_LE(sizes.bytes(), 1000000u * 9 / 8 + 8);
  // A size too big for a byte, or none, is left to FTS5: not kept, and no longer the old one.
  EXPECT_TRUE(sizes.set(5, 254u));
  EXPECT_EQ(sizes.get(5), std::nullopt);
  EXPECT_TRUE(sizes.set(1000000, std::nullopt));
  EXPECT_EQ(sizes.get(1000000), std::nullopt);
  EXPECT_TRUE(sizes.set(3000000, 70000u));  // beyond what is held and not kept: nothing grows
  EXPECT_LE(sizes.bytes(), 1000000u * 9 / 8 + 8);
  // Row ids no RowSizes holds: refused, nothing made for them.
  EXPECT_FALSE(sizes.set(-1, 3u));
  EXPECT_FALSE(sizes.set(RowSizes::kMaxRowid + 1, 3u));
  EXPECT_FALSE(sizes.set(int64_t{1} << 62, 3u));
  EXPECT_LE(sizes.bytes(), 1000000u * 9 / 8 + 8);
  sizes.clear();
  EXPECT_EQ(sizes.bytes(), 0u);
  EXPECT_EQ(sizes.get(0), std::nullopt);
}

TEST(Fts5DocsizeTokens, OneVarintOfAtMostThirtyTwoBits) {
  using namespace std::string_view_literals;
  EXPECT_EQ(fts5_docsize_tokens("\x00"sv), 0u);
  EXPECT_EQ(fts5_docsize_tokens("\x05"sv), 5u);
  EXPECT_EQ(fts5_docsize_tokens("\x7f"sv), 127u);
  EXPECT_EQ(fts5_docsize_tokens("\x81\x00"sv), 128u);
  EXPECT_EQ(fts5_docsize_tokens("\x83\xe8\x07"sv), 62471u);
  EXPECT_EQ(fts5_docsize_tokens("\x8f\xff\xff\xff\x7f"sv), 0xffffffffu);
  EXPECT_EQ(fts5_docsize_tokens(std::nullopt), std::nullopt);       // NULL or not a blob
  EXPECT_EQ(fts5_docsize_tokens(""sv), std::nullopt);               // no varint
  EXPECT_EQ(fts5_docsize_tokens("\x81"sv), std::nullopt);           // cut short
  EXPECT_EQ(fts5_docsize_tokens("\x05\x06"sv), std::nullopt);       // a second column's
  EXPECT_EQ(fts5_docsize_tokens("\x90\x80\x80\x80\x00"sv), std::nullopt);  // 2^32
  EXPECT_EQ(fts5_docsize_tokens("\x80\x80\x80\x80\x80\x01"sv), std::nullopt);  // six bytes
}

}  // namespace
}  // namespace xs::sqlite
