// The engine's speed against the physical limits of the machine, measured in the same run:
// targets are ratios to a baseline, never absolute times, because a shared machine's times move
// from run to run (bench/README.md). bench/report.py turns the output into those ratios. Every
// file is read once before timing (warm cache).
//
//   open          vs  read()+memchr of the file, and a simdjson DOM parse of every line
//   build_context vs  memcpy of the context's size
//   append        vs  the library's own validation of the entry plus one raw write() of its line
//                     (and that plus the stat() of the path every append makes to check that the
//                     path still names its file, docs/guarantees.md#rule-3)
//   sync append   vs  raw write()+fdatasync of a line of the same size
//   list          (prefix reads of a store of sessions of the given size)
// Appends and lists run against sessions of 1k / 10k / 100k entries like the others.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <simdjson.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>

#include "discovery/finder.h"
#include "json/input_json.h"
#include "session/session.h"
#include "session_generator.h"
#include "storage/fs.h"

namespace xs::bench {
namespace {

// One file per size, generated once and read once so the page cache is warm.
const std::string& session_file(size_t entries) {
  static std::map<size_t, std::string> files;
  auto it = files.find(entries);
  if (it != files.end()) return it->second;
  std::string path = scratch_dir() + "/session-" + std::to_string(entries) + ".jsonl";
  std::string text = generate_session(entries, 42);
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  return files.emplace(entries, path).first->second;
}

std::string read_all(const std::string& path) {
  std::string s;
  int fd = open(path.c_str(), O_RDONLY);
  char buf[1 << 16];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) s.append(buf, static_cast<size_t>(n));
  close(fd);
  return s;
}

session::SessionOptions read_only() {
  session::SessionOptions o;
  o.read_only = true;
  return o;
}

void set_bytes(benchmark::State& state, size_t bytes) {
  state.SetBytesProcessed(static_cast<int64_t>(bytes) * state.iterations());
}

// --- open ---------------------------------------------------------------------------------------

void BM_Open(benchmark::State& state) {
  const std::string& path = session_file(static_cast<size_t>(state.range(0)));
  size_t size = read_all(path).size();
  auto fs = storage::make_posix_fs();
  for (auto _ : state) {
    auto s = session::Session::open(fs, path, read_only());
    benchmark::DoNotOptimize(s);
  }
  set_bytes(state, size);
}

void BM_Baseline_ReadMemchr(benchmark::State& state) {
  const std::string& path = session_file(static_cast<size_t>(state.range(0)));
  size_t size = read_all(path).size();
  std::unique_ptr<char[]> buf(new char[size + 64]);
  for (auto _ : state) {
    int fd = open(path.c_str(), O_RDONLY);
    size_t got = 0;
    for (ssize_t n; (n = read(fd, buf.get() + got, size - got)) > 0;) got += static_cast<size_t>(n);
    close(fd);
    size_t lines = 0;
    for (const char* p = buf.get(); (p = static_cast<const char*>(std::memchr(p, '\n', buf.get() + got - p)));) {
      ++lines;
      ++p;
    }
    benchmark::DoNotOptimize(lines);
  }
  set_bytes(state, size);
}

void BM_Baseline_SimdjsonParse(benchmark::State& state) {
  const std::string& path = session_file(static_cast<size_t>(state.range(0)));
  std::string text = read_all(path);
  simdjson::padded_string padded(text);
  simdjson::dom::parser parser;
  for (auto _ : state) {
    const char* p = padded.data();
    const char* end = p + text.size();
    while (p < end) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', end - p));
      size_t len = nl ? static_cast<size_t>(nl - p) : static_cast<size_t>(end - p);
      simdjson::dom::element e;
      auto err = parser.parse(p, len, false).get(e);
      benchmark::DoNotOptimize(err);
      p += len + 1;
    }
  }
  set_bytes(state, text.size());
}

struct NullHandler : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, NullHandler> {};

// The alternative read path: RapidJSON validating (UTF-8 included) every line.
void BM_Baseline_RapidjsonValidate(benchmark::State& state) {
  const std::string& path = session_file(static_cast<size_t>(state.range(0)));
  std::string text = read_all(path);
  for (auto _ : state) {
    const char* p = text.data();
    const char* end = p + text.size();
    while (p < end) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', end - p));
      size_t len = nl ? static_cast<size_t>(nl - p) : static_cast<size_t>(end - p);
      rapidjson::MemoryStream ms(p, len);
      rapidjson::Reader reader;
      NullHandler h;
      auto r = reader.Parse<rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag>(ms, h);
      benchmark::DoNotOptimize(r);
      p += len + 1;
    }
  }
  set_bytes(state, text.size());
}

