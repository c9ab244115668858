// The session index across processes (docs/search.md#several-processes): four processes append
// to their own sessions (two of them with an index following their writes) while two others
// refresh and search; no caller ever sees "database is locked", every entry acknowledged before a
// refresh is found by it, and at the end every acknowledged entry is found exactly once. And kill
// -9 in the middle of a rebuild or a refresh: the index opens whole (no damaged copy), every
// session row agrees with its entry rows and FTS5's integrity check passes, and one refresh
// makes it exactly what a rebuild from nothing makes.
//
// XS_INDEX_APPENDS: entries each appender writes (default 300).
// XS_INDEX_KILLS: kill rounds (default 10). XS_INDEX_SEED: seed of the kill moments.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <random>
#include <string>
#include <thread>

#include "multiproc_util.h"
#include "search/session_index.h"
#include "sqlite/sqlite_db.h"
#include "store/store.h"
#include "test_util.h"

namespace xs::search {
namespace {

using test::Shared;
using test::spawn;
using test::wait_child;

// One token per entry, unique across processes: "p<process>n<index>".
std::string token(int p, int i) { return "p" + std::to_string(p) + "n" + std::to_string(i); }
std::string user_message(const std::string& words) {
  return R"({"role":"user","content":")" + words + R"(","timestamp":1})";
}

std::shared_ptr<store::Store> open_store(const std::string& root) {
  auto s = store::Store::open(root);
  return s.ok() ? *s : nullptr;
}

std::unique_ptr<SessionIndex> open_index(const std::shared_ptr<store::Store>& st, IndexOptions o = {}) {
  auto x = SessionIndex::open(st, o);
  return x.ok() ? std::move(*x) : nullptr;
}

std::unique_ptr<session::Session> new_session(store::Store& st, const std::string& id) {
  session::SessionOptions o;
  o.defer_until_assistant = false;
  o.session_id = id;
  auto s = st.create_session("/w/app", o);
  return s.ok() ? std::move(*s) : nullptr;
}

struct Progress {
  std::atomic<int> acked[4];  // entries 0..acked-1 of each appender were acknowledged
  std::atomic<int> done{0};   // appenders finished
  std::atomic<int> searches{0};
};

TEST(IndexProcesses, FourAppendersAndTwoSearchersAndEveryAcknowledgedEntryIsFound) {
  const int kAppenders = 4;
  const int kEach = static_cast<int>(test::env_count("XS_INDEX_APPENDS", 300));
  test::TempDir dir;
  std::string root = dir.file("root");
  Shared<Progress> progress;
  for (auto& a : progress->acked) a.store(0);
  std::vector<pid_t> children;
  for (int p = 0; p < kAppenders; ++p) {
    children.push_back(spawn([&, p]() -> int {
      auto st = open_store(root);
      if (!st) return 10;
      std::unique_ptr<SessionIndex> following;
      if (p % 2 == 0) {
        IndexOptions o;
        o.follow_writes = true;
        following = open_index(st, o);
        if (!following) return 11;
      }
      auto s = new_session(*st, "s" + std::to_string(p));
      if (!s) return 12;
      for (int i = 0; i < kEach; ++i) {
        if (!s->append_message(user_message("entry " + token(p, i) + " of the appender"), nullptr).ok()) return 13;
        progress->acked[p].store(i + 1);
        if (following && i % 50 == 49 && !following->flush().ok()) return 14;
      }
      progress->done.fetch_add(1);
      return following && !following->flush().ok() ? 15 : 0;
    }));
  }
  for (int q = 0; q < 2; ++q) {
    children.push_back(spawn([&, q]() -> int {
      auto st = open_store(root);
      if (!st) return 20;
      auto x = open_index(st);
      if (!x) return 21;
      std::mt19937 rng(static_cast<unsigned>(q + 1));
      while (progress->done.load() < kAppenders) {
        // What was acknowledged before the refresh is found after it.
        int p = std::uniform_int_distribution<int>(0, kAppenders - 1)(rng);
        int acked = progress->acked[p].load();
        if (!x->refresh().ok()) return 22;
        if (acked == 0) continue;
        int i = std::uniform_int_distribution<int>(0, acked - 1)(rng);
        auto hits = x->search_json(token(p, i), {});
        if (!hits.ok()) return 23;
        if (test::count_occurrences(*hits, "\"sessionId\":\"s" + std::to_string(p) + "\"") != 1) return 24;
        if (!x->list_json(std::nullopt, 50).ok()) return 25;
        progress->searches.fetch_add(1);
      }
      return 0;
    }));
  }
  for (pid_t c : children) EXPECT_EQ(wait_child(c), 0);
  EXPECT_GT(progress->searches.load(), 0);

  auto st = open_store(root);
  ASSERT_NE(st, nullptr);
  auto x = open_index(st);
  ASSERT_NE(x, nullptr);
  ASSERT_TRUE(x->refresh().ok());
  auto verified = x->verify();
  ASSERT_TRUE(verified.ok());
  EXPECT_TRUE(verified->ok()) << report_json(*verified);
  for (int p = 0; p < kAppenders; ++p) {
    for (int i = 0; i < kEach; ++i) {
      auto hits = x->search_json(token(p, i), {});
      ASSERT_TRUE(hits.ok()) << hits.status().message();
      ASSERT_EQ(test::count_occurrences(*hits, "\"sessionId\":"), 1u) << token(p, i) << ": " << *hits;
      ASSERT_EQ(test::count_occurrences(*hits, "\"sessionId\":\"s" + std::to_string(p) + "\""), 1u) << *hits;
    }
  }
}

// The rows of `sql` in the database at `path`, one line each, columns joined with '|'.
std::string rows(const std::string& path, const char* sql) {
  sqlite::Db db;
  if (!db.open(path, false, std::chrono::milliseconds(5000)).ok()) return "cannot open " + path;
  auto s = db.prepare(sql);
  if (!s.ok()) return s.status().message();
  std::string out;
  int rc;
  while ((rc = s->step()) == SQLITE_ROW) {
    for (int c = 0; c < sqlite3_column_count(s->raw()); ++c) {
      out += c ? "|" : "";
      out += s->is_null(c) ? "-" : std::string(s->text(c));
    }
    out += "\n";
  }
  return rc == SQLITE_DONE ? out : out + db.error(rc, "step").message();
}

// What an index holds, without rowids (they differ between two indexes of the same files).
constexpr const char* kSessionRows =
    "SELECT path, id, cwd, title, first_prompt, entries, messages, indexed_bytes, leaf_id, summary "
    "FROM sessions ORDER BY path";
constexpr const char* kEntryRows =
    "SELECT s.path, e.entry_id, e.parent_id, e.role, e.kind, e.ts, e.on_path, e.text "
    "FROM entries AS e JOIN sessions AS s ON s.rowid = e.session_rowid ORDER BY s.path, e.entry_id";
// Session rows whose entry count differs from their rows in `entries`, and entry rows of no session.
constexpr const char* kDisagreements =
    "SELECT path FROM sessions AS s WHERE entries != (SELECT count(*) FROM entries WHERE session_rowid = s.rowid) "
    "UNION ALL SELECT 'orphan ' || rowid FROM entries WHERE session_rowid NOT IN (SELECT rowid FROM sessions)";

TEST(IndexProcesses, KillNineDuringIndexingLeavesAnIndexThatOneRefreshMakesExact) {
  const int kRounds = static_cast<int>(test::env_count("XS_INDEX_KILLS", 10));
  std::mt19937 rng(static_cast<unsigned>(test::env_count("XS_INDEX_SEED", 4321)));
  test::TempDir dir;
  std::string root = dir.file("root");
  std::string db_path = root + "/index.db";
  auto st = open_store(root);
  ASSERT_NE(st, nullptr);
  // 24 sessions of 120 entries: a rebuild long enough to be caught in the middle.
  std::vector<std::unique_ptr<session::Session>> sessions;
  for (int p = 0; p < 24; ++p) {
    sessions.push_back(new_session(*st, "k" + std::to_string(p)));
    ASSERT_NE(sessions.back(), nullptr);
    for (int i = 0; i < 120; ++i) {
      std::string words =
          "entry " + token(p, i) + " about the parser, the cache and the build of module " + std::to_string(i % 17);
      ASSERT_TRUE(sessions.back()->append_message(user_message(words), nullptr).ok());
    }
  }
  auto t0 = std::chrono::steady_clock::now();
  {
    auto x = open_index(st);
    ASSERT_NE(x, nullptr);
    ASSERT_TRUE(x->rebuild().ok());
  }
  int window_ms = static_cast<int>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count());

