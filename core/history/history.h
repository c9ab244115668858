// The prompt history (docs/history.md): every prompt a user typed, kept apart from transcripts in
// one SQLite database per store (<root>/history.db) with a full-text index, for recall and search.
//
// add() checks the prompt and queues it: a background writer thread inserts what has queued in one
// transaction per batch, so the turn never waits for the disk. flush() waits until everything
// queued before it is committed; from then on those prompts survive a kill -9 (and, with
// sync_full, power loss). A failure of the writer is sticky: every later add and flush returns it.
// Several handles and processes may use one file at once (WAL mode, busy timeout, retries).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "history/history_schema.h"
#include "sqlite/fts_query.h"
#include "sqlite/fts_rank.h"
#include "sqlite/rowid_set.h"
#include "sqlite/sqlite_db.h"
#include "storage/fs.h"
#include "util/status.h"

namespace xs::history {

// How many of a query's newest matches a search ranks (docs/history.md#ranking): scoring costs
// about 1.5 µs a match, so this bounds a search for a word in most prompts (bench/README.md).
inline constexpr uint32_t kRankedMatches = 1000;

struct HistoryOptions {
  std::chrono::milliseconds busy_timeout{5000};  // how long a call waits for another writer
  bool sync_full = false;                        // synchronous=FULL: flushed prompts survive power loss
  size_t max_prompt_bytes = size_t{1} << 20;     // longer prompts are refused with kLimit
  uint32_t ranked_matches = kRankedMatches;      // a search ranks this many newest matches (or its limit)
};

// The most a search or recent call returns, and what limit 0 means.
inline constexpr uint32_t kMaxLimit = 10000;
inline constexpr uint32_t kDefaultLimit = 20;
// The longest cwd add() takes.
inline constexpr size_t kMaxCwdBytes = 64 * 1024;
// Queued bytes beyond which add() waits for the writer (only when the disk stalls).
inline constexpr size_t kMaxQueuedBytes = 64 * 1024 * 1024;
// The most one transaction of the writer holds: other processes wait for the write lock while it
// commits, so a long queue is written in several (docs/history.md#adding).
inline constexpr size_t kMaxBatchPrompts = 10000;
inline constexpr size_t kMaxBatchBytes = 16 * 1024 * 1024;

struct SearchOptions {
  std::optional<std::string> cwd;  // only prompts added with this cwd
  bool literal = false;            // the query is plain words, not FTS5 syntax (docs/history.md#queries)
  uint32_t limit = 0;              // 0 = kDefaultLimit; at most kMaxLimit
};

class History {
 public:
  // Opens (creating, migrating, replacing a damaged file) the database at `path`; `fs` is used for
  // the directory and to preserve a damaged file, SQLite does the rest of the I/O itself.
  static Result<std::unique_ptr<History>> open(std::shared_ptr<storage::Fs> fs, std::string path,
                                               const HistoryOptions& options);
  ~History();  // close(), its error dropped
  History(const History&) = delete;
  History& operator=(const History&) = delete;

  // Checks and queues one prompt. kInvalid: invalid UTF-8 or a NUL byte (prompt or cwd), an empty
  // prompt, time_ms < 0; kLimit: over max_prompt_bytes or kMaxCwdBytes; the writer's sticky error.
  // A prompt equal to the last one added with the same cwd is skipped (OK). time_ms 0 = now. An
  // empty cwd is no cwd.
  Status add(std::string_view prompt, std::optional<std::string_view> cwd, int64_t time_ms);
  // Waits until every prompt queued before the call is committed; the writer's sticky error.
  Status flush();
  // Flushes, stops the writer and closes the database; returns flush's status. Idempotent.
  Status close();

  // JSON array of hits, best (lowest bm25 score) first (capi/schema/history-search.schema.json).
  // kInvalid: an empty query, or one FTS5 refuses (its message), limit over kMaxLimit.
  Result<std::string> search_json(std::string_view query, const SearchOptions& options);
  // JSON array of prompts, newest first (capi/schema/history-recent.schema.json).
  Result<std::string> recent_json(std::optional<std::string_view> cwd, uint32_t limit);
  // JSON object: path, schemaVersion, count, pending, synchronous, damaged
  // (capi/schema/history-info.schema.json).
  Result<std::string> info_json();

