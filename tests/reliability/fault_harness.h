// What the fault matrix checks after every run of a workload (fault_workloads.h), whatever the
// fault was (docs/guarantees.md#t4; it proves G1, G5, G8, G9 and G11 of that page):
//  1. the result: OK only when no write, sync or rename failed, and then exactly the fault-free
//     run's value and files (so a fault the operation absorbed left nothing wrong behind); a read
//     that failed gives the fault-free value when repeated on a healthy seam;
//  2. the handle: poisoned (every mutating call says kPoisoned and touches nothing) after its own
//     write, sync or rename failed; still usable after a fault that must not poison it;
//  3. leaks: descriptors (/proc/self/fd) back to the baseline, no file or lock of the seam still
//     open once every handle is gone;
//  4. the disk, reopened on a healthy seam: every lock file can be taken, a lock file beside no
//     session goes at the next writable open of its path, every session file opens for writing
//     with no damage beyond what the fault could tear, holds every acknowledged entry exactly once
//     and byte for byte, and takes a new entry that reads back intact; no temp file survives the
//     next writable open; a preserved copy of a header-less file holds its original bytes; every
//     blob matches its name.
#pragma once

#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "fault_workloads.h"
#include "format/side_files.h"
#include "storage/path.h"

namespace xs::test::faults {

// A directory tree in memory: the template a run starts from, and what a run left.
struct Tree {
  std::set<std::string> dirs;                // relative paths
  std::map<std::string, std::string> files;  // relative path -> bytes
  std::map<std::string, struct timespec> mtimes;
};

inline bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}
inline bool is_temp(const std::string& rel) { return rel.find(".xs-tmp-") != std::string::npos; }
inline bool is_lock(const std::string& rel) { return ends_with(rel, ".lock"); }
// Not "x.jsonl.corrupt-...", nor "x.jsonl.quarantine-<time>.jsonl" (the lines a repair moved out).
inline bool is_session(const std::string& rel) {
  return ends_with(rel, ".jsonl") && !format::is_quarantine_file_name(storage::base_name(rel));
}

inline Tree snapshot(const std::string& root) {
  namespace fs = std::filesystem;
  Tree t;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    std::string rel = it->path().lexically_relative(root).string();
    struct stat st;
    if (::lstat(it->path().c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      t.dirs.insert(rel);
    } else if (S_ISREG(st.st_mode)) {
      t.files[rel] = read_file(it->path().string());
      t.mtimes[rel] = st.st_mtim;
    }
  }
  return t;
}

inline void restore(const Tree& t, const std::string& root) {
  for (const std::string& d : t.dirs) ::mkdir((root + "/" + d).c_str(), 0700);  // sorted: parents first
  for (const auto& [rel, bytes] : t.files) {
    std::string path = root + "/" + rel;
    write_file(path, bytes);
    struct timespec ts[2] = {t.mtimes.at(rel), t.mtimes.at(rel)};
    ::utimensat(AT_FDCWD, path.c_str(), ts, 0);
  }
}

// A value without the run's directory in it (paths in values and files differ from run to run).
inline std::string relative(std::string value, const std::string& root) {
  for (size_t p = value.find(root); p != std::string::npos; p = value.find(root, p)) value.erase(p, root.size());
  return value;
}

// The files an OK result must reproduce exactly: all but lock and temp files (their own checks
// cover them), with the run's directory taken out of their bytes (a branched file names its parent).
inline std::map<std::string, std::string> content(const Tree& t, const std::string& root) {
  std::map<std::string, std::string> m;
  for (const auto& [rel, bytes] : t.files) {
    if (!is_lock(rel) && !is_temp(rel)) m[rel] = relative(bytes, root);
  }
  return m;
}

inline std::string first_difference(const std::string& got, const std::string& want) {
  size_t i = 0;
  while (i < got.size() && i < want.size() && got[i] == want[i]) ++i;
  return "at byte " + std::to_string(i) + ": got \"" + got.substr(i > 20 ? i - 20 : 0, 80) + "\", want \"" +
         want.substr(i > 20 ? i - 20 : 0, 80) + "\"";
}