  int next = 120;
  int caught_midway = 0;  // rebuilds whose kill left the index behind the files
  for (int round = 0; round < kRounds; ++round) {
    bool rebuild = round % 2 == 0;
    if (!rebuild) {
      // Something for the refresh to do: entries appended to a third of the sessions.
      for (size_t p = round % 3; p < sessions.size(); p += 3) {
        ASSERT_TRUE(
            sessions[p]->append_message(user_message("later " + token(static_cast<int>(p), next)), nullptr).ok());
      }
      ++next;
    }
    Shared<std::atomic<int>> started;
    started->store(0);
    pid_t child = spawn([&]() -> int {
      auto cst = open_store(root);
      auto x = cst ? open_index(cst) : nullptr;
      if (!x) return 10;
      started->store(1);
      return (rebuild ? x->rebuild().ok() : x->refresh().ok()) ? 0 : 11;
    });
    while (started->load() == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
    // A refresh reads only the tails appended since: a fraction of a rebuild's time.
    int window = rebuild ? window_ms : window_ms / 8;
    std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int>(0, window)(rng)));
    kill(child, SIGKILL);
    int rc = wait_child(child);
    ASSERT_TRUE(rc == 128 + SIGKILL || rc == 0) << "round " << round << ": child exited " << rc;

