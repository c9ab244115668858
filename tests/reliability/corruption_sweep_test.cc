// Guarantees G3, G4 and G6 at every byte (docs/guarantees.md#g3, #g4, #g6; technique #t3). A golden
// multi-branch session of more than 64 KiB (golden_session.h) is damaged at every offset k, five
// ways, plus at every newline:
//   (a) truncate: the file is cut to its first k bytes;
//   (b) zero-fill: cut at k, then 4 KiB of NUL bytes appended (a power loss that extended the file
//       but never wrote the data);
//   (c) flip: the byte at k is XORed with 0xFF (the rest unchanged). XOR 0xFF turns an ASCII byte
//       into one >= 0x80 that is invalid UTF-8 on its own, and any byte of a multi-byte sequence
//       into one that breaks that sequence, so a flipped line can never parse: it must be rejected;
//   (d) zero-run: the 4 KiB from k on (fewer at the end) are overwritten with NUL bytes in place;
//   (e) garbage: every byte from k to the end is replaced by pseudo-random bytes (seeded by k), the
//       first of them 0xFF (never valid UTF-8, so even one byte of garbage cannot leave a line that
//       parses) and none of them '\n' or NUL, so the damage is one line and its code is decided by
//       the bytes, not by where a random newline fell (the fuzzers cover garbage with newlines);
//   (f) newline deleted: one '\n' is removed (the file one byte shorter), gluing its line to the
//       next one. This one runs at every newline of the file, not at every offset: deleting "the
//       newline before k" gives the same file for every k of a line.
// Each damaged file is opened read-only on the in-memory seam: no crash; damage to the header line
// (or a NUL byte in it) gives Code::kNoHeader, never a guess; otherwise entries_json() is exactly
// the golden entries whose lines are untouched, byte for byte and in order (so no entry that is not
// a golden one), the context builds, and diagnostics_json() reports the one damaged physical line:
// its line number, byte offset, length and code ("incomplete_tail" while it has no newline). A
// flipped or zeroed '\n' joins its line and the next into that one damaged line.
// Then a writable open appends one entry and closes, and the file must be exactly the damaged bytes
// + the '\n' a torn tail lacks (G4) + the new line: the damaged line stays byte for byte (G6), with
// no copy or temp file beside it. Reopened read-only, every intact entry and the new one load and
// the damaged line is reported again at the same place. A file whose header is damaged is not
// truncated (docs/decisions.md#1-no-silent-data-loss-on-a-bad-file): its exact bytes are kept as
// "<file>.corrupt-<timestamp>", reported, and a fresh session holds the new entry.
// The writable round trip runs at every offset of (a) and (c) and every newline of (f), and at every
// 8th offset of (b), (d) and (e) plus every offset of the header line and around every line
// boundary: what it exercises (the newline for a torn tail, damaged bytes kept, .corrupt copies) is
// the same in all variants, and its three opens triple the cost of a case. The read-only checks
// run at every offset of all.
//
// Counts: XS_SWEEP_STRIDE=n (default 1 = every offset: 333,952 cases, ~50 s) tests only every n-th offset,
// plus the header and line-boundary offsets above (every newline of (f) always runs),
// so a thinned run still meets each kind of edge; the ASan+UBSan -O0 run uses 128.
// XS_SWEEP_WRITE_STRIDE=n overrides the 8 of (b), (d) and (e). One summary line per variant
// and one for the run: offsets x variants = cases, session size, damaged lines reported, header cases.
#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "golden_session.h"
#include "json_answers.h"

