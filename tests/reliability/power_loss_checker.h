// The checks of the power-loss test (power_loss_test.cc) on one crash state: what a session file
// must show after a power loss, given what the workload wrote (power_loss_workloads.h). The failure
// messages name the guarantee a check proves (G2-G8 of docs/guarantees.md).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "json_answers.h"
#include "power_loss_workloads.h"
#include "storage/atomic_file.h"
#include "storage/crash_fs.h"

namespace xs::test {

using Span = std::pair<uint64_t, uint64_t>;  // a line's offset and length

// Equality of two long strings, reported by the first difference instead of both strings in full.
inline ::testing::AssertionResult same(const std::string& got, const std::string& want) {
  if (got == want) return ::testing::AssertionSuccess();
  size_t at = 0;
  while (at < got.size() && at < want.size() && got[at] == want[at]) ++at;
  auto around = [at](const std::string& s) {
    size_t from = at > 40 ? at - 40 : 0;
    return s.substr(from, 120);
  };
  return ::testing::AssertionFailure() << "sizes " << got.size() << " and " << want.size() << ", first difference at "
                                       << at << "\n  got:  " << around(got) << "\n  want: " << around(want);
}

inline bool json_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

inline bool blank(std::string_view line) { return std::all_of(line.begin(), line.end(), json_space); }

// A line without the JSON whitespace around it: garbage that ends in "\n\t" before an intact line
// leaves that line valid and equal as JSON, and the loader rightly returns it.
inline std::string_view trimmed(std::string_view line) {
  while (!line.empty() && json_space(line.front())) line.remove_prefix(1);
  while (!line.empty() && json_space(line.back())) line.remove_suffix(1);
  return line;
}

// One state of a session file, sorted out against what the workload wrote.
struct Analysis {
  bool header = false;       // the first line is a header the file had
  std::vector<char> intact;  // per written line: there as a whole line
  std::string entries;       // what entries_json must return: the intact lines, in file order
  std::vector<Span> damaged;  // every other non-blank line
  bool crash_damage = false;  // a damaged line that is not one the file had on purpose
  bool intact_after_damage = false;  // an intact line after such a line
};

class Lines {
 public:
  explicit Lines(const WrittenFile& f) : f_(f) {
    for (size_t i = 0; i < f.lines.size(); ++i) index_[f.lines[i].bytes] = i;
  }

  // `extra` is one more known entry line (the one appended after the crash).
  Analysis analyze(std::string_view bytes, std::string_view extra = {}) const {
    Analysis a;
    a.intact.assign(f_.lines.size(), 0);
    a.entries = "[";
    size_t pos = 0, n = 0;
    while (pos < bytes.size()) {
      size_t nl = bytes.find('\n', pos);
      size_t end = nl == std::string_view::npos ? bytes.size() : nl;
      std::string_view line = bytes.substr(pos, end - pos);
      if (n++ == 0) {
        a.header = std::find(f_.headers.begin(), f_.headers.end(), line) != f_.headers.end();
      } else if (auto it = index_.find(trimmed(line)); it != index_.end() || (!extra.empty() && line == extra)) {
        if (it != index_.end()) a.intact[it->second] = 1;
        a.entries += (a.entries.size() > 1 ? "," : "") + std::string(line);
        if (a.crash_damage) a.intact_after_damage = true;
      } else if (!blank(line)) {
        a.damaged.push_back({pos, line.size()});
        if (std::find(f_.bad_lines.begin(), f_.bad_lines.end(), line) == f_.bad_lines.end()) a.crash_damage = true;
      }
      pos = end + 1;
    }
    a.entries += "]";
    return a;
  }