    // Whole: no damaged copy, rows that agree, FTS5 consistent with its content table.
    auto x = open_index(st);
    ASSERT_NE(x, nullptr) << "round " << round;
    EXPECT_TRUE(x->damaged().preserved_path.empty()) << x->damaged().reason;
    EXPECT_EQ(rows(db_path, kDisagreements), "") << "round " << round;
    EXPECT_EQ(rows(db_path, "INSERT INTO entries_fts(entries_fts, rank) VALUES ('integrity-check', 1)"), "")
        << "round " << round;
    auto before = x->verify();
    ASSERT_TRUE(before.ok());
    if (rebuild && !before->ok()) ++caught_midway;
    // Whatever the kill left, one refresh makes it what a rebuild from nothing makes.
    ASSERT_TRUE(x->refresh().ok()) << "round " << round;
    auto verified = x->verify();
    ASSERT_TRUE(verified.ok());
    EXPECT_TRUE(verified->ok()) << "round " << round << ": " << report_json(*verified);
    IndexOptions fresh_options;
    fresh_options.path = dir.file("fresh-" + std::to_string(round) + ".db");
    auto fresh = open_index(st, fresh_options);
    ASSERT_NE(fresh, nullptr);
    ASSERT_TRUE(fresh->rebuild().ok());
    EXPECT_EQ(rows(db_path, kSessionRows), rows(fresh_options.path, kSessionRows)) << "round " << round;
    EXPECT_EQ(rows(db_path, kEntryRows), rows(fresh_options.path, kEntryRows)) << "round " << round;
  }
  // The kills are timed to land inside the work, not after it (a random moment of a rebuild's
  // length): at least half the rebuilds must have been caught in the middle.
  int rebuilds = (kRounds + 1) / 2;
  EXPECT_GE(caught_midway * 2, rebuilds) << caught_midway << " of " << rebuilds << " rebuilds";
}

}  // namespace
}  // namespace xs::search
