#include "discovery/finder.h"

#include <algorithm>
#include <cctype>

#include "format/ids.h"
#include "format/session_paths.h"
#include "format/side_files.h"
#include "storage/atomic_file.h"
#include "storage/gzip.h"
#include "storage/path.h"

namespace xs::discovery {

namespace {

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  if (prefix.size() > s.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) != std::tolower(static_cast<unsigned char>(prefix[i]))) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::vector<std::string> Finder::session_dirs(const std::optional<std::string>& cwd) const {
  std::vector<std::string> dirs;
  if (cwd) {
    // Not `return {session_dir(...)}`: libc++ before LLVM 16 leaks the array of a vector whose
    // initializer-list constructor throws (here: bad_alloc copying the string).
    dirs.push_back(format::session_dir(root_, *cwd));
    return dirs;
  }
  std::string base = format::sessions_root(root_);
  auto names = fs_->list_dir(base);
  if (!names.ok()) return dirs;
  for (const std::string& n : *names) {
    std::string d = storage::join_path(base, n);
    auto info = fs_->stat(d);
    if (info.ok() && info->is_dir) dirs.push_back(d);
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

std::vector<std::string> Finder::session_files(const std::string& dir) const {
  auto names = fs_->list_dir(dir);
  return names.ok() ? session_files(dir, *names) : std::vector<std::string>{};
}

std::vector<std::string> Finder::session_files(const std::string& dir, const std::vector<std::string>& names) {
  std::vector<std::string> files;
  std::vector<std::string> live;
  for (const std::string& n : names) {
    // Not temp files, locks, copies, nor the quarantine files repairs leave beside sessions.
    if (n.empty() || n[0] == '.' || !ends_with(n, ".jsonl") || format::is_quarantine_file_name(n)) continue;
    live.push_back(n);
    files.push_back(storage::join_path(dir, n));
  }
  std::sort(live.begin(), live.end());
  for (const std::string& n : names) {
    if (n.empty() || n[0] == '.' || !storage::is_archive_path(n)) continue;
    // An archive whose original is still there is the leftover of an interrupted archiving run.
    std::string original = n.substr(0, n.size() - 3);
    if (std::binary_search(live.begin(), live.end(), original)) continue;
    files.push_back(storage::join_path(dir, n));
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The summary `kept` has of `path` when the file is still exactly as it was read, else nullopt.
std::optional<SessionSummary> Finder::unchanged_summary(const std::unordered_map<std::string, KeptSummary>& kept,
                                                        const std::string& path) const {
  auto it = kept.find(path);
  if (it == kept.end()) return std::nullopt;
  auto now = fs_->stat(path);
  const storage::FileInfo& then = it->second.file;
  if (!now.ok() || now->size != then.size || now->mtime_ms != then.mtime_ms || now->dev != then.dev ||
      now->ino != then.ino) {
    return std::nullopt;
  }
  SessionSummary s = it->second.summary;
  s.path = path;
  s.modified_ms = now->mtime_ms;
  s.size = now->size;
  s.archived = storage::is_archive_path(path);
  s.corrupt_copies = 0;
  return s;
}

Result<std::vector<SessionSummary>> Finder::list(const ListQuery& q) const {
  std::unordered_map<std::string, KeptSummary> kept;
  // Kept summaries were read with the default line limit: another limit reads the files.
  if (kept_ && !q.full && q.max_line_bytes == ListQuery().max_line_bytes) {
    auto k = kept_->kept_summaries();
    if (k.ok()) kept = std::move(*k);  // else every file is read, as without a source
  }
  std::vector<SessionSummary> out;
  for (const std::string& dir : session_dirs(q.cwd)) {
    auto names = fs_->list_dir(dir);
    if (!names.ok()) continue;
    for (const std::string& path : session_files(dir, *names)) {
      if (!(storage::is_archive_path(path) ? q.archived : q.live)) continue;
      std::optional<SessionSummary> unchanged = kept.empty() ? std::nullopt : unchanged_summary(kept, path);
      auto s =
          unchanged ? Result<SessionSummary>(std::move(*unchanged)) : read_summary(fs_, path, q.full, q.max_line_bytes);
      if (!s.ok()) {
        // Unreadable or header-less files are not listed (the verifier reports them); a file that
        // vanished between listing and reading is simply gone.
        continue;
      }
      if (q.cwd && s->cwd != *q.cwd) continue;
      // The copies a writable open kept of a damaged file: the listing already has the names.
      std::string copy_prefix = storage::base_name(path) + ".corrupt-";
      for (const std::string& n : *names) s->corrupt_copies += n.compare(0, copy_prefix.size(), copy_prefix) == 0;
      out.push_back(std::move(*s));
    }
  }
  // Newest first. Equal mtimes are common, not rare: the kernel stamps files from a clock that
  // advances once a tick (1-10 ms), so two sessions written one after the other often share one.
  // The later creation time (the header's ISO timestamp, compared as text) then comes first, so
  // continue-recent picks the session made last; still equal, the order collected above
  // (directories, then files, by name). std::sort over positions with the position as tiebreak:
  // std::stable_sort would do the same, but libstdc++'s uses std::get_temporary_buffer, which
  // newer clang reports as deprecated.
  std::vector<size_t> order(out.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (out[a].modified_ms != out[b].modified_ms) return out[a].modified_ms > out[b].modified_ms;
    if (out[a].timestamp != out[b].timestamp) return out[a].timestamp > out[b].timestamp;
    return a < b;
  });
  if (q.limit && order.size() > q.limit) order.resize(q.limit);
  std::vector<SessionSummary> newest_first;
  newest_first.reserve(order.size());
  for (size_t i : order) newest_first.push_back(std::move(out[i]));
  return newest_first;
}

Result<std::string> Finder::resolve(const std::string& query, const std::optional<std::string>& cwd) const {
  if (query.empty()) return Status::Invalid("an empty session id");
  auto search = [&](const std::vector<std::string>& dirs, std::vector<std::string>* hits) {
    for (const std::string& dir : dirs) {
      for (const std::string& path : session_files(dir)) {
        std::string name = storage::base_name(path);
        // without ".jsonl" or ".jsonl.gz"
        std::string stem = name.substr(0, name.size() - (storage::is_archive_path(name) ? 9 : 6));
        std::string after = stem.substr(stem.rfind('_') + 1);
        bool hit = starts_with_ci(name, query) || starts_with_ci(after, query);
        if (!hit) {
          auto s = read_summary(fs_, path, false, 64ull << 20);
          hit = s.ok() && starts_with_ci(s->id, query);
        }
        if (hit) hits->push_back(path);
      }
    }
  };
  std::vector<std::string> hits;
  if (cwd) search(session_dirs(cwd), &hits);
  if (hits.empty()) search(session_dirs(std::nullopt), &hits);
  if (hits.empty()) return Status::NotFound("no session matches \"" + query + "\"");
  if (hits.size() > 1) {
    std::string names;
    for (size_t i = 0; i < hits.size() && i < 5; ++i) names += (i ? ", " : "") + storage::base_name(hits[i]);
    return Status(Code::kAmbiguous, "\"" + query + "\" matches " + std::to_string(hits.size()) + " sessions: " + names +
                                        (hits.size() > 5 ? ", ..." : ""));
  }
  return hits.front();
}

std::optional<std::string> Finder::breadcrumb(const std::string& terminal_id, const std::string& cwd) const {
  if (!format::is_valid_new_id(terminal_id)) return std::nullopt;
  storage::PaddedBuffer b;
  if (!fs_->read_file(storage::join_path(storage::join_path(root_, "terminal-sessions"), terminal_id), 1 << 20, &b)
           .ok()) {
    return std::nullopt;
  }
  std::string_view text = b.view();
  size_t nl = text.find('\n');
  if (nl == std::string_view::npos) return std::nullopt;
  std::string_view line0 = text.substr(0, nl);
  std::string_view rest = text.substr(nl + 1);
  std::string_view line1 = rest.substr(0, rest.find('\n'));
  if (line0 != cwd || line1.empty()) return std::nullopt;
  auto info = fs_->stat(std::string(line1));
  if (!info.ok() || !info->is_regular) return std::nullopt;
  return std::string(line1);
}

Status Finder::write_breadcrumb(const std::string& terminal_id, const std::string& cwd, const std::string& path) const {
  if (!format::is_valid_new_id(terminal_id)) {
    return Status::Invalid("terminal id must be 1-64 characters of [A-Za-z0-9_-]");
  }
  if (cwd.find('\n') != std::string::npos || path.find('\n') != std::string::npos) {
    return Status::Invalid("a breadcrumb cannot hold a newline");
  }
  std::string dir = storage::join_path(root_, "terminal-sessions");
  XS_RETURN_IF_ERROR(fs_->make_dirs(dir));
  std::string file = storage::join_path(dir, terminal_id);
  std::string text = cwd + "\n" + path + "\n";
  auto now = fs_->stat(file);
  return storage::atomic_replace(*fs_, file, {text},
                                 now.ok() ? storage::Expected::Of(*now) : storage::Expected::None());
}

}  // namespace xs::discovery
