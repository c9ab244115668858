// model/loader: the lenient loader and its diagnostics (docs/format.md#reading-a-file): every line
// kept as bytes, bad lines skipped and reported, a header found past garbage.
#include <gtest/gtest.h>

#include <string>

#include "model/loader.h"
#include "test_util.h"

namespace xs::model {
namespace {

using test::diag_summary;
using test::joined_lines;
using test::load;

const std::string kHeader =
    R"({"type":"session","version":3,"id":"s1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w"})";
const std::string kUser =
    R"({"type":"message","id":"a","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}})";
const std::string kAssistant =
    R"({"type":"message","id":"b","parentId":"a","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"assistant","provider":"p","model":"m","content":[]}})";

TEST(Loader, LoadsAValidFile) {
  std::string file = kHeader + "\n" + kUser + "\n" + kAssistant + "\n";
  auto l = load(file);
  ASSERT_TRUE(l->status.ok()) << l->status.message();
  const SessionData& d = l->data;
  EXPECT_EQ(d.header_line, 0u);
  EXPECT_EQ(d.header.id, "s1");
  EXPECT_EQ(d.header.version, 3);
  EXPECT_EQ(d.header.cwd, "/w");
  EXPECT_EQ(d.header.timestamp, "2025-01-01T00:00:00.000Z");
  EXPECT_EQ(d.header_bytes(), kHeader);
  ASSERT_EQ(d.lines.size(), 3u);
  EXPECT_EQ(d.lines[0].kind, LineKind::kHeader);
  EXPECT_EQ(d.lines[1].kind, LineKind::kEntry);
  EXPECT_EQ(d.lines[2].kind, LineKind::kEntry);
  EXPECT_EQ(d.lines[1].offset, kHeader.size() + 1);
  EXPECT_EQ(d.lines[2].offset, kHeader.size() + kUser.size() + 2);
  ASSERT_EQ(d.entries.size(), 2u);
  const Entry& a = d.entries[0];
  EXPECT_EQ(a.id, "a");
  EXPECT_FALSE(a.has_parent_id);
  EXPECT_EQ(a.timestamp, "2025-01-01T00:00:01.000Z");
  EXPECT_EQ(a.type, format::EntryType::kMessage);
  EXPECT_EQ(a.role, "user");
  EXPECT_EQ(a.line, kUser);
  EXPECT_EQ(a.line_no, 1u);
  EXPECT_EQ(a.message(), R"({"role":"user","content":"hi"})");
  const Entry& b = d.entries[1];
  EXPECT_TRUE(b.has_parent_id);
  EXPECT_EQ(b.parent_id, "a");
  EXPECT_EQ(b.role, "assistant");
  EXPECT_EQ(b.provider, "p");
  EXPECT_EQ(b.model, "m");
  EXPECT_TRUE(b.is_assistant());
  EXPECT_FALSE(a.is_assistant());
  EXPECT_TRUE(d.ends_with_newline);
  EXPECT_EQ(diag_summary(d), "");
  EXPECT_EQ(joined_lines(d), file);
}

