// Portable bundles (docs/bundles.md): export and import of a store holding one session of about
// 100 MB (the realistic generator's, bench/session_generator.h) that references 100 blobs of 64 KiB
// (random bytes: images do not compress), against /usr/bin/tar --zstd creating and extracting an
// archive of the same files (sessions/ and blobs/), spawned in the same run. Goal: <= 1.5x each way
// (bench/README.md). The bundle also hashes every member on export (for the manifest; a session
// too large to hold between the two passes is read and hashed again) and on import, and the
// import fsyncs what it places; tar does neither.
#include <benchmark/benchmark.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <random>
#include <string>

#include "bundle/export.h"
#include "bundle/import.h"
#include "session_generator.h"
#include "storage/fs.h"
#include "store/store.h"

namespace xs::bench {
namespace {

constexpr size_t kEntries = 34000;  // about 100 MB at 2.9 KB a line
constexpr int kBlobs = 100;
constexpr size_t kBlobBytes = 64 << 10;

struct BundleStore {
  std::string dir, root, bundle, tarball;
  std::shared_ptr<store::Store> store;
  uint64_t bytes = 0;  // sessions and blobs
  BundleStore() {
    dir = scratch_subdir("bundle");
    root = dir + "/store";
    bundle = dir + "/b.xsb";
    tarball = dir + "/b.tar.zst";
    auto opened = store::Store::open(root);
    if (!opened.ok()) abort();
    store = *opened;
    std::mt19937_64 rng(7);
    std::string text = generate_session(kEntries, 15);
    for (int i = 0; i < kBlobs; ++i) {
      std::string blob(kBlobBytes, '\0');
      for (char& c : blob) c = static_cast<char>(rng());
      std::string hash;
      if (!store->blobs().put(blob, &hash).ok()) abort();
      text += "{\"type\":\"custom\",\"id\":\"img" + std::to_string(i) +
              "\",\"parentId\":null,\"timestamp\":\"2026-03-02T00:00:00.000Z\",\"customType\":\"image\",\"data\":"
              "\"blob:sha256:" +
              hash + "\"}\n";
      bytes += blob.size();
    }
    auto fs = store->fs();
    std::string sessions = root + "/sessions/--home-dev-project--";
    if (!fs->make_dirs(sessions).ok()) abort();
    auto f = fs->create_new(sessions + "/2026-03-01T00-00-00-000Z_bench00000000001.jsonl");
    if (!f.ok() || !(*f)->append(text).ok() || !(*f)->close().ok()) abort();
    bytes += text.size();
  }
};

const BundleStore& bundle_store() {
  static const BundleStore s;
  return s;
}

void run(const std::string& command) {
  if (system(command.c_str()) != 0) abort();
}

void BM_BundleExport100MB(benchmark::State& state) {
  const BundleStore& s = bundle_store();
  auto fs = storage::make_posix_fs();
  for (auto _ : state) {
    auto r = bundle::export_bundle(s.store, {"bench00000000001"}, fs, s.bundle, {});
    if (!r.ok() || r->blobs.size() != kBlobs) abort();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * s.bytes));
}

void BM_Baseline_TarZstdCreate100MB(benchmark::State& state) {
  const BundleStore& s = bundle_store();
  for (auto _ : state) run("/usr/bin/tar --zstd -cf " + s.tarball + " -C " + s.root + " sessions blobs");
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * s.bytes));
}

void BM_BundleImport100MB(benchmark::State& state) {
  const BundleStore& s = bundle_store();
  if (!bundle::export_bundle(s.store, {"bench00000000001"}, storage::make_posix_fs(), s.bundle, {}).ok()) abort();
  std::string into = s.dir + "/into";
  auto fs = storage::make_posix_fs();
  for (auto _ : state) {
    state.PauseTiming();
    run("rm -rf " + into + " && mkdir " + into);
    auto dst = store::Store::open(into);
    if (!dst.ok()) abort();
    state.ResumeTiming();
    auto r = bundle::import_bundle(*dst, fs, s.bundle, {});
    if (!r.ok() || r->blobs.size() != kBlobs) abort();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * s.bytes));
}

void BM_Baseline_TarZstdExtract100MB(benchmark::State& state) {
  const BundleStore& s = bundle_store();
  run("/usr/bin/tar --zstd -cf " + s.tarball + " -C " + s.root + " sessions blobs");
  std::string into = s.dir + "/tar-into";
  for (auto _ : state) {
    state.PauseTiming();
    run("rm -rf " + into + " && mkdir " + into);
    state.ResumeTiming();
    run("/usr/bin/tar --zstd -xf " + s.tarball + " -C " + into);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * s.bytes));
}

BENCHMARK(BM_BundleExport100MB)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Baseline_TarZstdCreate100MB)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BundleImport100MB)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Baseline_TarZstdExtract100MB)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace xs::bench
