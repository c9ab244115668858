// Archiving idle sessions (docs/retention.md#archiving): under the session's writer lock, the file
// is read, compressed, written to "<file>.jsonl.gz" atomically, read back and inflated to the exact
// original bytes, and only then removed. A crash at any point leaves the original, or the original
// and a whole archive beside it (which listings hide, and the next run replaces).
#include <algorithm>

#include "json/json_string.h"
#include "retention/retention.h"
#include "session/persistence.h"
#include "storage/atomic_file.h"
#include "storage/gzip.h"
#include "storage/path.h"

namespace xs::retention {

namespace {

struct Outcome {
  bool archived = false;
  Archived done;
  Skipped skipped;
};

Outcome skip(const std::string& path, std::string reason, std::string detail) {
  Outcome o;
  o.skipped = {path, std::move(reason), std::move(detail)};
  return o;
}

bool same_file(const storage::FileInfo& a, const storage::FileInfo& b) {
  return a.dev == b.dev && a.ino == b.ino && a.size == b.size && a.mtime_ms == b.mtime_ms;
}

// Whether an archive already at `gz_path` may be replaced: it is the leftover of an interrupted
// run when it inflates to the session's bytes or a prefix of them (the session grew since).
Status check_existing_archive(storage::Fs& fs, const std::string& gz_path, std::string_view session) {
  storage::PaddedBuffer gz;
  XS_RETURN_IF_ERROR(fs.read_file(gz_path, storage::kMaxInflatedBytes, &gz));
  uint64_t at = 0;
  bool differs = false;
  Status st = storage::gunzip_to(gz.view(), UINT64_MAX, [&](std::string_view chunk) {
    differs = session.compare(at, chunk.size(), chunk) != 0;
    at += chunk.size();
    return !differs;
  });
  if (!st.ok() || differs) {
    return Status::Exists(gz_path + " is there and is not an earlier archive of this session (" +
                          (st.ok() ? std::string("other content") : st.message()) + "); it was left as it is");
  }
  return Status::Ok();
}

// One session, under its writer lock. Every way out leaves the original in place unless the
// archive was verified first.
Outcome archive_one(storage::Fs& fs, const std::string& path, bool dry_run) {
  const std::string gz_path = path + ".gz";
  const std::string lock_path = session::writer_lock_path(path);
  bool lock_was_there = fs.stat(lock_path).ok();
  auto lock = fs.try_lock(lock_path);
  if (lock.status().code() == Code::kLocked) return skip(path, "writer", "another process has it open for writing");
  if (!lock.ok()) return skip(path, "error", lock.status().message());
  // A lock file this run made, or one that names a file no more, goes (while still held).
  struct DropLock {
    storage::Fs& fs;
    const std::string& path;
    const bool& drop;
    ~DropLock() {
      if (drop) fs.unlink(path);
    }
  };
  bool drop_lock = !lock_was_there;
  DropLock drop{fs, lock_path, drop_lock};

  storage::PaddedBuffer bytes;
  storage::FileInfo read;
  Status st = fs.read_file(path, storage::kMaxInflatedBytes, &bytes, &read);
  if (st.code() == Code::kLimit) {
    return skip(path, "too-large", "larger than " + std::to_string(storage::kMaxInflatedBytes) + " bytes");
  }
  if (!st.ok()) return skip(path, "error", st.message());
  auto existing = fs.stat(gz_path);
  if (existing.ok()) {
    st = check_existing_archive(fs, gz_path, bytes.view());
    if (!st.ok()) return skip(path, st.code() == Code::kExists ? "archive-exists" : "error", st.message());
  } else if (existing.status().code() != Code::kNotFound) {
    return skip(path, "error", existing.status().message());
  }
  Outcome o;
  o.done = {path, bytes.size(), 0};
  if (dry_run) {
    o.archived = true;
    return o;
  }

  storage::remove_stale_temps(fs, gz_path);  // of a run that stopped before its rename
  auto gz = storage::gzip_compress(bytes.view(), storage::kArchiveLevel);
  if (!gz.ok()) return skip(path, "error", gz.status().message());
  st = storage::atomic_replace(fs, gz_path, {gz->view()},
                               existing.ok() ? storage::Expected::Of(*existing) : storage::Expected::None());
  if (!st.ok()) return skip(path, "error", "writing " + gz_path + ": " + st.message());
  // Read back what the disk holds, not what we meant to write.
  storage::PaddedBuffer back;
  st = fs.read_file(gz_path, storage::kMaxInflatedBytes, &back);
  if (st.ok()) st = storage::gunzip_matches(back.view(), bytes.view());
  if (!st.ok()) {
    fs.unlink(gz_path);
    return skip(path, "error", "the archive did not read back whole (" + st.message() + "); the session was kept");
  }
  // A writer that ignores the lock (an older agent) may have appended meanwhile.
  auto now = fs.stat(path);
  if (!now.ok() || !same_file(*now, read)) {
    fs.unlink(gz_path);
    return skip(path, "changed", "the file changed while it was archived; it was kept");
  }
  st = fs.unlink(path);
  if (!st.ok()) return skip(path, "error", "removing " + path + " after archiving it: " + st.message());
  drop_lock = true;
  // Not durable yet only means the original may come back after a power loss: beside its archive,
  // which the next run replaces. The archive itself is durable.
  (void)fs.sync_dir(storage::dir_name(path));
  o.archived = true;
  o.done.gz_bytes = gz->size();
  return o;
}

void append_string_member(std::string& out, const char* key, const std::string& value) {
  out += ",\"";
  out += key;
  out += "\":";
  json::append_quoted_lossy(out, value);
}

}  // namespace

Result<ArchiveReport> archive(const std::shared_ptr<storage::Fs>& fs, const discovery::Finder& finder,
                              const ArchiveOptions& o) {
  if (o.older_than_ms < 0) return Status::Invalid("the age limit (older_than_ms) is negative");
  discovery::ListQuery live_only;
  live_only.archived = false;
  auto sessions = finder.list(live_only);
  if (!sessions.ok()) return sessions.status();
  std::vector<std::string> candidates;
  for (const discovery::SessionSummary& s : *sessions) {
    auto info = fs->stat(s.path);
    if (!info.ok()) continue;  // gone meanwhile
    if (o.now_ms - last_activity_ms(*fs, s.path, *info) > o.older_than_ms) candidates.push_back(s.path);
  }
  std::sort(candidates.begin(), candidates.end());
  ArchiveReport report;
  report.dry_run = o.dry_run;
  if (o.progress) o.progress(0, candidates.size());
  for (size_t i = 0; i < candidates.size(); ++i) {
    Outcome one = archive_one(*fs, candidates[i], o.dry_run);
    if (one.archived) {
      report.archived.push_back(std::move(one.done));
    } else {
      report.skipped.push_back(std::move(one.skipped));
    }
    if (o.progress) o.progress(i + 1, candidates.size());
  }
  return report;
}

std::string report_start(bool dry_run, const char* list) {
  return std::string("{\"dryRun\":") + (dry_run ? "true" : "false") + ",\"" + list + "\":[";
}

void append_item_path(std::string& out, size_t index, const std::string& path) {
  out += index ? ",{\"path\":" : "{\"path\":";
  json::append_quoted_lossy(out, path);
}

std::string archive_report_json(const ArchiveReport& r) {
  std::string out = report_start(r.dry_run, "archived");
  for (size_t i = 0; i < r.archived.size(); ++i) {
    append_item_path(out, i, r.archived[i].path);
    out +=
        ",\"bytes\":" + std::to_string(r.archived[i].bytes) + ",\"gzBytes\":" + std::to_string(r.archived[i].gz_bytes);
    out += '}';
  }
  out += "],\"skipped\":[";
  for (size_t i = 0; i < r.skipped.size(); ++i) {
    append_item_path(out, i, r.skipped[i].path);
    append_string_member(out, "reason", r.skipped[i].reason);
    append_string_member(out, "detail", r.skipped[i].detail);
    out += '}';
  }
  return out + "]}";
}

}  // namespace xs::retention