// Peak memory while opening, measured in a child so earlier runs do not hide it.
void BM_OpenPeakRss(benchmark::State& state) {
  const std::string& path = session_file(static_cast<size_t>(state.range(0)));
  size_t size = read_all(path).size();
  double ratio = 0;
  for (auto _ : state) {
    int fds[2];
    if (pipe(fds) != 0) break;
    pid_t child = fork();
    if (child == 0) {
      struct rusage before, after;
      getrusage(RUSAGE_SELF, &before);
      auto s = session::Session::open(storage::make_posix_fs(), path, read_only());
      getrusage(RUSAGE_SELF, &after);
      double growth_kb = static_cast<double>(after.ru_maxrss - before.ru_maxrss);
      if (write(fds[1], &growth_kb, sizeof growth_kb) != sizeof growth_kb) _exit(1);
      _exit(s.ok() ? 0 : 1);
    }
    double growth_kb = 0;
    if (read(fds[0], &growth_kb, sizeof growth_kb) != sizeof growth_kb) growth_kb = -1;
    close(fds[0]);
    close(fds[1]);
    waitpid(child, nullptr, 0);
    ratio = growth_kb * 1024.0 / static_cast<double>(size);
  }
  state.counters["rss_growth_over_file_size"] = ratio;
}

// --- build_context ------------------------------------------------------------------------------

void BM_BuildContext(benchmark::State& state) {
  const std::string& path = session_file(static_cast<size_t>(state.range(0)));
  auto s = session::Session::open(storage::make_posix_fs(), path, read_only());
  size_t bytes = (*s)->context(std::nullopt)->size();
  for (auto _ : state) {
    auto c = (*s)->context(std::nullopt);
    benchmark::DoNotOptimize(c);
  }
  set_bytes(state, bytes);
  state.counters["context_bytes"] = static_cast<double>(bytes);
}

void BM_Baseline_MemcpyContext(benchmark::State& state) {
  const std::string& path = session_file(static_cast<size_t>(state.range(0)));
  auto s = session::Session::open(storage::make_posix_fs(), path, read_only());
  std::string ctx = *(*s)->context(std::nullopt);
  for (auto _ : state) {
    std::string copy;
    copy.resize(ctx.size());
    std::memcpy(copy.data(), ctx.data(), ctx.size());
    benchmark::DoNotOptimize(copy);
  }
  set_bytes(state, ctx.size());
}

// --- append -------------------------------------------------------------------------------------

constexpr size_t kAppendBytes = 2900;
constexpr int kAppendsPerCopy = 20000;

// A fresh copy, with everything written back first: otherwise the synced appends that follow
// would also pay for writing back the copy (and the blocks of the one it replaced).
void copy_file(const std::string& from, const std::string& to) {
  unlink(to.c_str());
  std::filesystem::copy_file(from, to);
  ::sync();
}

// Appends to a writable copy of the session of the given size; the copy is made again (outside
// the timing) every 20,000 appends so files and memory stay bounded.
void append_bench(benchmark::State& state, session::Durability durability) {
  const std::string& source = session_file(static_cast<size_t>(state.range(0)));
  std::string msg = realistic_message(kAppendBytes, 7);
  auto fs = storage::make_posix_fs();
  std::unique_ptr<session::Session> s;
  std::string path = scratch_dir() + "/append.jsonl";
  int n = 0;
  auto fresh = [&] {
    s.reset();
    copy_file(source, path);
    session::SessionOptions o;
    o.defer_until_assistant = false;
    o.durability = durability;
    s = std::move(*session::Session::open(fs, path, o));
  };
  fresh();
  for (auto _ : state) {
    if (++n % kAppendsPerCopy == 0) {
      state.PauseTiming();
      fresh();
      state.ResumeTiming();
    }
    std::string id;
    benchmark::DoNotOptimize(s->append_message(msg, &id));
  }
  s.reset();
  unlink(path.c_str());
  set_bytes(state, msg.size());
}

void BM_AppendBuffered(benchmark::State& state) { append_bench(state, session::Durability::kBuffered); }
void BM_AppendSync(benchmark::State& state) { append_bench(state, session::Durability::kSync); }

