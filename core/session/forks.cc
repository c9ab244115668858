#include "session/forks.h"

#include <deque>
#include <unordered_set>

#include "format/envelope.h"
#include "format/session_paths.h"
#include "json/json_string.h"
#include "json/object_edit.h"
#include "storage/path.h"

namespace xs::session {

using model::Entry;
using model::kNone;
using model::LabelState;

namespace {

// The id and the time a new file gets, from the clock and id source its options configure (the
// same sequence continues for the entries the new file is made with, and in the new handle).
format::Header new_header(const SessionOptions& o, format::Dialect d, format::Clock& clock, format::IdGenerator& ids) {
  format::Header h;
  h.version = format::kCurrentVersion;
  int64_t now = clock.now_ms();
  h.id = o.session_id ? *o.session_id : d == format::Dialect::kPi ? ids.uuid_v7(now) : ids.session_id();
  h.timestamp = format::iso_from_ms(now);
  return h;
}

// pi names a copy's source by its path (createBranchedSession, forkFrom); omp names a fork's by
// its id. A file name need not be UTF-8; the header line must be (or it would be skipped on load).
std::string source_name(format::Dialect d, const std::string& path, const std::string& id) {
  return d == format::Dialect::kPi ? json::to_valid_utf8(path) : id;
}

format::Clock clock_of(const SessionOptions& o) { return o.clock.value_or(format::Clock::Real()); }

std::string json_text(std::string_view s) {
  std::string out;
  json::append_quoted(out, s);
  return out;
}

Status check_new_id(const SessionOptions& o) {
  if (o.session_id && !format::is_valid_new_id(*o.session_id)) {
    return Status::Invalid("session id must be 1-64 characters of [A-Za-z0-9_-]");
  }
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<Session>> fork_session(const Session& from, SessionOptions options) {
  XS_RETURN_IF_ERROR(check_new_id(options));
  format::Dialect d = options.dialect.value_or(from.dialect());
  Session::NewFile file{{}, {}, clock_of(options), format::IdGenerator(options.id_seed), d};
  format::Header& h = file.header = new_header(options, d, file.clock, file.ids);
  h.cwd = from.data().header.cwd;
  if (d == format::Dialect::kOmp) h.title = from.data().header.title;  // pi's title is in the copied entries
  h.parent_session = source_name(d, from.path(), from.data().header.id);
  for (const Entry& e : from.data().entries) file.lines.push_back(e.line);
  return Session::create_from(from.fs(), storage::dir_name(from.path()), std::move(options), std::move(file));
}

Result<std::unique_ptr<Session>> create_branched(const Session& from, std::optional<std::string_view> leaf_id,
                                                 SessionOptions options) {
  XS_RETURN_IF_ERROR(check_new_id(options));
  uint32_t leaf = from.tree().leaf();
  if (leaf_id) {
    leaf = from.tree().find(*leaf_id);
    if (leaf == kNone) return Status::NotFound("entry " + std::string(*leaf_id) + " not found");
  }
  if (leaf == kNone) return Status::NotFound("the session has no leaf to branch from");
  format::Dialect d = options.dialect.value_or(from.dialect());
  bool pi = d == format::Dialect::kPi;
  Session::NewFile file{{}, {}, clock_of(options), format::IdGenerator(options.id_seed), d};
  format::Clock& clock = file.clock;
  format::IdGenerator& ids = file.ids;
  format::Header& h = file.header = new_header(options, d, clock, ids);
  h.cwd = from.data().header.cwd;
  h.parent_session = source_name(format::Dialect::kPi, from.path(), {});  // both agents name the file here
  std::vector<std::string_view>& lines = file.lines;
  bool assistant = false;
  std::deque<std::string> relinked;  // owns the lines whose parent was a dropped label (stable)
  std::unordered_set<std::string_view> on_path;
  std::unordered_set<std::string> taken;
  std::string_view last;
  for (uint32_t i : from.tree().path_to(leaf)) {
    const Entry& e = from.data().entries[i];
    assistant = assistant || e.is_assistant();
    on_path.insert(e.id);
    taken.insert(std::string(e.id));
    if (e.type == format::EntryType::kLabel) continue;
    // Label entries sit on the path (they move the leaf), so the entry after one names it as its
    // parent. The reference copies such entries as they are and leaves them orphaned in the new
    // file, cutting the context short; we point them at the entry that precedes them instead.
    if (e.parent != kNone && from.data().entries[e.parent].type == format::EntryType::kLabel) {
      std::string parent = last.empty() ? "null" : json_text(last);
      auto fixed = json::set_member(e.line, "parentId", parent);
      if (!fixed.ok()) return fixed.status();
      relinked.push_back(std::move(*fixed));
      lines.push_back(relinked.back());
    } else {
      lines.push_back(e.line);
    }
    last = e.id;
  }
  // The labels of entries on the path, re-created after it in label order, stamped now (oh-my-pi)
  // or with the label's own time (pi).
  std::deque<std::string> label_lines;
  std::string parent(last);
  for (const LabelState* l : from.tree().labels()) {
    if (!on_path.count(l->target_id)) continue;
    std::string id = ids.entry_id([&](std::string_view c) { return taken.count(std::string(c)) > 0; });
    taken.insert(id);
    std::string ts;
    json::append_quoted(ts, pi ? std::string(l->timestamp) : format::iso_from_ms(clock.now_ms()));
    format::Payload p;
    p.text("targetId", l->target_id);
    p.text("label", l->label);
    format::Envelope env{"\"label\"", id, parent.empty() ? std::nullopt : std::optional<std::string_view>(parent), ts,
                         false};
    label_lines.push_back(format::build_entry_line(env, p));
    parent = id;
  }
  for (const std::string& l : label_lines) lines.push_back(l);
  // pi writes a branched session at once only when its path holds an assistant message; omp always.
  file.write_now = !pi || assistant;
  return Session::create_from(from.fs(), storage::dir_name(from.path()), std::move(options), std::move(file));
}

Result<std::unique_ptr<Session>> fork_from(std::shared_ptr<storage::Fs> fs, const std::string& source,
                                           const std::string& dir, SessionOptions options) {
  XS_RETURN_IF_ERROR(check_new_id(options));
  SessionOptions read;
  read.read_only = true;
  read.limits = options.limits;
  read.id_seed = options.id_seed;  // ids a migration of the source makes, reproducible in tests
  read.clock = options.clock;
  read.default_dialect = options.default_dialect;
  auto src = Session::open(fs, source, read);
  if (!src.ok()) return src.status().With("cannot fork " + source);
  format::Dialect d = options.dialect.value_or((*src)->dialect());
  Session::NewFile file{{}, {}, clock_of(options), format::IdGenerator(options.id_seed), d};
  format::Header& h = file.header = new_header(options, d, file.clock, file.ids);
  h.cwd = options.cwd.empty() ? storage::current_directory() : options.cwd;
  if (d == format::Dialect::kOmp) h.title = (*src)->data().header.title;
  h.parent_session = source_name(d, source, (*src)->data().header.id);
  for (const Entry& e : (*src)->data().entries) file.lines.push_back(e.line);
  return Session::create_from(fs, dir, std::move(options), std::move(file));
}

}  // namespace xs::session
