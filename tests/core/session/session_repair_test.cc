// Session::repair (session/session_rewrites.cc) with upkeep/quarantine: repair(kQuarantine) moves
// the lines that are not JSON into "<file>.quarantine-<time>.jsonl" and rewrites the session
// without them; everything else stays byte for byte. On memory_fs and on posix_fs in a temp dir,
// with a failure injected at every seam call of the repair.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <simdjson.h>

#include <memory>
#include <string>
#include <vector>

#include "format/clock.h"
#include "json/json_string.h"
#include "session/session.h"
#include "format/side_files.h"
#include "storage/faulty_fs.h"
#include "test_util.h"

namespace xs::session {
namespace {

constexpr int64_t kT0 = 1771237230000;  // 2026-02-16T10:20:30.000Z
const std::string kStamp = "2026-02-16T10-20-30-000Z";
const std::string kFileName = "2026-02-16T10-20-30-000Z_sess1.jsonl";

const std::string kHeader =
    R"({"type":"session","version":3,"id":"sess1","timestamp":"2026-02-16T10:20:30.000Z","cwd":"/home/u/proj"})";
const std::string kUserLine =
    R"({"type":"message","id":"m1","parentId":null,"timestamp":"2026-02-16T10:20:31.000Z","message":{"role":"user","content":"hi"}})";
const std::string kAssistantLine =
    R"({"type":"message","id":"m2","parentId":"m1","timestamp":"2026-02-16T10:20:32.000Z",)"
    R"("message":{"role":"assistant","content":[{"type":"text","text":"yo"}],"provider":"p","model":"m"}})";
// JSON, but its parent is in no line: reported (orphan), never moved.
const std::string kOrphanLine =
    R"({"type":"message","id":"o1","parentId":"missing","timestamp":"2026-02-16T10:20:33.000Z","message":{"role":"user","content":"lost"}})";
// Not JSON: moved.
const std::string kGarbage = "garbage, not JSON";
const std::string kBadUtf8 = "{\"type\":\"custom\",\"data\":\"\xff\xfe\"}";
const std::string kNul = std::string("{\"type\":\"mess\0age\"}", 19);
const std::string kTorn = R"({"type":"message","id":"torn","mess)";
// JSON that is not an entry, or over the limits below: kept.
const std::string kNotObject = "[1,2,3]";
const std::string kNoId = R"({"type":"custom","customType":"x"})";
const std::string kTooDeep = std::string(20, '[') + "1" + std::string(20, ']');
const std::string kTooLong = R"({"type":"custom","customType":"big","data":")" + std::string(700, 'x') + "\"}";

struct Disk {
  std::unique_ptr<test::TempDir> tmp;
  std::shared_ptr<storage::Fs> base;
  std::shared_ptr<storage::FaultyFs> fs;
  std::string dir, path;

  explicit Disk(const std::string& kind) {
    if (kind == "posix") {
      tmp = std::make_unique<test::TempDir>();
      base = storage::make_posix_fs();
      dir = tmp->path() + "/sessions/--home-u-proj--";
    } else {
      base = storage::make_memory_fs();
      dir = "/home/u/.xcsh/agent/sessions/--home-u-proj--";
    }
    fs = std::make_shared<storage::FaultyFs>(base);
    path = dir + "/" + kFileName;
  }
  void put(const std::string& bytes) { test::put_file(*base, path, bytes); }
  std::string get(const std::string& p = "") { return test::get_file(*base, p.empty() ? path : p); }
  std::vector<std::string> names() { return test::fs_list(*base, dir); }
  std::string quarantine_path(const std::string& extra = "") {
    return path + ".quarantine-" + kStamp + extra + ".jsonl";
  }
};

SessionOptions options(bool read_only = false) {
  SessionOptions o;
  o.clock = format::Clock::Fixed(kT0, 1000);
  o.id_seed = 42;
  o.cwd = "/home/u/proj";
  o.read_only = read_only;
  o.limits.max_depth = 16;
  o.limits.max_line_bytes = 600;
  return o;
}

// A file's lines (without their '\n') and whether the last one has a newline.
struct Layout {
  std::vector<std::string> lines;
  bool final_newline = true;

