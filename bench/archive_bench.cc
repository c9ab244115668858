// Archiving a session of about 100 MB (docs/retention.md#archiving: lock, read, compress, write
// atomically with fsyncs, read back and inflate to compare, remove the original) against `gzip -1`
// compressing the same file, spawned in the same run: /bin/gzip -1 -c FILE > FILE.gz (goal: <= 1.2x,
// bench/README.md). The session is the realistic generator's (bench/session_generator.h).
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <string>

#include "discovery/finder.h"
#include "retention/retention.h"
#include "session_generator.h"
#include "storage/fs.h"

namespace xs::bench {
namespace {

constexpr size_t kEntries = 34000;  // about 100 MB at 2.9 KB a line

const std::string& big_session() {
  static const std::string text = generate_session(kEntries, 15);
  return text;
}

struct ArchiveDir {
  std::string root, dir, path;
  ArchiveDir() {
    root = scratch_subdir("archive");
    dir = root + "/sessions/--w--";
    mkdir((root + "/sessions").c_str(), 0700);
    mkdir(dir.c_str(), 0700);
    path = dir + "/2026-01-01T00-00-00-000Z_bench.jsonl";
  }
};

const ArchiveDir& archive_dir() {
  static const ArchiveDir d;
  return d;
}

void BM_Archive100MB(benchmark::State& state) {
  const ArchiveDir& d = archive_dir();
  auto fs = storage::make_posix_fs();
  discovery::Finder finder(fs, d.root);
  retention::ArchiveOptions o;
  o.now_ms = INT64_MAX / 2;  // every session is old enough
  o.older_than_ms = 0;
  for (auto _ : state) {
    state.PauseTiming();
    unlink((d.path + ".gz").c_str());
    write_whole(d.path, big_session());  // in the page cache, as for gzip below
    state.ResumeTiming();
    auto r = retention::archive(fs, finder, o);
    if (!r.ok() || r->archived.size() != 1) abort();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * big_session().size()));
}

void BM_Baseline_Gzip1_100MB(benchmark::State& state) {
  const ArchiveDir& d = archive_dir();
  std::string source = d.root + "/gzip-source.jsonl";
  write_whole(source, big_session());
  std::string command = "/bin/gzip -1 -c " + source + " > " + source + ".gz";
  for (auto _ : state) {
    if (system(command.c_str()) != 0) abort();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * big_session().size()));
}

BENCHMARK(BM_Archive100MB)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Baseline_Gzip1_100MB)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace xs::bench