TEST(Loader, EveryKindOfBadLineIsSkippedReportedAndKept) {
  std::string deep = R"({"type":"x","a":)" + std::string(300, '[') + std::string(300, ']') + "}";
  std::string long_line = R"({"type":"x","s":")" + std::string(2100, 'a') + R"("})";
  std::string custom =
      R"({"type":"custom","customType":"x","id":"c","parentId":"a","timestamp":"2025-01-01T00:00:05.000Z"})";
  std::string lines[] = {
      kHeader,                                                  // 1
      kUser,                                                    // 2
      "not json",                                               // 3
      "{\"type\":\"x\",\"id\":\"u\",\"s\":\"\xff\"}",           // 4 invalid_utf8
      std::string("{\"type\":\"x\",\"id\":\"n\",\"s\":\"a") + '\0' + "b\"}",  // 5 nul_byte
      "[1,2]",                                                  // 6 not_object
      R"({"id":"q","parentId":"a"})",                           // 7 no_type
      R"({"type":"message","parentId":"a","message":{"role":"user"}})",  // 8 no_id (v3 file)
      R"({"type":"session","version":3,"id":"other","cwd":"/x"})",        // 9 extra_header
      "",                                                       // 10 blank: not reported
      custom,                                                   // 11
      deep,                                                     // 12 too_deep
      long_line,                                                // 13 too_long
      R"({"type":7,"id":"t"})",                                 // 14 no_type (not a string)
      R"({"type":"x","id":7})",                                 // 15 no_id (not a string)
      R"({"type":"x","id":"s","s":"\ud8" n\udda"an"})",            // 16 invalid_json (short escapes)
  };
  std::string file;
  for (const std::string& l : lines) file += l + "\n";
  json::Limits limits;
  limits.max_line_bytes = 2000;
  auto l = load(file, limits);
  ASSERT_TRUE(l->status.ok()) << l->status.message();
  const SessionData& d = l->data;
  EXPECT_EQ(diag_summary(d),
            "invalid_json@3,invalid_utf8@4,nul_byte@5,not_object@6,no_type@7,no_id@8,extra_header@9,too_deep@12,"
            "too_long@13,no_type@14,no_id@15,invalid_json@16");
  ASSERT_EQ(d.entries.size(), 2u);
  EXPECT_EQ(d.entries[0].id, "a");
  EXPECT_EQ(d.entries[1].id, "c");
  EXPECT_EQ(d.entries[1].line_no, 10u);
  ASSERT_EQ(d.lines.size(), 16u);
  EXPECT_EQ(d.lines[2].kind, LineKind::kBad);
  EXPECT_EQ(d.lines[8].kind, LineKind::kIgnored);
  EXPECT_EQ(d.lines[9].kind, LineKind::kBlank);
  // Offsets and lengths locate the damaged bytes exactly.
  const Diagnostic& first = d.diagnostics[0];
  EXPECT_EQ(first.line, 3u);
  EXPECT_EQ(first.offset, kHeader.size() + 1 + kUser.size() + 1);
  EXPECT_EQ(first.length, 8u);
  EXPECT_EQ(file.substr(first.offset, first.length), "not json");
  for (const Diagnostic& diag : d.diagnostics) {
    EXPECT_EQ(file.substr(diag.offset, diag.length), lines[diag.line - 1]) << diag.code;
    EXPECT_FALSE(diag.reason.empty()) << diag.code;
  }
  // Every line, good or bad, is kept byte for byte.
  EXPECT_EQ(joined_lines(d), file);
}

TEST(Loader, GarbageBeforeTheHeaderIsAcceptedAndReported) {
  std::string file = "garbage\n\n{\"broken\":\n\xff\xfe\n" + kHeader + "\n" + kUser + "\n";
  auto l = load(file);
  ASSERT_TRUE(l->status.ok()) << l->status.message();
  EXPECT_EQ(l->data.header_line, 4u);
  EXPECT_EQ(l->data.header.id, "s1");
  EXPECT_EQ(diag_summary(l->data), "before_header@1,before_header@3,before_header@4");
  ASSERT_EQ(l->data.entries.size(), 1u);
  EXPECT_EQ(l->data.entries[0].id, "a");
  EXPECT_EQ(joined_lines(l->data), file);
}

TEST(Loader, NulAndTooLongLinesBeforeTheHeaderAreSkipped) {
  json::Limits limits;
  limits.max_line_bytes = 200;
  std::string file = std::string("\0\0\0\0", 4) + "\n" + std::string(300, 'x') + "\n" + kHeader + "\n";
  auto l = load(file, limits);
  ASSERT_TRUE(l->status.ok()) << l->status.message();
  EXPECT_EQ(l->data.header_line, 2u);
  EXPECT_EQ(diag_summary(l->data), "before_header@1,before_header@2");
}