// Where a run's files differ from the fault-free run's (its directories and content()); "" if nowhere.
inline std::string tree_difference(const Tree& got, const std::string& root, const std::set<std::string>& want_dirs,
                                   const std::map<std::string, std::string>& want) {
  if (got.dirs != want_dirs) return "the directories differ";
  auto have = content(got, root);
  for (const auto& [rel, bytes] : want) {
    auto it = have.find(rel);
    if (it == have.end()) return rel + " is missing";
    if (it->second != bytes) return rel + " differs: " + first_difference(it->second, bytes);
  }
  for (const auto& [rel, bytes] : have) {
    if (!want.count(rel)) return rel + " should not exist";
  }
  return "";
}

// The template of a workload: its files, and the entries they hold (acknowledged before any run).
struct Template {
  Tree tree;
  std::vector<Ack> acked;
  std::map<std::string, size_t> damage;  // session id -> diagnostics its prepared file already has
};

inline Template make_template(const Workload& w) {
  Template t;
  TempDir dir;
  Trial r;
  r.root = dir.path();
  r.fs = std::make_shared<storage::FaultyFs>(storage::make_posix_fs(), /*real_syncs=*/false);
  if (w.blobs) r.blobs = std::make_shared<blobs::BlobStore>(r.fs, r.root);
  if (w.prepare) w.prepare(r);
  t.tree = snapshot(dir.path());
  for (const auto& [rel, bytes] : t.tree.files) {
    if (!is_session(rel)) continue;
    auto l = load(bytes, {}, kSeed);  // migrated with the seed the runs' handles use: the same ids
    if (!l->status.ok()) continue;
    std::string id = l->data.header.id;
    t.damage[id] = all_diagnostics(*l).size();
    for (const model::Entry& e : l->data.entries) t.acked.push_back({id, std::string(e.id), std::string(e.line)});
  }
  return t;
}

// What a run must show (decided by the test from the fault it injected).
struct Expect {
  bool must_fail = false;     // a write, sync or rename failed: OK would be a false OK
  bool must_succeed = false;  // the fault is one the operation must ride out (EINTR, a short write)
  bool poisoned = false;      // the failure was the handle's own write: it must refuse everything
  bool healthy = false;       // nothing failed that may poison: the handle must take a new entry
  size_t extra_damage = 0;    // damaged lines a torn write may have left
  bool leftovers = false;     // an unlink failed: a temp file may stay where no open removes it
};

// The fault-free run of a workload.
struct Clean {
  std::string value;
  std::set<std::string> dirs;
  std::map<std::string, std::string> files;  // content() of its tree
  std::vector<storage::FsOp> op_calls;  // the operation's seam calls, in order
};

// Violations, grouped by check, each with the operations it was seen in and a few examples (a
// systematic bug would otherwise print thousands of lines).
class Findings {
 public:
  void add(const std::string& workload, const std::string& check, const std::string& example) {
    Item& it = items_[check];
    it.workloads.insert(workload);
    if (++it.count <= 4) it.examples.push_back("[" + workload + "] " + example);
  }
  size_t total() const {
    size_t n = 0;
    for (const auto& [check, it] : items_) n += it.count;
    return n;
  }
  void report() const {
    for (const auto& [check, it] : items_) {
      std::string msg = check + ": " + std::to_string(it.count) + " run(s) of " + std::to_string(it.workloads.size()) +
                        " operation(s):";
      for (const std::string& w : it.workloads) msg += " [" + w + "]";
      msg += "\n  e.g.";
      for (const std::string& e : it.examples) msg += "\n    " + e;
      ADD_FAILURE() << msg;
    }
  }

 private:
  struct Item {
    size_t count = 0;
    std::set<std::string> workloads;
    std::vector<std::string> examples;
  };
  std::map<std::string, Item> items_;
};

struct Stats {
  size_t runs = 0;
  size_t ok_compared = 0;    // OK results compared with the fault-free run
  size_t poison_checks = 0;  // poisoned handles probed
  size_t acked_refound = 0;  // acknowledged entries found again after reopening
  size_t reopened = 0;       // session files reopened and appended to
};

inline bool mutating(storage::FsOp op) {
  using storage::FsOp;
  return op == FsOp::kAppend || op == FsOp::kSync || op == FsOp::kSyncDir || op == FsOp::kRename ||
         op == FsOp::kRenameNoReplace || op == FsOp::kCreateNew || op == FsOp::kUnlink || op == FsOp::kTouch ||
         op == FsOp::kMakeDirs || op == FsOp::kOpenAppend;
}

