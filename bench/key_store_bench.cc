// The keyed session store (docs/keyed-store.md): one patch of one key under the lock, against the
// write it cannot avoid, the same document written to a temp file, fsynced, renamed over the old
// one and its directory fsynced (goal: <= 1.5x, bench/README.md). Documents of 100 and 1,000 keys
// whose records look like a gateway's (ids, times, token counters, a nested origin).
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>

#include "session_generator.h"
#include "storage/fs.h"
#include "store/key_store.h"

namespace xs::bench {
namespace {

std::string key_dir() {
  static std::string dir = [] { return scratch_subdir("keys"); }();
  return dir;
}

std::string record(int i, int64_t n) {
  return "{\"sessionId\":\"0194a1b2-7410-70f4-a995-" + std::to_string(100000000000 + i) +
         "\",\"updatedAt\":" + std::to_string(1767225600000 + n) +
         ",\"chatType\":\"direct\",\"inputTokens\":12034,\"outputTokens\":2311,\"cacheRead\":80211,"
         "\"cacheWrite\":1200,\"totalTokens\":95756,\"contextTokens\":42000,\"cost\":0.4312,"
         "\"compactionCount\":2,\"origin\":{\"label\":\"telegram\",\"provider\":\"telegram\",\"from\":\"user-" +
         std::to_string(i) + "\"}}";
}

// A document of `keys` records at `path`, through the store (so its layout is the store's).
void make_document(const std::string& path, int keys) {
  unlink(path.c_str());
  store::KeyStore k(storage::make_posix_fs(), path);
  for (int i = 0; i < keys; ++i) {
    if (!k.put("agent:main:telegram:" + std::to_string(i), record(i, 0)).ok()) abort();
  }
}

void BM_KeyPatch(benchmark::State& state) {
  int keys = static_cast<int>(state.range(0));
  std::string path = key_dir() + "/patch-" + std::to_string(keys) + ".json";
  make_document(path, keys);
  store::KeyStore k(storage::make_posix_fs(), path);
  int64_t n = 0;
  for (auto _ : state) {
    std::string patch = "{\"updatedAt\":" + std::to_string(1767225600000 + ++n) + "}";
    if (!k.patch("agent:main:telegram:" + std::to_string(keys / 2), patch).ok()) abort();
  }
}

// What a crash-safe update of the document cannot skip: its bytes written to a temp file beside
// it, fsync, rename over it, fsync of the directory.
void BM_Baseline_WriteFsyncRename(benchmark::State& state) {
  int keys = static_cast<int>(state.range(0));
  std::string path = key_dir() + "/raw-" + std::to_string(keys) + ".json";
  make_document(path, keys);
  std::string bytes;
  {
    FILE* f = fopen(path.c_str(), "rb");
    char buf[65536];
    for (size_t got; (got = fread(buf, 1, sizeof buf, f)) > 0;) bytes.append(buf, got);
    fclose(f);
  }
  std::string tmp = path + ".tmp";
  int dir = open(key_dir().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  for (auto _ : state) {
    int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    benchmark::DoNotOptimize(write(fd, bytes.data(), bytes.size()));
    fsync(fd);
    close(fd);
    rename(tmp.c_str(), path.c_str());
    fsync(dir);
  }
  close(dir);
}

BENCHMARK(BM_KeyPatch)->Arg(100)->Arg(1000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Baseline_WriteFsyncRename)->Arg(100)->Arg(1000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace xs::bench
