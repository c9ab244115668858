// The session index (docs/search.md): one SQLite database per store (<root>/index.db) with a row
// per session and per entry and a full-text index over the entries' text, for listing sessions
// without reading their files and for searching every transcript.
//
// Derived data only: the session files are the truth. rebuild() makes the index again from them;
// refresh() brings it up to date by what changed on the disk (a file grown in place is read from
// its last indexed byte, anything else whole); verify() reports every difference. A damaged file
// is renamed aside and a fresh index started, never trusted.
//
// Several handles, threads and processes may use one file at once: WAL mode, a busy timeout and
// retries keep "database is locked" from the caller (docs/search.md#several-processes). One
// handle's rebuild and refresh take turns; searches run beside them on a connection of their own.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "discovery/summary_source.h"
#include "search/session_read.h"
#include "sqlite/sqlite_db.h"
#include "sqlite/sqlite_file.h"
#include "store/store.h"
#include "util/status.h"

namespace xs::search {

class IndexUpdater;
class KeptSummaries;

// How many of a query's newest matches a search ranks (docs/search.md#ranking), as the prompt
// history does: scoring costs about a microsecond and a half a match.
inline constexpr uint32_t kRankedMatches = 1000;
// The most a search or list returns, and what limit 0 means.
inline constexpr uint32_t kMaxLimit = 10000;
inline constexpr uint32_t kDefaultLimit = 20;
// The most one write transaction holds: other processes wait for the write lock meanwhile.
inline constexpr size_t kMaxBatchSessions = 256;
inline constexpr uint64_t kMaxBatchTextBytes = 16 * 1024 * 1024;
// How many times a refresh reads a session again whose row another writer changed between the
// refresh's read of the row and its write (SessionIndex::update).
inline constexpr int kRacedPasses = 5;

struct IndexOptions {
  std::string path;                              // empty: <store root>/index.db
  std::chrono::milliseconds busy_timeout{5000};  // how long a call waits for another writer
  uint32_t ranked_matches = kRankedMatches;      // a search ranks this many newest matches (or its limit)
  // Index what the store's sessions write while the index is open (docs/search.md#kept-current).
  bool follow_writes = false;
};

struct SearchOptions {
  std::optional<std::string> cwd;         // only sessions of this working directory
  std::optional<std::string> role;        // user | assistant | tool | summary | label
  std::optional<int64_t> since_ms;        // only entries stamped at or after this time
  std::optional<std::string> session_id;  // only this session (its id)
  uint32_t limit = 0;                     // 0 = kDefaultLimit; at most kMaxLimit
  bool literal = false;                   // plain words, not FTS5 syntax (sqlite::literal_query)
};

// What rebuild() and refresh() did, session files counted by what became of them.
struct RefreshReport {
  uint64_t files = 0;       // session files found
  uint64_t unchanged = 0;   // size, mtime, device and inode as indexed: not read
  uint64_t appended = 0;    // grown in place: only the new lines read
  uint64_t reindexed = 0;   // changed otherwise (rewritten, shrunk, replaced): read whole again
  uint64_t added = 0;       // not in the index before
  uint64_t removed = 0;     // in the index, no longer on the disk
  uint64_t unreadable = 0;  // could not be read as a session (no header, damaged archive): not indexed
  uint64_t raced = 0;       // still changed by another writer after kRacedPasses reads: left for the next refresh
  uint64_t entries = 0;     // entry rows written
};
// {"files","unchanged","appended","reindexed","added","removed","unreadable","raced","entries"}
std::string report_json(const RefreshReport& r);

// Every difference between the index and the files.
struct VerifyReport {
  uint64_t files = 0;                // session files found
  uint64_t indexed = 0;              // rows in `sessions`
  std::vector<std::string> missing;  // files without a row (unreadable ones included)
  std::vector<std::string> extra;    // rows without a file
  std::vector<std::string> stale;    // rows whose file's size, mtime, device or inode changed
  bool ok() const { return missing.empty() && extra.empty() && stale.empty(); }
};
// {"ok","files","indexed","missing":[paths],"extra":[paths],"stale":[paths]}
std::string report_json(const VerifyReport& r);

class SessionIndex {
 public:
  // Opens (creating, migrating, replacing a damaged file) the index of `store`. The store's file
  // system reads the sessions; SQLite reads and writes the index itself (docs/search.md#the-file).
  static Result<std::unique_ptr<SessionIndex>> open(std::shared_ptr<store::Store> store, IndexOptions options = {});
  // The index at <store root>/index.db when that file exists on the disk (with default options),
  // else null: what the store's listings use when a caller kept an index (docs/search.md#listing).
  static Result<std::unique_ptr<SessionIndex>> open_existing(std::shared_ptr<store::Store> store);
  SessionIndex(const SessionIndex&) = delete;
  SessionIndex& operator=(const SessionIndex&) = delete;
  // Indexes what the store's sessions wrote and is still queued, then stops the updater.
  ~SessionIndex();