// A fresh copy of the template, the run's seam, and the setup; false (reported) if the setup failed.
inline bool start_run(const Workload& w, const Template& t, const std::string& root, Trial& r,
                      storage::WriteFn write_fn = nullptr) {
  restore(t.tree, root);
  r.root = root;
  r.fds_before = open_fd_count();
  // Syncs are counted and can fail, but one that passes skips fdatasync: these runs test errors,
  // not power loss, and on a real disk fsync would be most of their time.
  r.fs = std::make_shared<storage::FaultyFs>(storage::make_posix_fs(write_fn), /*real_syncs=*/false);
  if (w.blobs) r.blobs = std::make_shared<blobs::BlobStore>(r.fs, r.root);
  r.acked = t.acked;
  if (!w.setup) return true;
  Status st = w.setup(r);
  EXPECT_TRUE(st.ok()) << w.name << ": setup failed: " << st.message();
  return st.ok();
}

// Every mutating call on a poisoned handle says kPoisoned and leaves the disk alone.
inline void probe_poisoned(const Workload& w, Trial& r, Session& h, const std::string& where, Findings& f) {
  std::string id;
  std::vector<std::pair<std::string, std::function<Status()>>> probes = {
      {"append_message", [&] { return h.append_message(user_message("poisoned?"), &id); }},
      {"append_custom", [&] { return h.append_custom("poisoned", std::nullopt, &id); }},
      {"set_title", [&] { return h.set_title(std::string_view("poisoned")); }},
      {"persist", [&] { return h.persist(); }},
      {"flush", [&] { return h.flush(); }},
      {"move_to", [&] { return h.move_to(r.root + "/poisoned", "/poisoned"); }},
  };
  for (const auto& [name, call] : probes) {
    size_t before = r.fs->log().size();
    Status st = call();
    if (st.code() != Code::kPoisoned) {
      f.add(w.name, "a mutating call on a poisoned session did not return kPoisoned",
            where + ": " + name + " -> " + (st.ok() ? "OK" : st.message()));
    }
    std::vector<storage::FsOp> log = r.fs->log();
    std::string changed;
    for (size_t i = before; i < log.size(); ++i) {
      if (mutating(log[i])) changed += std::string(changed.empty() ? "" : ", ") + storage::fs_op_name(log[i]);
    }
    if (!changed.empty()) f.add(w.name, "a poisoned session still changed the disk in " + name, where + ": " + changed);
  }
}

