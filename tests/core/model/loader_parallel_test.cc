// model/loader, the large-file path: load_file_parallel reads a file of 8 MiB or more in shares
// on several threads and scans the lines that straddle two shares afterwards. Whatever the share
// boundaries cut (an entry, a bad line, a CRLF pair, a line longer than a share, a torn tail),
// the result must equal the plain path field for field: the same lines (bytes, offsets, kinds),
// entries and diagnostics (line numbers, byte offsets, codes, reasons). Two references: load_file
// on the bytes read through posix_fs (itself a 16 MiB parallel read), and load_lines fed in
// 4 MiB chunks, which is serial throughout.
//
// The boundaries are where the loader puts them: `shares` mirrors worker_count in loader.cc
// (cores up to 8, at least 4 MiB each). On a one-core machine there are none and the tests
// still compare a one-share load with the references.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "model/loader.h"
#include "test_util.h"

namespace xs::model {
namespace {

constexpr size_t kSize = 20u << 20;  // every file below is exactly this long
const std::string kHeader = R"({"type":"session","version":3,"id":"big","timestamp":"2026-02-16T10:20:30.000Z","cwd":"/w"})";

size_t shares(uint64_t bytes) {
  return std::min<size_t>({std::max(1u, std::thread::hardware_concurrency()), bytes / (4u << 20), 8});
}

// The first byte of each share after the first, for a file of kSize whose lines start at `begin`.
std::vector<size_t> boundaries(size_t begin) {
  size_t n = shares(kSize - begin);
  std::vector<size_t> at;
  for (size_t i = 1; i < n; ++i) at.push_back(begin + (kSize - begin) * i / n);
  return at;
}

// Builds a file line by line; fill_to() pads with entries so that the next line starts at `pos`.
// Lines expected to be reported are added with bad(), which records "code@line+offset".
struct Builder {
  std::string s;
  size_t lines = 0;
  int n = 0;
  std::string prev;
  std::string diags;

