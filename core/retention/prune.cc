// Pruning archives (docs/retention.md#pruning): only "*.jsonl.gz" files the listing shows as
// archives, and only when the archive file is older than the limit.
#include <algorithm>

#include "retention/retention.h"
#include "storage/gzip.h"
#include "storage/path.h"

namespace xs::retention {

Result<PruneReport> prune(const std::shared_ptr<storage::Fs>& fs, const discovery::Finder& finder,
                          const PruneOptions& o) {
  if (o.older_than_ms < 0) return Status::Invalid("the age limit (older_than_ms) is negative");
  discovery::ListQuery archives_only;
  archives_only.live = false;
  auto archives = finder.list(archives_only);
  if (!archives.ok()) return archives.status();
  PruneReport report;
  report.dry_run = o.dry_run;
  for (const discovery::SessionSummary& s : *archives) {
    // The listing's own test, asserted again where the deletion is decided.
    if (!s.archived || !storage::is_archive_path(s.path)) continue;
    if (o.now_ms - s.modified_ms > o.older_than_ms) report.pruned.push_back({s.path, s.size, s.modified_ms});
  }
  std::sort(report.pruned.begin(), report.pruned.end(),
            [](const Pruned& a, const Pruned& b) { return a.path < b.path; });
  if (o.dry_run) return report;
  std::vector<std::string> dirs;
  for (size_t i = 0; i < report.pruned.size(); ++i) {
    const std::string& path = report.pruned[i].path;
    Status st = fs->unlink(path);
    if (!st.ok() && st.code() != Code::kNotFound) {
      return st.With("pruning " + path + " (" + std::to_string(i) + " archives were deleted before it)");
    }
    std::string dir = storage::dir_name(path);
    if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
  }
  for (const std::string& dir : dirs) XS_RETURN_IF_ERROR(fs->sync_dir(dir));
  return report;
}

std::string prune_report_json(const PruneReport& r) {
  std::string out = report_start(r.dry_run, "pruned");
  for (size_t i = 0; i < r.pruned.size(); ++i) {
    append_item_path(out, i, r.pruned[i].path);
    out += ",\"gzBytes\":" + std::to_string(r.pruned[i].gz_bytes) +
           ",\"archivedMs\":" + std::to_string(r.pruned[i].archived_ms) + '}';
  }
  return out + "]}";
}

}  // namespace xs::retention
