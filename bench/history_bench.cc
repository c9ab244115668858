// The prompt history (docs/history.md): add throughput against a bare SQLite insert loop in one
// transaction over the same schema and pragmas (goal >= 0.8x), and search latency at 1,000,000
// prompts, p50 and p99 over a fixed set of queries (goal p99 < 5 ms). bench/README.md has figures.
#include <benchmark/benchmark.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "history/history.h"
#include "history/history_schema.h"
#include "session_generator.h"
#include "storage/fs.h"

namespace xs::bench {
namespace {

std::string history_dir() {
  static std::string dir = [] {
    // A directory kept from an earlier run: its search-<rows>.db files are used again (making the
    // 1,000,000-row one takes minutes).
    if (const char* kept = getenv("XS_BENCH_HISTORY_DIR")) return std::string(kept);
    return scratch_subdir("history");
  }();
  return dir;
}

// Words of prompts: a vocabulary of 20,000 made-up words drawn with a Zipf-like skew (a few very
// common, most rare), 4 to 40 words a prompt, as typed prompts are.
class PromptMaker {
 public:
  PromptMaker() : rng_(7) {
    const char* syl[] = {"ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi", "be", "do", "fu", "ge", "hi", "ja", "pe"};
    for (int i = 0; i < 20000; ++i) {
      std::string w;
      for (int n = i; w.size() < 4 || n > 0; n /= 15) w += syl[n % 15];
      words_.push_back(w);
    }
    std::vector<double> weights;
    for (size_t i = 0; i < words_.size(); ++i) weights.push_back(1.0 / static_cast<double>(i + 1));
    pick_ = std::discrete_distribution<size_t>(weights.begin(), weights.end());
  }
  std::string prompt() {
    int n = std::uniform_int_distribution<int>(4, 40)(rng_);
    std::string p;
    for (int i = 0; i < n; ++i) {
      if (i) p += ' ';
      p += words_[pick_(rng_)];
    }
    return p;
  }
  const std::string& word(size_t rank) const { return words_[rank]; }