  void line(const std::string& l) {
    s.append(l).push_back('\n');
    ++lines;
  }
  void bad(const std::string& l, const std::string& code, bool newline = true) {
    diags += (diags.empty() ? "" : ",") + code + "@" + std::to_string(lines + 1) + "+" + std::to_string(s.size());
    if (newline) {
      line(l);
    } else {
      s += l;
    }
  }
  // A message entry of exactly `len` bytes (a final '\r' counted in, for CRLF).
  std::string entry(size_t len, bool crlf = false) {
    std::string id = "e" + std::to_string(n++);
    std::string head = R"({"type":"message","id":")" + id + R"(","parentId":)" + (prev.empty() ? "null" : "\"" + prev + "\"") +
                       R"(,"timestamp":"2026-02-16T10:20:31.000Z","message":{"role":"user","content":")";
    std::string tail = crlf ? "\"}}\r" : "\"}}";
    EXPECT_GE(len, head.size() + tail.size());
    prev = id;
    return head + std::string(len - head.size() - tail.size(), 'x') + tail;
  }
  void fill_to(size_t pos) {
    EXPECT_GE(pos, s.size() + 300) << "room for a filler line";
    while (s.size() + 2048 < pos) line(entry(1023));
    if (s.size() < pos) line(entry(pos - s.size() - 1));
    EXPECT_EQ(s.size(), pos);
  }
  // Invalid JSON of exactly `len` bytes.
  static std::string broken(size_t len) { return "{broken " + std::string(len - 8, 'y'); }
};

std::string diff_lines(const SessionData& a, const SessionData& b) {
  if (a.lines.size() != b.lines.size()) return "line count " + std::to_string(a.lines.size()) + " vs " + std::to_string(b.lines.size());
  for (size_t i = 0; i < a.lines.size(); ++i) {
    const Line &x = a.lines[i], &y = b.lines[i];
    if (x.bytes != y.bytes || x.offset != y.offset || x.kind != y.kind || x.parsed != y.parsed || x.entry != y.entry) {
      return "line " + std::to_string(i) + ": offset " + std::to_string(x.offset) + " vs " + std::to_string(y.offset) +
             ", kind " + std::to_string(int(x.kind)) + " vs " + std::to_string(int(y.kind)) + ", " +
             std::to_string(x.bytes.size()) + " vs " + std::to_string(y.bytes.size()) + " bytes";
    }
  }
  return "";
}

std::string diff_entries(const SessionData& a, const SessionData& b) {
  if (a.entries.size() != b.entries.size()) return "entry count " + std::to_string(a.entries.size()) + " vs " + std::to_string(b.entries.size());
  for (size_t i = 0; i < a.entries.size(); ++i) {
    const Entry &x = a.entries[i], &y = b.entries[i];
    if (x.line != y.line || x.id != y.id || x.parent_id != y.parent_id || x.has_parent_id != y.has_parent_id ||
        x.timestamp != y.timestamp || x.role != y.role || x.provider != y.provider || x.model != y.model ||
        x.target_id != y.target_id || x.label != y.label || x.label_set != y.label_set || x.type != y.type ||
        x.line_no != y.line_no || x.message_offset != y.message_offset || x.message_length != y.message_length) {
      return "entry " + std::to_string(i) + " (" + std::string(x.id) + " vs " + std::string(y.id) + ")";
    }
  }
  return "";
}

std::string diff_diagnostics(const SessionData& a, const SessionData& b) {
  auto render = [](const SessionData& d) {
    std::string out;
    for (const Diagnostic& x : d.diagnostics) {
      out += x.code + "@" + std::to_string(x.line) + "+" + std::to_string(x.offset) + "/" + std::to_string(x.length) +
             ":" + x.reason + "\n";
    }
    return out;
  };
  std::string x = render(a), y = render(b);
  return x == y ? "" : "diagnostics:\n" + x + "vs\n" + y;
}

// The first difference between two loads, or "" when they agree on everything.
std::string diff(const SessionData& a, const SessionData& b) {
  if (a.bom != b.bom || a.header_line != b.header_line || a.header.id != b.header.id ||
      a.header.version != b.header.version || a.header.cwd != b.header.cwd || a.header.timestamp != b.header.timestamp) {
    return "header";
  }
  if (a.ends_with_newline != b.ends_with_newline || a.pending_tail != b.pending_tail) return "tail flags";
  for (const std::string& d : {diff_lines(a, b), diff_entries(a, b), diff_diagnostics(a, b)}) {
    if (!d.empty()) return d;
  }
  return "";
}

class LoaderParallelTest : public ::testing::Test {
 protected:
  // Writes `bytes` (exactly kSize long) and loads it the three ways; each must agree.
  void check(const std::string& bytes, const std::string& expected_diags) {
    SCOPED_TRACE(std::to_string(boundaries(kHeader.size() + 1).size()) + " share boundaries");
    ASSERT_EQ(bytes.size(), kSize);
    std::string path = tmp_.file("big.jsonl");
    test::write_file(path, bytes);
    auto fs = storage::make_posix_fs();
    json::Limits limits;

    SessionData parallel;
    storage::FileInfo info;
    auto used = load_file_parallel(*fs, path, limits, &parallel, &info);
    ASSERT_TRUE(used.ok()) << used.status().message();
    ASSERT_TRUE(*used) << "a file of 20 MiB takes the parallel path";
    EXPECT_EQ(info.size, kSize);

    storage::PaddedBuffer read;
    ASSERT_TRUE(fs->read_file(path, UINT64_MAX, &read).ok());
    ASSERT_TRUE(read.view() == bytes) << "the parallel read returns the file's bytes";
    SessionData whole;
    ASSERT_TRUE(load_file(std::move(read), limits, &whole).ok());

    SessionData serial;
    for (size_t pos = 0; pos < bytes.size();) {
      size_t end = pos + (4u << 20) >= bytes.size() ? bytes.size() : bytes.rfind('\n', pos + (4u << 20)) + 1;
      if (end <= pos) end = bytes.size();
      serial.buffers.push_back(test::padded(std::string_view(bytes).substr(pos, end - pos)));
      ASSERT_TRUE(load_lines(serial.buffers.back().view(), pos, limits, &serial).ok());
      pos = end;
    }

    EXPECT_EQ(diff(serial, whole), "");
    EXPECT_EQ(diff(serial, parallel), "");
    std::string got;
    for (const Diagnostic& d : parallel.diagnostics) {
      got += (got.empty() ? "" : ",") + d.code + "@" + std::to_string(d.line) + "+" + std::to_string(d.offset);
    }
    EXPECT_EQ(got, expected_diags);
  }

