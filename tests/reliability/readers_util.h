// For readers_test.cc: what the appending writer writes (content derived from a sequence number,
// so every process can rebuild it), the exact file it must produce, and the check that a reader's
// view of that file is one the writer could have left at some moment.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "json_answers.h"
#include "multiproc_util.h"
#include "storage/faulty_fs.h"

namespace xs::test {

// The writer fills files of this many entries, then starts the next one (so a reader's file stays
// a few MiB however long the run is).
constexpr uint32_t kEntriesPerFile = 16;
constexpr double kMinMessageBytes = 100, kMaxMessageBytes = 2 << 20;
// Text blocks stay under the size rules' 500,000-character cut, so the writer's bytes are stored as is.
constexpr size_t kBlockChars = 400000;

inline uint64_t mix(uint64_t x) {  // splitmix64
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The message appended as sequence number `seq`: {"role":"user","content":[text blocks]}, about
// log-uniform in size between 100 B and 2 MiB, its text starting with "seq:<seq>:".
inline std::string message_of(uint64_t seq) {
  double u = static_cast<double>(mix(seq) >> 11) * 0x1.0p-53;
  size_t size = static_cast<size_t>(
      std::exp(std::log(kMinMessageBytes) + (std::log(kMaxMessageBytes) - std::log(kMinMessageBytes)) * u));
  size_t text = size > 80 ? size - 60 : 20;
  size_t blocks = (text + kBlockChars - 1) / kBlockChars;
  std::string m = "{\"role\":\"user\",\"content\":[";
  m.reserve(text + 64 * blocks);
  uint64_t state = seq << 20;
  for (size_t b = 0; b < blocks; ++b) {
    m += b ? ",{\"type\":\"text\",\"text\":\"" : "{\"type\":\"text\",\"text\":\"seq:" + std::to_string(seq) + ":";
    size_t chars = text / blocks + (b + 1 == blocks ? text % blocks : 0), at = m.size();
    m.resize(at + chars);  // filled through a pointer: fast enough at -O0 under the sanitizers too
    for (char *p = &m[at], *end = p + chars; p < end;) {
      uint64_t r = mix(state++);
      for (int k = 0; k < 8 && p < end; ++k, r >>= 8) *p++ = static_cast<char>('a' + (r & 0xff) % 26);
    }
    m += "\"}";
  }
  return m + "]}";
}

inline std::string append_file_name(uint32_t g) {
  char name[32];
  std::snprintf(name, sizeof name, "f%03u.jsonl", g);
  return name;
}
inline std::string append_session_id(uint32_t g) { return "readers-" + std::to_string(g); }
inline std::string file_path(const std::string& dir, uint32_t g) { return dir + "/" + append_file_name(g); }

// How many of the first `acked` sequence numbers belong to file g.
inline size_t acked_in(uint64_t acked, uint32_t g) {
  uint64_t first = uint64_t{g} * kEntriesPerFile;
  return acked <= first ? 0 : static_cast<size_t>(std::min<uint64_t>(acked - first, kEntriesPerFile));
}

// File `g` as the writer fills it: a header (session append_session_id(g)) and the entries for
// sequence numbers g*K .. g*K+K-1, each the child of the one before, ids from seed g+1.
struct FileModel {
  uint32_t g = 0;
  std::string header;
  std::vector<std::string> lines;
  std::string joined;               // "[" + lines joined by "," (entries_json without its "]")
  std::vector<size_t> joined_end;   // joined_end[n]: the length of that prefix for n entries
  std::vector<uint64_t> offset;     // offset[i]: where line i starts in the file

  explicit FileModel(uint32_t file) : g(file) {
    header = header_line(append_session_id(g));
    std::vector<std::string> ids = seeded_entry_ids(g + 1, kEntriesPerFile);
    joined = "[";
    joined_end.push_back(1);
    uint64_t at = header.size() + 1;
    for (uint32_t i = 0; i < kEntriesPerFile; ++i) {
      lines.push_back(message_line(ids[i], i ? std::optional<std::string>(ids[i - 1]) : std::nullopt,
                                   message_of(uint64_t{g} * kEntriesPerFile + i)));
      joined += (i ? "," : "") + lines.back();
      joined_end.push_back(joined.size());
      offset.push_back(at);
      at += lines.back().size() + 1;
    }
    offset.push_back(at);
  }

  // The file after the writer acknowledged its first n entries.
  std::string bytes(size_t n) const {
    std::string out = header + "\n";
    for (size_t i = 0; i < n; ++i) out += lines[i] + "\n";
    return out;
  }
};

struct Snapshot {
  size_t entries = 0;
  bool partial = false;  // an in-progress line was reported as an incomplete tail
};

// "" when `s` shows the file of `m` as the writer may have left it at some moment: the header,
// then the first n entries byte for byte and in order (no hole, nothing damaged), and at most one
// diagnostic, an incomplete_tail for line n+1 where it starts (the line being written). Else what
// is wrong.
inline std::string check_snapshot(const FileModel& m, const session::Session& s, Snapshot* out) {
  if (s.header() != m.header) return "the header differs: " + std::string(s.header().substr(0, 200));
  size_t n = s.entry_count();
  if (n > kEntriesPerFile) return std::to_string(n) + " entries, more than were written";
  std::string entries = s.entries_json();
  std::string_view want(m.joined.data(), m.joined_end[n]);
  if (entries.size() != want.size() + 1 || entries.compare(0, want.size(), want) != 0 || entries.back() != ']') {
    size_t k = 0;
    while (k < n && m.joined_end[k + 1] <= entries.size() &&
           entries.compare(m.joined_end[k], m.joined_end[k + 1] - m.joined_end[k], m.joined,
                                    m.joined_end[k], m.joined_end[k + 1] - m.joined_end[k]) == 0) {
      ++k;
    }
    return "of " + std::to_string(n) + " entries, entry " + std::to_string(k) + " is not the one written";
  }
  out->entries = n;
  out->partial = false;
  std::string diags = s.diagnostics_json();
  if (diags == "[]") return "";
  auto d = parse_diagnostics(diags);
  if (!d || d->size() != 1 || n == kEntriesPerFile) return "diagnostics " + diags;
  const Diagnostic& t = (*d)[0];
  // The fragment is a proper prefix of the next line (a whole line without its '\n' would load).
  if (t.code != "incomplete_tail" || t.line != n + 2 || t.offset != m.offset[n] || t.length == 0 ||
      t.length >= m.lines[n].size()) {
    return "after " + std::to_string(n) + " entries (next line at offset " + std::to_string(m.offset[n]) +
           ", " + std::to_string(m.lines[n].size()) + " bytes): diagnostics " + diags;
  }
  out->partial = true;
  return "";
}

// Operations of the seam that change the file system or act on a file opened for writing.
inline const std::vector<storage::FsOp>& mutating_ops() {
  using storage::FsOp;
  static const std::vector<FsOp> ops = {
      FsOp::kOpenAppend, FsOp::kCreateNew, FsOp::kAppend,   FsOp::kSync,    FsOp::kFileStat,
      FsOp::kClose,      FsOp::kRename,    FsOp::kRenameNoReplace, FsOp::kUnlink,  FsOp::kMakeDirs,
      FsOp::kSyncDir,    FsOp::kTryLock,   FsOp::kTouch};
  return ops;
}

// A seam for readers: the real file system, every mutating call counted and refused.
inline std::shared_ptr<storage::FaultyFs> reader_fs() {
  auto fs = std::make_shared<storage::FaultyFs>(storage::make_posix_fs());
  for (storage::FsOp op : mutating_ops()) fs->fail(op, Code::kReadOnly);
  return fs;
}

inline uint64_t mutating_calls(const storage::FaultyFs& fs) {
  uint64_t n = 0;
  for (storage::FsOp op : mutating_ops()) n += fs.count(op);
  return n;
}

}  // namespace xs::test
