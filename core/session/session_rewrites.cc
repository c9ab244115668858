// What rewrites a session file in place: repair, and a move to another working directory.
//
// Repair (the CLI's `xs repair`) fixes what can be fixed without losing a byte.
// Without quarantine, nothing a reader could miss changes: the final newline a torn tail lacks is
// written, so the fragment becomes a complete (skipped, reported, kept) line and the next append
// cannot be glued onto it.
//
// With quarantine, the lines that are not JSON (upkeep/quarantine.h) leave the session, and no
// byte is lost on the way. In order:
//  1. everything that can run out of memory: the quarantine records, the new file's bytes, and
//     the session as it will be, loaded from those bytes (so line numbers, offsets and diagnostics
//     are the new file's); the handle's own state is set aside to be put back on any failure;
//  2. the quarantine file, written whole and synced with its directory (storage::write_new_file),
//     so from here on the moved bytes are on disk twice (a crash before step 3 loses nothing);
//  3. the session file replaced atomically by the bytes that stay (temp file, sync, freshness
//     check, rename, directory sync). If that fails, the file is unchanged, the handle is as it
//     was, and the quarantine copy stays (harmless: its bytes are still in the session).
// Every write failure is latched (the handle is poisoned, as for every other write it makes);
// kConflict (another process changed the file) and lookup failures are not.
#include <algorithm>
#include <utility>

#include "format/header.h"
#include "format/side_files.h"
#include "json/json_string.h"
#include "json/line_scanner.h"
#include "json/object_edit.h"
#include "model/loader.h"
#include "session/session.h"
#include "storage/atomic_file.h"
#include "storage/path.h"
#include "upkeep/quarantine.h"
#include "upkeep/report_json.h"

namespace xs::session {

using model::Diagnostic;
using model::kBom;
using model::Line;
using model::load_file;
using model::SessionData;
using model::Tree;
using upkeep::append_problem;
using upkeep::lines_to_quarantine;
using upkeep::quarantine_record;
using upkeep::QuarantinedLine;

namespace {

// Runs `f` when the scope ends, however it ends (an error return, bad_alloc).
template <class F>
class OnExit {
 public:
  explicit OnExit(F f) : f_(std::move(f)) {}
  ~OnExit() { f_(); }
  OnExit(const OnExit&) = delete;
  OnExit& operator=(const OnExit&) = delete;

