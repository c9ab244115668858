// Records, the writer process and the file check of the kill -9 matrix (kill9_test.cc;
// docs/guarantees.md#t1, proving #g1 and #g4).
//
// A record is a user message whose content is one or more text blocks of at most 400,000 ASCII
// letters (the size rules cut any string longer than 500,000 UTF-16 units, so one big string would
// not be stored as written). Everything in it follows from (writer, seq): its payload size,
// log-uniform in [100 B, 8 MiB], and its letters. The checker can therefore rebuild every record
// and compare each line of the file byte for byte, and it can tell whether a damaged line is a
// torn prefix of a single record or something else (two records glued, lost bytes, garbage).
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "json_answers.h"
#include "reliability_util.h"

namespace xs::test::kill9 {

constexpr size_t kMinPayload = 100;
constexpr size_t kMaxPayload = size_t{8} << 20;
constexpr size_t kBlockChars = 400000;
constexpr size_t kLarge = size_t{1} << 20;  // "large" in the summary: at least 1 MiB of payload

inline uint64_t splitmix(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

inline uint64_t record_seed(int writer, uint64_t seq) {
  return (static_cast<uint64_t>(writer) << 56) ^ (seq * 0xD1B54A32D192ED03ull);
}

// Letters of the payload, log-uniform in [kMinPayload, kMaxPayload].
inline size_t payload_size(int writer, uint64_t seq) {
  uint64_t s = record_seed(writer, seq);
  double u = static_cast<double>(splitmix(s) >> 11) * 0x1.0p-53;
  double lo = std::log(static_cast<double>(kMinPayload)), hi = std::log(static_cast<double>(kMaxPayload));
  return std::min(kMaxPayload, static_cast<size_t>(std::exp(lo + (hi - lo) * u)));
}

// What the first text block starts with: it names the record, so a line tells which one it is.
inline std::string marker_prefix(int writer) { return "w" + std::to_string(writer) + "s"; }

// {"role":"user","content":[{"type":"text","text":"w<W>s<seq>:<letters>"},...]}, minified: the
// engine stores caller JSON token for token, so these are the exact bytes of the line's message.
inline std::string message_json(int writer, uint64_t seq) {
  size_t n = payload_size(writer, seq);
  std::string out;
  out.reserve(n + (n / kBlockChars + 1) * 28 + 32);
  out += R"({"role":"user","content":[)";
  uint64_t s = record_seed(writer, seq) ^ 0x5DEECE66Dull;
  for (size_t done = 0; done < n;) {
    size_t len = std::min(kBlockChars, n - done);
    if (done) out += ',';
    out += R"({"type":"text","text":")";
    size_t end = out.size() + len;
    if (done == 0) out += marker_prefix(writer) + std::to_string(seq) + ":";  // < 100 = kMinPayload
    size_t at = out.size();
    out.resize(end + 8);  // room for the last whole word; cut back below
    // Eight letters per draw, each byte mapped to 'a'..'w' without carries into its neighbour:
    // the checker regenerates every record, so this must cost far less than appending one.
    for (; at < end; at += 8) {
      uint64_t x = splitmix(s);
      uint64_t letters = (x & 0x0F0F0F0F0F0F0F0Full) + ((x >> 4) & 0x0707070707070707ull) + 0x6161616161616161ull;
      std::memcpy(&out[at], &letters, 8);
    }
    out.resize(end);
    out += "\"}";
    done += len;
  }
  out += "]}";
  return out;
}

// Child -> parent, one write() each (16 bytes < PIPE_BUF, so never split).
enum Kind : uint32_t { kReady = 1, kBegin = 2, kAck = 3 };
struct Msg {
  uint32_t kind;
  uint32_t pad;
  uint64_t seq;
};

inline void send(int fd, Kind kind, uint64_t seq) {
  Msg m{kind, 0, seq};
  if (write(fd, &m, sizeof m) != static_cast<ssize_t>(sizeof m)) _exit(5);
}

inline uint64_t file_size(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

// A writer process: appends the records (writer, first_seq), (writer, first_seq + 1), ... to the
// session at `path` until it is killed, reporting through `fd`: kReady once the file is open,
// kBegin before each record, kAck only after append_message returned OK. Past `max_bytes` it waits
// for its kill, so the disk use stays bounded whatever the parent is doing.
[[noreturn]] inline void writer_main(const std::string& path, int writer, uint64_t first_seq, int fd,
                                     uint64_t max_bytes) {
  auto s = session::Session::open(storage::make_posix_fs(), path, options(false, true));
  if (!s.ok()) {
    std::fprintf(stderr, "writer %d: open failed: %s\n", writer, s.status().message().c_str());
    _exit(3);
  }
  send(fd, kReady, 0);
  std::string id;
  for (uint64_t seq = first_seq;; ++seq) {
    if (file_size(path) > max_bytes) {
      for (;;) pause();
    }
    send(fd, kBegin, seq);
    Status st = (*s)->append_message(message_json(writer, seq), &id);
    if (!st.ok()) {
      std::fprintf(stderr, "writer %d: append of %llu failed: %s\n", writer, static_cast<unsigned long long>(seq),
                   st.message().c_str());
      _exit(4);
    }
    send(fd, kAck, seq);  // acknowledged: only now may the parent count on it
  }
}

// How one line of the file compares with the records its writer could have written there.
enum class Match { kComplete, kPrefix, kMismatch };
struct LineMatch {
  Match match = Match::kMismatch;
  std::optional<uint64_t> seq;  // known once the line reaches past the record's marker
  std::string id;               // the entry id (complete lines)
  std::string why;              // for a mismatch
};

// `line` against {"type":"message","id":"<8 hex>","parentId":<parent>,"timestamp":"<ISO ms>",
// "message":<message_json(writer, seq)>}, the seq read from the marker. `parent_id` empty: null.
// The id and timestamp are the engine's choice, so only their shape is checked.
inline LineMatch match_line(std::string_view line, int writer, const std::string& parent_id) {
  LineMatch m;
  size_t pos = 0;
  // Each step consumes its part of the template; false when the line ended inside it (a prefix)
  // or differs (m.why is set then).
  auto literal = [&](std::string_view want) {
    size_t n = std::min(want.size(), line.size() - pos);
    if (line.compare(pos, n, want.substr(0, n)) != 0) {
      m.why = "expected \"" + std::string(want) + "\" at byte " + std::to_string(pos);
      return false;
    }
    pos += n;
    return n == want.size();
  };
  auto shaped = [&](std::string_view shape, const char* what) {  // 'h' = hex digit, '9' = digit
    for (char c : shape) {
      if (pos == line.size()) return false;
      char got = line[pos];
      bool ok = c == 'h' ? (std::isdigit(static_cast<unsigned char>(got)) || (got >= 'a' && got <= 'f'))
                : c == '9' ? std::isdigit(static_cast<unsigned char>(got)) != 0
                           : got == c;
      if (!ok) {
        m.why = std::string("malformed ") + what + " at byte " + std::to_string(pos);
        return false;
      }
      ++pos;
    }
    return true;
  };
  const std::string parent = parent_id.empty() ? "null" : "\"" + parent_id + "\"";
  auto done = [&] {
    m.match = m.why.empty() ? Match::kPrefix : Match::kMismatch;
    return m;
  };
  if (!literal(R"({"type":"message","id":")")) return done();
  size_t id_at = pos;
  if (!shaped("hhhhhhhh", "id")) return done();
  m.id = std::string(line.substr(id_at, 8));
  if (!literal(R"(","parentId":)" + parent + R"(,"timestamp":")")) return done();
  if (!shaped("9999-99-99T99:99:99.999Z", "timestamp")) return done();
  size_t message_at = pos;
  if (!literal(R"(","message":{"role":"user","content":[{"type":"text","text":")" + marker_prefix(writer))) {
    return done();
  }
  size_t digits = pos;
  while (pos < line.size() && pos - digits < 20 && std::isdigit(static_cast<unsigned char>(line[pos]))) ++pos;
  if (pos == line.size()) return done();  // torn inside the seq: which record it was stays unknown
  if (pos == digits || line[pos] != ':') {
    m.why = "no record marker at byte " + std::to_string(digits);
    return done();
  }
  m.seq = std::stoull(std::string(line.substr(digits, pos - digits)));
  // From here on every byte is known: the whole message and the closing brace.
  std::string rest = R"(","message":)" + message_json(writer, *m.seq) + "}";
  std::string_view have = line.substr(message_at);
  if (have.size() > rest.size() || rest.compare(0, have.size(), have) != 0) {
    size_t at = 0;
    while (at < have.size() && at < rest.size() && have[at] == rest[at]) ++at;
    m.why = "record " + std::to_string(*m.seq) + " differs from its content at byte " +
            std::to_string(message_at + at) +
            (have.size() > rest.size() ? " (the line is longer than the record: glued?)" : "");
    return done();
  }
  m.match = have.size() == rest.size() ? Match::kComplete : Match::kPrefix;
  return m;
}

// What the parent knows about one session file: what its (only) writer acknowledged, and the
// record each kill caught in flight (begun, not acknowledged) — the only ones that may be torn or
// present without an acknowledgement.
struct FileLog {
  std::string path;
  std::string header;  // the header line as created
  int writer = 0;
  std::set<uint64_t> acked;
  std::set<uint64_t> in_flight;
  int kills = 0;
};

struct FileReport {
  size_t entries = 0;
  size_t unacked_present = 0;      // written whole by a writer killed before it reported the ack
  size_t torn = 0;                 // damaged lines: torn prefixes of single records
  size_t after_torn_intact = 0;    // torn fragments whose next whole line is an exact entry
  size_t max_torn_payload = 0;     // of the torn records whose marker survived
  size_t bytes = 0;
};

// Checks the file of a writer that is dead right now (so no line is still being written). Adds a
// test failure and stops at the first problem.
inline FileReport check_file(const FileLog& log) {
  FileReport r;
  const std::string bytes = read_file(log.path);
  r.bytes = bytes.size();
  struct Piece {
    size_t offset, length, line_no;
    bool terminated;
  };
  std::vector<Piece> lines;
  for (size_t at = 0; at < bytes.size();) {
    size_t nl = bytes.find('\n', at);
    size_t end = nl == std::string::npos ? bytes.size() : nl;
    lines.push_back({at, end - at, lines.size() + 1, nl != std::string::npos});
    at = end + 1;
  }
  const std::string where = log.path + ": ";
  if (lines.empty() || bytes.compare(0, log.header.size() + 1, log.header + "\n") != 0) {
    ADD_FAILURE() << where << "the header line is not the one written at creation";
    return r;
  }
  std::vector<std::string_view> entries;  // whole lines, file order
  std::vector<const Piece*> torn;
  std::set<uint64_t> complete;
  std::string parent;              // id of the last whole entry: the parentId of what follows
  std::optional<uint64_t> last;    // highest seq seen so far (whole or torn)
  size_t unknown_in_gap = 0;       // torn before the marker told which record it was
  size_t torn_waiting = 0;         // torn lines not yet followed by a whole entry
  // Torn lines whose record is unknown must fit among the records caught in flight in the gap.
  auto close_gap = [&](std::optional<uint64_t> next) {
    size_t room = 0;
    for (uint64_t s : log.in_flight) room += (!last || s > *last) && (!next || s < *next) && !complete.count(s);
    EXPECT_LE(unknown_in_gap, room) << where << "more torn lines than kills caught a record in flight there";
    unknown_in_gap = 0;
  };
  for (size_t k = 1; k < lines.size(); ++k) {
    const Piece& p = lines[k];
    std::string_view line(bytes.data() + p.offset, p.length);
    LineMatch m = match_line(line, log.writer, parent);
    std::string at = where + "line " + std::to_string(p.line_no) + " (offset " + std::to_string(p.offset) + ", " +
                     std::to_string(p.length) + " bytes)";
    if (p.length == 0 || m.match == Match::kMismatch) {
      ADD_FAILURE() << at << " is neither a whole record nor a torn prefix of one (glued or damaged): "
                    << (p.length ? m.why : "blank line");
      return r;
    }
    if (m.seq) {
      if (last && *m.seq <= *last) {
        ADD_FAILURE() << at << ": record " << *m.seq << " after record " << *last << " (order, duplicate)";
        return r;
      }
      close_gap(m.seq);
      last = m.seq;
    }
    if (m.match == Match::kComplete) {
      if (!log.acked.count(*m.seq) && !log.in_flight.count(*m.seq)) {
        ADD_FAILURE() << at << ": record " << *m.seq << " was never in flight when its writer was killed";
        return r;
      }
      r.unacked_present += !log.acked.count(*m.seq);
      // The next append never merges with a torn tail: the record the restarted writer wrote
      // after a torn fragment is whole (any line
      // between them is itself a torn record of a later kill, checked like this one).
      r.after_torn_intact += torn_waiting;
      torn_waiting = 0;
      complete.insert(*m.seq);
      entries.push_back(line);
      parent = m.id;
      continue;
    }
    // A torn prefix of one record: only a record caught in flight by a kill may be torn, never an
    // acknowledged one.
    if (m.seq && !log.in_flight.count(*m.seq)) {
      ADD_FAILURE() << at << ": torn record " << *m.seq
                    << (log.acked.count(*m.seq) ? " had been acknowledged" : " was never in flight at a kill");
      return r;
    }
    unknown_in_gap += !m.seq;
    if (m.seq) r.max_torn_payload = std::max(r.max_torn_payload, payload_size(log.writer, *m.seq));
    torn.push_back(&p);
    ++torn_waiting;
  }
  close_gap(std::nullopt);
  for (uint64_t s : log.acked) {
    if (!complete.count(s)) {
      ADD_FAILURE() << where << "acknowledged record " << s << " is lost";
      return r;
    }
  }
  r.entries = entries.size();
  r.torn = torn.size();
  EXPECT_LE(r.torn, static_cast<size_t>(log.kills)) << where << "more damaged lines than kills";

  // The engine's view of the same file: exactly these entries, byte for byte, in file order, and
  // exactly these damaged lines with their offsets and lengths.
  auto s = session::Session::open(storage::make_posix_fs(), log.path, read_only());
  if (!s.ok()) {
    ADD_FAILURE() << where << "read-only open failed: " << s.status().message();
    return r;
  }
  std::string want = "[";
  for (size_t k = 0; k < entries.size(); ++k) want.append(k ? "," : "").append(entries[k]);
  want += "]";
  EXPECT_TRUE((*s)->entries_json() == want) << where << "the engine's entries differ from the file's whole lines";
  std::string d = (*s)->diagnostics_json();
  auto diags = parse_diagnostics(d);
  if (!diags || diags->size() != torn.size()) {
    ADD_FAILURE() << where << torn.size() << " torn lines, but the diagnostics are " << d;
    return r;
  }
  for (size_t k = 0; k < diags->size(); ++k) {
    const Piece& p = *torn[k];
    const Diagnostic& g = (*diags)[k];
    // A fragment followed by the restarted writer's '\n' is a bad line; one at the end without
    // its newline is an incomplete tail (docs/decisions.md#torn-tail).
    EXPECT_EQ(g.line, p.line_no) << where << d;
    EXPECT_EQ(g.offset, p.offset) << where << d;
    EXPECT_EQ(g.length, p.length) << where << d;
    EXPECT_EQ(g.code, p.terminated ? "invalid_json" : "incomplete_tail") << where << d;
  }
  return r;
}

}  // namespace xs::test::kill9
