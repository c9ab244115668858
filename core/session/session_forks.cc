// New session files made from existing ones: fork, createBranchedSession, forkFrom; and moving a
// session to another working directory (reference §7).
#include <deque>
#include <unordered_set>

#include "discovery/session_paths.h"
#include "format/envelope.h"
#include "json/json_string.h"
#include "json/object_edit.h"
#include "session/loader.h"
#include "session/session.h"
#include "storage/path.h"

namespace xs::session {

Result<std::unique_ptr<Session>> Session::write_new(std::shared_ptr<storage::Fs> fs, const std::string& dir,
                                                    SessionOptions options, format::Header header,
                                                    const std::vector<std::string_view>& lines) {
  options.read_only = false;
  std::string text = format::build_header_line(header) + "\n";
  for (std::string_view l : lines) text.append(l).push_back('\n');
  std::string path = storage::join_path(dir, discovery::session_file_name(header.timestamp, header.id));
  std::unique_ptr<Session> s(new Session(fs, path, std::move(options)));
  uint64_t size = text.size();
  XS_RETURN_IF_ERROR(load_file(storage::PaddedBuffer::Copy(text), s->options_.limits, &s->data_));
  s->file_size_ = size;
  s->tree_.build();
  XS_RETURN_IF_ERROR(s->persistence_.write_now(s->data_));
  return s;
}

namespace {

// The id and the time a new file gets, from the clock and id source its options configure (the
// same sequence continues for entries the new file gets made with).
format::Header new_header(const SessionOptions& o, format::Clock& clock, format::IdGenerator& ids) {
  format::Header h;
  h.version = format::kCurrentVersion;
  h.id = o.session_id ? *o.session_id : ids.session_id();
  h.timestamp = format::iso_from_ms(clock.now_ms());
  return h;
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

Result<std::unique_ptr<Session>> Session::fork(SessionOptions options) const {
  XS_RETURN_IF_ERROR(check_new_id(options));
  format::Clock clock = clock_of(options);
  format::IdGenerator ids(options.id_seed);
  format::Header h = new_header(options, clock, ids);
  h.cwd = data_.header.cwd;
  h.title = data_.header.title;
  h.parent_session = data_.header.id;
  std::vector<std::string_view> lines;
  for (const Entry& e : data_.entries) lines.push_back(e.line);
  return write_new(fs_, storage::dir_name(path()), std::move(options), std::move(h), lines);
}

Result<std::unique_ptr<Session>> Session::create_branched(std::optional<std::string_view> leaf_id,
                                                          SessionOptions options) const {
  XS_RETURN_IF_ERROR(check_new_id(options));
  uint32_t leaf = tree_.leaf();
  if (leaf_id) {
    leaf = tree_.find(*leaf_id);
    if (leaf == kNone) return Status::NotFound("entry " + std::string(*leaf_id) + " not found");
  }
  if (leaf == kNone) return Status::NotFound("the session has no leaf to branch from");
  format::Clock clock = clock_of(options);
  format::IdGenerator ids(options.id_seed);
  format::Header h = new_header(options, clock, ids);
  h.cwd = data_.header.cwd;
  // A file name need not be UTF-8; the header line must be (or it would be skipped on load).
  h.parent_session = json::to_valid_utf8(path());
  std::vector<std::string_view> lines;
  std::deque<std::string> relinked;  // owns the lines whose parent was a dropped label (stable)
  std::unordered_set<std::string_view> on_path;
  std::unordered_set<std::string> taken;
  std::string_view last;
  for (uint32_t i : tree_.path_to(leaf)) {
    const Entry& e = data_.entries[i];
    on_path.insert(e.id);
    taken.insert(std::string(e.id));
    if (e.type == format::EntryType::kLabel) continue;
    // Label entries sit on the path (they move the leaf), so the entry after one names it as its
    // parent. The reference copies such entries as they are and leaves them orphaned in the new
    // file, cutting the context short; we point them at the entry that precedes them instead.
    if (e.parent != kNone && data_.entries[e.parent].type == format::EntryType::kLabel) {
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
  // The labels of entries on the path, re-created after it in label order (omp 13: stamped now).
  std::deque<std::string> label_lines;
  std::string parent(last);
  for (const LabelState* l : tree_.labels()) {
    if (!on_path.count(l->target_id)) continue;
    std::string id = ids.entry_id([&](std::string_view c) { return taken.count(std::string(c)) > 0; });
    taken.insert(id);
    std::string ts;
    json::append_quoted(ts, format::iso_from_ms(clock.now_ms()));
    format::Payload p;
    p.text("targetId", l->target_id);
    p.text("label", l->label);
    format::Envelope env{"\"label\"", id, parent.empty() ? std::nullopt : std::optional<std::string_view>(parent), ts,
                         false};
    label_lines.push_back(format::build_entry_line(env, p));
    parent = id;
  }
  for (const std::string& l : label_lines) lines.push_back(l);
  return write_new(fs_, storage::dir_name(path()), std::move(options), std::move(h), lines);
}

Result<std::unique_ptr<Session>> Session::fork_from(std::shared_ptr<storage::Fs> fs, const std::string& source,
                                                    const std::string& dir, SessionOptions options) {
  XS_RETURN_IF_ERROR(check_new_id(options));
  SessionOptions read;
  read.read_only = true;
  read.limits = options.limits;
  read.id_seed = options.id_seed;  // ids a migration of the source makes, reproducible in tests
  read.clock = options.clock;
  auto src = Session::open(fs, source, read);
  if (!src.ok()) return src.status().With("cannot fork " + source);
  format::Clock clock = clock_of(options);
  format::IdGenerator ids(options.id_seed);
  format::Header h = new_header(options, clock, ids);
  h.cwd = options.cwd;
  h.title = (*src)->data_.header.title;
  h.parent_session = (*src)->data_.header.id;
  std::vector<std::string_view> lines;
  for (const Entry& e : (*src)->data_.entries) lines.push_back(e.line);
  return write_new(fs, dir, std::move(options), std::move(h), lines);
}

Status Session::move_to(const std::string& dir, const std::string& cwd) {
  XS_RETURN_IF_ERROR(check_writable());
  const Status& sticky = persistence_.sticky_error();
  if (!sticky.ok()) return Status(Code::kPoisoned, "an earlier write failed: " + sticky.message());
  if (!json::is_valid_utf8(cwd)) return Status::Invalid("cwd must be UTF-8");
  std::string cwd_token;
  json::append_quoted(cwd_token, cwd);
  auto header = json::set_member(data_.header_bytes(), "cwd", cwd_token);
  if (!header.ok()) return header.status();
  std::string from = path();
  std::string to = storage::join_path(dir, storage::base_name(from));
  Line& hl = data_.lines[data_.header_line];
  // The new header and cwd are made before anything moves; the header line goes back to the old
  // bytes on every way out but success (an error, or running out of memory half-way).
  std::string_view new_header = data_.arena.store(*header, json::kPadding);
  std::string new_cwd = cwd;
  struct RestoreHeader {
    Line& line;
    std::string_view old;
    bool done = false;
    ~RestoreHeader() {
      if (!done) line.bytes = old;
    }
  } restore{hl, hl.bytes};
  if (to == from || !persistence_.persisted()) {
    // Two cwds can share a directory ("/a-b" and "/a/b" encode alike): then only the header
    // changes. A session not on disk yet will simply be written in its new place.
    if (to != from) XS_RETURN_IF_ERROR(persistence_.rename_unwritten(to));
    hl.bytes = new_header;
    XS_RETURN_IF_ERROR(persistence_.rewrite(data_));  // a no-op while nothing is on disk
    restore.done = true;
    data_.header.cwd.swap(new_cwd);
    if (persistence_.persisted()) recount_file_size();
    ++generation_;
    return Status::Ok();
  }
  // The artifacts directory travels with its session (omp's moveTo). Only "not found" means there
  // is none: any other failure to look stops the move before anything moved.
  std::string artifacts_from = from.substr(0, from.size() - 6), artifacts_to = to.substr(0, to.size() - 6);
  bool artifacts = false;
  if (from.size() > 6 && from.compare(from.size() - 6, 6, ".jsonl") == 0) {
    auto a = fs_->stat(artifacts_from);
    if (!a.ok() && a.status().code() != Code::kNotFound) return a.status().With("looking for the artifacts directory");
    artifacts = a.ok();
  }
  XS_RETURN_IF_ERROR(fs_->make_dirs(dir));
  XS_RETURN_IF_ERROR(persistence_.move(to));
  if (artifacts) {
    Status st = fs_->rename_noreplace(artifacts_from, artifacts_to);
    if (!st.ok()) {
      persistence_.latch(persistence_.move(from));  // a failed move back leaves it misplaced: latched
      if (st.code() != Code::kExists) st = persistence_.latch(st);
      return st.With("moving the artifacts directory");
    }
  }
  hl.bytes = new_header;
  Status st = persistence_.rewrite(data_);
  if (!st.ok()) {
    // Undone step by step; a step that cannot be undone leaves the session elsewhere: latched.
    if (artifacts) persistence_.latch(fs_->rename_noreplace(artifacts_to, artifacts_from));
    persistence_.latch(persistence_.move(from));
    return st;
  }
  restore.done = true;
  data_.header.cwd.swap(new_cwd);
  recount_file_size();
  ++generation_;
  return Status::Ok();
}

}  // namespace xs::session