 private:
  F f_;
};

struct QuarantineFile {
  std::string path;
  size_t lines = 0;
  uint64_t bytes = 0;  // removed from the session file, newlines included
};

// {"path","done":[...]} and, in quarantine mode, "quarantine": null or {"path","lines","bytes"}.
std::string repair_report(const std::string& path, const std::vector<Diagnostic>& done, RepairMode mode,
                          const QuarantineFile* moved) {
  std::string out = "{\"path\":";
  json::append_quoted_lossy(out, path);
  out += ",\"done\":[";
  for (size_t i = 0; i < done.size(); ++i) {
    if (i) out += ',';
    append_problem(out, done[i], std::nullopt);
  }
  out += ']';
  if (mode == RepairMode::kQuarantine) {
    if (moved) {
      out += ",\"quarantine\":{\"path\":";
      json::append_quoted_lossy(out, moved->path);
      out += ",\"lines\":" + std::to_string(moved->lines) + ",\"bytes\":" + std::to_string(moved->bytes) + '}';
    } else {
      out += ",\"quarantine\":null";
    }
  }
  out += '}';
  return out;
}

}  // namespace

std::vector<Diagnostic> Session::done_by_open() const {
  std::vector<Diagnostic> done;
  if (rewritten_on_open_) {
    done.push_back({0, 0, 0, "migrated",
                    "rewritten from version " + std::to_string(file_version_) + " to " +
                        std::to_string(format::kCurrentVersion) + " (atomically) when opened for writing"});
  }
  for (const Diagnostic& d : data_.diagnostics) {
    if (d.code == "corrupt_file_preserved") done.push_back(d);
  }
  return done;
}

Result<std::string> Session::repair(RepairMode mode) {
  XS_RETURN_IF_ERROR(check_writable());
  std::vector<Diagnostic> done = done_by_open();
  if (mode == RepairMode::kQuarantine && persistence_.persisted()) {
    std::vector<QuarantinedLine> moved = lines_to_quarantine(data_, !persistence_.needs_newline(), options_.limits);
    if (!moved.empty()) return repair_by_quarantine(std::move(done), moved);
  }
  if (persistence_.needs_newline() && !data_.lines.empty()) {
    Line& last = data_.lines.back();
    XS_RETURN_IF_ERROR(persistence_.terminate_tail());
    done.push_back({data_.lines.size(), last.offset, last.bytes.size(), "newline_written",
                    data_.pending_tail ? "wrote the newline the torn last line lacked; its bytes stay in the file "
                                         "as a skipped line"
                                       : "wrote the newline the last line lacked"});
    data_.ends_with_newline = true;
    if (data_.pending_tail) {
      // The fragment is now a complete bad line: report it as a reopen would.
      data_.pending_tail = false;
      json::LineScanner scanner(options_.limits);
      json::LineFacts facts;
      scanner.scan(last.bytes, &facts);
      for (Diagnostic& d : data_.diagnostics) {
        if (d.code != "incomplete_tail" || d.offset != last.offset) continue;
        d.code = std::string(scanner.code());
        d.reason = scanner.reason();
      }
    }
    ++generation_;
  }
  return repair_report(path(), done, mode, nullptr);
}

Result<std::string> Session::repair_by_quarantine(std::vector<Diagnostic> done,
                                                  const std::vector<QuarantinedLine>& moved) {
  XS_RETURN_IF_ERROR(persistence_.check_healthy());
  // Moving lines out of a file another process has written since we read it would lose its bytes
  // (the rewrite's own freshness check catches it too, but only after the quarantine is written).
  XS_RETURN_IF_ERROR(persistence_.check_unchanged());

  // 1. The records, the bytes that stay, and the report's items.
  QuarantineFile q;
  q.lines = moved.size();
  std::string records;
  std::vector<char> goes(data_.lines.size(), 0);
  for (const QuarantinedLine& m : moved) {
    std::string_view bytes = data_.lines[m.index].bytes;
    records += quarantine_record(m, bytes);
    q.bytes += bytes.size() + (m.newline ? 1 : 0);
    goes[m.index] = 1;
    done.push_back({m.index + 1u, m.offset, bytes.size(), "quarantined", m.code + ": " + m.reason});
  }
  uint64_t size = data_.bom ? kBom.size() : 0, offset = size;
  for (size_t i = 0; i < data_.lines.size(); ++i) {
    const Line& l = data_.lines[i];
    if (!goes[i]) size += l.bytes.size() + 1;
    bool last = i + 1 == data_.lines.size();
    if (last && !goes[i] && persistence_.needs_newline()) {
      done.push_back({i + 1, offset, l.bytes.size(), "newline_written",
                      "the rewrite ended the last line with the newline it lacked"});
    }
    offset += l.bytes.size() + 1;
  }
  storage::PaddedBuffer image(size);
  char* at = image.data();
  if (data_.bom) at = std::copy(kBom.begin(), kBom.end(), at);
  for (size_t i = 0; i < data_.lines.size(); ++i) {
    if (goes[i]) continue;
    at = std::copy(data_.lines[i].bytes.begin(), data_.lines[i].bytes.end(), at);
    *at++ = '\n';
  }

  // The session as it will be. The handle's state is set aside and put back unless the new file
  // is in place; putting it back only moves (no allocation that could fail again).
  SessionData old_data = std::move(data_);
  Tree old_tree = std::move(tree_);  // points at data_, which gets old_data back
  const uint32_t leaf = old_tree.leaf();
  const size_t entries = old_data.entries.size();
  bool adopted = false;
  OnExit put_back([&] {
    if (adopted) return;
    data_ = std::move(old_data);
    tree_ = std::move(old_tree);
  });
  data_ = SessionData();
  Status loaded = load_file(std::move(image), options_.limits, &data_);
  if (!loaded.ok() || data_.header.version < format::kCurrentVersion || data_.entries.size() != entries) {
    return Status::Internal("the repaired file would not load as the session it was: " + loaded.message());
  }
  for (const Diagnostic& d : old_data.diagnostics) {
    if (d.code == "corrupt_file_preserved") data_.diagnostics.push_back(d);
  }
  tree_ = Tree(&data_);
  tree_.build();
  tree_.set_leaf(leaf);  // the same entries in the same order: the leaf keeps its index

  // 2. The quarantine file, whole and durable, before the session changes.
  std::string stem = path() + std::string(format::kQuarantineInfix) + format::file_stamp(clock_.now_ms());
  Status st = storage::write_new_file(*fs_, stem, std::string(format::kQuarantineSuffix), {records}, &q.path);
  if (!st.ok()) {
    std::string what = q.path.empty()
                           ? "writing the quarantine file " + stem + "*" + std::string(format::kQuarantineSuffix)
                           : "syncing the directory of the quarantine file " + q.path;
    return persistence_.latch(st.With(what + " (" + path() + " is unchanged)"));
  }
  std::string report = repair_report(path(), done, RepairMode::kQuarantine, &q);

  // 3. The session file without the moved lines.
  bool replaced = false;
  storage::FileInfo written;
  st = persistence_.replace({data_.buffers.front().view()}, &replaced, &written);
  if (!replaced) {
    return st.With("the lines to move were first copied to " + q.path + ", which stays; " + path() + " is unchanged");
  }
  adopted = true;
  file_size_ = written.size;
  read_dev_ = written.dev;
  read_ino_ = written.ino;
  consumed_ = written.size;
  ++generation_;
  if (!st.ok()) return st.With(path() + " was repaired (its moved lines are in " + q.path + "), but");
  return report;
}

Status Session::move_to(const std::string& dir, const std::string& cwd) {
  XS_RETURN_IF_ERROR(check_writable());
  const Status& sticky = persistence_.sticky_error();
  if (!sticky.ok()) return Status(Code::kPoisoned, "an earlier write failed: " + sticky.message());
  if (!json::is_valid_utf8(cwd)) return Status::Invalid("cwd must be UTF-8");
  if (options_.stats_sink) record_behind_ = true;  // its sessionFile changes
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
