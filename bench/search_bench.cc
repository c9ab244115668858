// The session index (docs/search.md): a full rebuild against a plain read of every session file
// (goal <= 3x), listing from the index (its own list, and the store's listing it serves) against
// the Finder's file scan (goal >= 50x faster), and
// search latency p50/p99 over the whole store (goal p99 < 20 ms), and appends with the index
// following them against appends without it (goal >= 0.95x). The store is generated once
// (bench/session_generator.h): XS_BENCH_SEARCH_SESSIONS sessions (default 200) of
// XS_BENCH_SEARCH_ENTRIES entries (default 100, about 2 KB each), so the default store is about
// 40 MB; the 10,000 sessions is XS_BENCH_SEARCH_SESSIONS=10000 XS_BENCH_SEARCH_ENTRIES=100
// (1.96 GB; 7 minutes, most of it the rebuild; XS_BENCH_SEARCH_DIR keeps the store and its index
// for the next run). bench/README.md has figures.
#include <benchmark/benchmark.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "format/session_paths.h"
#include "search/index_schema.h"
#include "search/session_index.h"
#include "session_generator.h"
#include "sqlite/sqlite_db.h"
#include "storage/fs.h"
#include "store/store.h"

namespace xs::bench {
namespace {

size_t env_size(const char* name, size_t fallback) {
  const char* v = getenv(name);
  return v && *v ? static_cast<size_t>(std::strtoull(v, nullptr, 10)) : fallback;
}

// The generated store, made once per process: 20 working directories.
struct SearchStore {
  std::string root;
  std::shared_ptr<store::Store> store;
  std::vector<std::string> files;
  uint64_t bytes = 0;
};

const SearchStore& search_store() {
  static SearchStore s = [] {
    SearchStore out;
    // A directory kept from an earlier run (XS_BENCH_SEARCH_DIR): the session files already in it
    // are used again, and so is its index.db (generating and indexing the size takes
    // minutes). The files are made by a fixed seed, so a kept one equals a fresh one.
    const char* kept = getenv("XS_BENCH_SEARCH_DIR");
    out.root = kept && *kept ? std::string(kept) : scratch_subdir("search");
    auto fs = storage::make_posix_fs();
    size_t sessions = env_size("XS_BENCH_SEARCH_SESSIONS", 200);
    size_t entries = env_size("XS_BENCH_SEARCH_ENTRIES", 100);
    for (size_t i = 0; i < sessions; ++i) {
      std::string dir = format::session_dir(out.root, "/bench/project" + std::to_string(i % 20));
      (void)fs->make_dirs(dir);
      char name[64];
      std::snprintf(name, sizeof name, "/2026-01-01T00-00-00-000Z_%016zx.jsonl", i);
      std::error_code ec;
      uintmax_t size = std::filesystem::file_size(dir + name, ec);
      if (!ec) {
        out.files.push_back(dir + name);
        out.bytes += size;
        continue;
      }
      std::string bytes = generate_session(entries, 1000 + i);
      auto f = fs->create_new(dir + name);
      if (f.ok() && (*f)->append(bytes).ok() && (*f)->close().ok()) {
        out.files.push_back(dir + name);
        out.bytes += bytes.size();
      }
    }
    out.store = *store::Store::open(out.root);
    return out;
  }();
  return s;
}

std::unique_ptr<search::SessionIndex> open_index() {
  auto x = search::SessionIndex::open(search_store().store);
  return x.ok() ? std::move(*x) : nullptr;
}

void BM_SearchIndex_Rebuild(benchmark::State& state) {
  const SearchStore& s = search_store();
  auto x = open_index();
  for (auto _ : state) {
    auto r = x->rebuild();
    if (!r.ok()) state.SkipWithError(r.status().message().c_str());
  }
  state.counters["sessions"] = static_cast<double>(s.files.size());
  state.counters["MB"] = static_cast<double>(s.bytes) / 1e6;
}

// The baseline: every session file read into memory, as any index must read it.
void BM_Baseline_ReadEverySession(benchmark::State& state) {
  const SearchStore& s = search_store();
  auto fs = storage::make_posix_fs();
  for (auto _ : state) {
    uint64_t total = 0;
    for (const std::string& f : s.files) {
      storage::PaddedBuffer b;
      if (fs->read_file(f, uint64_t{1} << 32, &b).ok()) total += b.size();
    }
    benchmark::DoNotOptimize(total);
  }
}

// Where the rebuild's time goes: the rows it made, read back from its database, inserted by one
// prepared statement in one transaction into a fresh database of the same schema (tables, FTS5
// index with its prefix indexes, triggers) and pragmas. No file is read and no JSON parsed: what
// SQLite and FTS5 alone cost for this text (bench/README.md compares the rebuild with it).
struct EntryValues {
  int64_t session = 0, on_path = 0;
  std::string id, text;
  std::optional<std::string> parent, role, kind;
  std::optional<int64_t> ts;
};

std::vector<EntryValues> indexed_entries() {
  auto x = open_index();
  if (!x || !x->refresh().ok()) abort();
  x.reset();
  sqlite::Db db;
  if (!db.open(search_store().root + "/index.db", false, std::chrono::milliseconds(5000)).ok()) abort();
  auto q = db.prepare("SELECT session_rowid, entry_id, parent_id, role, kind, ts, on_path, text FROM entries");
  if (!q.ok()) abort();
  std::vector<EntryValues> out;
  auto opt = [&](int col) { return q->is_null(col) ? std::nullopt : std::optional<std::string>(q->text(col)); };
  while (q->step() == SQLITE_ROW) {
    EntryValues& e = out.emplace_back();
    e.session = q->int64(0);
    e.id = std::string(q->text(1));
    e.parent = opt(2);
    e.role = opt(3);
    e.kind = opt(4);
    if (!q->is_null(5)) e.ts = q->int64(5);
    e.on_path = q->int64(6);
    e.text = std::string(q->text(7));
  }
  return out;
}

void BM_Baseline_Fts5InsertLoop(benchmark::State& state) {
  std::vector<EntryValues> rows = indexed_entries();
  std::string path = search_store().root + "/baseline.db";
  for (auto _ : state) {
    state.PauseTiming();
    for (const char* suffix : {"", "-wal", "-shm"}) unlink((path + suffix).c_str());
    sqlite::Db db;
    if (!db.open(path, true, std::chrono::milliseconds(5000)).ok()) abort();
    if (!db.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL").ok()) abort();
    if (!db.exec(search::kCreateTables).ok()) abort();
    auto insert = db.prepare(
        "INSERT INTO entries(session_rowid, entry_id, parent_id, role, kind, ts, on_path, text) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    if (!insert.ok()) abort();
    state.ResumeTiming();
    if (!db.exec("BEGIN IMMEDIATE").ok()) abort();
    for (const EntryValues& e : rows) {
      auto text = [&](int i, const std::optional<std::string>& v) {
        if (v) {
          insert->bind(i, std::string_view(*v));
        } else {
          insert->bind_null(i);
        }
      };
      insert->bind(1, e.session);
      insert->bind(2, std::string_view(e.id));
      text(3, e.parent);
      text(4, e.role);
      text(5, e.kind);
      if (e.ts) {
        insert->bind(6, *e.ts);
      } else {
        insert->bind_null(6);
      }
      insert->bind(7, e.on_path);
      insert->bind(8, std::string_view(e.text));
      if (insert->step() != SQLITE_DONE) abort();
      insert->reset();
    }
    if (!db.exec("COMMIT").ok()) abort();
  }
  state.counters["entries"] = static_cast<double>(rows.size());
}

void BM_SearchIndex_List(benchmark::State& state) {
  auto x = open_index();
  if (!x->refresh().ok()) state.SkipWithError("refresh");
  for (auto _ : state) {
    auto r = x->list_json(std::nullopt, search::kMaxLimit);
    benchmark::DoNotOptimize(r);
  }
}

// What `xs ls` does with index.db in the root (docs/search.md#listing): the store's own listing,
// each unchanged file stat()ed and its summary taken from the index.
void BM_StoreList_WithIndex(benchmark::State& state) {
  auto x = open_index();
  if (!x->refresh().ok()) state.SkipWithError("refresh");
  for (auto _ : state) {
    auto r = search_store().store->list(discovery::ListQuery{});
    if (!r.ok() || r->size() != search_store().files.size()) state.SkipWithError("list");
    benchmark::DoNotOptimize(r);
  }
}

// The listing without an index: a store of its own (no summary source), a prefix read per file.
void BM_Baseline_FinderList(benchmark::State& state) {
  auto plain = store::Store::open(search_store().root);
  for (auto _ : state) {
    auto r = (*plain)->list(discovery::ListQuery{});
    benchmark::DoNotOptimize(r);
  }
}

// p50/p99 (µs) over 200 queries of one kind.
void search_latency(benchmark::State& state, const std::vector<std::string>& queries, bool literal) {
  auto x = open_index();
  if (!x->refresh().ok()) state.SkipWithError("refresh");
  std::vector<double> us;
  for (auto _ : state) {
    for (const std::string& q : queries) {
      search::SearchOptions o;
      o.literal = literal;
      auto t0 = std::chrono::steady_clock::now();
      auto r = x->search_json(q, o);
      us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
      if (!r.ok()) state.SkipWithError(r.status().message().c_str());
    }
  }
  std::sort(us.begin(), us.end());
  state.counters["p50_us"] = us[us.size() / 2];
  state.counters["p99_us"] = us[std::min(us.size() - 1, us.size() * 99 / 100)];
}

// Words the generator writes often and rarely, prefixes and phrases.
const std::vector<std::string> kQueries = {"the",   "function",     "parser", "error",       "test*",
                                           "conf*", "\"the file\"", "build",  "cache token", "xyzzy"};

void BM_SearchIndex_Search(benchmark::State& state) {
  std::vector<std::string> queries;
  for (int i = 0; i < 20; ++i) queries.insert(queries.end(), kQueries.begin(), kQueries.end());
  search_latency(state, queries, false);
}

// Appends to a session of a store whose index follows its writes (docs/search.md#kept-current)
// against the same appends with no index open (goal >= 0.95x the rate). One iteration is
// kBatchAppends appends of a realistic 2.9 KB message, then the index's flush: untimed in
// BM_Append_IndexFollowing (what the appending caller sees: the index works on the other core),
// timed in BM_Append_IndexFollowingFlushed (appended *and* indexed: the indexing's own rate).
constexpr int kBatchAppends = 1000;
enum class IndexMode { kNone, kFollowing, kFollowingFlushed };

void append_batches(benchmark::State& state, IndexMode mode) {
  std::string root = scratch_subdir("index-append");
  auto st = store::Store::open(root);
  if (!st.ok()) return state.SkipWithError(st.status().message().c_str());
  std::unique_ptr<search::SessionIndex> x;
  if (mode != IndexMode::kNone) {
    search::IndexOptions o;
    o.follow_writes = true;
    auto opened = search::SessionIndex::open(*st, o);
    if (!opened.ok()) return state.SkipWithError(opened.status().message().c_str());
    x = std::move(*opened);
  }
  std::string msg = realistic_message(2900, 7);
  session::SessionOptions so;
  so.defer_until_assistant = false;
  for (auto _ : state) {
    // A new session per batch keeps every file at the same size.
    state.PauseTiming();
    auto s = (*st)->create_session("/bench/append", so);
    if (!s.ok()) return state.SkipWithError(s.status().message().c_str());
    state.ResumeTiming();
    for (int i = 0; i < kBatchAppends; ++i) {
      if (!(*s)->append_message(msg, nullptr).ok()) return state.SkipWithError("append");
    }
    if (mode == IndexMode::kFollowing) state.PauseTiming();
    if (x && !x->flush().ok()) return state.SkipWithError("flush");
    if (mode == IndexMode::kFollowing) state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kBatchAppends);
  x.reset();
  std::error_code ec;
  std::filesystem::remove_all(root, ec);
}

void BM_Append_IndexFollowing(benchmark::State& state) { append_batches(state, IndexMode::kFollowing); }
void BM_Append_IndexFollowingFlushed(benchmark::State& state) { append_batches(state, IndexMode::kFollowingFlushed); }
void BM_Baseline_AppendNoIndex(benchmark::State& state) { append_batches(state, IndexMode::kNone); }

BENCHMARK(BM_SearchIndex_Rebuild)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_Baseline_ReadEverySession)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_Baseline_Fts5InsertLoop)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_SearchIndex_List)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_StoreList_WithIndex)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_Baseline_FinderList)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_SearchIndex_Search)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_Append_IndexFollowing)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Append_IndexFollowingFlushed)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Baseline_AppendNoIndex)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace xs::bench
