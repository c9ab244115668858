// Finding sessions in a store (docs/format.md#finding-sessions, docs/decisions.md#ids-paths-and-threads):
// listing per working directory or across the store, newest first; resolving an id or id prefix
// to a file; and the terminal breadcrumbs that let continue-recent prefer the session this terminal
// was using over whichever file was modified last.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "discovery/session_info.h"
#include "discovery/summary_source.h"
#include "storage/fs.h"
#include "util/status.h"

namespace xs::discovery {

struct ListQuery {
  std::optional<std::string> cwd;  // nullopt: every working directory
  uint64_t limit = 0;              // 0: no limit
  bool full = false;               // load whole files for counts
  uint64_t max_line_bytes = 64ull << 20;
  bool live = true;      // sessions in "<name>.jsonl" files
  bool archived = true;  // archives, "<name>.jsonl.gz" (docs/retention.md), marked "archived"
};

class Finder {
 public:
  Finder(std::shared_ptr<storage::Fs> fs, std::string root) : fs_(std::move(fs)), root_(std::move(root)) {}
  // The same, and a listing that is not `full` takes the summary of each file found unchanged from
  // `kept` instead of reading the file (null: none).
  Finder(std::shared_ptr<storage::Fs> fs, std::string root, std::shared_ptr<SummarySource> kept)
      : fs_(std::move(fs)), root_(std::move(root)), kept_(std::move(kept)) {}

  // Sessions, newest (mtime) first. An archive beside a live file of the same name (what an
  // archiving run that stopped before removing the original leaves) is not listed: the live file is. With a cwd, only
  // files whose header says that cwd: directory names collide ("/a-b" and "/a/b"). Files without a header are not
  // sessions and are skipped.
  Result<std::vector<SessionSummary>> list(const ListQuery& q) const;

  // The file of a session given by id, id prefix, file name or the part of the file name after
  // its last '_' (case-insensitive prefix, as omp's resolveResumableSession). The cwd's directory
  // is searched first, then the whole store. kNotFound, or kAmbiguous naming the candidates.
  Result<std::string> resolve(const std::string& query, const std::optional<std::string>& cwd) const;

  // The session file this terminal last used in `cwd`, if the breadcrumb is there, names that cwd
  // and points at an existing regular file.
  std::optional<std::string> breadcrumb(const std::string& terminal_id, const std::string& cwd) const;
  Status write_breadcrumb(const std::string& terminal_id, const std::string& cwd, const std::string& path) const;

 private:
  std::optional<SessionSummary> unchanged_summary(const std::unordered_map<std::string, KeptSummary>& kept,
                                                  const std::string& path) const;
  std::vector<std::string> session_dirs(const std::optional<std::string>& cwd) const;
  std::vector<std::string> session_files(const std::string& dir) const;
  // The session files among a directory's names (full paths, sorted), live ones and archives.
  static std::vector<std::string> session_files(const std::string& dir, const std::vector<std::string>& names);

  std::shared_ptr<storage::Fs> fs_;
  std::string root_;
  std::shared_ptr<SummarySource> kept_;
};

}  // namespace xs::discovery
