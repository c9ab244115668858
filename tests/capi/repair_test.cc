// xs_session_repair with XS_REPAIR_QUARANTINE through the C API: the report, the session file and
// the quarantine file compared whole and byte for byte; the buffer retry, the flags, and the
// refusals (read-only, changed by another process).
#include <string>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;
using xstest::Fetch;
using xstest::HeaderLine;
using xstest::ListDir;
using xstest::MsgLine;
using xstest::ReadFile;
using xstest::Ts;
using xstest::WriteFile;

std::string Repair(xs_session* s, uint32_t flags, xs_status* st = nullptr) {
  return Fetch([s, flags](char* b, size_t c, size_t* n) { return xs_session_repair(s, flags, b, c, n); }, st);
}
std::string Verify(xs_session* s) {
  return Fetch([s](char* b, size_t c, size_t* n) { return xs_session_verify(s, b, c, n); });
}

const std::string kGarbage = "garbage";
const std::string kNul = std::string("{\"a\":\0}", 7);
const std::string kBadUtf8 = "{\"x\":\"\xc3\x28\"}";
const std::string kTorn = "{\"type\":\"message\",\"id\":\"m3\",\"par";
const std::string kGarbageReason =
    "invalid JSON: The JSON document has an improper structure: missing or superfluous commas, braces, missing "
    "keys, etc.";
const std::string kTornReason =
    "last line has no newline (an interrupted or unfinished write): invalid JSON: A string is opened, but never "
    "closed.";

class RepairTest : public CapiTest {
 protected:
  void SetUp() override {
    CapiTest::SetUp();
    path_ = root_.path() + "/s.jsonl";
    l0_ = HeaderLine("s1", Ts(0), "/w");
    l1_ = MsgLine("m1", "", Ts(1), xstest::kUser1);
    l3_ = MsgLine("m2", "m1", Ts(2), xstest::kUser2);
    // header, m1, garbage, m2, NUL, invalid UTF-8, torn tail
    original_ = l0_ + "\n" + l1_ + "\n" + kGarbage + "\n" + l3_ + "\n" + kNul + "\n" + kBadUtf8 + "\n" + kTorn;
    WriteFile(path_, original_);
  }
  uint64_t OffsetOf(const std::string& line) const { return original_.find(line); }
  std::string Item(int line, const std::string& bytes, const std::string& code, const std::string& reason) const {
    return "{\"line\":" + std::to_string(line) + ",\"offset\":" + std::to_string(OffsetOf(bytes)) +
           ",\"length\":" + std::to_string(bytes.size()) + ",\"code\":\"" + code + "\",\"reason\":\"" + reason + "\"}";
  }
  std::string QuarantinePath() const { return path_ + ".quarantine-2026-02-16T10-20-30-000Z.jsonl"; }
  std::string Report() const {
    uint64_t moved = kGarbage.size() + kNul.size() + kBadUtf8.size() + kTorn.size() + 3;
    return "{\"path\":\"" + path_ + "\",\"done\":[" +
           Item(3, kGarbage, "quarantined", "invalid_json: " + kGarbageReason) + "," +
           Item(5, kNul, "quarantined", "nul_byte: NUL byte at column 6") + "," +
           Item(6, kBadUtf8, "quarantined", "invalid_utf8: invalid UTF-8") + "," +
           Item(7, kTorn, "quarantined", "incomplete_tail: " + kTornReason) + "],\"quarantine\":{\"path\":\"" +
           QuarantinePath() + "\",\"lines\":4,\"bytes\":" + std::to_string(moved) + "}}";
  }
  std::string Record(int line, const std::string& bytes, const std::string& code, const std::string& reason,
                     bool newline, const std::string& data) const {
    std::string item = Item(line, bytes, code, reason);
    item.pop_back();  // the closing brace
    return item + ",\"newline\":" + (newline ? "true" : "false") + "," + data + "}\n";
  }
  std::string Quarantine() const {
    return Record(3, kGarbage, "invalid_json", kGarbageReason, true, "\"text\":\"garbage\"") +
           Record(5, kNul, "nul_byte", "NUL byte at column 6", true, "\"text\":\"{\\\"a\\\":\\u0000}\"") +
           Record(6, kBadUtf8, "invalid_utf8", "invalid UTF-8", true, "\"base64\":\"eyJ4IjoiwygifQ==\"") +
           Record(7, kTorn, "incomplete_tail", kTornReason, false,
                  "\"text\":\"{\\\"type\\\":\\\"message\\\",\\\"id\\\":\\\"m3\\\",\\\"par\"");
  }
  std::string Repaired() const { return l0_ + "\n" + l1_ + "\n" + l3_ + "\n"; }

  std::string path_, l0_, l1_, l3_, original_;
};

