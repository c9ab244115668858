// Session stats read from the keyed store (docs/session-stats.md) against what a host without it
// does: list the sessions by reading a prefix of each transcript (discovery::Finder, the engine's
// own listing). 1,000 sessions of 100 realistic entries (hard links to one generated file, so the
// store costs little disk) and their 1,000 keyed records with stats, as bound sessions write them.
// Goal: the store read >= 20x faster (bench/README.md).
#include <benchmark/benchmark.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>

#include "discovery/finder.h"
#include "session_generator.h"
#include "storage/fs.h"
#include "store/key_store.h"

namespace xs::bench {
namespace {

constexpr int kSessions = 1000;

// <tmp>/store with 1,000 session files and a sessions.json of 1,000 records; made once.
const std::string& stats_store() {
  static std::string root = [] {
    std::string r = scratch_subdir("stats") + "/store";
    std::string dir = r + "/sessions/--home-dev-project--";
    auto fs = storage::make_posix_fs();
    if (!fs->make_dirs(dir).ok()) abort();
    std::string source = r + "/source.jsonl";
    FILE* f = fopen(source.c_str(), "wb");
    std::string bytes = generate_session(100, 7);
    fwrite(bytes.data(), 1, bytes.size(), f);
    fclose(f);
    store::KeyStore keys(fs, r + "/sessions.json");
    for (int i = 0; i < kSessions; ++i) {
      char name[96];
      std::snprintf(name, sizeof name, "/2026-03-01T00-%02d-%02d-000Z_%016d.jsonl", i / 60 % 60, i % 60, i);
      if (::link(source.c_str(), (dir + name).c_str()) != 0) abort();
      std::string id = std::to_string(i);
      std::string record = "{\"sessionId\":\"" + id + "\",\"sessionFile\":\"" + dir + name +
                           "\",\"updatedAt\":1767225600000,\"inputTokens\":12034,\"outputTokens\":2311,"
                           "\"cacheRead\":80211,\"cacheWrite\":1200,\"totalTokens\":95756,\"contextTokens\":42000,"
                           "\"cost\":0.4312,\"compactionCount\":1,\"messageCounts\":{\"user\":30,\"assistant\":40,"
                           "\"toolResult\":28},\"toolCalls\":28}";
      if (!keys.put("agent:main:telegram:" + id, record).ok()) abort();
    }
    unlink(source.c_str());
    return r;
  }();
  return root;
}

// What `xs stats` does (xs_keys_list): one read of the document, every key's record as JSON (a
// fresh KeyStore each time, so the document is parsed every round: a new process).
void BM_StatsFromKeyStore(benchmark::State& state) {
  const std::string& root = stats_store();
  auto fs = storage::make_posix_fs();
  {
    auto all = store::KeyStore(fs, root + "/sessions.json").list("");
    if (!all.ok() || all->size() != kSessions) abort();
  }
  for (auto _ : state) {
    store::KeyStore keys(fs, root + "/sessions.json");
    auto json = keys.list_json("");
    if (!json.ok() || json->size() < 100 * kSessions) abort();
    benchmark::DoNotOptimize(json);
  }
  state.counters["sessions"] = kSessions;
}

// The same through a store handle kept open, as a gateway or desktop app keeps it: the document is
// still read whole every time (another writer's change is always seen), but bytes equal to the
// last read are not parsed again (store/key_store.h).
void BM_StatsFromKeyStore_OpenHandle(benchmark::State& state) {
  const std::string& root = stats_store();
  store::KeyStore keys(storage::make_posix_fs(), root + "/sessions.json");
  for (auto _ : state) {
    auto json = keys.list_json("");
    if (!json.ok() || json->size() < 100 * kSessions) abort();
    benchmark::DoNotOptimize(json);
  }
  state.counters["sessions"] = kSessions;
}

// The listing a host without the store would start from: the engine's own, a prefix read of each
// of the 1,000 transcripts (and it still has no token counts).
void BM_Baseline_ListByPrefixReads(benchmark::State& state) {
  const std::string& root = stats_store();
  discovery::Finder finder(storage::make_posix_fs(), root);
  discovery::ListQuery q;
  for (auto _ : state) {
    auto l = finder.list(q);
    if (!l.ok() || l->size() != kSessions) abort();
    benchmark::DoNotOptimize(l);
  }
  state.counters["sessions"] = kSessions;
}

BENCHMARK(BM_StatsFromKeyStore)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StatsFromKeyStore_OpenHandle)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Baseline_ListByPrefixReads)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace xs::bench