inline void check_disk(const Workload& w, const Template& t, Trial& r, const Expect& e, const std::string& where,
                       Findings& f, Stats& stats) {
  auto fail = [&](const std::string& check, const std::string& detail) { f.add(w.name, check, where + ": " + detail); };
  auto healthy = std::make_shared<storage::FaultyFs>(storage::make_posix_fs(), /*real_syncs=*/false);
  auto healthy_blobs = w.blobs ? std::make_shared<blobs::BlobStore>(healthy, r.root) : nullptr;
  auto reopen_opts = [&](bool read_only) {
    SessionOptions o;
    o.read_only = read_only;
    o.cwd = "/work";
    o.clock = format::Clock::Fixed(kClockStart + 3600000, 1000);
    o.id_seed = kSeed;
    o.blobs = healthy_blobs;
    return o;
  };

  // Locks: none still held; a lock file beside no session goes at the next writable open of its path.
  Tree after = snapshot(r.root);
  for (const auto& [rel, bytes] : after.files) {
    if (!is_lock(rel)) continue;
    std::string path = r.root + "/" + rel;
    if (!healthy->try_lock(path).ok()) fail("a lock is still held after every handle is gone", rel);
    std::string session_rel = rel.substr(0, rel.size() - 5);
    if (after.files.count(session_rel)) continue;
    auto s = Session::open(healthy, r.root + "/" + session_rel, reopen_opts(false));
    if (s.status().code() != Code::kNotFound) {
      fail("a writable open of a path with only a lock file does not say kNotFound", s.status().message());
    }
    if (file_exists(path)) fail("a lock file beside no session stays after the next writable open", rel);
  }

  // Every session file: opens for writing, no new damage, every acknowledged entry once and intact.
  std::map<std::string, int> files_of;  // session id -> files with that header id
  for (const auto& [rel, bytes] : after.files) {
    if (!is_session(rel)) continue;
    std::string path = r.root + "/" + rel;
    auto s = Session::open(healthy, path, reopen_opts(false));
    if (!s.ok()) {
      fail("a session file does not open for writing after the fault", rel + ": " + s.status().message());
      continue;
    }
    Session& h = **s;
    std::string sid = h.header_info().id;
    ++files_of[sid];
    std::string diags = h.diagnostics_json();
    size_t damage = h.diagnostic_count() - count_occurrences(diags, "\"code\":\"corrupt_file_preserved\"");
    size_t allowed = (t.damage.count(sid) ? t.damage.at(sid) : 0) + e.extra_damage;
    if (damage > allowed) fail("the file has damage the fault cannot explain", rel + ": " + diags);
    std::string entries = h.entries_json();
    for (const Ack& a : r.acked) {
      if (a.session_id != sid) continue;
      auto line = h.entry_json(a.id);
      if (count_occurrences(entries, "\"id\":\"" + a.id + "\"") != 1 || !line.ok() || *line != a.line) {
        fail("an acknowledged entry is missing, doubled or changed", rel + ": entry " + a.id);
      } else {
        ++stats.acked_refound;
      }
    }
    std::string id;
    Status st = h.append_message(user_message("after reopening"), &id);
    auto line = h.entry_json(id);
    size_t count = h.entry_count();
    Status closed = h.close();
    s->reset();
    auto check = Session::open(healthy, path, reopen_opts(true));
    if (!st.ok() || !closed.ok() || !line.ok() || !check.ok() || (*check)->entry_count() != count ||
        (*check)->entry_json(id).status().code() != Code::kOk || *(*check)->entry_json(id) != *line) {
      fail("an entry appended after reopening does not read back intact", rel + ": " + st.message() + closed.message());
    }
    ++stats.reopened;
  }
  std::set<std::string> acked_sessions;
  for (const Ack& a : r.acked) acked_sessions.insert(a.session_id);
  for (const std::string& sid : acked_sessions) {
    if (files_of[sid] != 1) {
      fail("a session with acknowledged entries is in " + std::to_string(files_of[sid]) + " files", "session " + sid);
    }
  }

  // Temp files, preserved copies, blobs.
  Tree last = snapshot(r.root);
  std::set<std::string> preserved;  // originals with a copy that holds their bytes
  for (const auto& [rel, bytes] : last.files) {
    std::string dir = storage::dir_name(rel), name = storage::base_name(rel);
    if (dir == "blobs") {
      if (blobs::is_blob_hash(name)) {
        if (blobs::sha256_hex(bytes) != name) fail("a blob does not match its name", rel);
      } else if (!is_temp(name)) {
        fail("a file in the blob store that is neither a blob nor a put's temp file", rel);
      } else if (!e.leftovers && !t.tree.files.count(rel)) {
        fail("a put left a temp file although no unlink failed", rel);
      }
      continue;
    }
    if (is_temp(name)) {
      // ".<target>.xs-tmp-<random>": the next writable open of <target> removes it.
      std::string target = name.substr(1, name.find(".xs-tmp-") - 1);
      if (last.files.count(dir == "." ? target : dir + "/" + target)) {
        fail("a temp file survived the next writable open", rel);
      } else if (!e.leftovers) {
        fail("a temp file was left although no unlink failed", rel);
      }
    }
    size_t cut = rel.find(".corrupt-");
    if (cut != std::string::npos) {
      auto original = t.tree.files.find(rel.substr(0, cut));
      if (original != t.tree.files.end() && original->second == bytes) {
        preserved.insert(original->first);
      } else if (!e.leftovers) {
        // Only a copy whose write failed and whose unlink failed too may be short; the next open
        // then preserves the file again under another name.
        fail("a preserved copy does not hold the original bytes", rel);
      }
    }
  }
  for (const auto& [rel, bytes] : last.files) {
    size_t cut = rel.find(".corrupt-");
    if (cut != std::string::npos && !preserved.count(rel.substr(0, cut))) {
      fail("no preserved copy holds the original bytes", rel.substr(0, cut));
    }
  }
}

