// The prompt history across processes (docs/history.md#several-processes): four processes adding
// 5,000 prompts each while they search, then every prompt found; and kill -9 in the middle of
// adds, then every prompt a flush acknowledged still there, the file whole.
#include <sqlite3.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <random>
#include <set>
#include <string>
#include <thread>

#include "history/history.h"
#include "multiproc_util.h"
#include "storage/fs.h"
#include "test_util.h"

namespace xs::history {
namespace {

using test::Shared;
using test::spawn;
using test::wait_child;

// One token per prompt, unique across processes: "p<process>n<index>".
std::string token(int p, int i) { return "p" + std::to_string(p) + "n" + std::to_string(i); }
std::string prompt_of(int p, int i) { return "prompt " + token(p, i) + " from process " + std::to_string(p); }

std::unique_ptr<History> open_at(const std::string& path) {
  Result<std::unique_ptr<History>> h = History::open(storage::make_posix_fs(), path, {});
  return h.ok() ? std::move(*h) : nullptr;
}

// Every prompt in the file, in id order, read with SQLite directly.
std::vector<std::string> all_prompts(const std::string& path) {
  std::vector<std::string> out;
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) return out;
  sqlite3_stmt* s = nullptr;
  sqlite3_prepare_v2(db, "SELECT prompt FROM history ORDER BY id", -1, &s, nullptr);
  while (sqlite3_step(s) == SQLITE_ROW) out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)));
  sqlite3_finalize(s);
  sqlite3_close(db);
  return out;
}

TEST(HistoryProcesses, FourProcessesAddWhileSearchingAndEveryPromptIsFound) {
  const int kProcs = 4;
  const int kEach = static_cast<int>(test::env_count("XS_HISTORY_ADDS", 5000));
  test::TempDir dir;
  std::string path = dir.file("history.db");
  std::vector<pid_t> children;
  for (int p = 0; p < kProcs; ++p) {
    children.push_back(spawn([&, p]() -> int {
      auto h = open_at(path);
      if (!h) return 10;
      for (int i = 0; i < kEach; ++i) {
        if (!h->add(prompt_of(p, i), std::string_view("/proc/" + std::to_string(p)), 1 + i).ok()) return 11;
        if (i % 500 == 499) {
          // Flushed: this process's own prompt is found at once, whatever the others do meanwhile.
          if (!h->flush().ok()) return 12;
          Result<std::string> r = h->search_json(token(p, i), {});
          if (!r.ok()) return 13;
          if (r->find(prompt_of(p, i)) == std::string::npos) return 14;
          // And a search over everyone's prompts, while they write.
          SearchOptions o;
          o.limit = 50;
          if (!h->search_json("prompt process", o).ok()) return 15;
          if (!h->recent_json(std::nullopt, 10).ok()) return 16;
        }
      }
      return h->close().ok() ? 0 : 17;
    }));
  }
  for (pid_t c : children) EXPECT_EQ(wait_child(c), 0);

  std::vector<std::string> rows = all_prompts(path);
  ASSERT_EQ(rows.size(), static_cast<size_t>(kProcs * kEach));
  std::set<std::string> got(rows.begin(), rows.end());
  auto h = open_at(path);
  ASSERT_NE(h, nullptr);
  for (int p = 0; p < kProcs; ++p) {
    for (int i = 0; i < kEach; ++i) {
      ASSERT_EQ(got.count(prompt_of(p, i)), 1u) << prompt_of(p, i);
      Result<std::string> r = h->search_json(token(p, i), {});
      ASSERT_TRUE(r.ok()) << r.status().message();
      ASSERT_NE(r->find("\"prompt\":\"" + prompt_of(p, i) + "\""), std::string::npos) << token(p, i) << ": " << *r;
    }
  }
}

struct Acked {
  std::atomic<int64_t> flushed{0};  // prompts 0..flushed-1 were acknowledged by a flush
};

TEST(HistoryProcesses, KillNineDuringAddsLosesNoFlushedPrompt) {
  const int kRounds = static_cast<int>(test::env_count("XS_HISTORY_KILLS", 12));
  test::TempDir dir;
  std::string path = dir.file("history.db");
  std::mt19937 rng(static_cast<unsigned>(test::env_count("XS_HISTORY_SEED", 1234)));
  std::set<std::string> acked_before;
  for (int round = 0; round < kRounds; ++round) {
    Shared<Acked> acked;
    pid_t child = spawn([&]() -> int {
      auto h = open_at(path);
      if (!h) return 10;
      for (int64_t i = 0;; ++i) {
        if (!h->add(prompt_of(round, static_cast<int>(i)), std::nullopt, 1 + i).ok()) return 11;
        if (i % 37 == 36) {
          if (!h->flush().ok()) return 12;
          acked->flushed.store(i + 1);
        }
      }
    });
    // Kill at a random moment once some adds were acknowledged (and others are in flight).
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (acked->flushed.load() < 40 && std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int>(0, 60)(rng)));
    kill(child, SIGKILL);
    ASSERT_EQ(wait_child(child), 128 + SIGKILL) << "round " << round;
    int64_t flushed = acked->flushed.load();
    ASSERT_GE(flushed, 40) << "round " << round;

    // The file opens whole (no damaged copy), and holds every acknowledged prompt of this round
    // and every earlier one, then at most a run of later ones in order (a batch commits whole).
    auto h = open_at(path);
    ASSERT_NE(h, nullptr) << "round " << round;
    EXPECT_TRUE(h->damaged().preserved_path.empty()) << h->damaged().reason;
    ASSERT_TRUE(h->close().ok());
    std::vector<std::string> rows = all_prompts(path);
    std::set<std::string> have(rows.begin(), rows.end());
    for (const std::string& p : acked_before) ASSERT_EQ(have.count(p), 1u) << p;
    int64_t present = 0;
    while (have.count(prompt_of(round, static_cast<int>(present)))) ++present;
    EXPECT_GE(present, flushed) << "round " << round;
    EXPECT_EQ(have.count(prompt_of(round, static_cast<int>(present) + 1)), 0u) << "a gap in round " << round;
    for (int64_t i = 0; i < present; ++i) acked_before.insert(prompt_of(round, static_cast<int>(i)));
    EXPECT_EQ(rows.size(), acked_before.size());
  }
}

}  // namespace
}  // namespace xs::history