  std::string bytes(const std::vector<size_t>& without = {}) const {
    std::string out;
    for (size_t i = 0; i < lines.size(); ++i) {
      if (std::find(without.begin(), without.end(), i + 1) != without.end()) continue;
      out += lines[i];
      if (i + 1 < lines.size() || final_newline) out += '\n';
    }
    return out;
  }
  uint64_t offset(size_t line) const {
    uint64_t at = 0;
    for (size_t i = 0; i + 1 < line; ++i) at += lines[i].size() + 1;
    return at;
  }
};

// Every kind of line: 3, 5, 7 and 12 are not JSON; the rest stays.
Layout mixed() {
  return {{kHeader, kUserLine, kGarbage, kAssistantLine, kBadUtf8, kNotObject, kNul, kOrphanLine, kNoId, kTooDeep,
           kTooLong, kTorn},
          false};
}
const std::vector<size_t> kMoved = {3, 5, 7, 12};

std::string decode_base64(std::string_view b64) {
  std::string out(b64.size() / 4 * 3, '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()), reinterpret_cast<const unsigned char*>(b64.data()),
                          static_cast<int>(b64.size()));
  if (n < 0) return "<not base64>";
  size_t pad = b64.size() >= 2 && b64.substr(b64.size() - 2) == "==" ? 2 : !b64.empty() && b64.back() == '=' ? 1 : 0;
  out.resize(static_cast<size_t>(n) - pad);
  return out;
}

struct Record {
  uint64_t line = 0, offset = 0, length = 0;
  std::string code, reason;
  bool newline = false;
  std::string bytes;
  std::string encoding;  // "text" or "base64"
};

// The quarantine file's records, each line parsed; an unparseable one fails the test.
std::vector<Record> records(const std::string& file) {
  std::vector<Record> out;
  simdjson::dom::parser parser;
  size_t pos = 0;
  while (pos < file.size()) {
    size_t nl = file.find('\n', pos);
    EXPECT_NE(nl, std::string::npos) << "a record without its newline";
    if (nl == std::string::npos) break;
    std::string line = file.substr(pos, nl - pos);
    pos = nl + 1;
    simdjson::dom::element e;
    EXPECT_EQ(parser.parse(line).get(e), simdjson::SUCCESS) << line;
    Record r;
    r.line = uint64_t(e["line"]);
    r.offset = uint64_t(e["offset"]);
    r.length = uint64_t(e["length"]);
    r.code = std::string(std::string_view(e["code"]));
    r.reason = std::string(std::string_view(e["reason"]));
    r.newline = bool(e["newline"]);
    std::string_view text;
    if (e["text"].get(text) == simdjson::SUCCESS) {
      r.bytes = std::string(text);
      r.encoding = "text";
    } else {
      r.bytes = decode_base64(std::string_view(e["base64"]));
      r.encoding = "base64";
    }
    out.push_back(r);
  }
  return out;
}

// "code@line" for each problem of a verify report.
std::string problems(const std::string& verify_json) {
  simdjson::dom::parser parser;
  simdjson::dom::element e;
  if (parser.parse(verify_json).get(e) != simdjson::SUCCESS) return "<not JSON>";
  std::string out;
  for (simdjson::dom::element p : e["problems"].get_array()) {
    out += (out.empty() ? "" : ",") + std::string(std::string_view(p["code"])) + "@" +
           std::to_string(uint64_t(p["line"]));
  }
  return out;
}

// The reason verify gives for line `line`.
std::string reason_of(const std::string& verify_json, uint64_t line) {
  simdjson::dom::parser parser;
  simdjson::dom::element e;
  if (parser.parse(verify_json).get(e) != simdjson::SUCCESS) return "<not JSON>";
  for (simdjson::dom::element p : e["problems"].get_array()) {
    if (uint64_t(p["line"]) == line) return std::string(std::string_view(p["reason"]));
  }
  return "<no problem on line " + std::to_string(line) + ">";
}

std::string json_quoted(const std::string& s) {
  std::string out;
  json::append_quoted(out, s);
  return out;
}