// As in the agents, the header is the first value that parses; if that is not {type:"session",
// id:<string>}, the file has no header. Values before it are not scanned past.
TEST(Loader, FirstParsedValueMustBeTheHeader) {
  const std::string after = kHeader + "\n" + kUser + "\n";
  for (std::string first : {kUser, std::string("[1]"), std::string("42"), std::string("\"session\""),
                            std::string(R"({"type":"session"})"), std::string(R"({"type":"session","id":1})"),
                            std::string(R"({"type":"Session","id":"s"})"), std::string(R"({"id":"s","cwd":"/"})")}) {
    auto l = load(first + "\n" + after);
    EXPECT_EQ(l->status.code(), Code::kNoHeader) << first;
  }
}

TEST(Loader, FilesWithoutAnyHeader) {
  for (std::string_view file : {"", "\n", "\n\n  \n\r\n", "garbage\nmore garbage\n", "{\"type\":\"session\",\"id\":\"s\"",
                                "\xff\xff\xff"}) {
    auto l = load(file);
    EXPECT_EQ(l->status.code(), Code::kNoHeader) << "[" << file << "]";
  }
}

TEST(Loader, TornLastLineIsReportedAsIncompleteTail) {
  std::string fragment = R"({"type":"message","id":"c","parentId":"b","timest)";
  std::string file = kHeader + "\n" + kUser + "\n" + kAssistant + "\n" + fragment;
  auto l = load(file);
  ASSERT_TRUE(l->status.ok());
  const SessionData& d = l->data;
  EXPECT_EQ(diag_summary(d), "incomplete_tail@4");
  EXPECT_EQ(d.diagnostics[0].offset, file.size() - fragment.size());
  EXPECT_EQ(d.diagnostics[0].length, fragment.size());
  EXPECT_FALSE(d.ends_with_newline);
  EXPECT_EQ(d.entries.size(), 2u);
  ASSERT_EQ(d.lines.size(), 4u);
  EXPECT_EQ(d.lines[3].bytes, fragment);
  EXPECT_EQ(d.lines[3].kind, LineKind::kBad);
}

TEST(Loader, CompleteLastLineWithoutNewlineStillLoads) {
  std::string file = kHeader + "\n" + kUser;
  auto l = load(file);
  ASSERT_TRUE(l->status.ok());
  EXPECT_FALSE(l->data.ends_with_newline);
  ASSERT_EQ(l->data.entries.size(), 1u);
  EXPECT_EQ(l->data.entries[0].id, "a");
}

TEST(Loader, CrlfLinesLoadAndKeepTheirCarriageReturns) {
  std::string file = kHeader + "\r\n" + kUser + "\r\n" + kAssistant + "\r\n";
  auto l = load(file);
  ASSERT_TRUE(l->status.ok()) << l->status.message();
  const SessionData& d = l->data;
  EXPECT_EQ(d.header.id, "s1");
  ASSERT_EQ(d.entries.size(), 2u);
  EXPECT_EQ(d.entries[0].line, kUser + "\r");
  EXPECT_EQ(d.entries[0].message(), R"({"role":"user","content":"hi"})");
  EXPECT_EQ(d.entries[1].parent_id, "a");
  EXPECT_EQ(diag_summary(d), "");
  EXPECT_EQ(joined_lines(d), file);
}

// pi trims the whole file before splitting it into lines, and JavaScript's trim()
// removes U+FEFF: a file that starts with a byte-order mark loads.
TEST(Loader, ByteOrderMarkAtTheStartOfTheFileIsAccepted) {
  std::string file = "\xef\xbb\xbf" + kHeader + "\n" + kUser + "\n";
  auto l = load(file);
  ASSERT_TRUE(l->status.ok()) << l->status.message();
  EXPECT_EQ(l->data.header.id, "s1");
  ASSERT_EQ(l->data.entries.size(), 1u);
  EXPECT_EQ(joined_lines(l->data), file);
}

TEST(Loader, OffsetsAfterAByteOrderMarkAreFileOffsets) {
  std::string file = "\xef\xbb\xbf" + kHeader + "\nbad line\n" + kUser + "\n";
  auto l = load(file);
  ASSERT_TRUE(l->status.ok()) << l->status.message();
  ASSERT_EQ(l->data.diagnostics.size(), 1u);
  const Diagnostic& d = l->data.diagnostics[0];
  EXPECT_EQ(d.line, 2u);
  EXPECT_EQ(file.substr(d.offset, d.length), "bad line");
  EXPECT_EQ(l->data.lines[0].bytes, kHeader);
  EXPECT_EQ(l->data.entries[0].line, kUser);
}