 private:
  const WrittenFile& f_;
  std::unordered_map<std::string_view, size_t> index_;
};

inline std::vector<Span> diagnostic_spans(const session::Session& s) {
  std::string json = s.diagnostics_json();
  auto d = parse_diagnostics(json);
  std::vector<Span> out;
  if (!d) {
    ADD_FAILURE() << "diagnostics are not a JSON array of diagnostics: " << json.substr(0, 200);
    return out;
  }
  for (const Diagnostic& e : *d) out.push_back({e.offset, e.length});
  std::sort(out.begin(), out.end());
  return out;
}

inline std::string with_entry(const std::string& entries, const std::string& line) {
  return entries.substr(0, entries.size() - 1) + (entries.size() > 2 ? "," : "") + line + "]";
}

struct Stats {
  size_t points = 0, tried = 0, distinct = 0, opened = 0;
  size_t damaged = 0, intact_after_damage = 0, lost_unsynced = 0, missing = 0, old_file = 0;
  size_t session_temps = 0, blob_temps = 0;  // states with a leftover temp file of a rewrite / a put
  size_t durable_checked = 0, blobs_checked = 0, blob_files_checked = 0;
};

// What one session file showed in a state: enough to check G2 again at another crash point.
struct FileSeen {
  bool exists = false, old = false, damaged = false, intact_after_damage = false;
  std::vector<char> intact;  // per written line
};
using Seen = std::vector<FileSeen>;

inline uint64_t mix(uint64_t h, uint64_t v) {
  return (h ^ (v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2))) * 0xFF51AFD7ED558CCDull;
}

class Checker {
 public:
  Checker(const Workload& w, Stats* stats) : w_(w), stats_(stats) {
    for (const WrittenFile& f : w.files) lines_.emplace_back(f);
  }

  // G2 for a state at crash point k: what was durable by then is there.
  void check_durable(size_t k, const Seen& seen) {
    for (size_t i = 0; i < w_.files.size(); ++i) {
      const WrittenFile& f = w_.files[i];
      const FileSeen& s = seen[i];
      if (!s.exists) {
        EXPECT_GT(f.exists_at, k) << f.path << " vanished although its creation was durable (G2)";
        continue;
      }
      for (size_t j = 0; j < f.lines.size(); ++j) {
        if (f.lines[j].durable_at > k) continue;
        ++stats_->durable_checked;
        EXPECT_TRUE(!s.old && s.intact[j]) << f.path << ": durable entry " << j << " lost (G2)"
                                           << (s.old ? ": the completed migration rewrite was undone" : "");
      }
    }
  }

  // A state not seen before: every file opened read-only and writable (unless the same file was
  // already opened with the same temp files and blobs beside it: the engine is deterministic, so
  // that would be the same check again), the blob files hashed, then G2.
  Seen check(size_t k, const storage::CrashState& st) {
    Seen seen;
    std::shared_ptr<storage::Fs> fs;
    for (size_t i = 0; i < w_.files.size(); ++i) {
      uint64_t key = file_key(i, st);
      auto it = files_seen_.find(key);
      if (it != files_seen_.end()) {
        seen.push_back(it->second);
        continue;
      }
      if (!fs) {
        fs = storage::make_memory_fs();
        Status installed = st.install(*fs);
        EXPECT_TRUE(installed.ok()) << installed.message();
      }
      ++stats_->opened;
      seen.push_back(check_file(i, st, fs));
      files_seen_.emplace(key, seen.back());
    }
    if (w_.blobs) check_blob_files(st);
    check_durable(k, seen);
    bool lost_acked = false, session_temp = false;
    for (size_t i = 0; i < w_.files.size(); ++i) {
      const FileSeen& s = seen[i];
      std::string temps = storage::temp_prefix(w_.files[i].path);
      auto next = st.files.lower_bound(temps);
      session_temp |= next != st.files.end() && next->first.compare(0, temps.size(), temps) == 0;
      stats_->missing += !s.exists;
      stats_->old_file += s.old;
      stats_->damaged += s.damaged;
      stats_->intact_after_damage += s.intact_after_damage;
      for (size_t j = 0; s.exists && !s.old && j < s.intact.size(); ++j) {
        lost_acked |= w_.files[i].lines[j].acked_at <= k && !s.intact[j];
      }
    }
    stats_->lost_unsynced += lost_acked;
    stats_->session_temps += session_temp;
    return seen;
  }

 private:
  session::SessionOptions opts(const std::shared_ptr<storage::Fs>& fs, bool read_only,
                               uint64_t id_seed = kPowerLossIdSeed) const {
    return power_loss_options(fs, w_.blobs, session::Durability::kBuffered, read_only, id_seed);
  }

