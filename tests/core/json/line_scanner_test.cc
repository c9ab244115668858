// json/line_scanner: one physical line -> verdict, damage code and the facts the index needs.
#include <gtest/gtest.h>

#include <string>

#include "json/line_scanner.h"
#include "test_util.h"

namespace xs::json {
namespace {

struct ScanResult {
  LineVerdict verdict;
  std::string code;
  bool parsed;
  LineFacts facts;
  std::string line;                 // the scanned bytes (facts' spans index into this)
  storage::PaddedBuffer buffer;     // keeps facts' views alive
  std::string message() const { return line.substr(facts.message_offset, facts.message_length); }
};

ScanResult scan_line(std::string_view line, Limits limits = {}) {
  static LineScanner* scanner = nullptr;
  static Limits current;
  if (!scanner || current.max_depth != limits.max_depth || current.max_line_bytes != limits.max_line_bytes) {
    delete scanner;
    scanner = new LineScanner(limits);
    current = limits;
  }
  ScanResult r;
  r.buffer = test::padded(line);
  r.line = std::string(line);
  r.verdict = scanner->scan(r.buffer.view(), &r.facts);
  r.code = std::string(scanner->code());
  r.parsed = scanner->parsed();
  if (r.verdict != LineVerdict::kBad) r.code.clear();
  // Copy decoded strings out of the scanner's scratch before the next scan reuses it.
  return r;
}

std::string str(const Field& f) { return f.is_string() ? std::string(f.str) : "<" + std::to_string(int(f.kind)) + ">"; }

TEST(LineScanner, MessageEntryFacts) {
  std::string line =
      R"({"type":"message","id":"a1b2c3d4","parentId":"p0","timestamp":"2026-02-16T10:20:30.000Z",)"
      R"("message":{"role":"assistant","provider":"anthropic","model":"claude-x","content":[{"type":"text","text":"hi"}]}})";
  LineScanner sc{Limits{}};
  auto buf = test::padded(line);
  LineFacts f;
  ASSERT_EQ(sc.scan(buf.view(), &f), LineVerdict::kObject) << sc.reason();
  EXPECT_EQ(str(f.type), "message");
  EXPECT_EQ(str(f.id), "a1b2c3d4");
  EXPECT_EQ(str(f.parent_id), "p0");
  EXPECT_EQ(str(f.timestamp), "2026-02-16T10:20:30.000Z");
  EXPECT_EQ(str(f.role), "assistant");
  EXPECT_EQ(str(f.provider), "anthropic");
  EXPECT_EQ(str(f.model), "claude-x");
  EXPECT_EQ(f.message_kind, Kind::kObject);
  EXPECT_EQ(line.substr(f.message_offset, f.message_length),
            R"({"role":"assistant","provider":"anthropic","model":"claude-x","content":[{"type":"text","text":"hi"}]})");
  EXPECT_EQ(f.version.kind, Kind::kAbsent);
  EXPECT_EQ(f.target_id.kind, Kind::kAbsent);
}

TEST(LineScanner, HeaderAndLabelFacts) {
  ScanResult h = scan_line(R"({"type":"session","version":3,"id":"s1","timestamp":"t","cwd":"/w"})");
  ASSERT_EQ(h.verdict, LineVerdict::kObject);
  EXPECT_EQ(str(h.facts.type), "session");
  EXPECT_EQ(h.facts.version.kind, Kind::kNumber);
  EXPECT_EQ(h.facts.version.num, 3);
  EXPECT_EQ(str(h.facts.id), "s1");

  ScanResult l = scan_line(R"({"type":"label","id":"l1","parentId":null,"timestamp":"t","targetId":"x9","label":"keep"})");
  ASSERT_EQ(l.verdict, LineVerdict::kObject);
  EXPECT_EQ(str(l.facts.target_id), "x9");
  EXPECT_EQ(str(l.facts.label), "keep");
  EXPECT_EQ(l.facts.parent_id.kind, Kind::kNull);
  EXPECT_EQ(l.facts.message_kind, Kind::kAbsent);
}

TEST(LineScanner, DuplicateKeysLastWins) {
  ScanResult r = scan_line(R"({"type":"a","id":"first","type":"message","id":"second"})");
  ASSERT_EQ(r.verdict, LineVerdict::kObject);
  EXPECT_EQ(str(r.facts.type), "message");
  EXPECT_EQ(str(r.facts.id), "second");

  std::string line = R"({"type":"message","id":"m","message":{"role":"user","n":1},"message":{"role":"assistant","n":2}})";
  ScanResult m = scan_line(line);
  ASSERT_EQ(m.verdict, LineVerdict::kObject);
  EXPECT_EQ(str(m.facts.role), "assistant");
  EXPECT_EQ(m.message(), R"({"role":"assistant","n":2})");
}

TEST(LineScanner, MessageSpanWhenMessageIsNotTheLastMember) {
  ScanResult r = scan_line(R"({"type":"message","message":{"role":"user","content":"x"},"id":"m1","parentId":null})");
  ASSERT_EQ(r.verdict, LineVerdict::kObject);
  EXPECT_EQ(r.message(), R"({"role":"user","content":"x"})");
  // A container before the message, and a string that mentions "message".
  ScanResult s = scan_line(
      R"({"type":"message","meta":{"message":{"role":"fake"}},"note":"\"message\":{","message":{"role":"user"}})");
  ASSERT_EQ(s.verdict, LineVerdict::kObject);
  EXPECT_EQ(str(s.facts.role), "user");
  EXPECT_EQ(s.message(), R"({"role":"user"})");
}

TEST(LineScanner, MessageSpanKeepsInnerWhitespaceAndSkipsOuter) {
  std::string line = "{ \"type\" : \"message\" , \"id\":\"m\", \"message\" : { \"role\" : \"user\" ,  \"content\": \"a  b\" } }\r";
  ScanResult r = scan_line(line);
  ASSERT_EQ(r.verdict, LineVerdict::kObject);
  EXPECT_EQ(str(r.facts.role), "user");
  EXPECT_EQ(r.message(), "{ \"role\" : \"user\" ,  \"content\": \"a  b\" }");
}

TEST(LineScanner, NonObjectMessageHasNoSpan) {
  ScanResult r = scan_line(R"({"type":"message","id":"m","message":"just text"})");
  ASSERT_EQ(r.verdict, LineVerdict::kObject);
  EXPECT_EQ(r.facts.message_kind, Kind::kString);
  EXPECT_EQ(r.facts.message_length, 0u);
  EXPECT_EQ(r.facts.role.kind, Kind::kAbsent);
}

TEST(LineScanner, BlankLines) {
  for (std::string_view b : {"", " ", "\t \t", "\r", "   \r"}) {
    ScanResult r = scan_line(b);
    EXPECT_EQ(r.verdict, LineVerdict::kBlank) << "[" << b << "]";
    EXPECT_FALSE(r.parsed);
  }
}

TEST(LineScanner, CrlfLineIsAccepted) {
  ScanResult r = scan_line("{\"type\":\"x\",\"id\":\"i\"}\r");
  ASSERT_EQ(r.verdict, LineVerdict::kObject);
  EXPECT_EQ(str(r.facts.id), "i");
}

TEST(LineScanner, ValidJsonThatIsNotAnObject) {
  for (std::string_view v : {"[1,2]", "42", "\"s\"", "null", "true", "[]", "  [ {\"type\":\"message\"} ]  "}) {
    ScanResult r = scan_line(v);
    EXPECT_EQ(r.verdict, LineVerdict::kBad) << v;
    EXPECT_EQ(r.code, "not_object") << v;
    EXPECT_TRUE(r.parsed) << v;  // still a JSON value (the v1 migration counts it)
  }
}

TEST(LineScanner, InvalidJson) {
  for (std::string_view v : {"{", "{\"type\":}", "garbage", "{\"a\":1} trailing", "{\"a\":1}{\"b\":2}",
                             "{\"a\":\"\\x\"}", "{\"a\":01}", "{'a':1}", "{\"a\":\"raw\ttab\"}"}) {
    ScanResult r = scan_line(v);
    EXPECT_EQ(r.verdict, LineVerdict::kBad) << v;
    EXPECT_EQ(r.code, "invalid_json") << v;
    EXPECT_FALSE(r.parsed) << v;
  }
}

// JSON.parse rejects a byte-order mark inside a line; pi trims only the whole file's start.
TEST(LineScanner, BomInsideALineIsInvalidJson) {
  ScanResult r = scan_line("\xef\xbb\xbf{\"type\":\"x\",\"id\":\"i\"}");
  EXPECT_EQ(r.verdict, LineVerdict::kBad);
  EXPECT_EQ(r.code, "invalid_json");
}

TEST(LineScanner, InvalidUtf8) {
  for (std::string_view v : {"{\"type\":\"x\",\"s\":\"\xff\"}", "{\"type\":\"x\",\"s\":\"\xc0\x80\"}",
                             "{\"type\":\"x\",\"s\":\"\xed\xa0\x80\"}", "{\"type\":\"x\",\"s\":\"\xe2\x82\"}",
                             // invalid UTF-8 together with a lone surrogate escape
                             "{\"type\":\"x\",\"s\":\"\\ud83d\xff\"}"}) {
    ScanResult r = scan_line(v);
    EXPECT_EQ(r.verdict, LineVerdict::kBad);
    EXPECT_EQ(r.code, "invalid_utf8");
    EXPECT_FALSE(r.parsed);
  }
}

TEST(LineScanner, NulByte) {
  ScanResult r = scan_line(std::string("{\"type\":\"x\",\"s\":\"a\0b\"}", 22));
  EXPECT_EQ(r.verdict, LineVerdict::kBad);
  EXPECT_EQ(r.code, "nul_byte");
  EXPECT_FALSE(r.parsed);
  ScanResult tail = scan_line(std::string("{\"type\":\"x\"}\0\0\0", 15));
  EXPECT_EQ(tail.code, "nul_byte");
  ScanResult zeros = scan_line(std::string(4096, '\0'));
  EXPECT_EQ(zeros.verdict, LineVerdict::kBad);
  EXPECT_EQ(zeros.code, "nul_byte");
}

TEST(LineScanner, LineLengthLimitIsInclusive) {
  Limits l;
  l.max_line_bytes = 20;
  std::string exactly = R"({"type":"x","i":123})";
  ASSERT_EQ(exactly.size(), 20u);
  EXPECT_EQ(scan_line(exactly, l).verdict, LineVerdict::kObject);
  std::string over = R"({"type":"x","i":1234})";
  ScanResult r = scan_line(over, l);
  EXPECT_EQ(r.verdict, LineVerdict::kBad);
  EXPECT_EQ(r.code, "too_long");
  EXPECT_FALSE(r.parsed);
}

TEST(LineScanner, DepthLimitFollowsValueDepth) {
  Limits l;
  l.max_depth = 3;
  EXPECT_EQ(scan_line(R"({"type":"x","a":[1]})", l).verdict, LineVerdict::kObject);
  EXPECT_EQ(scan_line(R"({"type":"x","a":[[]]})", l).verdict, LineVerdict::kObject);
  EXPECT_EQ(scan_line(R"({"type":"x","a":{"b":1}})", l).verdict, LineVerdict::kObject);
  ScanResult deep = scan_line(R"({"type":"x","a":[[1]]})", l);
  EXPECT_EQ(deep.verdict, LineVerdict::kBad);
  EXPECT_EQ(deep.code, "too_deep");
  EXPECT_EQ(scan_line(R"({"type":"x","a":{"b":{"c":1}}})", l).code, "too_deep");
  EXPECT_EQ(scan_line(R"({"type":"x","a":[{}]})", l).verdict, LineVerdict::kObject);
  EXPECT_EQ(scan_line(R"({"type":"x","a":[{"b":1}]})", l).code, "too_deep");
  // The same limits on the lenient path (a lone surrogate sends the line to RapidJSON).
  EXPECT_EQ(scan_line(R"({"type":"\ud800","a":[1]})", l).verdict, LineVerdict::kObject);
  EXPECT_EQ(scan_line(R"({"type":"\ud800","a":[[]]})", l).verdict, LineVerdict::kObject);
  EXPECT_EQ(scan_line(R"({"type":"\ud800","a":[[1]]})", l).code, "too_deep");
  Limits one;
  one.max_depth = 1;
  EXPECT_EQ(scan_line(R"({})", one).verdict, LineVerdict::kObject);
  EXPECT_EQ(scan_line(R"({"type":"x"})", one).code, "too_deep");
}

TEST(LineScanner, DefaultDepthLimitIs256) {
  // root 1, "a" 2, and each further array one deeper: 255 arrays put the innermost at 256.
  std::string ok = R"({"type":"x","a":)" + std::string(255, '[') + std::string(255, ']') + "}";
  EXPECT_EQ(scan_line(ok).verdict, LineVerdict::kObject);
  std::string deep = R"({"type":"x","a":)" + std::string(256, '[') + std::string(256, ']') + "}";
  EXPECT_EQ(scan_line(deep).code, "too_deep");
  std::string scalar = R"({"type":"x","a":)" + std::string(254, '[') + "1" + std::string(254, ']') + "}";
  EXPECT_EQ(scan_line(scalar).verdict, LineVerdict::kObject);
  std::string scalar_deep = R"({"type":"x","a":)" + std::string(255, '[') + "1" + std::string(255, ']') + "}";
  EXPECT_EQ(scan_line(scalar_deep).code, "too_deep");
}

TEST(LineScanner, MillionDeepNestingIsRefusedWithoutCrashing) {
  const size_t n = 1000000;
  std::string line = "{\"type\":\"x\",\"a\":" + std::string(n, '[') + std::string(n, ']') + "}";
  ScanResult r = scan_line(line);
  EXPECT_EQ(r.verdict, LineVerdict::kBad);
  EXPECT_EQ(r.code, "too_deep");
  std::string lenient = "{\"type\":\"\\ud800\",\"a\":" + std::string(n, '[') + std::string(n, ']') + "}";
  EXPECT_EQ(scan_line(lenient).code, "too_deep");
  EXPECT_EQ(scan_line(std::string(n, '{')).verdict, LineVerdict::kBad);
}

TEST(LineScanner, LoneSurrogateLinesAreObjectsWithDecodedFacts) {
  std::string line =
      R"({"type":"mess\u0061ge","id":"\ud83d","parentId":"p","timestamp":"t",)"
      R"("message":{"role":"user","content":"cut \ud83d"}})";
  ScanResult r = scan_line(line);
  ASSERT_EQ(r.verdict, LineVerdict::kObject) << r.code;
  EXPECT_TRUE(r.parsed);
  EXPECT_EQ(str(r.facts.type), "message");
  EXPECT_EQ(str(r.facts.id), "\xef\xbf\xbd");
  EXPECT_EQ(str(r.facts.parent_id), "p");
  EXPECT_EQ(str(r.facts.role), "user");
  EXPECT_EQ(r.message(), R"({"role":"user","content":"cut \ud83d"})");
}

TEST(LineScanner, TwoToThe64IsAValidNumber) {
  ScanResult r = scan_line(R"({"type":"x","id":"i","n":18446744073709551616,"m":-18446744073709551617})");
  EXPECT_EQ(r.verdict, LineVerdict::kObject);
  EXPECT_EQ(str(r.facts.id), "i");
}

// 1e400 is valid JSON (JSON.parse gives Infinity): such a line must load.
TEST(LineScanner, NumbersBeyondDoubleRangeAreValid) {
  for (std::string_view v : {R"({"type":"x","id":"i","n":1e400})", R"({"type":"x","id":"i","n":-1e400})",
                             R"({"type":"x","id":"i","n":[1e309]})", R"({"type":"x","id":"i","n":1e-400})"}) {
    ScanResult r = scan_line(v);
    EXPECT_EQ(r.verdict, LineVerdict::kObject) << v << " -> " << r.code;
    EXPECT_EQ(str(r.facts.id), "i") << v;
  }
}

TEST(LineScanner, NumericHeaderVersionFromLenientPath) {
  ScanResult r = scan_line(R"({"type":"session","version":2,"id":"\ud83d","n":18446744073709551616})");
  ASSERT_EQ(r.verdict, LineVerdict::kObject);
  EXPECT_EQ(r.facts.version.kind, Kind::kNumber);
  EXPECT_EQ(r.facts.version.num, 2);
}

TEST(LineScanner, LongLinesBeyondTheInitialParserCapacity) {
  std::string text(1 << 20, 'a');
  std::string line = R"({"type":"message","id":"big","message":{"role":"user","content":")" + text + R"("}})";
  ScanResult r = scan_line(line);
  ASSERT_EQ(r.verdict, LineVerdict::kObject);
  EXPECT_EQ(str(r.facts.id), "big");
  EXPECT_EQ(r.message(), R"({"role":"user","content":")" + text + R"("})");
}

TEST(LineScanner, ScanValueKinds) {
  LineScanner sc{Limits{}};
  struct Case {
    const char* text;
    Kind kind;
  } cases[] = {{R"("s")", Kind::kString}, {"12", Kind::kNumber}, {"true", Kind::kTrue},
               {"false", Kind::kFalse},   {"null", Kind::kNull}, {"[1]", Kind::kArray},
               {"{}", Kind::kObject},     {" \"\\ud83d\" ", Kind::kString},
               {"[\"\\udc00\"]", Kind::kArray}};
  for (const Case& c : cases) {
    auto buf = test::padded(c.text);
    Kind kind = Kind::kAbsent;
    LineFacts f;
    EXPECT_EQ(sc.scan_value(buf.view(), &kind, &f), LineVerdict::kObject) << c.text;
    EXPECT_EQ(kind, c.kind) << c.text;
  }
}

TEST(LineScanner, ScanValueReadsMessageFactsOfAnObjectRoot) {
  LineScanner sc{Limits{}};
  for (std::string_view text : {R"({"role":"assistant","provider":"openai","model":"gpt","content":[]})",
                                R"({"role":"assistant","provider":"openai","model":"gpt","content":"\ud83d"})"}) {
    auto buf = test::padded(text);
    Kind kind;
    LineFacts f;
    ASSERT_EQ(sc.scan_value(buf.view(), &kind, &f), LineVerdict::kObject);
    EXPECT_EQ(kind, Kind::kObject);
    EXPECT_EQ(str(f.role), "assistant");
    EXPECT_EQ(str(f.provider), "openai");
    EXPECT_EQ(str(f.model), "gpt");
  }
}

TEST(LineScanner, ScanValueRejectsEmptyAndBadInput) {
  LineScanner sc{Limits{}};
  Kind kind;
  LineFacts f;
  auto empty = test::padded("  ");
  EXPECT_EQ(sc.scan_value(empty.view(), &kind, &f), LineVerdict::kBad);
  EXPECT_EQ(sc.code(), "empty");
  auto bad = test::padded("{\"a\":");
  EXPECT_EQ(sc.scan_value(bad.view(), &kind, &f), LineVerdict::kBad);
  EXPECT_EQ(sc.code(), "invalid_json");
}

TEST(LineScanner, ScanValueAcceptsNumbersBeyondDoubleRange) {
  LineScanner sc{Limits{}};
  auto buf = test::padded("1e400");
  Kind kind = Kind::kAbsent;
  LineFacts f;
  EXPECT_EQ(sc.scan_value(buf.view(), &kind, &f), LineVerdict::kObject) << sc.code();
  EXPECT_EQ(kind, Kind::kNumber);
}

TEST(LineScanner, ScannerIsReusableAfterBadLines) {
  LineScanner sc{Limits{}};
  LineFacts f;
  for (int round = 0; round < 3; ++round) {
    auto bad = test::padded("{\"type\":\"x\",\"s\":\"\\ud83d\",");
    EXPECT_EQ(sc.scan(bad.view(), &f), LineVerdict::kBad);
    auto good = test::padded(R"({"type":"message","id":"ok","message":{"role":"user"}})");
    ASSERT_EQ(sc.scan(good.view(), &f), LineVerdict::kObject);
    EXPECT_EQ(str(f.id), "ok");
    EXPECT_EQ(str(f.role), "user");
  }
}

}  // namespace
}  // namespace xs::json