 private:
  std::mt19937 rng_;
  std::vector<std::string> words_;
  std::discrete_distribution<size_t> pick_;
};

void fresh(const std::string& path) {
  for (const char* side : {"", "-wal", "-shm"}) unlink((path + side).c_str());
}

// The same n prompts for the engine and its baseline.
std::vector<std::string> make_prompts(int64_t n) {
  PromptMaker maker;
  std::vector<std::string> prompts;
  for (int64_t i = 0; i < n; ++i) prompts.push_back(maker.prompt());
  return prompts;
}

void BM_HistoryAdd(benchmark::State& state) {
  int64_t n = state.range(0);
  std::vector<std::string> prompts = make_prompts(n);
  std::string path = history_dir() + "/add.db";
  for (auto _ : state) {
    state.PauseTiming();
    fresh(path);
    auto h = history::History::open(storage::make_posix_fs(), path, {});
    if (!h.ok()) abort();
    state.ResumeTiming();
    for (int64_t i = 0; i < n; ++i) {
      if (!(*h)->add(prompts[i], std::string_view("/work/project"), 1767225600000 + i).ok()) abort();
    }
    if (!(*h)->flush().ok()) abort();
    state.PauseTiming();
    (*h)->close();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * n);
}

// The least an insert of the same rows can cost: one connection, the same schema (table, FTS5
// index, triggers) and pragmas (WAL, synchronous NORMAL), one prepared statement, one transaction.
void BM_Baseline_SqliteInsertLoop(benchmark::State& state) {
  int64_t n = state.range(0);
  std::vector<std::string> prompts = make_prompts(n);
  std::string path = history_dir() + "/baseline.db";
  for (auto _ : state) {
    state.PauseTiming();
    fresh(path);
    history::Db db;
    if (!db.open(path, true, std::chrono::milliseconds(5000)).ok()) abort();
    if (!db.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; BEGIN IMMEDIATE").ok()) abort();
    if (!history::migrate(db, 0).ok() || !db.exec("COMMIT").ok()) abort();
    auto insert = db.prepare("INSERT INTO history(prompt, created_at, cwd) VALUES (?1, ?2, ?3)");
    if (!insert.ok()) abort();
    state.ResumeTiming();
    if (!db.exec("BEGIN IMMEDIATE").ok()) abort();
    for (int64_t i = 0; i < n; ++i) {
      insert->bind(1, prompts[i]);
      insert->bind(2, int64_t{1767225600000} + i);
      insert->bind(3, std::string_view("/work/project"));
      if (insert->step() != SQLITE_DONE) abort();
      insert->reset();
    }
    if (!db.exec("COMMIT").ok()) abort();
  }
  state.SetItemsProcessed(state.iterations() * n);
}

// A history of `rows` prompts, made once per size (by the baseline's loop: it is the fastest).
std::string search_db(int64_t rows, PromptMaker& maker) {
  std::string path = history_dir() + "/search-" + std::to_string(rows) + ".db";
  if (access(path.c_str(), F_OK) == 0) return path;
  history::Db db;
  if (!db.open(path, true, std::chrono::milliseconds(5000)).ok()) abort();
  if (!db.exec("PRAGMA journal_mode=WAL; BEGIN IMMEDIATE").ok()) abort();
  if (!history::migrate(db, 0).ok()) abort();
  auto insert = db.prepare("INSERT INTO history(prompt, created_at, cwd) VALUES (?1, ?2, ?3)");
  if (!insert.ok()) abort();
  for (int64_t i = 0; i < rows; ++i) {
    std::string p = maker.prompt();
    std::string cwd = "/work/project" + std::to_string(i % 20);
    insert->bind(1, p);
    insert->bind(2, int64_t{1767225600000} + i);
    insert->bind(3, cwd);
    if (insert->step() != SQLITE_DONE) abort();
    insert->reset();
  }
  if (!db.exec("COMMIT; PRAGMA wal_checkpoint(TRUNCATE)").ok()) abort();
  return path;
}

// Latencies of one kind of query over the queries `make(i)` gives, as p50/p99 counters (µs).
template <class MakeQuery>
void search_latency(benchmark::State& state, MakeQuery make, bool literal, bool with_cwd) {
  int64_t rows = state.range(0);
  PromptMaker maker;
  std::string path = search_db(rows, maker);
  auto h = history::History::open(storage::make_posix_fs(), path, {});
  if (!h.ok()) abort();
  std::vector<double> us;
  size_t i = 0;
  for (auto _ : state) {
    history::SearchOptions o;
    o.literal = literal;
    if (with_cwd) o.cwd = "/work/project3";
    std::string q = make(maker, i++);
    auto t0 = std::chrono::steady_clock::now();
    auto r = (*h)->search_json(q, o);
    auto t1 = std::chrono::steady_clock::now();
    if (!r.ok()) abort();
    benchmark::DoNotOptimize(r->data());
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  std::sort(us.begin(), us.end());
  if (!us.empty()) {
    state.counters["p50_us"] = us[us.size() / 2];
    state.counters["p99_us"] = us[std::min(us.size() - 1, us.size() * 99 / 100)];
  }
}

// Words across the vocabulary (ranks 50 to 20,000: from common-ish to rare), two per query.
void BM_HistorySearch_Words(benchmark::State& state) {
  search_latency(
      state,
      [](PromptMaker& m, size_t i) {
        return m.word(50 + (i * 7919) % 19950) + " " + m.word(50 + (i * 104729) % 19950);
      },
      true, false);
}
// One word, the last typed in part (a prefix query, as the CLI makes it).
void BM_HistorySearch_Prefix(benchmark::State& state) {
  search_latency(
      state, [](PromptMaker& m, size_t i) { return m.word(50 + (i * 7919) % 19950).substr(0, 5); }, true, false);
}
// The commonest words (ranks 0 to 49): matches in a large part of the rows, the newest ranked.
void BM_HistorySearch_CommonWord(benchmark::State& state) {
  search_latency(
      state, [](PromptMaker& m, size_t i) { return m.word(i % 50); }, true, false);
}
// Words, only the prompts of one cwd of twenty.
void BM_HistorySearch_WordsInCwd(benchmark::State& state) {
  search_latency(
      state, [](PromptMaker& m, size_t i) { return m.word(50 + (i * 7919) % 19950); }, true, true);
}

void BM_HistoryRecent(benchmark::State& state) {
  PromptMaker maker;
  std::string path = search_db(state.range(0), maker);
  auto h = history::History::open(storage::make_posix_fs(), path, {});
  if (!h.ok()) abort();
  size_t i = 0;
  for (auto _ : state) {
    auto r = (*h)->recent_json(std::string_view("/work/project" + std::to_string(i++ % 20)), 20);
    if (!r.ok()) abort();
    benchmark::DoNotOptimize(r->data());
  }
}

BENCHMARK(BM_HistoryAdd)->Arg(1000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Baseline_SqliteInsertLoop)
    ->Arg(1000)
    ->Arg(100000)
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_HistorySearch_Words)->Arg(1000)->Arg(1000000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_HistorySearch_Prefix)->Arg(1000)->Arg(1000000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_HistorySearch_CommonWord)->Arg(1000)->Arg(1000000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_HistorySearch_WordsInCwd)->Arg(1000)->Arg(1000000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_HistoryRecent)->Arg(1000)->Arg(1000000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace xs::bench