// What a handle shows of its entries (its diagnostics aside: a read may add a report to them).
inline std::string entries_view(const Session& s) {
  // Every handle has a header line; one that lost it would index past its lines in header().
  if (s.header_info().id.empty()) return "<the handle has no header line>\n" + s.entries_json();
  return std::string(s.header()) + "\n" + s.entries_json();
}

// Everything after the operation (see the top of the file). `st` is what the operation returned;
// `before` is entries_view() of r.s before it (when there was a handle); the fault must already be
// disarmed.
inline void finish_run(const Workload& w, const Template& t, const Clean& clean, Trial& r, const Status& st,
                       const std::string& before, const Expect& e, const std::string& where, Findings& f,
                       Stats& stats) {
  auto fail = [&](const std::string& check, const std::string& detail) { f.add(w.name, check, where + ": " + detail); };
  ++stats.runs;
  if (st.ok()) {
    if (e.must_fail) fail("false OK after a failed write, sync or rename", "the operation returned OK");
    std::string value = relative(r.value, r.root);
    if (value != clean.value) fail("OK, but not the fault-free result", first_difference(value, clean.value));
    std::string diff = tree_difference(snapshot(r.root), r.root, clean.dirs, clean.files);
    if (!diff.empty()) fail("OK, but the files are not those of the fault-free run", diff);
    ++stats.ok_compared;
  } else if (e.must_succeed) {
    fail("an error from a fault the operation must ride out", st.message());
  }
  if (w.reads_only && !st.ok()) {
    if (r.s && !before.empty() && entries_view(*r.s) != before) {
      fail("a read that failed changed what the handle shows", first_difference(entries_view(*r.s), before));
    }
    Status again = w.op(r);
    std::string value = relative(r.value, r.root);
    if (!again.ok()) {
      fail("a read that failed fails again on a healthy seam", again.message());
    } else if (value != clean.value) {
      fail("a read that failed is wrong when repeated on a healthy seam", first_difference(value, clean.value));
    }
  }

  Session* h = r.s && !r.closed && !r.s->read_only() ? r.s.get() : nullptr;
  if (h && !st.ok() && e.poisoned) {
    probe_poisoned(w, r, *h, where, f);
    ++stats.poison_checks;
  } else if (h) {
    std::string id;
    Status a = h->append_message(user_message("after the operation"), &id);
    if (!a.ok() && (st.ok() || e.healthy || w.target == Target::kNewFile)) {
      fail(st.ok() ? "the session refuses an append after an operation that returned OK"
                   : "a fault that must not poison the session left it refusing appends",
           a.message());
    }
    note_append(r, *h, a, id);
  }
  if (r.s) settle(r, *r.s);

  // Leaks: every handle closed and gone, then nothing of the seam is still open.
  if (r.s && !r.closed) r.s->close();
  r.s.reset();
  if (r.made) r.made->close();
  r.made.reset();
  r.blobs.reset();
  int fds = open_fd_count();
  if (fds != r.fds_before) fail("descriptors leaked", std::to_string(fds - r.fds_before) + " more than before");
  if (r.fs->open_files() != 0) fail("files of the seam still open", std::to_string(r.fs->open_files()));
  if (r.fs->held_locks() != 0) fail("locks of the seam still held", std::to_string(r.fs->held_locks()));

  check_disk(w, t, r, e, where, f, stats);
}

// The fault-free run: what the faulted runs are compared with. The checks must hold here too.
inline Clean run_clean(const Workload& w, const Template& t, Findings& f, Stats& stats,
                       storage::WriteFn write_fn = nullptr) {
  Clean c;
  TempDir dir;
  Trial r;
  if (!start_run(w, t, dir.path(), r, write_fn)) return c;
  std::string shown = r.s ? entries_view(*r.s) : "";
  uint64_t before = r.fs->calls();
  Status st = w.op(r);
  EXPECT_TRUE(st.ok()) << w.name << ": the operation fails without a fault: " << st.message();
  std::vector<storage::FsOp> log = r.fs->log();
  c.op_calls.assign(log.begin() + static_cast<long>(before), log.end());
  c.value = relative(r.value, r.root);
  Tree tree = snapshot(r.root);
  c.dirs = tree.dirs;
  c.files = content(tree, r.root);
  Expect e;
  e.must_succeed = true;
  e.healthy = true;
  finish_run(w, t, c, r, st, shown, e, "fault-free run", f, stats);
  return c;
}

}  // namespace xs::test::faults
