// The prompt history's behaviour: queued adds, flush, the last-prompt cache, search and recent as
// JSON, and every prompt or query the API must refuse.
#include "history/history.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "storage/fs.h"
#include "raw_sql.h"
#include "test_util.h"

namespace xs::history {
namespace {

class HistoryTest : public ::testing::Test {
 protected:
  std::unique_ptr<History> open(HistoryOptions o = {}) {
    Result<std::unique_ptr<History>> h = History::open(storage::make_posix_fs(), path_, o);
    EXPECT_TRUE(h.ok()) << h.status().message();
    return h.ok() ? std::move(*h) : nullptr;
  }
  std::string search(History& h, std::string_view q, SearchOptions o = {}) {
    Result<std::string> r = h.search_json(q, o);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : "";
  }
  std::string recent(History& h, std::optional<std::string_view> cwd = std::nullopt, uint32_t limit = 0) {
    Result<std::string> r = h.recent_json(cwd, limit);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : "";
  }

  test::TempDir dir_;
  std::string path_ = dir_.file("root/history.db");
};

TEST_F(HistoryTest, AddFlushRecentReturnsExactJson) {
  auto h = open();
  ASSERT_TRUE(h->add("fix the build", std::string_view("/src/a"), 1000).ok());
  ASSERT_TRUE(h->add("run the \"tests\"\n", std::nullopt, 2000).ok());
  ASSERT_TRUE(h->flush().ok());
  EXPECT_EQ(recent(*h),
            "[{\"id\":2,\"prompt\":\"run the \\\"tests\\\"\\n\",\"createdAt\":2000,\"cwd\":null},"
            "{\"id\":1,\"prompt\":\"fix the build\",\"createdAt\":1000,\"cwd\":\"/src/a\"}]");
  EXPECT_EQ(recent(*h, std::string_view("/src/a")),
            "[{\"id\":1,\"prompt\":\"fix the build\",\"createdAt\":1000,\"cwd\":\"/src/a\"}]");
  EXPECT_EQ(recent(*h, std::string_view("/nowhere")), "[]");
  EXPECT_EQ(recent(*h, std::nullopt, 1),
            "[{\"id\":2,\"prompt\":\"run the \\\"tests\\\"\\n\",\"createdAt\":2000,\"cwd\":null}]");
}

TEST_F(HistoryTest, TimeZeroIsNow) {
  auto h = open();
  int64_t before =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  ASSERT_TRUE(h->add("now", std::nullopt, 0).ok());
  ASSERT_TRUE(h->flush().ok());
  std::string r = recent(*h);
  size_t at = r.find("\"createdAt\":");
  ASSERT_NE(at, std::string::npos);
  int64_t t = std::stoll(r.substr(at + 12));
  EXPECT_GE(t, before);
  EXPECT_LT(t, before + 60000);
}

TEST_F(HistoryTest, ConsecutiveDuplicatesWithTheSameCwdAreSkipped) {
  auto h = open();
  ASSERT_TRUE(h->add("same", std::string_view("/a"), 1).ok());
  ASSERT_TRUE(h->add("same", std::string_view("/a"), 2).ok());  // skipped
  ASSERT_TRUE(h->add("same", std::string_view("/b"), 3).ok());  // other cwd: kept
  ASSERT_TRUE(h->add("same", std::string_view("/a"), 4).ok());  // not consecutive: kept
  ASSERT_TRUE(h->add("same", std::string_view(""), 5).ok());    // no cwd: kept
  ASSERT_TRUE(h->add("same", std::nullopt, 6).ok());            // "" is no cwd: skipped
  ASSERT_TRUE(h->close().ok());
  // Seeded from the file's last row at open: the same prompt again is skipped in a new handle.
  auto h2 = open();
  ASSERT_TRUE(h2->add("same", std::nullopt, 7).ok());
  ASSERT_TRUE(h2->add("other", std::nullopt, 8).ok());
  ASSERT_TRUE(h2->flush().ok());
  EXPECT_EQ(recent(*h2),
            "[{\"id\":5,\"prompt\":\"other\",\"createdAt\":8,\"cwd\":null},"
            "{\"id\":4,\"prompt\":\"same\",\"createdAt\":5,\"cwd\":null},"
            "{\"id\":3,\"prompt\":\"same\",\"createdAt\":4,\"cwd\":\"/a\"},"
            "{\"id\":2,\"prompt\":\"same\",\"createdAt\":3,\"cwd\":\"/b\"},"
            "{\"id\":1,\"prompt\":\"same\",\"createdAt\":1,\"cwd\":\"/a\"}]");
}

TEST_F(HistoryTest, SearchRanksByBm25AndMarksMatches) {
  auto h = open();
  ASSERT_TRUE(h->add("refactor the parser", std::string_view("/p"), 1).ok());
  ASSERT_TRUE(h->add("parser parser parser bug", std::string_view("/q"), 2).ok());
  ASSERT_TRUE(h->add("unrelated words", std::string_view("/p"), 3).ok());
  ASSERT_TRUE(h->flush().ok());
  std::string r = search(*h, "parser");
  // The denser match ranks first; both carry the markers STX/ETX around the match.
  size_t first = r.find("\"id\":2");
  size_t second = r.find("\"id\":1");
  ASSERT_NE(first, std::string::npos);
  ASSERT_NE(second, std::string::npos);
  EXPECT_LT(first, second);
  EXPECT_EQ(r.find("\"id\":3"), std::string::npos);
  EXPECT_NE(r.find("\"snippet\":\"refactor the \\u0002parser\\u0003\""), std::string::npos) << r;
  EXPECT_NE(r.find("\"score\":-"), std::string::npos) << r;

  SearchOptions in_p;
  in_p.cwd = "/p";
  std::string only = search(*h, "parser", in_p);
  EXPECT_EQ(only.rfind("[{\"id\":1,\"prompt\":\"refactor the parser\",\"createdAt\":1,\"cwd\":\"/p\",\"score\":", 0),
            0u)
      << only;
  EXPECT_EQ(only.find("\"id\":2"), std::string::npos);
}

TEST_F(HistoryTest, PrefixAndLiteralQueries) {
  auto h = open();
  ASSERT_TRUE(h->add("configure cmake presets", std::nullopt, 1).ok());
  ASSERT_TRUE(h->add("say \"hi\" AND NOT bye", std::nullopt, 2).ok());
  ASSERT_TRUE(h->flush().ok());
  EXPECT_NE(search(*h, "conf*").find("\"id\":1"), std::string::npos);
  EXPECT_EQ(search(*h, "conf"), "[]");  // whole words without '*'
  SearchOptions literal;
  literal.literal = true;
  EXPECT_NE(search(*h, "cmake pre", literal).find("\"id\":1"), std::string::npos);  // last word a prefix
  EXPECT_NE(search(*h, "\"hi\" AND", literal).find("\"id\":2"), std::string::npos);
  EXPECT_EQ(literal_query("a \"b\"  c"), "\"a\" \"\"\"b\"\"\" \"c\"*");
  EXPECT_EQ(literal_query(" \t "), "");
}

// The ids of a search's hits, in order.
std::vector<int64_t> hit_ids(const std::string& json) {
  std::vector<int64_t> ids;
  for (size_t at = json.find("{\"id\":"); at != std::string::npos; at = json.find("{\"id\":", at + 1)) {
    ids.push_back(std::stoll(json.substr(at + 6)));
  }
  return ids;
}

// Prompts of "apple" and j other words: the fewer, the better bm25 ranks them.
std::string apple_and(int j) {
  std::string p = "apple";
  for (int i = 0; i < j; ++i) p += " pear";
  return p;
}

// More matches than ranked_matches: only the newest are ranked, best first; older, better matches
// stay out (docs/history.md#ranking).
TEST_F(HistoryTest, OnlyTheNewestMatchesAreRanked) {
  HistoryOptions o;
  o.ranked_matches = 10;
  auto h = open(o);
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(h->add("apple apple apple " + std::to_string(i), std::nullopt, 1).ok());
  // Newest ten (ids 21..30): id 21 the longest, id 29 the shortest; ids 28 and 30 tie.
  for (int j : {9, 8, 7, 6, 5, 4, 2, 1, 0, 1}) ASSERT_TRUE(h->add(apple_and(j), std::nullopt, 1).ok());
  ASSERT_TRUE(h->add("no fruit here", std::nullopt, 1).ok());
  ASSERT_TRUE(h->flush().ok());
  SearchOptions all;
  all.limit = 10;
  EXPECT_EQ(hit_ids(search(*h, "apple", all)), (std::vector<int64_t>{29, 30, 28, 27, 26, 25, 24, 23, 22, 21}));
  all.limit = 3;
  EXPECT_EQ(hit_ids(search(*h, "apple", all)), (std::vector<int64_t>{29, 30, 28}));
  // A limit over ranked_matches ranks that many instead: then the dense old prompts come first.
  all.limit = 12;
  EXPECT_EQ(hit_ids(search(*h, "apple", all)), (std::vector<int64_t>{20, 19, 29, 30, 28, 27, 26, 25, 24, 23, 22, 21}));
  // Whatever the window, a bad query is still the caller's mistake.
  Result<std::string> bad = h->search_json("\"apple", all);
  EXPECT_EQ(bad.status().code(), Code::kInvalid);

  // At most ranked_matches matches: all ranked, exactly as without the bound.
  HistoryOptions wide;
  wide.ranked_matches = 31;
  ASSERT_TRUE(h->close().ok());
  h = open(wide);
  all.limit = 3;
  EXPECT_EQ(hit_ids(search(*h, "apple", all)), (std::vector<int64_t>{20, 19, 18}));
}

// With a cwd, the window is the newest matches in that cwd: matches elsewhere do not use it up.
TEST_F(HistoryTest, WithACwdOnlyItsNewestMatchesAreRanked) {
  HistoryOptions o;
  o.ranked_matches = 4;
  auto h = open(o);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(h->add("apple apple " + std::to_string(i), std::string_view("/a"), 1).ok());
  // /a: ids 6, 8, 10, 12 with 3, 2, 0, 1 other words; each followed by a dense match in /b.
  for (int j : {3, 2, 0, 1}) {
    ASSERT_TRUE(h->add(apple_and(j), std::string_view("/a"), 1).ok());
    ASSERT_TRUE(h->add("apple apple apple", std::string_view("/b"), 1).ok());
  }
  ASSERT_TRUE(h->flush().ok());
  SearchOptions in_a;
  in_a.cwd = "/a";
  in_a.limit = 4;
  EXPECT_EQ(hit_ids(search(*h, "apple", in_a)), (std::vector<int64_t>{10, 12, 8, 6}));
  SearchOptions in_b;
  in_b.cwd = "/b";
  EXPECT_EQ(hit_ids(search(*h, "apple", in_b)), (std::vector<int64_t>{13, 11, 9, 7}));
  in_a.limit = 2;
  EXPECT_EQ(hit_ids(search(*h, "apple", in_a)), (std::vector<int64_t>{10, 12}));
  Result<std::string> bad = h->search_json("apple AND", in_a);
  EXPECT_EQ(bad.status().code(), Code::kInvalid);
  EXPECT_EQ(bad.status().message().rfind("bad history query: ", 0), 0u) << bad.status().message();
}

TEST_F(HistoryTest, BadQueriesAreInvalidWithSqlitesMessage) {
  auto h = open();
  ASSERT_TRUE(h->add("text", std::nullopt, 1).ok());
  ASSERT_TRUE(h->flush().ok());
  for (std::string_view q : {"\"unterminated", "AND", "a OR", "(x", "nosuchcolumn: x", "*"}) {
    Result<std::string> r = h->search_json(q, {});
    ASSERT_FALSE(r.ok()) << q;
    EXPECT_EQ(r.status().code(), Code::kInvalid) << q;
    EXPECT_EQ(r.status().message().rfind("bad history query: ", 0), 0u) << r.status().message();
  }
  EXPECT_EQ(h->search_json("", {}).status().code(), Code::kInvalid);
  EXPECT_EQ(h->search_json("  ", {}).status().code(), Code::kInvalid);
  SearchOptions literal;
  literal.literal = true;
  EXPECT_EQ(h->search_json(" ", literal).status().code(), Code::kInvalid);
  EXPECT_EQ(h->search_json(std::string_view("a\0b", 3), {}).status().code(), Code::kInvalid);
  EXPECT_EQ(h->search_json("\xff", {}).status().code(), Code::kInvalid);
  SearchOptions big;
  big.limit = kMaxLimit + 1;
  EXPECT_EQ(h->search_json("text", big).status().code(), Code::kInvalid);
  EXPECT_EQ(h->recent_json(std::nullopt, kMaxLimit + 1).status().code(), Code::kInvalid);
  // The handle still works after each refusal.
  EXPECT_NE(search(*h, "text").find("\"id\":1"), std::string::npos);
}

TEST_F(HistoryTest, HostilePromptsAreRefusedOrKeptExactly) {
  HistoryOptions o;
  auto h = open(o);
  EXPECT_EQ(h->add(std::string_view("a\0b", 3), std::nullopt, 1).code(), Code::kInvalid);
  EXPECT_EQ(h->add("\xc3\x28", std::nullopt, 1).code(), Code::kInvalid);
  EXPECT_EQ(h->add("\xed\xa0\x80", std::nullopt, 1).code(), Code::kInvalid);  // an encoded surrogate
  EXPECT_EQ(h->add("", std::nullopt, 1).code(), Code::kInvalid);
  EXPECT_EQ(h->add("ok", std::string_view("\xff"), 1).code(), Code::kInvalid);
  EXPECT_EQ(h->add("ok", std::nullopt, -1).code(), Code::kInvalid);
  EXPECT_EQ(h->add(std::string(10 << 20, 'x'), std::nullopt, 1).code(), Code::kLimit);
  EXPECT_EQ(h->add(std::string((1 << 20) + 1, 'x'), std::nullopt, 1).code(), Code::kLimit);
  EXPECT_EQ(h->add("ok", std::string(kMaxCwdBytes + 1, 'c'), 1).code(), Code::kLimit);
  std::string max(1 << 20, 'y');
  ASSERT_TRUE(h->add(max, std::nullopt, 1).ok());
  std::vector<std::string> odd = {"NEAR(a b) OR c* AND NOT d",
                                  "\"quoted\" 'single' `tick`",
                                  "col: x ^y",
                                  "'); DROP TABLE history; --",
                                  "emoji \xf0\x9f\x98\x80 and \xe2\x80\xa8 sep",
                                  "\x01\x02\x03 controls\t"};
  for (size_t i = 0; i < odd.size(); ++i) ASSERT_TRUE(h->add(odd[i], std::nullopt, 2 + i).ok()) << i;
  ASSERT_TRUE(h->flush().ok());
  ASSERT_TRUE(h->close().ok());

  // The bytes in the table are the bytes given.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* s = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT prompt FROM history ORDER BY id", -1, &s, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(s), SQLITE_ROW);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)), sqlite3_column_bytes(s, 0)), max);
  for (const std::string& p : odd) {
    ASSERT_EQ(sqlite3_step(s), SQLITE_ROW);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)), sqlite3_column_bytes(s, 0)), p);
  }
  EXPECT_EQ(sqlite3_step(s), SQLITE_DONE);
  sqlite3_finalize(s);
  sqlite3_close(db);

  auto again = open();
  SearchOptions literal;
  literal.literal = true;
  EXPECT_NE(search(*again, "DROP TABLE", literal).find("\"id\":5"), std::string::npos);
  EXPECT_NE(search(*again, "NEAR(a b)", literal).find("\"id\":2"), std::string::npos);
  EXPECT_NE(search(*again, "\"quoted\"", literal).find("\"id\":3"), std::string::npos);
  EXPECT_NE(search(*again, "emoji").find("\"id\":6"), std::string::npos);
}