  test::TempDir tmp_;
};

TEST_F(LoaderParallelTest, EntriesStraddlingShareBoundaries) {
  Builder b;
  b.line(kHeader);
  for (size_t at : boundaries(b.s.size())) {
    b.fill_to(at - 300);
    b.line(b.entry(599));  // bytes at-300 .. at+298, its '\n' at at+299
  }
  b.fill_to(kSize);
  check(b.s, "");
}

TEST_F(LoaderParallelTest, BadLinesStraddlingShareBoundaries) {
  Builder b;
  b.line(kHeader);
  for (size_t at : boundaries(b.s.size())) {
    b.fill_to(at - 1);
    b.bad(Builder::broken(700), "invalid_json");  // its first byte is the last of a share
  }
  b.fill_to(kSize);
  check(b.s, b.diags);
}

// A share that starts exactly at a line start: that line is still read as a whole line at its
// own offset.
TEST_F(LoaderParallelTest, LinesStartingExactlyAtShareBoundaries) {
  Builder b;
  b.line(kHeader);
  for (size_t at : boundaries(b.s.size())) {
    b.fill_to(at);
    b.bad(Builder::broken(600), "invalid_json");
  }
  b.fill_to(kSize);
  check(b.s, b.diags);
}

// "\r" the last byte of one share, "\n" the first of the next; then a bad line right after.
TEST_F(LoaderParallelTest, CrlfPairsSplitByShareBoundaries) {
  Builder b;
  b.line(kHeader);
  for (size_t at : boundaries(b.s.size())) {
    b.fill_to(at - 500);
    b.line(b.entry(500, /*crlf=*/true));
    ASSERT_EQ(b.s[at - 1], '\r');
    ASSERT_EQ(b.s[at], '\n');
    b.bad(Builder::broken(300), "invalid_json");
  }
  b.fill_to(kSize);
  check(b.s, b.diags);
}

// The last line of the file starts before a boundary and runs through every later share: shares
// with no newline of their own.
TEST_F(LoaderParallelTest, ALastLineCoveringWholeShares) {
  Builder b;
  b.line(kHeader);
  std::vector<size_t> at = boundaries(b.s.size());
  size_t start = at.empty() ? b.s.size() + 1000 : at[at.size() >= 2 ? at.size() - 2 : 0] - 500;
  b.fill_to(start);
  b.line(b.entry(kSize - start - 1));
  check(b.s, "");
}

TEST_F(LoaderParallelTest, ATornTailCoveringTheLastShare) {
  Builder b;
  b.line(kHeader);
  std::vector<size_t> at = boundaries(b.s.size());
  size_t start = at.empty() ? b.s.size() + 1000 : at.back() - 500;
  b.fill_to(start);
  b.bad(Builder::broken(kSize - start), "incomplete_tail", /*newline=*/false);
  check(b.s, b.diags);
}

// A byte-order mark and garbage before the header, and every kind of line the loader skips or
// keeps, spread over the file, with a bad line across each boundary and a torn tail; for a v3
// file and a v1 file (where entries need no id).
TEST_F(LoaderParallelTest, EveryKindOfLineInOneFile) {
  for (bool v1 : {false, true}) {
    SCOPED_TRACE(v1 ? "v1" : "v3");
    Builder b;
    b.s = "\xEF\xBB\xBF";
    b.bad("garbage", "before_header");
    std::string header = kHeader;
    if (v1) header.erase(header.find(R"("version":3,)"), 12);
    b.line(header);
    std::vector<size_t> at = boundaries(b.s.size());
    std::vector<std::pair<size_t, int>> events;  // (position, kind); kind -1: a boundary
    for (size_t x : at) events.push_back({x - 1, -1});
    for (int k = 1; k <= 18; ++k) {
      size_t pos = static_cast<size_t>(k) * (1u << 20) + 777;
      bool near = false;
      for (size_t x : at) near = near || (pos + 6000 > x && pos < x + 6000);
      if (!near) events.push_back({pos, k % 8});
    }
    std::sort(events.begin(), events.end());
    for (const auto& [pos, kind] : events) {
      b.fill_to(pos);
      switch (kind) {
        case -1: b.bad(Builder::broken(900), "invalid_json"); break;
        case 0: b.line(""); b.line("   "); break;
        case 1: b.line(b.entry(400, /*crlf=*/true)); break;
        case 2: b.bad(kHeader, "extra_header"); break;
        case 3: b.bad(R"({"id":"nt1","parentId":null})", "no_type"); break;
        case 4:
          if (v1) b.line(R"({"type":"custom","customType":"x"})");
          else b.bad(R"({"type":"custom","customType":"x"})", "no_id");
          break;
        case 5: b.bad(std::string("{\"type\":\"x") + '\0' + "\"}", "nul_byte"); break;
        case 6: b.bad("[1,2]", "not_object"); break;
        case 7:
          b.line(R"({"type":"label","id":"l)" + std::to_string(pos) + R"(","parentId":")" + b.prev +
                 R"(","timestamp":"2026-02-16T10:20:32.000Z","targetId":"e0","label":"mark"})");
          break;
      }
    }
    b.fill_to(kSize - 200);
    std::string torn = R"({"type":"message","id":"torn","parentId":null,"message":{"role":"user","content":"unfinish)";
    b.bad(torn + std::string(200 - torn.size(), 'q'), "incomplete_tail", /*newline=*/false);
    check(b.s, b.diags);
  }
}

}  // namespace
}  // namespace xs::model