  // Everything the opens of file i depend on: its bytes, our temp files beside it, the blobs.
  uint64_t file_key(size_t i, const storage::CrashState& st) const {
    const std::string& path = w_.files[i].path;
    std::hash<std::string_view> h;
    auto found = st.files.find(path);
    uint64_t key = mix(i, found == st.files.end() ? 0 : h(found->second) | 1);
    std::string temps = storage::temp_prefix(path), blob_dir = storage::join_path(kStoreRoot, "blobs/");
    for (const auto& [p, bytes] : st.files) {
      if (p.compare(0, temps.size(), temps) == 0) key = mix(key, h(p));
      if (w_.blobs && p.compare(0, blob_dir.size(), blob_dir) == 0) key = mix(mix(key, h(p)), h(bytes));
    }
    return key;
  }

  // (The checks proper are in a void function, where ASSERT_* can stop them.)
  FileSeen check_file(size_t i, const storage::CrashState& st, const std::shared_ptr<storage::Fs>& fs) {
    FileSeen seen;
    check_file(i, st, fs, &seen);
    return seen;
  }

  void check_file(size_t i, const storage::CrashState& st, const std::shared_ptr<storage::Fs>& fs, FileSeen* seen) {
    const WrittenFile& f = w_.files[i];
    auto found = st.files.find(f.path);
    seen->exists = found != st.files.end();
    if (found == st.files.end()) {
      auto ro = session::Session::open(fs, f.path, opts(fs, true));
      EXPECT_EQ(ro.status().code(), Code::kNotFound) << f.path << ": " << ro.status().message();
      auto rw = session::Session::open(fs, f.path, opts(fs, false));
      EXPECT_EQ(rw.status().code(), Code::kNotFound) << f.path << ": " << rw.status().message();
      check_no_temps(*fs, f.path);
      return;
    }
    const std::string& bytes = found->second;
    bool old = !f.old_bytes.empty() && bytes == f.old_bytes;
    seen->old = old;
    Analysis a;
    std::string entries;
    if (old) {
      entries = f.old_entries;
    } else {
      if (!f.old_bytes.empty()) {
        EXPECT_EQ(bytes.compare(0, f.rewritten.size(), f.rewritten), 0)
            << f.path << " holds neither the complete old file nor the complete new one (G5)";
      }
      a = lines_[i].analyze(bytes);
      EXPECT_TRUE(a.header) << f.path << " does not start with its header";
      entries = a.entries;
      seen->intact = a.intact;
      seen->damaged = a.crash_damage;
      seen->intact_after_damage = a.intact_after_damage;
    }

    // Read-only: exactly the intact entries, every damaged line reported; referenced blobs intact.
    auto ro = session::Session::open(fs, f.path, opts(fs, true));
    ASSERT_TRUE(ro.ok()) << f.path << ": " << ro.status().message();
    EXPECT_TRUE(same((*ro)->entries_json(), entries)) << f.path << ": read-only entries (G3)";
    if (old) {
      EXPECT_EQ((*ro)->diagnostics_json(), f.old_diagnostics);
    } else {
      EXPECT_EQ(diagnostic_spans(**ro), a.damaged) << f.path << ": damaged lines and diagnostics differ (G3)";
    }
    if (w_.blobs && !old) {
      blobs::BlobStore store(fs, kStoreRoot);
      for (size_t j = 0; j < f.lines.size(); ++j) {
        if (!a.intact[j]) continue;
        for (const std::string& h : f.lines[j].blobs) {
          ++stats_->blobs_checked;
          Status c = store.check(h);
          EXPECT_TRUE(c.ok()) << "entry " << j << " refers to blob " << h << ": " << c.message() << " (G8)";
        }
      }
    }

    // Writable: the same entries, temp files gone (an old file migrated again, to the same bytes),
    // then one append lands cleanly after whatever the crash left (G4). An old file is migrated
    // with the workload's id seed (the same ids); any other file gets ids from another sequence,
    // since the workload's next ids may name entries the crash lost while a surviving entry still
    // names them as its parent (the tree would then report a cycle).
    auto rw = session::Session::open(fs, f.path, opts(fs, false, old ? kPowerLossIdSeed : kPowerLossIdSeed + 1));
    ASSERT_TRUE(rw.ok()) << f.path << ": " << rw.status().message();
    EXPECT_TRUE(same((*rw)->entries_json(), entries)) << f.path << ": writable entries (G3)";
    check_no_temps(*fs, f.path);
    std::string before = get_file(*fs, f.path);
    if (old) {
      EXPECT_TRUE(same(before, f.rewritten)) << f.path << ": the migration on reopen wrote other bytes";
    }
    std::string id;
    const std::string& msg = w_.blobs ? image_message_ : text_message_;
    ASSERT_TRUE((*rw)->append_message(msg, &id).ok());
    auto line = (*rw)->entry_json(id);
    ASSERT_TRUE(line.ok());
    ASSERT_TRUE((*rw)->close().ok());
    std::string after = get_file(*fs, f.path);
    std::string glue = before.empty() || before.back() == '\n' ? "" : "\n";
    EXPECT_TRUE(same(after, before + glue + *line + "\n")) << f.path << ": the append after the crash (G4)";
    // The reader opened before picks the new entry up (only the new tail, or the whole file when
    // the writable open migrated it into a new one).
    int64_t added = 0;
    ASSERT_TRUE((*ro)->reload(&added).ok());
    EXPECT_EQ(added, 1);
    EXPECT_TRUE(same((*ro)->entries_json(), with_entry(entries, *line))) << f.path << ": reload after the append (G4)";
    EXPECT_EQ(diagnostic_spans(**ro), lines_[i].analyze(after, *line).damaged) << f.path << ": reload diagnostics";
    if (w_.blobs) {
      blobs::BlobStore store(fs, kStoreRoot);
      EXPECT_TRUE(store.check(image_hash_).ok()) << "the blob put after the crash (G8)";
    }
  }