// Inside the file JSON.parse sees the BOM and refuses the line.
TEST(Loader, ByteOrderMarkInsideTheFileMakesThatLineInvalid) {
  std::string file = kHeader + "\n\xef\xbb\xbf" + kUser + "\n" + kAssistant + "\n";
  auto l = load(file);
  ASSERT_TRUE(l->status.ok());
  EXPECT_EQ(diag_summary(l->data), "invalid_json@2");
  ASSERT_EQ(l->data.entries.size(), 1u);
  EXPECT_EQ(l->data.entries[0].id, "b");
}

// Only \n separates lines; U+2028 / U+2029 / U+0085 inside a string are data (docs/format.md#lines).
TEST(Loader, UnicodeLineSeparatorsInsideStringsAreData) {
  std::string line =
      "{\"type\":\"message\",\"id\":\"u\",\"parentId\":null,\"timestamp\":\"t\",\"message\":{\"role\":\"user\",\"content\":\"a\xe2\x80\xa8" "b\xe2\x80\xa9" "c\xc2\x85" "d\"}}";
  auto l = load(kHeader + "\n" + line + "\n");
  ASSERT_TRUE(l->status.ok());
  EXPECT_EQ(diag_summary(l->data), "");
  ASSERT_EQ(l->data.entries.size(), 1u);
  EXPECT_EQ(l->data.entries[0].line, line);
  EXPECT_EQ(l->data.lines.size(), 2u);
}

TEST(Loader, LoneSurrogateLinesLoadAndKeepTheirBytes) {
  std::string line =
      R"({"type":"message","id":"ls","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"cut \ud83d"}})";
  auto l = load(kHeader + "\n" + line + "\n");
  ASSERT_TRUE(l->status.ok());
  EXPECT_EQ(diag_summary(l->data), "");
  ASSERT_EQ(l->data.entries.size(), 1u);
  EXPECT_EQ(l->data.entries[0].line, line);
  EXPECT_EQ(l->data.entries[0].role, "user");
  EXPECT_EQ(l->data.entries[0].message(), R"({"role":"user","content":"cut \ud83d"})");
}

TEST(Loader, HugeIntegersLoad) {
  std::string line =
      R"({"type":"message","id":"n","parentId":null,"timestamp":"t","message":{"role":"user","n":18446744073709551616}})";
  auto l = load(kHeader + "\n" + line + "\n");
  ASSERT_TRUE(l->status.ok());
  EXPECT_EQ(diag_summary(l->data), "");
  ASSERT_EQ(l->data.entries.size(), 1u);
  EXPECT_EQ(l->data.entries[0].message(), R"({"role":"user","n":18446744073709551616})");
}

TEST(Loader, NumbersBeyondDoubleRangeLoad) {
  std::string line =
      R"({"type":"message","id":"n","parentId":null,"timestamp":"t","message":{"role":"user","n":1e400}})";
  auto l = load(kHeader + "\n" + line + "\n");
  ASSERT_TRUE(l->status.ok());
  EXPECT_EQ(diag_summary(l->data), "");
  ASSERT_EQ(l->data.entries.size(), 1u);
  EXPECT_EQ(l->data.entries[0].message(), R"({"role":"user","n":1e400})");
}

TEST(Loader, DuplicateKeysInALineLastWins) {
  std::string line = R"({"type":"custom","id":"first","id":"second","parentId":null,"parentId":"a"})";
  auto l = load(kHeader + "\n" + kUser + "\n" + line + "\n");
  ASSERT_TRUE(l->status.ok());
  ASSERT_EQ(l->data.entries.size(), 2u);
  EXPECT_EQ(l->data.entries[1].id, "second");
  EXPECT_TRUE(l->data.entries[1].has_parent_id);
  EXPECT_EQ(l->data.entries[1].parent_id, "a");
}