// What an append cannot avoid: validating the caller's JSON (with the library's own parser) and
// one write() of a line of the same size; `stat_path` adds the check that the path still names
// the open file. With `entries` the lines go to the end of a copy of that session, as the
// engine's appends do (a big file could sync differently from a small one).
void raw_write_bench(benchmark::State& state, bool validate, bool stat_path, bool sync, size_t entries = 0) {
  std::string msg = realistic_message(kAppendBytes, 7);
  std::string line =
      "{\"type\":\"message\",\"id\":\"0123abcd\",\"parentId\":\"89abcdef\",\"timestamp\":"
      "\"2026-03-01T00:00:00.000Z\",\"message\":" +
      msg + "}\n";
  std::string path = scratch_dir() + "/raw.jsonl";
  json::InputJson input(json::Limits{});
  int fd = -1;
  int n = 0;
  auto fresh = [&] {
    if (fd >= 0) close(fd);
    if (entries) {
      copy_file(session_file(entries), path);
    } else {
      unlink(path.c_str());
    }
    fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    ::sync();  // as append_bench does after its copy
  };
  fresh();
  std::string minified;
  json::Kind kind;
  struct ::stat st;
  for (auto _ : state) {
    if (++n % kAppendsPerCopy == 0) {
      state.PauseTiming();
      fresh();
      state.ResumeTiming();
    }
    if (validate) benchmark::DoNotOptimize(input.prepare(msg, &minified, &kind));
    if (stat_path) benchmark::DoNotOptimize(::stat(path.c_str(), &st));
    benchmark::DoNotOptimize(write(fd, line.data(), line.size()));
    if (sync) fdatasync(fd);
  }
  close(fd);
  unlink(path.c_str());
  set_bytes(state, msg.size());
}

void BM_Baseline_ValidateAndWrite(benchmark::State& state) { raw_write_bench(state, true, false, false); }
void BM_Baseline_ValidateStatAndWrite(benchmark::State& state) { raw_write_bench(state, true, true, false); }
void BM_Baseline_WriteFdatasync(benchmark::State& state) {
  raw_write_bench(state, false, false, true, static_cast<size_t>(state.range(0)));
}

// --- list ---------------------------------------------------------------------------------------

constexpr int kListedSessions = 100;

void BM_ListStore(benchmark::State& state) {
  // A store of 100 sessions of the given size: hard links to the one generated file, so the
  // store costs no disk; listing reads only prefixes either way.
  const std::string& source = session_file(static_cast<size_t>(state.range(0)));
  std::string root = scratch_dir() + "/store-" + std::to_string(state.range(0));
  std::string dir = root + "/sessions/--home-dev-project--";
  auto fs = storage::make_posix_fs();
  if (!fs->stat(dir).ok()) {
    fs->make_dirs(dir);
    for (int i = 0; i < kListedSessions; ++i) {
      char name[64];
      std::snprintf(name, sizeof name, "/2026-03-01T00-%02d-%02d-000Z_%016d.jsonl", i / 60, i % 60, i);
      if (::link(source.c_str(), (dir + name).c_str()) != 0) state.SkipWithError("link failed");
    }
  }
  discovery::Finder finder(fs, root);
  discovery::ListQuery q;
  for (auto _ : state) {
    auto l = finder.list(q);
    benchmark::DoNotOptimize(l);
  }
  state.counters["sessions"] = kListedSessions;
}

#define SIZES Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond)
BENCHMARK(BM_Open)->SIZES;
BENCHMARK(BM_Baseline_ReadMemchr)->SIZES;
BENCHMARK(BM_Baseline_SimdjsonParse)->SIZES;
BENCHMARK(BM_Baseline_RapidjsonValidate)->SIZES;
BENCHMARK(BM_OpenPeakRss)->SIZES->Iterations(1);
BENCHMARK(BM_BuildContext)->SIZES;
BENCHMARK(BM_Baseline_MemcpyContext)->SIZES;
#define APPEND_SIZES Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond)
BENCHMARK(BM_AppendBuffered)->APPEND_SIZES;
BENCHMARK(BM_Baseline_ValidateAndWrite)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Baseline_ValidateStatAndWrite)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_AppendSync)->APPEND_SIZES;
BENCHMARK(BM_Baseline_WriteFdatasync)->APPEND_SIZES;
BENCHMARK(BM_ListStore)->SIZES;

}  // namespace
}  // namespace xs::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  // The generated sessions and stores are scratch: leave nothing behind in /tmp.
  std::error_code ec;
  std::filesystem::remove_all(xs::bench::scratch_dir(), ec);
  return 0;
}
