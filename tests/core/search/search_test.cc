// Searching the session index: ranking, prefixes, phrases, filters, literal words, bad queries and
// hostile text; listing sessions from the index alone.
#include <gtest/gtest.h>

#include "search/session_index.h"
#include "search_fixture.h"

namespace xs::search {
namespace {

class SearchTest : public SearchFixture {
 protected:
  void SetUp() override {
    SearchFixture::SetUp();
    // /src/a (older file), /src/b (newer); "parser" twice in b2, once in a2 among more words.
    put("/src/a", "aaaa000000000001",
        header("aaaa000000000001", "/src/a", "Alpha") + msg("a1", "", 1, "user", "\"the parser crashes on input\"") +
            msg("a2", "a1", 120, "assistant",
                "[{\"type\":\"text\",\"text\":\"the parser reads a token and then many other words follow here\"}]") +
            msg("a3", "a2", 180, "toolResult", "\"grep found parsers.c\"", ",\"toolName\":\"grep\""),
        kDay + 1000);
    put("/src/b", "bbbb000000000002",
        header("bbbb000000000002", "/src/b", "Beta") + msg("b1", "", 1, "user", "\"parser parser\"") +
            "{\"type\":\"label\",\"id\":\"b2\",\"parentId\":\"b1\",\"timestamp\":\"2026-01-01T00:05:00.000Z\","
            "\"targetId\":\"b1\",\"label\":\"AND \\\"quoted\\\" NEAR(x)\"}\n",
        kDay + 2000);
    x_ = open_index();
    ASSERT_TRUE(x_->rebuild().ok());
  }
  // "<sessionId>/<entryId>" of each hit, in order.
  std::string hits(std::string_view q, SearchOptions o = {}) {
    std::string json = search(*x_, q, o);
    std::string out;
    for (size_t at = 0; (at = json.find("\"entryId\":\"", at)) != std::string::npos;) {
      at += 11;
      size_t session = json.rfind("\"sessionId\":\"", at) + 13;
      if (!out.empty()) out += ' ';
      out += json.substr(session, 4) + "/" + json.substr(at, json.find('"', at) - at);
    }
    return out;
  }
  std::unique_ptr<SessionIndex> x_;
};

TEST_F(SearchTest, AHitIsExactJson) {
  std::string got = search(*x_, "crashes");
  // The score is FTS5's bm25 value: taken from the output, checked to be a negative number.
  size_t at = got.find("\"score\":") + 8;
  std::string score = got.substr(at, got.find(',', at) - at);
  EXPECT_EQ(score[0], '-');
  std::string want = "[{\"sessionId\":\"aaaa000000000001\",\"sessionTitle\":\"Alpha\",\"sessionPath\":\"" +
                     session_path("/src/a", "aaaa000000000001") +
                     "\",\"cwd\":\"/src/a\",\"entryId\":\"a1\",\"role\":\"user\",\"onPath\":true,\"timestamp\":" +
                     std::to_string(kDay + 1000) + ",\"score\":" + score +
                     ",\"snippet\":\"the parser \\u0002crashes\\u0003 on input\"}]";
  EXPECT_EQ(got, want);
}

TEST_F(SearchTest, RankingIsBm25BestFirst) {
  // b1 holds the word twice in two words; a1 once in five; a2 once in many.
  EXPECT_EQ(hits("parser"), "bbbb/b1 aaaa/a1 aaaa/a2");
}

TEST_F(SearchTest, PrefixAndPhraseQueries) {
  EXPECT_EQ(hits("pars*"), "bbbb/b1 aaaa/a3 aaaa/a1 aaaa/a2");
  EXPECT_EQ(hits("\"parser crashes\""), "aaaa/a1");
  EXPECT_EQ(hits("\"crashes parser\""), "");
}

TEST_F(SearchTest, FiltersByCwdRoleTimeAndSession) {
  SearchOptions o;
  o.cwd = "/src/a";
  EXPECT_EQ(hits("parser", o), "aaaa/a1 aaaa/a2");
  o = {};
  o.role = "assistant";
  EXPECT_EQ(hits("parser", o), "aaaa/a2");
  o = {};
  o.role = "tool";
  EXPECT_EQ(hits("pars*", o), "aaaa/a3");
  o = {};
  o.since_ms = kDay + 120000;
  EXPECT_EQ(hits("pars*", o), "aaaa/a3 aaaa/a2");
  o = {};
  o.session_id = "bbbb000000000002";
  EXPECT_EQ(hits("parser", o), "bbbb/b1");
  o.role = "robot";
  auto r = x_->search_json("parser", o);
  EXPECT_EQ(r.status().code(), Code::kInvalid);
  EXPECT_EQ(r.status().message(), "role \"robot\" is none of user, assistant, tool, summary, label");
}

TEST_F(SearchTest, LiteralModeQuotesOperatorsAndQuotes) {
  SearchOptions o;
  o.literal = true;
  EXPECT_EQ(hits("AND \"quoted\" NEAR(x)", o), "bbbb/b2");
  EXPECT_EQ(hits("pars", o), "bbbb/b1 aaaa/a3 aaaa/a1 aaaa/a2");  // the last word is a prefix
  EXPECT_EQ(hits("\"", o), "");
}

TEST_F(SearchTest, ASyntaxErrorIsInvalidWithSqlitesMessage) {
  auto r = x_->search_json("\"open", {});
  EXPECT_EQ(r.status().code(), Code::kInvalid);
  EXPECT_EQ(r.status().message(), "bad search query: unterminated string");
  r = x_->search_json("parser AND", {});
  EXPECT_EQ(r.status().code(), Code::kInvalid);
  EXPECT_EQ(r.status().message(), "bad search query: fts5: syntax error near \"\"");
  EXPECT_EQ(x_->search_json("  ", {}).status().message(), "the query is empty");
  EXPECT_EQ(x_->search_json(std::string_view("a\0b", 3), {}).status().code(), Code::kInvalid);
  EXPECT_EQ(x_->search_json("\xff", {}).status().code(), Code::kInvalid);
  EXPECT_EQ(hits("parser"), "bbbb/b1 aaaa/a1 aaaa/a2");  // still usable
}

TEST_F(SearchTest, HostileTextIsIndexedAndFoundSafely) {
  put("/src/c", "cccc000000000003",
      header("cccc000000000003", "/src/c") + msg("c1", "", 1, "user", "\"nul\\u0000byte '); DROP TABLE entries; --\"") +
          msg("c2", "c1", 2, "user", "\"lone \\udc00 surrogate\"") +
          msg("c3", "c2", 3, "user", "\"huge " + std::string(10 << 20, 'z') + "\""),
      kDay + 3000);
  RefreshReport r = refresh(*x_);
  EXPECT_EQ(r.added, 1u);
  EXPECT_EQ(hits("byte"), "cccc/c1");
  EXPECT_EQ(hits("nul"), "cccc/c1");
  SearchOptions o;
  o.literal = true;
  EXPECT_EQ(hits("'); DROP TABLE entries; --", o), "cccc/c1");
  EXPECT_EQ(hits("surrogate"), "cccc/c2");
  EXPECT_EQ(hits("huge"), "cccc/c3");
  EXPECT_EQ(rows("SELECT length(CAST(text AS BLOB)) FROM entries WHERE entry_id = 'c3'"), "65536\n");
  EXPECT_EQ(rows("SELECT count(*) FROM sessions"), "3\n");
}

TEST_F(SearchTest, ListIsNewestFirstFromTheIndex) {
  auto all = x_->list_json(std::nullopt, 0);
  ASSERT_TRUE(all.ok());
  std::string b = session_path("/src/b", "bbbb000000000002");
  std::string a = session_path("/src/a", "aaaa000000000001");
  std::string want_b = "{\"path\":\"" + b +
                       "\",\"id\":\"bbbb000000000002\",\"cwd\":\"/src/b\",\"title\":\"Beta\",\"firstPrompt\":"
                       "\"parser parser\",\"created\":" +
                       std::to_string(kDay) + ",\"updated\":" + std::to_string(kDay + 300000) +
                       ",\"modified\":" + std::to_string(kDay + 2000) +
                       ",\"size\":" + std::to_string(test::read_file(b).size()) +
                       ",\"entries\":2,\"messages\":1,\"inputTokens\":0,\"outputTokens\":0,\"cost\":0,"
                       "\"dialect\":\"omp\",\"sourceAgent\":null,\"parentSession\":null,\"archived\":false,"
                       "\"leafId\":\"b2\"}";
  std::string want_a = "{\"path\":\"" + a +
                       "\",\"id\":\"aaaa000000000001\",\"cwd\":\"/src/a\",\"title\":\"Alpha\",\"firstPrompt\":"
                       "\"the parser crashes on input\",\"created\":" +
                       std::to_string(kDay) + ",\"updated\":" + std::to_string(kDay + 180000) +
                       ",\"modified\":" + std::to_string(kDay + 1000) +
                       ",\"size\":" + std::to_string(test::read_file(a).size()) +
                       ",\"entries\":3,\"messages\":3,\"inputTokens\":0,\"outputTokens\":0,\"cost\":0,"
                       "\"dialect\":\"omp\",\"sourceAgent\":null,\"parentSession\":null,\"archived\":false,"
                       "\"leafId\":\"a3\"}";
  EXPECT_EQ(*all, "[" + want_b + "," + want_a + "]");
  EXPECT_EQ(*x_->list_json(std::string_view("/src/a"), 0), "[" + want_a + "]");
  EXPECT_EQ(*x_->list_json(std::nullopt, 1), "[" + want_b + "]");
  EXPECT_EQ(x_->list_json(std::nullopt, kMaxLimit + 1).status().code(), Code::kInvalid);
}

}  // namespace
}  // namespace xs::search