  // The index made again from nothing: every session of the store, live and archived, read whole,
  // one transaction per batch of sessions.
  Result<RefreshReport> rebuild();
  // The index brought up to date with the files (see the file comment).
  Result<RefreshReport> refresh();
  // The rows of these session files brought up to date as refresh() would (a file gone loses its
  // row); no other file is looked at. What the background updater runs.
  Result<RefreshReport> refresh_files(const std::set<std::string>& paths);
  // Every difference between the index and the files; changes nothing.
  Result<VerifyReport> verify();
  // Waits until the writes the store's sessions told of before the call are indexed
  // (docs/search.md#kept-current), and returns the first error the background updater met since
  // the last flush (clearing it): that index update is then left for the next refresh.
  Status flush();

  // JSON array of hits, best (lowest bm25 score) first (docs/search.md#search-output). kInvalid:
  // an empty query or one FTS5 refuses (its message), a role that is none, limit over kMaxLimit.
  Result<std::string> search_json(std::string_view query, const SearchOptions& options);
  // JSON array of sessions, newest (file mtime) first, from the index alone
  // (docs/search.md#list-output).
  Result<std::string> list_json(std::optional<std::string_view> cwd, uint32_t limit);
  // The listing's summaries of the indexed files, by path, each with the file's state when it was
  // read (docs/search.md#listing). While the index is open, the store's listings use them
  // (Store::set_summary_source).
  Result<std::unordered_map<std::string, discovery::KeptSummary>> kept_summaries();
  // {"path","schemaVersion","sessions","entries","damaged": null or {"path","reason"}}
  // (docs/search.md#the-file).
  Result<std::string> info_json();

  const std::string& path() const { return path_; }
  const sqlite::DamagedNote& damaged() const { return damaged_; }

 private:
  SessionIndex(std::shared_ptr<store::Store> store, std::string path, const IndexOptions& options)
      : store_(std::move(store)), path_(std::move(path)), options_(options) {}

  struct Work {
    std::string path;
    storage::FileInfo stat;
    const SessionRow* old = nullptr;  // its row, when indexed
  };
  // Every session file of the store, or only those in `only`.
  Result<RefreshReport> update(bool from_nothing, const std::set<std::string>* only);
  // One pass of update over the files (all, or `only`); the paths whose row another process
  // wrote meanwhile go to `raced`.
  Status update_pass(const std::set<std::string>* only, RefreshReport* report, std::set<std::string>* raced);
  Result<std::map<std::string, SessionRow>> load_rows(sqlite::Db& db, const std::set<std::string>* only);
  Status write_batch(std::vector<SessionRead>& batch, const std::map<std::string, SessionRow>& rows,
                     RefreshReport* report, std::set<std::string>* raced);
  // Writes one session's rows, unless another writer changed its row since `old` was read: then
  // the path goes to `raced` and nothing is written.
  Status write_session(SessionRead& s, const SessionRow* old, RefreshReport* report, std::set<std::string>* raced);
  Status remove_rows(const std::vector<int64_t>& rowids);
  // The listing summaries of unchanged rows that have none (made by version 1 of the schema).
  Status fill_summaries(const std::vector<Work>& rows);
  template <class F>
  auto read(F&& body) -> decltype(body());
  Result<sqlite::Stmt*> read_stmt(const char* sql);
  Result<sqlite::Stmt*> write_stmt(const char* sql);

  std::shared_ptr<store::Store> store_;
  std::string path_;
  IndexOptions options_;
  sqlite::DamagedNote damaged_;

  std::mutex write_mu_;  // rebuild and refresh of this handle take turns on the write connection
  sqlite::Db write_db_;
  std::map<const char*, sqlite::Stmt> write_stmts_;

  // Told of every write of the store's sessions; indexes them on a thread of its own
  // (search/index_updater.h). The destructor stops it before any member goes.
  std::shared_ptr<IndexUpdater> updater_;
  // This index as its store's summary source; detached by the destructor before any member goes.
  std::shared_ptr<KeptSummaries> kept_;

  std::mutex read_mu_;  // searches of several threads take turns on the read connection
  sqlite::Db read_db_;
  std::map<const char*, sqlite::Stmt> read_stmts_;  // prepared once per SQL text (its address)
};

// The session files of a store, live and archived (an archive beside its live original is not
// one: the live file is), as discovery::Finder lists them.
std::vector<std::string> session_files(storage::Fs& fs, const std::string& root);

// Runs `body` (returning Status or Result<T>) on the read connection, again while it reports
// kLocked, for up to the busy timeout.
template <class F>
auto SessionIndex::read(F&& body) -> decltype(body()) {
  std::lock_guard<std::mutex> lock(read_mu_);
  decltype(body()) out = Status(Code::kLocked, "the session index is locked");
  sqlite::retry_busy(options_.busy_timeout, [&]() -> Status {
    out = body();
    return sqlite::status_of(out);
  });
  return out;
}

}  // namespace xs::search