  const std::string& path() const { return path_; }
  const DamagedNote& damaged() const { return damaged_; }

 private:
  struct Item {
    std::string prompt;
    std::optional<std::string> cwd;
    int64_t time_ms;
  };

  History(std::string path, const HistoryOptions& options) : path_(std::move(path)), options_(options) {}
  Status seed_last_prompt();
  void writer_loop();
  Status write_batch(const std::vector<Item>& batch);
  template <class F>
  auto read(F&& body) -> decltype(body());
  // The read connection's statement for `sql` (a constant), prepared at its first use; the caller
  // holds read_mu_ and resets it when done (ResetOnExit) so no read transaction stays open.
  Result<Stmt*> read_stmt(const char* sql);
  // The row ids of `cwd` as the read transaction the caller holds (with read_mu_) sees them, or
  // null the first time a cwd is searched on this handle: a one-off search looks its matches'
  // rows up instead of reading every row id of the cwd (docs/history.md#search-in-a-cwd).
  Result<const sqlite::RowidSet*> cwd_rows(const std::string& cwd);
  // Within the caller's read transaction (and read_mu_): drops the sizes and row ids kept when
  // another program changed rows other than by appending, and notes the newest id.
  Status notice_changes();
  // The rows' sizes as that transaction sees them (docs/history.md#ranking).
  Result<const sqlite::RowSizes*> row_sizes();
  // Runs the read statement `sql` (its parameters set by `bind`) and hands each row to `take`; an
  // error names `what` was being read. The caller holds read_mu_.
  template <class Bind, class Take>
  Status each_row(const char* sql, Bind bind, Take take, const char* what);

  std::string path_;
  HistoryOptions options_;
  DamagedNote damaged_;

  Db write_db_;  // only the writer thread uses it after open
  Stmt insert_;

  std::mutex read_mu_;  // the read connection: searches of several threads take turns
  Db read_db_;
  std::map<const char*, Stmt> read_stmts_;  // prepared once per SQL text (its address)
  // The row ids of the cwds searched on this handle, each up to `upto` (the newest id when read),
  // and the count of history_changes they hold for: both under read_mu_.
  struct CwdRows {
    sqlite::RowidSet rows;
    int64_t upto = std::numeric_limits<int64_t>::min();
    bool read = false;          // false: searched once, not read yet
    bool lookups_only = false;  // a row id no set holds (RowidSet::add): its rows are looked up
  };
  std::map<std::string, CwdRows> cwd_rows_;
  int64_t changes_seen_ = -1;
  int64_t newest_ = std::numeric_limits<int64_t>::min();  // as notice_changes last read it
  bool searched_ = false;
  // Every row's size up to sizes_upto_ (the newest id when read), for bm25_sampled.
  sqlite::RowSizes sizes_;
  int64_t sizes_upto_ = std::numeric_limits<int64_t>::min();

  std::mutex mu_;
  std::condition_variable work_cv_;  // the writer waits for work
  std::condition_variable done_cv_;  // flush waits for the writer
  std::deque<Item> queue_;
  size_t queued_bytes_ = 0;
  uint64_t enqueued_ = 0;  // prompts queued since open
  uint64_t written_ = 0;   // prompts the writer has finished with (committed, or failed)
  bool writing_ = false;
  bool stop_ = false;
  bool closed_ = false;
  Status error_;  // the writer's sticky failure
  std::string last_prompt_;
  std::optional<std::string> last_cwd_;
  bool have_last_ = false;
  std::thread writer_;
};

// Shared with the session index (sqlite/sqlite_db.h).
using sqlite::ResetOnExit;
using sqlite::status_of;

// Runs `body` (returning Status or Result<T>) on the read connection, again while it reports
// kLocked, for up to the busy timeout.
template <class F>
auto History::read(F&& body) -> decltype(body()) {
  std::lock_guard<std::mutex> lock(read_mu_);
  if (!read_db_.is_open()) return Status(Code::kMisuse, "the history is closed");
  decltype(body()) out = Status(Code::kLocked, "the history database is locked");
  retry_busy(options_.busy_timeout, [&]() -> Status {
    out = body();
    return status_of(out);
  });
  return out;
}

// The FTS5 query for plain words (sqlite/fts_query.h), shared with the session index.
using sqlite::literal_query;

}  // namespace xs::history
