// The HTML view (docs/html-view.md#speed): the page of a generated session (bench/session_generator.h:
// 100k entries, about 290 MB, a few branches and a compaction) written by html::export_html, against
// the read-only open of the same session it starts with (the least any renderer must do); the peak
// memory the export adds, in a child process, over the session's size; and the time headless
// Chromium takes to load the page and dump its DOM (real time of the spawned browser).
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "html/html_export.h"
#include "session/session.h"
#include "session_generator.h"
#include "storage/fs.h"
#include "store/store.h"

namespace xs::bench {
namespace {

struct HtmlStore {
  std::string root, path, page;
  uint64_t session_bytes = 0;
};

// The stores made here are removed when the program ends (the 100k one holds about 500 MB).
struct Removed {
  std::vector<std::string> dirs;
  ~Removed() {
    for (const std::string& d : dirs) {
      if (system(("rm -rf '" + d + "'").c_str()) != 0) continue;
    }
  }
};

// A store holding the generated session of `entries` entries, made once per size.
const HtmlStore& html_store(size_t entries) {
  static Removed removed;
  static std::map<size_t, HtmlStore> made;
  auto it = made.find(entries);
  if (it != made.end()) return it->second;
  HtmlStore s;
  s.root = scratch_subdir("html");
  removed.dirs.push_back(s.root);
  std::string dir = s.root + "/sessions/--home-dev-project--";
  mkdir((s.root + "/sessions").c_str(), 0700);
  mkdir(dir.c_str(), 0700);
  s.path = dir + "/2026-03-01T00-00-00-000Z_bench00000000001.jsonl";
  s.page = s.root + "/page.html";
  std::string text = generate_session(entries, 42);
  s.session_bytes = text.size();
  write_whole(s.path, text);
  return made.emplace(entries, s).first->second;
}

html::ExportReport export_page(const HtmlStore& s) {
  auto store = store::Store::open(s.root);
  if (!store.ok()) abort();
  auto disk = storage::make_posix_fs();
  auto r = html::export_html(**store, *disk, {s.path}, s.page);
  if (!r.ok()) abort();
  return *r;
}

void BM_HtmlExport(benchmark::State& state) {
  const HtmlStore& s = html_store(static_cast<size_t>(state.range(0)));
  html::ExportReport r;
  for (auto _ : state) r = export_page(s);
  state.counters["page_bytes"] = static_cast<double>(r.pages[0].bytes);
  state.counters["messages"] = static_cast<double>(r.pages[0].messages);
  state.counters["branch_points"] = static_cast<double>(r.pages[0].branch_points);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * s.session_bytes));
}

// What the export starts with: the session opened read-only.
void BM_Baseline_HtmlOpenReadOnly(benchmark::State& state) {
  const HtmlStore& s = html_store(static_cast<size_t>(state.range(0)));
  session::SessionOptions o;
  o.read_only = true;
  for (auto _ : state) {
    auto opened = session::Session::open(storage::make_posix_fs(), s.path, o);
    if (!opened.ok()) abort();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * s.session_bytes));
}

// Peak memory the export adds, measured in a child so earlier runs do not hide it: the page is
// streamed, so this is about what the read-only open itself takes.
void BM_HtmlExportPeakRss(benchmark::State& state) {
  const HtmlStore& s = html_store(static_cast<size_t>(state.range(0)));
  double growth_kb = 0;
  for (auto _ : state) {
    int fds[2];
    if (pipe(fds) != 0) abort();
    pid_t child = fork();
    if (child == 0) {
      struct rusage before, after;
      getrusage(RUSAGE_SELF, &before);
      export_page(s);
      getrusage(RUSAGE_SELF, &after);
      double kb = static_cast<double>(after.ru_maxrss - before.ru_maxrss);
      _exit(write(fds[1], &kb, sizeof kb) == sizeof kb ? 0 : 1);
    }
    if (read(fds[0], &growth_kb, sizeof growth_kb) != sizeof growth_kb) growth_kb = -1;
    close(fds[0]);
    close(fds[1]);
    waitpid(child, nullptr, 0);
  }
  state.counters["rss_growth_mb"] = growth_kb / 1024.0;
  state.counters["rss_growth_over_session_size"] = growth_kb * 1024.0 / static_cast<double>(s.session_bytes);
}

// Headless Chromium opening the page: loaded, laid out and the first 1280x2000 painted into a
// screenshot (the browser's own start included, about 1 s here).
void BM_HtmlChromiumLoad(benchmark::State& state) {
  if (system("command -v chromium > /dev/null") != 0) {
    state.SkipWithError("chromium is not installed");
    return;
  }
  const HtmlStore& s = html_store(static_cast<size_t>(state.range(0)));
  export_page(s);
  std::string command = "chromium --headless --no-sandbox --disable-gpu --user-data-dir=" + s.root +
                        "/chromium-profile --window-size=1280,2000 --screenshot=" + s.root + "/page.png file://" +
                        s.page + " > /dev/null 2>&1";
  for (auto _ : state) {
    if (system(command.c_str()) != 0) {
      state.SkipWithError("chromium failed");
      return;
    }
  }
  struct stat st;
  if (stat((s.root + "/page.png").c_str(), &st) != 0) state.SkipWithError("chromium wrote no screenshot");
}

BENCHMARK(BM_HtmlExport)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Baseline_HtmlOpenReadOnly)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_HtmlExportPeakRss)->Arg(100000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HtmlChromiumLoad)->Arg(100000)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace xs::bench