TEST(Loader, V1EntriesNeedNoId) {
  std::string file = R"({"type":"session","id":"old","timestamp":"t","cwd":"/"})"
                     "\n"
                     R"({"type":"message","timestamp":"t","message":{"role":"user","content":"x"}})"
                     "\n";
  auto l = load(file);
  ASSERT_TRUE(l->status.ok());
  EXPECT_EQ(l->data.header.version, 1);
  EXPECT_EQ(diag_summary(l->data), "");
  ASSERT_EQ(l->data.entries.size(), 1u);
  EXPECT_EQ(l->data.entries[0].id, "");
}

TEST(Loader, UnknownEntryTypesAreKept) {
  std::string line = R"({"type":"future_thing","id":"f","parentId":"a","timestamp":"t","payload":{"x":[1]}})";
  auto l = load(kHeader + "\n" + kUser + "\n" + line + "\n");
  ASSERT_TRUE(l->status.ok());
  ASSERT_EQ(l->data.entries.size(), 2u);
  EXPECT_EQ(l->data.entries[1].type, format::EntryType::kUnknown);
  EXPECT_EQ(l->data.entries[1].line, line);
}

TEST(Loader, LabelEntriesRecordTargetAndTruthiness) {
  std::string set = R"({"type":"label","id":"l1","parentId":"a","timestamp":"t1","targetId":"a","label":"keep"})";
  std::string empty = R"({"type":"label","id":"l2","parentId":"l1","timestamp":"t2","targetId":"a","label":""})";
  std::string null = R"({"type":"label","id":"l3","parentId":"l2","timestamp":"t3","targetId":"a","label":null})";
  std::string none = R"({"type":"label","id":"l4","parentId":"l3","timestamp":"t4","targetId":"a"})";
  auto l = load(kHeader + "\n" + kUser + "\n" + set + "\n" + empty + "\n" + null + "\n" + none + "\n");
  ASSERT_TRUE(l->status.ok());
  ASSERT_EQ(l->data.entries.size(), 5u);
  EXPECT_EQ(l->data.entries[1].target_id, "a");
  EXPECT_TRUE(l->data.entries[1].label_set);
  EXPECT_EQ(l->data.entries[1].label, "keep");
  EXPECT_FALSE(l->data.entries[2].label_set);
  EXPECT_FALSE(l->data.entries[3].label_set);
  EXPECT_FALSE(l->data.entries[4].label_set);
}

TEST(Loader, MillionDeepLineIsSkippedAndTheRestLoads) {
  std::string deep = R"({"type":"x","id":"deep","a":)" + std::string(1000000, '[') + std::string(1000000, ']') + "}";
  auto l = load(kHeader + "\n" + deep + "\n" + kUser + "\n");
  ASSERT_TRUE(l->status.ok());
  EXPECT_EQ(diag_summary(l->data), "too_deep@2");
  ASSERT_EQ(l->data.entries.size(), 1u);
  EXPECT_EQ(l->data.entries[0].id, "a");
}

TEST(Loader, EntryFromFactsCopiesStringsIntoTheArena) {
  Arena arena;
  json::LineScanner scanner{json::Limits{}};
  std::string line = kAssistant;
  auto buf = test::padded(line);
  json::LineFacts facts;
  ASSERT_EQ(scanner.scan(buf.view(), &facts), json::LineVerdict::kObject);
  Entry e = entry_from_facts(facts, buf.view(), arena);
  // Reuse the scanner: the entry's strings must not change.
  auto other = test::padded(kUser);
  ASSERT_EQ(scanner.scan(other.view(), &facts), json::LineVerdict::kObject);
  EXPECT_EQ(e.id, "b");
  EXPECT_EQ(e.parent_id, "a");
  EXPECT_EQ(e.timestamp, "2025-01-01T00:00:02.000Z");
  EXPECT_EQ(e.role, "assistant");
  EXPECT_EQ(e.provider, "p");
  EXPECT_EQ(e.model, "m");
  EXPECT_EQ(e.message(), R"({"role":"assistant","provider":"p","model":"m","content":[]})");
}

}  // namespace
}  // namespace xs::model