  // G5: a writable open removes our leftover temp files.
  void check_no_temps(storage::Fs& fs, const std::string& path) {
    std::string prefix = storage::base_name(storage::temp_prefix(path));
    for (const std::string& n : fs_list(fs, storage::dir_name(path))) {
      EXPECT_NE(n.compare(0, prefix.size(), prefix), 0) << "temp file " << n << " left after a writable open (G5)";
    }
  }

  // G8: every file named like a blob holds exactly the bytes of that hash.
  void check_blob_files(const storage::CrashState& st) {
    std::string dir = storage::join_path(kStoreRoot, "blobs");
    for (const auto& [path, bytes] : st.files) {
      if (storage::dir_name(path) != dir) continue;
      std::string name = storage::base_name(path);
      if (!blobs::is_blob_hash(name)) {
        ++stats_->blob_temps;
        continue;
      }
      ++stats_->blob_files_checked;
      auto key = std::make_pair(name, std::hash<std::string_view>()(bytes));
      if (blob_files_ok_.count(key)) continue;
      std::string actual = blobs::sha256_hex(bytes);
      EXPECT_EQ(actual, name) << "blob " << name << " has other bytes (G8)";
      if (actual == name) blob_files_ok_.insert(key);
    }
  }

  const Workload& w_;
  Stats* stats_;
  std::vector<Lines> lines_;
  std::unordered_map<uint64_t, FileSeen> files_seen_;  // by file_key
  // What every state gets appended after the crash: an image just over the blob threshold (base64
  // of 1,200 bytes is 1,600 characters) in the blob workload, a short text otherwise.
  const std::string image_ = image_bytes(999999).substr(0, 1200);
  const std::string image_hash_ = blobs::sha256_hex(image_);
  const std::string image_message_ = R"({"role":"user","content":[{"type":"image","data":")" + base64(image_) +
                                     R"(","mimeType":"image/png"}]})";
  const std::string text_message_ = user_message("appended after the power loss");
  // Blob files already hashed, by name and std::hash of their bytes: they come back in most states.
  std::set<std::pair<std::string, uint64_t>> blob_files_ok_;
};

}  // namespace xs::test