TEST_F(HistoryTest, ManyThreadsAddingAndSearchingLoseNothing) {
  auto h = open();
  constexpr int kThreads = 4, kEach = 500;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        ASSERT_TRUE(h->add("thread" + std::to_string(t) + " item" + std::to_string(i), std::nullopt, 1).ok());
        if (i % 100 == 0) {
          ASSERT_TRUE(h->search_json("item*", {}).ok());
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  ASSERT_TRUE(h->flush().ok());
  Result<std::string> info = h->info_json();
  ASSERT_TRUE(info.ok());
  EXPECT_NE(info->find("\"count\":2000,\"pending\":0"), std::string::npos) << *info;
}

TEST_F(HistoryTest, CloseFlushesAndLaterCallsAreMisuse) {
  auto h = open();
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(h->add("p" + std::to_string(i), std::nullopt, 1).ok());
  ASSERT_TRUE(h->close().ok());
  ASSERT_TRUE(h->close().ok());
  EXPECT_EQ(h->add("late", std::nullopt, 1).code(), Code::kMisuse);
  EXPECT_EQ(h->recent_json(std::nullopt, 1).status().code(), Code::kMisuse);
  auto h2 = open();
  EXPECT_EQ(recent(*h2, std::nullopt, 1), "[{\"id\":1000,\"prompt\":\"p999\",\"createdAt\":1,\"cwd\":null}]");
}

TEST_F(HistoryTest, InfoReportsTheFile) {
  HistoryOptions o;
  o.sync_full = true;
  auto h = open(o);
  ASSERT_TRUE(h->add("one", std::nullopt, 1).ok());
  ASSERT_TRUE(h->flush().ok());
  Result<std::string> info = h->info_json();
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(*info, "{\"path\":\"" + path_ +
                       "\",\"schemaVersion\":3,\"count\":1,\"pending\":0,\"synchronous\":\"full\",\"damaged\":null}");
}

TEST_F(HistoryTest, AWriterFailureIsSticky) {
  auto h = open();
  ASSERT_TRUE(h->add("first", std::nullopt, 1).ok());
  ASSERT_TRUE(h->flush().ok());
  // Another connection takes the write lock and keeps it past the busy timeout.
  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open(path_.c_str(), &other), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
  h.reset();
  HistoryOptions quick;
  quick.busy_timeout = std::chrono::milliseconds(50);
  h = open(quick);
  ASSERT_TRUE(h->add("blocked", std::nullopt, 2).ok());
  Status st = h->flush();
  EXPECT_EQ(st.code(), Code::kLocked) << st.message();
  EXPECT_EQ(st.message().rfind("history writer: ", 0), 0u) << st.message();
  EXPECT_EQ(h->add("more", std::nullopt, 3).code(), Code::kLocked);
  EXPECT_EQ(h->flush().code(), Code::kLocked);
  EXPECT_EQ(h->close().code(), Code::kLocked);
  sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(other);
  // Reads never needed the lock.
  auto h2 = open();
  EXPECT_EQ(recent(*h2), "[{\"id\":1,\"prompt\":\"first\",\"createdAt\":1,\"cwd\":null}]");
}

}  // namespace
}  // namespace xs::history