namespace xs::test {
namespace {

using session::Session;

constexpr char kDir[] = "/";
constexpr char kPath[] = "/s.jsonl";
constexpr size_t kZeroBytes = 4096;  // (b) appended NULs and (d) the NUL run in place
constexpr size_t kZeroWriteStride = 8;  // (b) and (d): the writable round trip at every 8th offset

enum class Variant { kTruncate, kZeroFill, kFlip, kZeroRun, kGarbage, kDeleteNewline };

const char* name_of(Variant v) {
  switch (v) {
    case Variant::kTruncate: return "truncate";
    case Variant::kZeroFill: return "zero-fill";
    case Variant::kFlip: return "flip";
    case Variant::kZeroRun: return "zero-run";
    case Variant::kGarbage: return "garbage";
    case Variant::kDeleteNewline: return "newline deleted";
  }
  return "?";
}

// What a damaged file must load as: golden lines 1..keep_before-1 and keep_from..n-1 intact, and at
// most one damaged physical line (the damage is one contiguous region).
struct Expect {
  bool no_header = false;
  size_t keep_before = 0, keep_from = 0;
  bool damaged = false;
  uint64_t line = 0, offset = 0, length = 0;  // 1-based line number, byte offset, length without '\n'
  bool tail = false;                          // no newline after it: an incomplete tail
  std::string code, or_code;                  // its code once it has a newline (either one)
};

// The first k bytes, followed by `fill` NUL bytes.
Expect expect_cut(const Golden& g, size_t k, size_t fill) {
  Expect e;
  size_t i = g.line_at[k];
  // A cut exactly at the header's end leaves the whole header (only its newline missing): it loads.
  if (i == 0 && (fill > 0 || k < g.lines[0].end)) {
    e.no_header = true;
    return e;
  }
  e.keep_from = g.n();
  if (fill == 0 && i < g.n() && k == g.lines[i].end) {
    e.keep_before = i + 1;  // a whole last line without its newline still loads
  } else if (fill == 0 && k == g.start(i)) {
    e.keep_before = i;  // a cut on a line boundary damages nothing
  } else {
    e.keep_before = i;
    e.damaged = e.tail = true;
    e.line = i + 1;
    e.offset = g.start(i);
    e.length = k - e.offset + fill;
  }
  return e;
}

// Bytes [k, kend) overwritten in place by bytes that are never '\n' and never valid in a line.
Expect expect_overwrite(const Golden& g, size_t k, size_t kend) {
  Expect e;
  size_t i = g.line_at[k];
  if (i == 0) {
    e.no_header = true;
    return e;
  }
  size_t j = g.line_at[kend - 1];
  if (kend - 1 == g.lines[j].end) ++j;  // its newline is gone: the next line joins the damaged one
  e.keep_before = i;
  e.damaged = true;
  e.line = i + 1;
  e.offset = g.lines[i].start;
  e.tail = j == g.n();
  e.keep_from = e.tail ? g.n() : j + 1;
  e.length = (e.tail ? g.bytes.size() : g.lines[j].end) - e.offset;
  return e;
}

// The newline ending line i removed: line i and line i + 1 become one line.
Expect expect_deleted_newline(const Golden& g, size_t i) {
  Expect e;
  if (i == 0) {
    e.no_header = true;  // the header glued to the first entry is no header line
    return e;
  }
  e.keep_from = g.n();
  if (i + 1 == g.n()) {
    e.keep_before = g.n();  // the last line, whole but unterminated: it loads
    return e;
  }
  e.keep_before = i;
  e.keep_from = i + 2;
  e.damaged = true;
  e.line = i + 1;
  e.offset = g.lines[i].start;
  e.length = g.lines[i + 1].end - 1 - e.offset;
  return e;
}

// Bytes from k to the end for (e): 0xFF first, then 0x01-0xFF without '\n' (splitmix64 of k).
std::string garbage(size_t k, size_t n) {
  std::string out;
  out.reserve(n);
  uint64_t x = k * 0x9E3779B97F4A7C15ull + 1;
  while (out.size() < n) {
    x += 0x9E3779B97F4A7C15ull;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    for (int b = 0; b < 8 && out.size() < n; ++b, z >>= 8) {
      auto c = static_cast<unsigned char>(z);
      if (c != 0 && c != '\n') out.push_back(static_cast<char>(c));
    }
  }
  out[0] = static_cast<char>(0xFF);
  return out;
}

struct Case {
  std::string bytes;
  Expect expect;
};

Case make_case(const Golden& g, Variant v, size_t k) {
  Case c;
  switch (v) {
    case Variant::kTruncate:
      c.bytes = g.bytes.substr(0, k);
      c.expect = expect_cut(g, k, 0);
      // A cut line lacks at least its closing brace; a cut inside a multi-byte character is inside
      // a string, whose missing closing quote simdjson reports before the broken encoding.
      c.expect.code = "invalid_json";
      break;
    case Variant::kZeroFill:
      c.bytes = g.bytes.substr(0, k) + std::string(kZeroBytes, '\0');
      c.expect = expect_cut(g, k, kZeroBytes);
      c.expect.code = "nul_byte";  // refused before any parsing (docs/guarantees.md#rule-8)
      break;
    case Variant::kFlip:
      c.bytes = g.bytes;
      c.bytes[k] = static_cast<char>(c.bytes[k] ^ 0xFF);
      c.expect = expect_overwrite(g, k, k + 1);
      // Every flip leaves a byte sequence that is not UTF-8; when the flip also unbalances a string
      // or leaves a raw control character (a flipped lead byte), simdjson may report that first.
      c.expect.code = "invalid_utf8";
      c.expect.or_code = "invalid_json";
      break;
    case Variant::kZeroRun: {
      size_t kend = std::min(k + kZeroBytes, g.bytes.size());
      c.bytes = g.bytes;
      std::fill(c.bytes.begin() + static_cast<std::ptrdiff_t>(k), c.bytes.begin() + static_cast<std::ptrdiff_t>(kend),
                '\0');
      c.expect = expect_overwrite(g, k, kend);
      c.expect.code = "nul_byte";
      break;
    }
    case Variant::kGarbage:
      c.bytes = g.bytes.substr(0, k) + garbage(k, g.bytes.size() - k);
      c.expect = expect_overwrite(g, k, g.bytes.size());
      // 0xFF makes it invalid UTF-8; control characters or unbalanced quotes may be reported first.
      c.expect.code = "invalid_utf8";
      c.expect.or_code = "invalid_json";
      break;
    case Variant::kDeleteNewline: {
      // Here k is the index of a line: its newline goes.
      c.bytes = g.bytes;
      c.bytes.erase(g.lines[k].end, 1);
      c.expect = expect_deleted_newline(g, k);
      c.expect.code = "invalid_json";  // "...}{..." is an object with content after it
      break;
    }
  }
  return c;
}

std::string check_entries(const std::string& what, const std::string& got, const Golden& g, const Expect& e,
                          std::string_view extra = {}) {
  return entries_match(got, g, e.keep_before, e.keep_from, extra)
             ? std::string()
             : first_difference(what, got, expected_entries(g, e.keep_before, e.keep_from, extra));
}

// The file as the memory seam holds it.
std::string_view file_view(storage::Fs& fs, const std::string& path, storage::PaddedBuffer* buf) {
  Status st = fs.read_file(path, UINT64_MAX, buf);
  return st.ok() ? buf->view() : std::string_view("<unreadable>");
}

// Checks diagnostics_json() against the expected damaged line; *code gets the reported code.
std::string check_diagnostics(const std::string& json, const Expect& e, bool repaired, std::string* code) {
  auto d = parse_diagnostics(json);
  if (!d) return "diagnostics are not a JSON array of diagnostics: " + json;
  if (!e.damaged) return d->empty() ? std::string() : "unexpected diagnostics: " + json;
  if (d->size() != 1) return "want exactly one diagnostic, got: " + json;
  const Diagnostic& x = (*d)[0];
  *code = x.code;
  if (x.line != e.line || x.offset != e.offset || x.length != e.length) {
    return "want line " + std::to_string(e.line) + " offset " + std::to_string(e.offset) + " length " +
           std::to_string(e.length) + ", got: " + json;
  }
  if (e.tail && !repaired) return *code == "incomplete_tail" ? std::string() : "want incomplete_tail: " + json;
  return *code == e.code || (!e.or_code.empty() && *code == e.or_code) ? std::string()
                                                                       : "want code " + e.code + ", got: " + json;
}

// Seeded so no open spends time on the system's random device (readers never make ids).
session::SessionOptions reader_options() {
  auto o = read_only();
  o.id_seed = 1;
  return o;
}

session::SessionOptions writer_options() {
  auto o = options(false, true);
  o.clock = format::Clock::Fixed(1767312000000, 1000);
  o.id_seed = 99;
  return o;
}

const std::string kAfter = user_message("after the damage ✓ é 😀");

struct Tally {
  size_t cases = 0, header_cases = 0, reported = 0, writable = 0, corrupt_copies = 0;
  std::map<std::string, size_t> codes;  // read-only open, then after the writer's newline
};

// Appends kAfter through a writable handle; *line gets the stored line.
std::string append_one(Session& w, std::string* line) {
  std::string id;
  Status st = w.append_message(kAfter, &id);
  if (!st.ok()) return "append failed: " + st.message();
  auto stored = w.entry_json(id);
  if (!stored.ok()) return "the new entry is not there: " + stored.status().message();
  *line = *stored;
  return line->find("after the damage ✓ é 😀") == std::string::npos ? "the new entry lost its text: " + *line
                                                                     : std::string();
}

// A writable open of a file whose header is damaged keeps its bytes in a .corrupt-* copy and
// starts afresh; the new entry is the only one of the new file.
std::string write_after_header_damage(const Case& c, std::shared_ptr<storage::Fs> fs, Tally* t) {
  auto w = Session::open(fs, kPath, writer_options());
  if (!w.ok()) return "writable open failed: " + w.status().message();
  std::string diags = (*w)->diagnostics_json();
  bool preserved = !c.bytes.empty();  // an empty file has nothing to keep
  std::string want_diag = "[{\"line\":0,\"offset\":0,\"length\":" + std::to_string(c.bytes.size()) +
                          ",\"code\":\"corrupt_file_preserved\",\"reason\":\"the file had no session header; its "
                          "bytes were kept as ";
  if (preserved ? diags.rfind(want_diag, 0) != 0 : diags != "[]") return "writable open diagnostics: " + diags;
  if ((*w)->entries_json() != "[]") return "a fresh session has entries: " + (*w)->entries_json();
  std::string line;
  std::string e = append_one(**w, &line);
  if (!e.empty()) return e;
  std::string header((*w)->header());
  if (header.rfind("{\"type\":\"session\",\"version\":3,\"id\":", 0) != 0) return "fresh header: " + header;
  Status st = (*w)->close();
  if (!st.ok()) return "close failed: " + st.message();
  // Beside the fresh file: its lock file and the copy (nothing else, no temp file left behind).
  std::vector<std::string> names = fs_list(*fs, kDir), copies;
  for (const std::string& name : names) {
    if (name.rfind("s.jsonl.corrupt-", 0) == 0) copies.push_back(name);
  }
  if (copies.size() != (preserved ? 1u : 0u) || names.size() != 2 + copies.size() || names[0] != "s.jsonl" ||
      names.back() != "s.jsonl.lock") {
    return "want s.jsonl, " + std::string(preserved ? "one .corrupt copy, " : "") + "s.jsonl.lock; got " +
           std::to_string(names.size()) + " files";
  }
  if (preserved) {
    if (diags != want_diag + kDir + copies[0] + "\"}]") return "the diagnostic names another copy: " + diags;
    storage::PaddedBuffer buf;
    e = first_difference("the .corrupt copy", file_view(*fs, kDir + copies[0], &buf), c.bytes);
    if (!e.empty()) return e;
    ++t->corrupt_copies;
  }
  e = first_difference("the fresh file", get_file(*fs, kPath), header + "\n" + line + "\n");
  if (!e.empty()) return e;
  auto r = Session::open(fs, kPath, reader_options());
  if (!r.ok()) return "reopen failed: " + r.status().message();
  e = first_difference("reopened entries", (*r)->entries_json(), "[" + line + "]");
  if (!e.empty()) return e;
  return (*r)->diagnostics_json() == "[]" ? std::string() : "reopened diagnostics: " + (*r)->diagnostics_json();
}

// Appends after the damage: the file is the damaged bytes, the '\n' a torn tail lacks, the new line.
std::string write_after_damage(const Golden& g, const Case& c, std::shared_ptr<storage::Fs> fs, Tally* t) {
  const Expect& x = c.expect;
  auto w = Session::open(fs, kPath, writer_options());
  if (!w.ok()) return "writable open failed: " + w.status().message();
  std::string e = check_entries("writable open's entries", (*w)->entries_json(), g, x);
  if (!e.empty()) return e;
  std::string line;
  e = append_one(**w, &line);
  if (!e.empty()) return e;
  Status st = (*w)->close();
  if (!st.ok()) return "close failed: " + st.message();
  bool torn = !c.bytes.empty() && c.bytes.back() != '\n';
  storage::PaddedBuffer buf;
  std::string_view file = file_view(*fs, kPath, &buf);
  if (!concat_match(file, {c.bytes, torn ? "\n" : "", line, "\n"})) {
    return first_difference("the file after the append", file, c.bytes + (torn ? "\n" : "") + line + "\n");
  }
  // No .corrupt copy, no temp file: a damaged line is kept in place, not moved or rewritten.
  if (fs_list(*fs, kDir) != std::vector<std::string>{"s.jsonl", "s.jsonl.lock"}) return "unexpected files in /";
  auto r = Session::open(fs, kPath, reader_options());
  if (!r.ok()) return "reopen failed: " + r.status().message();
  e = check_entries("reopened entries", (*r)->entries_json(), g, x, line);
  if (!e.empty()) return e;
  std::string code;
  e = check_diagnostics((*r)->diagnostics_json(), x, true, &code);
  if (!e.empty()) return "after the append: " + e;
  if (x.damaged) ++t->codes["repaired " + code];
  return std::string();
}

// One damaged file: the read-only open, then (when `write`) the writable round trip.
std::string check_case(const Golden& g, Variant v, size_t k, bool write, Tally* t) {
  Case c = make_case(g, v, k);
  const Expect& x = c.expect;
  auto fs = storage::make_memory_fs();
  put_file(*fs, kPath, c.bytes);
  auto s = Session::open(fs, kPath, reader_options());
  if (x.no_header) {
    if (s.ok()) return "a damaged header was accepted: " + (*s)->entries_json().substr(0, 200);
    if (s.status().code() != Code::kNoHeader) return "want no header, got: " + s.status().message();
    ++t->header_cases;
    return write_after_header_damage(c, fs, t);
  }
  if (!s.ok()) return "read-only open failed: " + s.status().message();
  std::string e = check_entries("entries", (*s)->entries_json(), g, x);
  if (!e.empty()) return e;
  size_t want_count = (x.keep_before > 0 ? x.keep_before - 1 : 0) + (g.n() - x.keep_from);
  if ((*s)->entry_count() != want_count) return "entry_count " + std::to_string((*s)->entry_count());
  auto ctx = (*s)->context(std::nullopt);
  if (!ctx.ok()) return "context failed: " + ctx.status().message();
  std::string code;
  e = check_diagnostics((*s)->diagnostics_json(), x, false, &code);
  if (!e.empty()) return e;
  if (x.damaged) ++t->reported, ++t->codes[code];
  if (!write) return std::string();
  s->reset();
  ++t->writable;
  return write_after_damage(g, c, fs, t);
}

size_t stride() { return env_count("XS_SWEEP_STRIDE", 1); }
size_t write_stride() { return env_count("XS_SWEEP_WRITE_STRIDE", kZeroWriteStride); }

// Every offset in or just after the header line, and those around every line boundary.
std::set<size_t> edge_offsets(const Golden& g) {
  std::set<size_t> ks;
  for (size_t k = 0; k <= g.lines[0].end + 1; ++k) ks.insert(k);
  for (const LineSpan& l : g.lines) {
    for (size_t k : {l.start, l.start + 1, l.end - 1, l.end, l.end + 1}) ks.insert(k);
    if (l.start > 0) ks.insert(l.start - 1);
  }
  ks.insert(g.bytes.size());
  return ks;
}

// Offsets 0..last: every step-th and the edges (all of them when the step is 1).
std::vector<size_t> offsets(const Golden& g, size_t last, size_t step) {
  std::set<size_t> ks = edge_offsets(g);
  for (size_t k = 0; k <= last; k += step) ks.insert(k);
  ks.insert(last);
  std::vector<size_t> out;
  for (size_t k : ks) {
    if (k <= last) out.push_back(k);
  }
  return out;
}

// Totals over the variants this process ran, printed once at the end.
struct Totals : ::testing::Environment {
  std::vector<std::string> variants;
  size_t offsets = 0, cases = 0, reported = 0, header_cases = 0, writable = 0;
  void SetUp() override {
    // Every case allocates and frees a few 70-140 KB buffers. With glibc's defaults they come from
    // mmap or from a heap top that is trimmed after each free, so every case paid for page faults
    // (40% of the run). Keeping the memory in the process halves the time; the engine is unchanged
    // (and sanitizer builds ignore this: they bring their own allocator).
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_TOP_PAD, 16 << 20);
  }
  void TearDown() override {
    if (variants.empty()) return;
    std::string names;
    for (const std::string& v : variants) names += (names.empty() ? "" : ", ") + v;
    std::printf("corruption sweep: %zu cases of a %zu-byte session (%zu variants: %s; up to %zu offsets each, "
                "stride %zu, and every newline); %zu damaged lines reported, %zu header cases, %zu writable round "
                "trips\n",
                cases, golden().bytes.size(), variants.size(), names.c_str(), offsets, stride(), reported,
                header_cases, writable);
  }
};
Totals* const totals = static_cast<Totals*>(::testing::AddGlobalTestEnvironment(new Totals));

void sweep(Variant v) {
  const Golden& g = golden();
  ASSERT_GE(g.bytes.size(), 65536u);
  size_t last = v == Variant::kTruncate || v == Variant::kZeroFill ? g.bytes.size() : g.bytes.size() - 1;
  std::vector<size_t> ks;
  std::set<size_t> edges;
  if (v == Variant::kDeleteNewline) {
    for (size_t i = 0; i < g.n(); ++i) ks.push_back(i);  // every line's newline, the last one too
  } else {
    ks = offsets(g, last, stride());
    edges = edge_offsets(g);
  }
  size_t wstride =
      v == Variant::kTruncate || v == Variant::kFlip || v == Variant::kDeleteNewline ? 1 : write_stride();
  Tally t;
  size_t failures = 0;
  for (size_t k : ks) {
    std::string e = check_case(g, v, k, k % wstride == 0 || edges.count(k) > 0, &t);
    ++t.cases;
    if (!e.empty() && ++failures <= 10) {
      ADD_FAILURE() << name_of(v) << (v == Variant::kDeleteNewline ? " at line index " : " at byte ") << k << ": "
                    << e;
    }
  }
  EXPECT_EQ(failures, 0u) << "failed cases of " << ks.size();
  std::string codes;
  for (const auto& [code, n] : t.codes) codes += (codes.empty() ? "" : ", ") + code + " " + std::to_string(n);
  std::printf("corruption sweep, %s: %zu %s of a %zu-byte session, %zu damaged lines reported, %zu header "
              "cases (%zu .corrupt copies checked), %zu writable round trips; codes: %s\n",
              name_of(v), t.cases, v == Variant::kDeleteNewline ? "newlines" : "offsets", g.bytes.size(), t.reported, t.header_cases, t.corrupt_copies, t.writable,
              codes.c_str());
  ::testing::Test::RecordProperty("cases", static_cast<int>(t.cases));
  ::testing::Test::RecordProperty("session_bytes", static_cast<int>(g.bytes.size()));
  ::testing::Test::RecordProperty("damaged_lines_reported", static_cast<int>(t.reported));
  ::testing::Test::RecordProperty("header_cases", static_cast<int>(t.header_cases));
  totals->variants.push_back(name_of(v));
  if (v != Variant::kDeleteNewline) totals->offsets = std::max(totals->offsets, ks.size());
  totals->cases += t.cases;
  totals->reported += t.reported;
  totals->header_cases += t.header_cases;
  totals->writable += t.writable + t.header_cases;
}

// The golden session holds what the sweep needs (a multi-branch session of more than 64 KiB with
// every kind of entry and escape, golden_session.h), and loads whole with nothing to report.
TEST(CorruptionSweep, GoldenSession) {
  const Golden& g = golden();
  EXPECT_GE(g.bytes.size(), 65536u);
  EXPECT_GE(g.n(), 41u);  // the header and 40+ entries
  // Fixed clock and id seed: the same bytes every time (a failure names a reproducible offset).
  EXPECT_EQ(build_golden_session(storage::make_memory_fs(), "/again.jsonl"), g.bytes);
  size_t large = 0;
  for (size_t i = 0; i < g.n(); ++i) large += g.line(i).size() >= 18000;
  EXPECT_EQ(large, 3u);
  for (const char* piece : {"\"type\":\"label\"", "\"type\":\"compaction\"", "\"type\":\"branch_summary\"",
                            "\"type\":\"thinking_level_change\"", "\"type\":\"model_change\"",
                            "\"type\":\"mode_change\"", "\"type\":\"custom\"", "\\u0000", "\\\"", "\\\\", "\\t",
                            "\\n", "é", "✓", "😀", "\"title\":\"Golden ✓ session"}) {
    EXPECT_NE(g.bytes.find(piece), std::string::npos) << piece;
  }
  auto fs = storage::make_memory_fs();
  put_file(*fs, kPath, g.bytes);
  auto s = Session::open(fs, kPath, reader_options());
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ((*s)->entries_json(), expected_entries(g, g.n(), g.n()));
  EXPECT_EQ((*s)->diagnostics_json(), "[]");
  // Three branches: the first answer has two children (the main line and the compacted branch),
  // and so has question 3 (its answer and the branch summary).
  size_t forks = 0;
  auto ids = ids_of((*s)->entries_json());
  ASSERT_TRUE(ids.has_value());
  for (const std::string& id : *ids) {
    auto kids = (*s)->children_json(id);
    ASSERT_TRUE(kids.ok());
    auto kid_ids = ids_of(*kids);
    ASSERT_TRUE(kid_ids.has_value()) << *kids;
    forks += kid_ids->size() >= 2;
  }
  EXPECT_EQ(forks, 2u);
}

TEST(CorruptionSweep, TruncateAtEveryOffset) { sweep(Variant::kTruncate); }
TEST(CorruptionSweep, ZeroFillAfterEveryOffset) { sweep(Variant::kZeroFill); }
TEST(CorruptionSweep, FlipEveryByte) { sweep(Variant::kFlip); }
TEST(CorruptionSweep, ZeroRunAtEveryOffset) { sweep(Variant::kZeroRun); }
TEST(CorruptionSweep, GarbageFromEveryOffsetToTheEnd) { sweep(Variant::kGarbage); }
TEST(CorruptionSweep, EveryNewlineDeleted) { sweep(Variant::kDeleteNewline); }

}  // namespace
}  // namespace xs::test
