#include "import/source_rows.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "json/json_string.h"
#include "json/limits.h"

namespace xs::import {

namespace {

constexpr size_t kBinaryProbeBytes = 4096;

Status check_text_file(const std::string& path, std::string_view bytes) {
  size_t probe = std::min(bytes.size(), kBinaryProbeBytes);
  const void* nul = std::memchr(bytes.data(), '\0', probe);
  if (nul) {
    size_t at = static_cast<const char*>(nul) - bytes.data();
    return Status::Invalid(path + ": binary file (a NUL byte at offset " + std::to_string(at) + ")");
  }
  return Status::Ok();
}

Status read_whole(storage::Fs& fs, const std::string& path, storage::PaddedBuffer* out, storage::FileInfo* info) {
  XS_RETURN_IF_ERROR(fs.read_file(path, kMaxSourceFileBytes, out, info));
  return check_text_file(path, out->view());
}

}  // namespace

ImportReport start_report(std::string kind, std::string root, bool dry_run) {
  ImportReport r;
  r.source_kind = std::move(kind);
  r.source_root = std::move(root);
  r.dry_run = dry_run;
  return r;
}

Status read_source_rows(storage::Fs& fs, const std::string& path, SourceFile* out) {
  XS_RETURN_IF_ERROR(read_whole(fs, path, &out->bytes, &out->info));
  std::string_view all = out->bytes.view();
  size_t pos = 0;
  if (all.substr(0, 3) == "\xEF\xBB\xBF") pos = 3;
  uint64_t line = 0;
  while (pos < all.size()) {
    ++line;
    size_t nl = all.find('\n', pos);
    bool terminated = nl != std::string_view::npos;
    size_t end = terminated ? nl : all.size();
    std::string_view text = all.substr(pos, end - pos);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    bool blank = text.find_first_not_of(" \t") == std::string_view::npos;
    if (!blank) out->rows.push_back({line, text, terminated});
    pos = terminated ? nl + 1 : all.size();
  }
  return Status::Ok();
}

Status read_source_document(storage::Fs& fs, const std::string& path, storage::PaddedBuffer* out,
                            storage::FileInfo* info) {
  return read_whole(fs, path, out, info);
}

std::optional<std::vector<json::Member>> object_members(std::string_view text, std::string* reason) {
  std::vector<json::Member> members;
  bool is_object = false;
  json::Limits limits;  // the session loader's: a row it would refuse is not imported either
  Status st = json::scan_members(text, limits, &members, &is_object);
  if (!st.ok()) {
    *reason = "not JSON: " + st.message();
    return std::nullopt;
  }
  if (!is_object) {
    *reason = "not a JSON object";
    return std::nullopt;
  }
  return members;
}

void skip_row(ImportReport& report, ImportedSession& session, const std::string& file, const SourceRow& row,
              std::string reason) {
  if (!row.terminated) reason += " (the last line, still without its newline: the next import reads it again)";
  report.skipped.push_back({file, row.line, std::move(reason)});
  ++session.skipped;
}

std::string without_members(const std::vector<json::Member>& members, std::initializer_list<std::string_view> drop) {
  std::string out = "{";
  for (const json::Member& m : members) {
    std::string key;
    json::decode_string_token(m.key, key);
    bool dropped = false;
    for (std::string_view d : drop) dropped = dropped || key == d;
    if (dropped) continue;
    if (out.size() > 1) out += ',';
    out.append(m.key.data(), m.key.size());
    out += ':';
    out.append(m.value.data(), m.value.size());
  }
  out += '}';
  return out;
}

std::optional<double> number_value(const json::Member* m) {
  if (!m || m->kind != json::Kind::kNumber) return std::nullopt;
  std::string token(m->value);
  char* end = nullptr;
  double v = std::strtod(token.c_str(), &end);
  if (end == token.c_str()) return std::nullopt;
  return v;
}

int64_t now_ms(int64_t fixed_ms) {
  if (fixed_ms != 0) return fixed_ms;
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

LockWait wait_for_foreign_lock(storage::Fs& fs, const std::string& lock_path, std::chrono::milliseconds wait,
                               std::chrono::milliseconds stale_after, int64_t fixed_now_ms,
                               const LockCreatedFn& created) {
  using namespace std::chrono;
  constexpr milliseconds kPoll{20};
  const auto start = steady_clock::now();
  LockWait w;
  for (bool first = true;; first = false) {
    auto info = fs.stat(lock_path);
    w.waited = duration_cast<milliseconds>(steady_clock::now() - start);
    if (!info.ok()) {
      w.state = first ? ForeignLock::kFree : ForeignLock::kReleased;
      return w;
    }
    std::optional<int64_t> at = created ? created(fs, lock_path) : std::nullopt;
    w.age_ms = now_ms(fixed_now_ms) - at.value_or(info->mtime_ms);
    if (w.age_ms > stale_after.count()) {
      w.state = ForeignLock::kStale;
      return w;
    }
    if (w.waited >= wait) {
      w.state = ForeignLock::kHeld;
      return w;
    }
    std::this_thread::sleep_for(std::min(kPoll, wait - w.waited));
  }
}

std::string describe(const LockWait& w, const std::string& lock_name) {
  switch (w.state) {
    case ForeignLock::kFree: return lock_name + " is free";
    case ForeignLock::kReleased: return lock_name + " was released after " + std::to_string(w.waited.count()) + " ms";
    case ForeignLock::kStale:
      return lock_name + " is stale (" + std::to_string(w.age_ms / 1000) + " s old; its writer is gone)";
    case ForeignLock::kHeld: break;
  }
  return lock_name + " is held by another process (waited " + std::to_string(w.waited.count()) + " ms)";
}

void append_problems_and_notes(std::string& out, const std::vector<SkippedRow>& problems,
                               const std::vector<std::string>& notes) {
  out += ",\"problems\":[";
  for (size_t i = 0; i < problems.size(); ++i) {
    out += i ? ",{\"file\":" : "{\"file\":";
    json::append_quoted_lossy(out, problems[i].file);
    out += ",\"line\":" + std::to_string(problems[i].line) + ",\"reason\":";
    json::append_quoted_lossy(out, problems[i].reason);
    out += '}';
  }
  out += "],\"notes\":[";
  for (size_t i = 0; i < notes.size(); ++i) {
    if (i) out += ',';
    json::append_quoted_lossy(out, notes[i]);
  }
  out += ']';
}

void append_text_member(std::string& out, std::string_view name, const std::optional<std::string>& text) {
  out += ",\"";
  out += name;
  out += "\":";
  if (text) {
    json::append_quoted_lossy(out, *text);
  } else {
    out += "null";
  }
}

std::string relative_to(const std::string& root, const std::string& path) {
  if (path.size() > root.size() && path.compare(0, root.size(), root) == 0 && path[root.size()] == '/') {
    return path.substr(root.size() + 1);
  }
  return path;
}

}  // namespace xs::import