// What a fresh read-only open of the file shows: a handle after a repair must show the same.
std::string fresh_view(Disk& d) {
  auto r = Session::open(d.base, d.path, options(true));
  if (!r.ok()) return "<" + r.status().message() + ">";
  return (*r)->diagnostics_json() + "\n" + (*r)->entries_json() + "\n" + (*r)->verify_json();
}
std::string fresh_verify(Disk& d) {
  auto r = Session::open(d.base, d.path, options(true));
  return r.ok() ? (*r)->verify_json() : "<" + r.status().message() + ">";
}
std::string view(const Session& s) { return s.diagnostics_json() + "\n" + s.entries_json() + "\n" + s.verify_json(); }

class SessionRepairTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SessionRepairTest, QuarantineMovesOnlyTheLinesThatAreNotJsonAndKeepsEveryByte) {
  Disk d(GetParam());
  Layout file = mixed();
  d.put(file.bytes());
  auto s = Session::open(d.fs, d.path, options());
  ASSERT_TRUE(s.ok()) << s.status().message();
  std::string before = (*s)->verify_json();
  EXPECT_EQ(problems(before),
            "invalid_json@3,invalid_utf8@5,not_object@6,nul_byte@7,orphan@8,no_id@9,too_deep@10,too_long@11,"
            "incomplete_tail@12");

  auto done = (*s)->repair(RepairMode::kQuarantine);
  ASSERT_TRUE(done.ok()) << done.status().message();

  // The session: the original bytes without the four lines (each with its '\n'; the torn tail had none).
  std::string repaired = file.bytes(kMoved);
  EXPECT_EQ(d.get(), kHeader + "\n" + kUserLine + "\n" + kAssistantLine + "\n" + kNotObject + "\n" + kOrphanLine +
                         "\n" + kNoId + "\n" + kTooDeep + "\n" + kTooLong + "\n");
  EXPECT_EQ(d.get(), repaired);