TEST_F(RepairTest, QuarantineMovesTheLinesThatAreNotJsonAndVerifyIsClean) {
  xs_session* s = Open(path_);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(Repair(s, XS_REPAIR_QUARANTINE), Report());
  EXPECT_EQ(ReadFile(path_), Repaired());
  EXPECT_EQ(ReadFile(QuarantinePath()), Quarantine());
  EXPECT_EQ(Verify(s), "{\"path\":\"" + path_ +
                           "\",\"id\":\"s1\",\"fileVersion\":3,\"needsMigration\":false,\"lines\":3,\"entries\":2,"
                           "\"blobRefs\":0,\"problems\":[]}");
  EXPECT_EQ(xstest::Diagnostics(s), "[]");
  EXPECT_EQ(xstest::Leaf(s), "m2");
  // Nothing is left to do; the plain repair has nothing to do either.
  EXPECT_EQ(Repair(s, XS_REPAIR_QUARANTINE), "{\"path\":\"" + path_ + "\",\"done\":[],\"quarantine\":null}");
  EXPECT_EQ(Repair(s, 0), "{\"path\":\"" + path_ + "\",\"done\":[]}");
  EXPECT_EQ(ListDir(root_.path()), (std::vector<std::string>{"s.jsonl", "s.jsonl.lock",
                                                             "s.jsonl.quarantine-2026-02-16T10-20-30-000Z.jsonl"}));
}

TEST_F(RepairTest, SizeQueryThenFillMovesTheLinesOnce) {
  xs_session* s = Open(path_);
  ASSERT_NE(s, nullptr);
  size_t need = 0;
  ASSERT_EQ(xs_session_repair(s, XS_REPAIR_QUARANTINE, nullptr, 0, &need), XS_EBUFS);
  EXPECT_EQ(need, Report().size());
  EXPECT_EQ(ReadFile(path_), Repaired());  // done by the size query
  std::string out(need, '\0');
  size_t got = 0;
  ASSERT_EQ(xs_session_repair(s, XS_REPAIR_QUARANTINE, &out[0], out.size(), &got), XS_OK);
  EXPECT_EQ(out.substr(0, got), Report());  // the same report: nothing done twice
  EXPECT_EQ(ReadFile(path_), Repaired());
  EXPECT_EQ(ReadFile(QuarantinePath()), Quarantine());
  EXPECT_EQ(ListDir(root_.path()).size(), 3u);
}

TEST_F(RepairTest, TheRetryWithOtherFlagsIsANewCall) {
  xs_session* s = Open(path_);
  ASSERT_NE(s, nullptr);
  size_t need = 0;
  ASSERT_EQ(xs_session_repair(s, XS_REPAIR_QUARANTINE, nullptr, 0, &need), XS_EBUFS);
  EXPECT_EQ(Repair(s, 0), "{\"path\":\"" + path_ + "\",\"done\":[]}");
}

TEST_F(RepairTest, UnknownFlagsAreRefusedAndChangeNothing) {
  xs_session* s = Open(path_);
  ASSERT_NE(s, nullptr);
  size_t n = 0;
  EXPECT_EQ(xs_session_repair(s, 0x2u, nullptr, 0, &n), XS_EINVAL);
  EXPECT_EQ(std::string(xs_session_errmsg(s)), "unknown bits in the repair flags");
  EXPECT_EQ(xs_session_repair(s, XS_REPAIR_QUARANTINE, nullptr, 0, nullptr), XS_EINVAL);
  EXPECT_EQ(ReadFile(path_), original_);
  EXPECT_EQ(xs_session_repair(nullptr, XS_REPAIR_QUARANTINE, nullptr, 0, &n), XS_EMISUSE);
}

TEST_F(RepairTest, AReadOnlyHandleIsRefused) {
  xs_session* s = Open(path_, XS_SESSION_READ_ONLY);
  ASSERT_NE(s, nullptr);
  size_t n = 0;
  EXPECT_EQ(xs_session_repair(s, XS_REPAIR_QUARANTINE, nullptr, 0, &n), XS_EREADONLY);
  EXPECT_EQ(std::string(xs_session_errmsg(s)), path_ + " is open read-only");
  EXPECT_EQ(ReadFile(path_), original_);
  EXPECT_EQ(ListDir(root_.path()), std::vector<std::string>{"s.jsonl"});
}

TEST_F(RepairTest, AFileAnotherProcessWroteIsLeftAlone) {
  xs_session* s = Open(path_);
  ASSERT_NE(s, nullptr);
  WriteFile(path_, original_ + "\n");  // an old agent, writing without the lock
  size_t n = 0;
  EXPECT_EQ(xs_session_repair(s, XS_REPAIR_QUARANTINE, nullptr, 0, &n), XS_ECONFLICT);
  EXPECT_EQ(std::string(xs_session_errmsg(s)), path_ + " was changed by another process since it was read; reopen it");
  EXPECT_EQ(ReadFile(path_), original_ + "\n");
  EXPECT_EQ(ListDir(root_.path()), (std::vector<std::string>{"s.jsonl", "s.jsonl.lock"}));
}

}  // namespace
