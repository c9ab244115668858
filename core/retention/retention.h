// Retention without silent loss (docs/retention.md): sessions idle for longer than a limit are
// archived to "<file>.jsonl.gz" (written atomically, read back and compared byte for byte before
// the original goes), and only archives are ever pruned. Listings show archives marked and
// sessions open them read-only (discovery/, session/); blob GC reads them inflated (blobs/).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "discovery/finder.h"
#include "storage/fs.h"
#include "util/status.h"

namespace xs::retention {

// When a session was last active (docs/retention.md#last-activity): the "timestamp" of the last
// line in the file's final 64 KiB that has one, else the file's modification time.
int64_t last_activity_ms(storage::Fs& fs, const std::string& path, const storage::FileInfo& info);

// Called with how many candidates are done, of how many, before the first and after each.
using Progress = std::function<void(uint64_t done, uint64_t total)>;

struct ArchiveOptions {
  int64_t now_ms = 0;         // "now" for the age test (the caller's clock)
  int64_t older_than_ms = 0;  // archive sessions idle for longer than this (>= 0)
  bool dry_run = false;       // report what would be archived; change nothing
  Progress progress;          // may be empty
};

struct Archived {
  std::string path;       // the session file that was (would be) archived
  uint64_t bytes = 0;     // its size
  uint64_t gz_bytes = 0;  // the archive's size (0 on a dry run: nothing was compressed)
};

// A candidate left as it was. `reason` is one word: "writer" (another process holds the writer
// lock), "too-large" (over storage::kMaxInflatedBytes), "archive-exists" (a "<file>.jsonl.gz"
// with other content is there), "changed" (the file changed while it was archived), "error"
// (a read, write or check failed; `detail` says which).
struct Skipped {
  std::string path;
  std::string reason;
  std::string detail;
};

struct ArchiveReport {
  bool dry_run = false;
  std::vector<Archived> archived;  // in path order
  std::vector<Skipped> skipped;    // in path order
};

// Archives the live sessions `finder` lists whose last activity is more than older_than_ms before
// now_ms. A failure with one session skips it (reported) and goes on with the next.
Result<ArchiveReport> archive(const std::shared_ptr<storage::Fs>& fs, const discovery::Finder& finder,
                              const ArchiveOptions& options);
// {"dryRun","archived":[{"path","bytes","gzBytes"}],"skipped":[{"path","reason","detail"}]}
std::string archive_report_json(const ArchiveReport& report);

struct PruneOptions {
  int64_t now_ms = 0;
  int64_t older_than_ms = 0;  // delete archives made (file mtime) longer ago than this (>= 0)
  bool dry_run = false;       // report exactly what a real run would delete; delete nothing
};

struct Pruned {
  std::string path;  // always a "*.jsonl.gz"
  uint64_t gz_bytes = 0;
  int64_t archived_ms = 0;  // the archive's mtime
};

struct PruneReport {
  bool dry_run = false;
  std::vector<Pruned> pruned;  // in path order
};

// Deletes the archives `finder` lists whose file is older than older_than_ms. Never a live file:
// only names ending ".jsonl.gz" are removed, and an archive beside a live file of the same name is
// not listed. A failed removal stops the run with its status (the ones before it are gone).
Result<PruneReport> prune(const std::shared_ptr<storage::Fs>& fs, const discovery::Finder& finder,
                          const PruneOptions& options);
// {"dryRun","pruned":[{"path","gzBytes","archivedMs"}]}
std::string prune_report_json(const PruneReport& report);

// The reports' shared start: `{"dryRun":…,"<list>":[` and, per item, `{"path":"…"` after a comma
// unless it is the first.
std::string report_start(bool dry_run, const char* list);
void append_item_path(std::string& out, size_t index, const std::string& path);

}  // namespace xs::retention