  // The quarantine file: one record per moved line, exact, its bytes decoding to the original.
  std::string qpath = d.quarantine_path();
  std::vector<Record> recs = records(d.get(qpath));
  ASSERT_EQ(recs.size(), 4u);
  const std::vector<std::string> codes = {"invalid_json", "invalid_utf8", "nul_byte", "incomplete_tail"};
  const std::vector<std::string> encodings = {"text", "base64", "text", "text"};
  std::string removed, want_removed, done_items;
  uint64_t removed_bytes = 0;
  for (size_t i = 0; i < recs.size(); ++i) {
    size_t line = kMoved[i];
    const Record& r = recs[i];
    EXPECT_EQ(r.line, line);
    EXPECT_EQ(r.offset, file.offset(line)) << line;
    EXPECT_EQ(r.length, file.lines[line - 1].size()) << line;
    EXPECT_EQ(r.code, codes[i]);
    EXPECT_EQ(r.reason, reason_of(before, line));
    EXPECT_EQ(r.newline, line != 12);
    EXPECT_EQ(r.encoding, encodings[i]) << line;
    EXPECT_EQ(r.bytes, file.lines[line - 1]) << line;
    removed += r.bytes + (r.newline ? "\n" : "");
    want_removed += file.lines[line - 1] + (line != 12 ? "\n" : "");
    removed_bytes += r.length + (r.newline ? 1 : 0);
    done_items += std::string(i ? "," : "") + "{\"line\":" + std::to_string(line) + ",\"offset\":" +
                  std::to_string(file.offset(line)) + ",\"length\":" + std::to_string(r.length) +
                  ",\"code\":\"quarantined\",\"reason\":" + json_quoted(codes[i] + ": " + reason_of(before, line)) + "}";
  }
  EXPECT_EQ(removed, want_removed);
  EXPECT_EQ(repaired.size() + removed.size(), file.bytes().size());
  // The first record exactly, as the file writes it.
  EXPECT_EQ(d.get(qpath).substr(0, d.get(qpath).find('\n') + 1),
            "{\"line\":3,\"offset\":" + std::to_string(file.offset(3)) + ",\"length\":17,\"code\":\"invalid_json\",\"reason\":" +
                json_quoted(reason_of(before, 3)) + ",\"newline\":true,\"text\":\"garbage, not JSON\"}\n");
  EXPECT_NE(d.get(qpath).find(R"("text":"{\"type\":\"mess\u0000age\"}")"), std::string::npos) << d.get(qpath);

  // The report names everything moved.
  EXPECT_EQ(*done, "{\"path\":" + json_quoted(d.path) + ",\"done\":[" + done_items + "],\"quarantine\":{\"path\":" +
                       json_quoted(qpath) + ",\"lines\":4,\"bytes\":" + std::to_string(removed_bytes) + "}}");

  // What is left is reported, not moved; the handle shows the new file as a fresh open does.
  EXPECT_EQ(problems((*s)->verify_json()), "not_object@4,orphan@5,no_id@6,too_deep@7,too_long@8");
  EXPECT_EQ(view(**s), fresh_view(d));
  EXPECT_EQ((*s)->entry_count(), 3u);
  EXPECT_EQ((*s)->leaf_id(), std::optional<std::string_view>("o1"));

  // A second repair has nothing to do, and writes nothing.
  EXPECT_EQ(*(*s)->repair(RepairMode::kQuarantine), "{\"path\":" + json_quoted(d.path) + ",\"done\":[],\"quarantine\":null}");
  EXPECT_EQ(d.get(), repaired);
  EXPECT_EQ(d.names(), (std::vector<std::string>{kFileName, kFileName + ".lock",
                                                 kFileName + ".quarantine-" + kStamp + ".jsonl"}));
  // Appends go on after the kept lines.
  std::string id;
  ASSERT_OK((*s)->append_custom("after", std::nullopt, &id));
  auto line = (*s)->entry_json(id);
  ASSERT_TRUE(line.ok());
  EXPECT_EQ(d.get(), repaired + *line + "\n");
  ASSERT_OK((*s)->close());
}

TEST_P(SessionRepairTest, AfterQuarantineVerifyFindsNothing) {
  Disk d(GetParam());
  Layout file{{kHeader, kUserLine, kGarbage, kAssistantLine, kTorn}, false};
  d.put(file.bytes());
  auto s = Session::open(d.fs, d.path, options());
  ASSERT_TRUE(s.ok());
  auto done = (*s)->repair(RepairMode::kQuarantine);
  ASSERT_TRUE(done.ok()) << done.status().message();
  EXPECT_EQ(d.get(), kHeader + "\n" + kUserLine + "\n" + kAssistantLine + "\n");
  EXPECT_EQ(problems((*s)->verify_json()), "");
  EXPECT_EQ(problems(fresh_verify(d)), "");
  EXPECT_EQ((*s)->diagnostic_count(), 0u);
}

TEST_P(SessionRepairTest, LinesBeforeTheHeaderAndTheByteOrderMark) {
  Disk d(GetParam());
  const std::string bom = "\xEF\xBB\xBF";
  d.put(bom + kGarbage + "\n" + kHeader + "\n" + kUserLine + "\n");
  auto s = Session::open(d.fs, d.path, options());
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(problems((*s)->verify_json()), "before_header@1");
  std::string reason = reason_of((*s)->verify_json(), 1);
  ASSERT_TRUE((*s)->repair(RepairMode::kQuarantine).ok());
  EXPECT_EQ(d.get(), bom + kHeader + "\n" + kUserLine + "\n");
  EXPECT_EQ(d.get(d.quarantine_path()), "{\"line\":1,\"offset\":3,\"length\":17,\"code\":\"before_header\",\"reason\":" +
                                            json_quoted(reason) + ",\"newline\":true,\"text\":\"garbage, not JSON\"}\n");
  EXPECT_EQ(view(**s), fresh_view(d));
}

TEST_P(SessionRepairTest, AKeptLastLineGetsTheNewlineItLacked) {
  Disk d(GetParam());
  d.put(kHeader + "\n" + kGarbage + "\n" + kUserLine);  // a whole entry, no final newline
  auto s = Session::open(d.fs, d.path, options());
  ASSERT_TRUE(s.ok());
  auto done = (*s)->repair(RepairMode::kQuarantine);
  ASSERT_TRUE(done.ok()) << done.status().message();
  EXPECT_EQ(d.get(), kHeader + "\n" + kUserLine + "\n");
  uint64_t at = kHeader.size() + 1;
  EXPECT_NE(done->find("{\"line\":3,\"offset\":" + std::to_string(at + kGarbage.size() + 1) + ",\"length\":" +
                       std::to_string(kUserLine.size()) +
                       ",\"code\":\"newline_written\",\"reason\":\"the rewrite ended the last line with the newline it "
                       "lacked\"}"),
            std::string::npos)
      << *done;
  EXPECT_EQ(view(**s), fresh_view(d));
}

TEST_P(SessionRepairTest, JsonOnlyProblemsAreLeftAndATooLongTornTailGetsItsNewline) {
  Disk d(GetParam());
  // Nothing here is "not JSON": quarantine mode does what the plain repair does.
  d.put(kHeader + "\n" + kOrphanLine + "\n" + kNotObject + "\n" + kTooLong);
  auto s = Session::open(d.fs, d.path, options());
  ASSERT_TRUE(s.ok());
  auto done = (*s)->repair(RepairMode::kQuarantine);
  ASSERT_TRUE(done.ok()) << done.status().message();
  EXPECT_EQ(d.get(), kHeader + "\n" + kOrphanLine + "\n" + kNotObject + "\n" + kTooLong + "\n");
  EXPECT_NE(done->find("\"code\":\"newline_written\""), std::string::npos) << *done;
  EXPECT_NE(done->find(",\"quarantine\":null}"), std::string::npos) << *done;
  EXPECT_EQ(problems((*s)->verify_json()), "orphan@2,not_object@3,too_long@4");
  EXPECT_EQ(d.names(), (std::vector<std::string>{kFileName, kFileName + ".lock"}));
}

TEST_P(SessionRepairTest, ThePlainRepairStillKeepsEveryLine) {
  Disk d(GetParam());
  Layout file = mixed();
  d.put(file.bytes());
  auto s = Session::open(d.fs, d.path, options());
  ASSERT_TRUE(s.ok());
  auto done = (*s)->repair();
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(done->find("quarantine"), std::string::npos) << *done;
  EXPECT_EQ(d.get(), file.bytes() + "\n");
  EXPECT_EQ(d.names(), (std::vector<std::string>{kFileName, kFileName + ".lock"}));
}

TEST_P(SessionRepairTest, ATakenQuarantineNameGetsASuffix) {
  Disk d(GetParam());
  d.put(kHeader + "\n" + kGarbage + "\n");
  test::put_file(*d.base, d.quarantine_path(), "someone else's\n");
  auto s = Session::open(d.fs, d.path, options());
  ASSERT_TRUE(s.ok());
  auto done = (*s)->repair(RepairMode::kQuarantine);
  ASSERT_TRUE(done.ok()) << done.status().message();
  EXPECT_EQ(d.get(d.quarantine_path()), "someone else's\n");
  EXPECT_EQ(records(d.get(d.quarantine_path("-1"))).size(), 1u);
  EXPECT_NE(done->find(json_quoted(d.quarantine_path("-1"))), std::string::npos) << *done;
}

TEST_P(SessionRepairTest, AReadOnlyHandleIsRefusedAndAHeldLockKeepsOthersOut) {
  Disk d(GetParam());
  Layout file = mixed();
  d.put(file.bytes());
  auto reader = Session::open(d.fs, d.path, options(true));
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->repair(RepairMode::kQuarantine).status().code(), Code::kReadOnly);
  auto writer = Session::open(d.fs, d.path, options());
  ASSERT_TRUE(writer.ok());
  // While a writer holds the file, no second writer can open it to repair it.
  EXPECT_EQ(Session::open(d.fs, d.path, options()).status().code(), Code::kLocked);
  EXPECT_EQ(d.get(), file.bytes());
  EXPECT_EQ(d.names(), (std::vector<std::string>{kFileName, kFileName + ".lock"}));
}

TEST_P(SessionRepairTest, AFileAnotherProcessChangedIsNotTouched) {
  Disk d(GetParam());
  d.put(kHeader + "\n" + kGarbage + "\n");
  auto s = Session::open(d.fs, d.path, options());
  ASSERT_TRUE(s.ok());
  test::append_file(*d.base, d.path, kUserLine + "\n");  // a writer that takes no lock
  std::string changed = d.get();
  auto done = (*s)->repair(RepairMode::kQuarantine);
  EXPECT_EQ(done.status().code(), Code::kConflict);
  EXPECT_EQ(d.get(), changed);
  EXPECT_EQ(d.names(), (std::vector<std::string>{kFileName, kFileName + ".lock"}));
}

// A failed rename after the quarantine file was written: the session file is unchanged, the copy
// stays (and the message says so), the handle shows the file as it is and refuses further writes.
TEST_P(SessionRepairTest, AFailedRewriteLeavesTheQuarantineCopyAndSaysSo) {
  Disk d(GetParam());
  Layout file = mixed();
  d.put(file.bytes());
  auto s = Session::open(d.fs, d.path, options());
  ASSERT_TRUE(s.ok());
  std::string shown = view(**s);
  d.fs->fail(storage::FsOp::kRename, Code::kNoSpace);
  auto done = (*s)->repair(RepairMode::kQuarantine);
  d.fs->clear(storage::FsOp::kRename);
  ASSERT_EQ(done.status().code(), Code::kNoSpace);
  EXPECT_NE(done.status().message().find("first copied to " + d.quarantine_path() + ", which stays; " + d.path +
                                         " is unchanged"),
            std::string::npos)
      << done.status().message();
  EXPECT_EQ(d.get(), file.bytes());
  EXPECT_EQ(records(d.get(d.quarantine_path())).size(), 4u);
  EXPECT_EQ(view(**s), shown);
  EXPECT_EQ(view(**s), fresh_view(d));
  std::string id;
  EXPECT_EQ((*s)->append_custom("x", std::nullopt, &id).code(), Code::kPoisoned);
  EXPECT_EQ((*s)->repair(RepairMode::kQuarantine).status().code(), Code::kPoisoned);
}

// Every seam call of a quarantine repair fails in turn (EIO once; ENOSPC from then on): the
// session file is the original or the fully repaired one, never anything between; a quarantine
// file that exists holds every moved line (a shorter one only when removing it failed too); the
// handle shows what is on disk.
TEST_P(SessionRepairTest, AFailureAtEverySeamCallLeavesTheFileWholeOrFullyRepaired) {
  Layout file = mixed();
  const std::string original = file.bytes();
  std::string repaired, quarantine;
  uint64_t calls = 0;
  {
    Disk d(GetParam());
    d.put(original);
    auto s = Session::open(d.fs, d.path, options());
    ASSERT_TRUE(s.ok());
    uint64_t before = d.fs->calls();
    ASSERT_TRUE((*s)->repair(RepairMode::kQuarantine).ok());
    calls = d.fs->calls() - before;
    repaired = d.get();
    quarantine = d.get(d.quarantine_path());
  }
  ASSERT_GE(calls, 10u);
  size_t failed_runs = 0, repaired_runs = 0;
  for (bool persistent : {false, true}) {
    for (uint64_t n = 1; n <= calls; ++n) {
      SCOPED_TRACE((persistent ? "ENOSPC from call " : "EIO at call ") + std::to_string(n));
      Disk d(GetParam());
      d.put(original);
      auto s = Session::open(d.fs, d.path, options());
      ASSERT_TRUE(s.ok());
      d.fs->arm({d.fs->calls() + n, persistent ? Code::kNoSpace : Code::kIo, persistent, false, 0});
      auto done = (*s)->repair(RepairMode::kQuarantine);
      d.fs->disarm();
      ASSERT_TRUE(d.fs->fault_hit());
      bool unlink_failed = false;
      for (const storage::InjectedFault& f : d.fs->injected()) unlink_failed |= f.op == storage::FsOp::kUnlink;
      std::string now = d.get();
      if (done.ok()) {
        EXPECT_EQ(now, repaired);
      } else if (now == repaired) {
        ++repaired_runs;  // only the directory sync after the rename failed
        EXPECT_NE(done.status().message().find(d.path + " was repaired"), std::string::npos) << done.status().message();
      } else {
        ++failed_runs;
        EXPECT_EQ(now, original);
      }
      for (const std::string& name : d.names()) {
        if (!format::is_quarantine_file_name(name)) continue;
        std::string got = d.get(d.dir + "/" + name);
        if (unlink_failed) {
          EXPECT_EQ(got, quarantine.substr(0, got.size())) << name;
        } else {
          EXPECT_EQ(got, quarantine) << name;
        }
      }
      EXPECT_EQ(view(**s), fresh_view(d));
    }
  }
  EXPECT_GT(failed_runs, 0u);
  EXPECT_GT(repaired_runs, 0u);
}

INSTANTIATE_TEST_SUITE_P(Both, SessionRepairTest, ::testing::Values("memory", "posix"),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
}  // namespace xs::session
