// Importing a Claude Code project (docs/import-claude.md): the largest transcript of the Claude
// corpus (../shared/corpus/claude-code, beside the checkout) repeated to about 100 MB, each copy's
// uuids made its own, imported into a new store, against simdjson parsing every line of the same
// bytes (parse_many, in memory): goal <= 3x (bench/README.md). Beside them, the least any import
// into a session held in memory must do with those bytes (docs/import-claude.md#speed). Without the
// corpus each reports an error and nothing runs.
#include <benchmark/benchmark.h>
#include <simdjson.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "import/claude/corpus_copies.h"
#include "import/claude/importer.h"
#include "session_generator.h"
#include "storage/atomic_file.h"
#include "storage/buffer.h"
#include "storage/fs.h"
#include "store/store.h"

namespace xs::bench {
namespace {

constexpr size_t kTargetBytes = 100u << 20;
constexpr const char* kSource = XS_CLAUDE_CORPUS_DIR "/marot-spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl";
constexpr std::string_view kSessionId = "258c7280-ae70-4798-800f-63464d01a85d";

// The 100 MB transcript in a project directory under /tmp, removed with the imports at exit.
struct Project {
  std::string root, dir, bytes;
  bool ok = false;
  ~Project() {
    if (!root.empty()) std::filesystem::remove_all(root);
  }
};

// Made once, in place (a copy's destructor would remove the files).
void make_project(Project& r) {
  std::ifstream in(kSource, std::ios::binary);
  if (!in) return;
  std::stringstream ss;
  ss << in.rdbuf();
  std::string one = ss.str();
  if (one.empty()) return;
  for (unsigned n = 0; r.bytes.size() < kTargetBytes; ++n)
    r.bytes += import::claude::testing::copy_with_distinct_uuids(one, n, kSessionId);
  r.root = scratch_subdir("import");
  r.dir = r.root + "/-home-dev-project";
  std::filesystem::create_directories(r.dir);
  std::ofstream(r.dir + "/" + std::string(kSessionId) + ".jsonl", std::ios::binary) << r.bytes;
  r.ok = true;
}

const Project& project() {
  static Project p;
  static const bool made = (make_project(p), true);
  (void)made;
  return p;
}

// The project, or null when the corpus is missing (the benchmark then reports so and runs nothing).
const Project* project_or_skip(benchmark::State& state) {
  const Project& p = project();
  if (p.ok) return &p;
  state.SkipWithError("the Claude corpus is not beside the checkout (../shared/corpus/claude-code)");
  return nullptr;
}

void BM_ImportClaude100MB(benchmark::State& state) {
  const Project* made = project_or_skip(state);
  if (!made) return;
  const Project& p = *made;
  auto fs = storage::make_posix_fs();
  for (auto _ : state) {
    state.PauseTiming();
    std::string target = p.root + "/store";
    std::filesystem::remove_all(target);
    auto store = store::Store::open(target);
    if (!store.ok()) abort();
    state.ResumeTiming();
    auto report = import::claude::import_project(**store, fs, p.dir);
    if (!report.ok() || report->imported() == 0) abort();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * p.bytes.size()));
}

void BM_Baseline_SimdjsonParseMany100MB(benchmark::State& state) {
  const Project* made = project_or_skip(state);
  if (!made) return;
  const Project& p = *made;
  simdjson::padded_string text(p.bytes);
  simdjson::dom::parser parser;
  for (auto _ : state) {
    simdjson::dom::document_stream docs;
    if (parser.parse_many(text).get(docs)) abort();
    size_t n = 0;
    for (auto doc : docs) {
      if (doc.error()) abort();
      ++n;
    }
    benchmark::DoNotOptimize(n);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * p.bytes.size()));
}

// The floor of an import that keeps the new session in memory and writes it as the engine writes a
// new file, doing nothing else: read the transcript into fresh memory, parse every line, copy
// every line into fresh memory (the session's lines), and write those in one atomic write (a temp
// file synced and renamed, as a new session's first write). No row is converted, no entry built.
void BM_Floor_ReadParseKeepWrite100MB(benchmark::State& state) {
  const Project* made = project_or_skip(state);
  if (!made) return;
  const Project& p = *made;
  auto fs = storage::make_posix_fs();
  std::string source = p.dir + "/" + std::string(kSessionId) + ".jsonl";
  std::string target = p.root + "/floor.jsonl";
  simdjson::dom::parser parser;
  for (auto _ : state) {
    storage::PaddedBuffer bytes;
    storage::FileInfo read;
    if (!fs->read_file(source, UINT64_MAX, &bytes, &read).ok()) abort();
    simdjson::dom::document_stream docs;
    if (parser.parse_many(bytes.data(), bytes.size(), simdjson::dom::DEFAULT_BATCH_SIZE).get(docs)) abort();
    // The session's lines: memory taken once (the session's arena grows by chunks, never copying
    // what it holds), every page of it touched for the first time.
    std::string kept;
    kept.reserve(bytes.size() + 1);
    for (auto it = docs.begin(); it != docs.end(); ++it) {
      if ((*it).error()) abort();
      kept += it.source();
      kept += '\n';
    }
    if (!storage::atomic_replace(*fs, target, {kept}, storage::Expected::None()).ok()) abort();
    state.PauseTiming();
    std::filesystem::remove(target);
    state.ResumeTiming();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * p.bytes.size()));
}

BENCHMARK(BM_ImportClaude100MB)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Baseline_SimdjsonParseMany100MB)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Floor_ReadParseKeepWrite100MB)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace xs::bench