namespace xs::history {
namespace {

// A search or recent call leaves no read transaction open: another connection can checkpoint the
// whole WAL right after (a statement left stepping would block it for the handle's lifetime).
// A cwd searched again is filtered by its row ids in memory (docs/history.md#search-in-a-cwd):
// they follow appends, and another program's update, delete (a reused id at the top), insert
// below the newest id or negative id, so the results are always the rows' own.
TEST_F(HistoryTest, ACwdsRowIdsFollowAppendsAndOtherProgramsChanges) {
  auto h = open();
  ASSERT_TRUE(h->add("red apple", std::string_view("/a"), 1).ok());     // 1
  ASSERT_TRUE(h->add("green apple", std::string_view("/b"), 1).ok());   // 2
  ASSERT_TRUE(h->add("apple pie", std::string_view("/a"), 1).ok());     // 3
  ASSERT_TRUE(h->flush().ok());
  SearchOptions in_a;
  in_a.cwd = "/a";
  auto ids = [&] {
    std::vector<int64_t> v = hit_ids(search(*h, "apple", in_a));
    std::sort(v.begin(), v.end());
    return v;
  };
  EXPECT_EQ(ids(), (std::vector<int64_t>{1, 3}));  // looked up
  EXPECT_EQ(ids(), (std::vector<int64_t>{1, 3}));  // by the row ids, read now
  ASSERT_TRUE(h->add("apple tart", std::string_view("/a"), 1).ok());    // 4
  ASSERT_TRUE(h->add("apple juice", std::string_view("/b"), 1).ok());   // 5
  ASSERT_TRUE(h->flush().ok());
  EXPECT_EQ(ids(), (std::vector<int64_t>{1, 3, 4}));
  exec_raw(path_, "UPDATE history SET cwd = '/a' WHERE id = 2");
  EXPECT_EQ(ids(), (std::vector<int64_t>{1, 2, 3, 4}));
  exec_raw(path_, "DELETE FROM history WHERE id = 5; DELETE FROM history WHERE id = 4;"
                    "INSERT INTO history(prompt, created_at, cwd) VALUES ('apple cider', 1, '/b')");
  EXPECT_EQ(ids(), (std::vector<int64_t>{1, 2, 3}));  // 4 is /b's now
  exec_raw(path_, "INSERT INTO history(id, prompt, created_at, cwd) VALUES (0, 'apple crumble', 1, '/a')");
  EXPECT_EQ(ids(), (std::vector<int64_t>{0, 1, 2, 3}));
  exec_raw(path_, "INSERT INTO history(id, prompt, created_at, cwd) VALUES (-7, 'apple strudel', 1, '/a')");
  EXPECT_EQ(ids(), (std::vector<int64_t>{-7, 0, 1, 2, 3}));
  EXPECT_EQ(ids(), (std::vector<int64_t>{-7, 0, 1, 2, 3}));
  // An id far beyond what a set holds (another program's): that cwd is looked up, nothing huge made.
  exec_raw(path_, "DELETE FROM history WHERE id = -7;"
                  "INSERT INTO history(id, prompt, created_at, cwd) VALUES (4611686018427387904, 'apple sauce', 1, '/a')");
  EXPECT_EQ(ids(), (std::vector<int64_t>{0, 1, 2, 3, 4611686018427387904}));
  EXPECT_EQ(ids(), (std::vector<int64_t>{0, 1, 2, 3, 4611686018427387904}));
  SearchOptions in_b;
  in_b.cwd = "/b";
  EXPECT_EQ(hit_ids(search(*h, "apple", in_b)), (std::vector<int64_t>{4}));
  EXPECT_EQ(hit_ids(search(*h, "apple", in_b)), (std::vector<int64_t>{4}));
}

// From a handle's second search on, the rows' sizes are kept in memory (docs/history.md#ranking):
// its searches, within a cwd or not, are the same to the last bit of every score as a fresh
// handle's first search, which looks each ranked row's size up; after appends, and after another
// program's update, which changes sizes.
TEST_F(HistoryTest, KeptSizesRankAsLookedUpSizes) {
  auto h = open();
  const char* words[] = {"apple", "pear", "plum", "fig tree", "apple pear", "plum plum apple"};
  auto add = [&](int from, int to) {
    for (int i = from; i < to; ++i) {
      std::string prompt = words[i % 6];
      for (int j = 0; j < i % 9; ++j) prompt += " filler" + std::to_string(j);
      ASSERT_TRUE(h->add(prompt, std::string_view(i % 4 ? "/a" : "/b"), i).ok());
    }
    ASSERT_TRUE(h->flush().ok());
  };
  add(0, 400);
  SearchOptions in_a, anywhere;
  in_a.cwd = "/a";
  in_a.limit = anywhere.limit = 50;
  const char* queries[] = {"apple", "pear", "plum", "fig", "apple pear", "filler3", "plum OR fig", "app*"};
  auto same_as_first_search = [&](const char* step) {
    for (const SearchOptions* o : {&in_a, &anywhere}) {
      for (const char* q : queries) {
        auto fresh = open();
        std::string looked_up = search(*fresh, q, *o);
        ASSERT_NE(looked_up, "[]") << q;
        EXPECT_EQ(search(*h, q, *o), looked_up) << step << ": " << q << (o == &in_a ? " in /a" : "");
      }
    }
  };
  search(*h, "apple", in_a);  // the first search: sizes and row ids are read from the second on
  same_as_first_search("read");
  add(400, 520);
  same_as_first_search("appended");
  exec_raw(path_, "UPDATE history SET prompt = 'apple apple pear' || id WHERE id % 7 = 0");
  same_as_first_search("updated");
}

TEST_F(HistoryTest, ReadsLeaveNoTransactionOpen) {
  auto h = open();
  for (int i = 0; i < 50; ++i) ASSERT_TRUE(h->add("word " + std::to_string(i), std::nullopt, 1).ok());
  ASSERT_TRUE(h->flush().ok());
  ASSERT_NE(search(*h, "word", {}), "[]");
  ASSERT_NE(recent(*h, std::nullopt, 1), "[]");
  ASSERT_NE(recent(*h, std::string_view("/none")), "x");
  ASSERT_EQ(h->search_json("\"bad", {}).status().code(), Code::kInvalid);
  SearchOptions in_cwd;
  in_cwd.cwd = "/none";
  for (int i = 0; i < 2; ++i) {  // looked up, then by row ids
    ASSERT_EQ(search(*h, "word", in_cwd), "[]");
    ASSERT_EQ(h->search_json("\"bad", in_cwd).status().code(), Code::kInvalid);
  }
  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open(path_.c_str(), &other), SQLITE_OK);
  sqlite3_stmt* s = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(other, "PRAGMA wal_checkpoint(TRUNCATE)", -1, &s, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(s), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(s, 0), 0);  // not busy: nobody reads
  sqlite3_finalize(s);
  sqlite3_close(other);
}

}  // namespace
}  // namespace xs::history
