// json/member_scanner: top-level member spans, the lenient validator (JSON.parse's verdict plus
// our depth limit), find_member and JavaScript truthiness.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json/member_scanner.h"

namespace xs::json {
namespace {

struct Scan {
  Status status;
  std::vector<Member> members;
  bool is_object = false;
};

Scan scan(std::string_view text, uint32_t max_depth = 256) {
  Scan s;
  Limits l;
  l.max_depth = max_depth;
  s.status = scan_members(text, l, &s.members, &s.is_object);
  return s;
}

std::string kinds(const std::vector<Member>& m) {
  static const char* names[] = {"absent", "null", "false", "true", "number", "string", "object", "array"};
  std::string out;
  for (const Member& x : m) {
    if (!out.empty()) out += ',';
    out += names[static_cast<int>(x.kind)];
  }
  return out;
}

TEST(ScanMembers, ListsObjectMembersAsRawSpans) {
  std::string text = R"({"a":1,"b":"x","c":[1,{"d":2}],"e":{"f":null},"g":true,"h":false,"i":null})";
  Scan s = scan(text);
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_TRUE(s.is_object);
  ASSERT_EQ(s.members.size(), 7u);
  EXPECT_EQ(kinds(s.members), "number,string,array,object,true,false,null");
  const char* keys[] = {R"("a")", R"("b")", R"("c")", R"("e")", R"("g")", R"("h")", R"("i")"};
  const char* values[] = {"1", R"("x")", R"([1,{"d":2}])", R"({"f":null})", "true", "false", "null"};
  for (size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(s.members[i].key, keys[i]);
    EXPECT_EQ(s.members[i].value, values[i]);
    // Spans point into the caller's text, not into a copy.
    EXPECT_GE(s.members[i].value.data(), text.data());
    EXPECT_LE(s.members[i].value.data() + s.members[i].value.size(), text.data() + text.size());
  }
}

TEST(ScanMembers, SpansExcludeSurroundingWhitespace) {
  std::string text = " { \"a\" : 1 ,\n\t\"b\" : [ 1 , 2 ] , \"c\":{ } , \"d\" : \"s p\" } \r";
  Scan s = scan(text);
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  ASSERT_EQ(s.members.size(), 4u);
  EXPECT_EQ(s.members[0].value, "1");
  EXPECT_EQ(s.members[1].key, R"("b")");
  EXPECT_EQ(s.members[1].value, "[ 1 , 2 ]");
  EXPECT_EQ(s.members[2].value, "{ }");
  EXPECT_EQ(s.members[3].value, R"("s p")");
}

TEST(ScanMembers, NumbersAreKeptAsWritten) {
  Scan s = scan(R"({"a":1.50e+3,"b":18446744073709551616,"c":-0,"d":0.1000,"e":123456789012345678901234567890})");
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  ASSERT_EQ(s.members.size(), 5u);
  EXPECT_EQ(s.members[0].value, "1.50e+3");
  EXPECT_EQ(s.members[1].value, "18446744073709551616");
  EXPECT_EQ(s.members[2].value, "-0");
  EXPECT_EQ(s.members[3].value, "0.1000");
  EXPECT_EQ(s.members[4].value, "123456789012345678901234567890");
}

// JSON.parse("1e400") is Infinity, not an error: the text is valid JSON and must be accepted and
// kept as written (brief: "huge numbers like 1e400 (valid, kept as written)").
TEST(ScanMembers, NumbersBeyondDoubleRangeAreValidJson) {
  Scan s = scan(R"({"a":1e400,"b":-1e400,"c":1e-400,"d":[2e308]})");
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  ASSERT_EQ(s.members.size(), 4u);
  EXPECT_EQ(s.members[0].value, "1e400");
  EXPECT_EQ(s.members[1].value, "-1e400");
  EXPECT_EQ(s.members[2].value, "1e-400");
  EXPECT_EQ(s.members[3].value, "[2e308]");
}

TEST(ScanMembers, LoneSurrogateEscapesAreAcceptedAndSpansKeepTheirBytes) {
  std::string text = R"({"s":"\ud83d","t":"a\udc00b","u":"\ud83d\ude00","k\ud800":1})";
  Scan s = scan(text);
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  ASSERT_EQ(s.members.size(), 4u);
  EXPECT_EQ(s.members[0].value, R"("\ud83d")");
  EXPECT_EQ(s.members[1].value, R"("a\udc00b")");
  EXPECT_EQ(s.members[2].value, R"("\ud83d\ude00")");
  EXPECT_EQ(s.members[3].key, R"("k\ud800")");
}

TEST(ScanMembers, EscapedBackslashBeforeUIsNotASurrogateEscape) {
  // "\\ud83d" is a backslash followed by the letters ud83d: plain valid JSON.
  Scan s = scan(R"({"s":"\\ud83d"})");
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(s.members[0].value, R"("\\ud83d")");
}

TEST(ScanMembers, ArrayRootListsElementsWithEmptyKeys) {
  Scan s = scan(R"([1, "a" ,{"b":2},[3],null])");
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_FALSE(s.is_object);
  ASSERT_EQ(s.members.size(), 5u);
  EXPECT_EQ(kinds(s.members), "number,string,object,array,null");
  EXPECT_EQ(s.members[0].value, "1");
  EXPECT_EQ(s.members[1].value, R"("a")");
  EXPECT_EQ(s.members[2].value, R"({"b":2})");
  EXPECT_EQ(s.members[3].value, "[3]");
  EXPECT_EQ(s.members[4].value, "null");
  for (const Member& m : s.members) EXPECT_TRUE(m.key.empty());
}

TEST(ScanMembers, ScalarAndEmptyRoots) {
  Scan s = scan("42");
  ASSERT_TRUE(s.status.ok());
  EXPECT_FALSE(s.is_object);
  EXPECT_TRUE(s.members.empty());
  s = scan(R"("str")");
  ASSERT_TRUE(s.status.ok());
  EXPECT_FALSE(s.is_object);
  s = scan("{}");
  ASSERT_TRUE(s.status.ok());
  EXPECT_TRUE(s.is_object);
  EXPECT_TRUE(s.members.empty());
  s = scan("[]");
  ASSERT_TRUE(s.status.ok());
  EXPECT_FALSE(s.is_object);
  EXPECT_TRUE(s.members.empty());
}

TEST(ScanMembers, DuplicateKeysAreAllListedAndFindMemberTakesTheLast) {
  Scan s = scan(R"({"a":1,"b":2,"a":3})");
  ASSERT_TRUE(s.status.ok());
  ASSERT_EQ(s.members.size(), 3u);
  const Member* a = find_member(s.members, "a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->value, "3");
  EXPECT_EQ(find_member(s.members, "b")->value, "2");
  EXPECT_EQ(find_member(s.members, "c"), nullptr);
  EXPECT_EQ(find_member(s.members, ""), nullptr);
}

TEST(FindMember, ComparesDecodedKeys) {
  Scan s = scan(R"({"\u0061":1,"b\"c":2,"\u00e9":3,"x\ud83d":4})");
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  ASSERT_NE(find_member(s.members, "a"), nullptr);
  EXPECT_EQ(find_member(s.members, "a")->value, "1");
  ASSERT_NE(find_member(s.members, "b\"c"), nullptr);
  EXPECT_EQ(find_member(s.members, "b\"c")->value, "2");
  ASSERT_NE(find_member(s.members, "\xc3\xa9"), nullptr);
  EXPECT_EQ(find_member(s.members, "\xc3\xa9")->value, "3");
  ASSERT_NE(find_member(s.members, "x\xef\xbf\xbd"), nullptr);
  EXPECT_EQ(find_member(s.members, "\\u0061"), nullptr);
}

// Limits: the root value is depth 1 and every value inside a container one deeper.
TEST(ScanMembers, DepthCountsValuesNotJustContainers) {
  EXPECT_TRUE(scan("1", 1).status.ok());
  EXPECT_TRUE(scan("[]", 1).status.ok());
  EXPECT_TRUE(scan("{}", 1).status.ok());
  EXPECT_EQ(scan("[1]", 1).status.code(), Code::kLimit);
  EXPECT_EQ(scan("[[]]", 1).status.code(), Code::kLimit);
  EXPECT_TRUE(scan(R"({"a":[1]})", 3).status.ok());
  EXPECT_EQ(scan(R"({"a":[1]})", 2).status.code(), Code::kLimit);
  EXPECT_TRUE(scan(R"({"a":[[]]})", 3).status.ok());
  EXPECT_EQ(scan(R"({"a":[[1]]})", 3).status.code(), Code::kLimit);
  EXPECT_EQ(scan(R"({"a":[{}]})", 3).status.ok(), true);
  EXPECT_EQ(scan(R"({"a":[{"b":1}]})", 3).status.code(), Code::kLimit);
}

TEST(ScanMembers, MillionDeepNestingIsRefusedWithoutCrashing) {
  const size_t n = 1000000;
  std::string closed = std::string(n, '[') + std::string(n, ']');
  Scan s = scan(closed);
  EXPECT_EQ(s.status.code(), Code::kLimit);
  std::string objects;
  objects.reserve(6 * n);
  for (size_t i = 0; i < n; ++i) objects += "{\"a\":";
  objects += "1";
  objects += std::string(n, '}');
  EXPECT_EQ(scan(objects).status.code(), Code::kLimit);
  // Unclosed: the depth limit is hit before the missing brackets matter.
  EXPECT_EQ(scan(std::string(n, '[')).status.code(), Code::kLimit);
  // A huge but allowed depth when the caller raises the limit to the ceiling is still fine.
  std::string ok = std::string(4000, '[') + std::string(4000, ']');
  EXPECT_TRUE(scan(ok, kMaxConfigurableDepth).status.ok());
}

TEST(ScanMembers, RejectsInvalidJson) {
  for (std::string_view bad : {"", "   ", "{", R"({"a":})", R"({"a":1,})", R"({"a" 1})", R"({a:1})", "{} x",
                               "{}{}", "[1,]", "01", "1.", "-", "NaN", "'s'", R"({"a":tru})",
                               R"({"a":"\x"})", "{\"a\":\"tab\there\"}", "\xef\xbb\xbf{}"}) {
    Scan s = scan(bad);
    EXPECT_EQ(s.status.code(), Code::kInvalid) << "input: " << bad;
  }
}

TEST(ScanMembers, RejectsInvalidUtf8AndNulBytes) {
  EXPECT_EQ(scan("{\"a\":\"\xff\"}").status.code(), Code::kInvalid);
  EXPECT_EQ(scan("{\"a\":\"\xed\xa0\x80\"}").status.code(), Code::kInvalid);  // raw encoded surrogate
  EXPECT_EQ(scan("{\"a\":\"\xc0\x80\"}").status.code(), Code::kInvalid);
  Scan nul = scan(std::string("{\"a\":\"x\0y\"}", 11));
  EXPECT_EQ(nul.status.code(), Code::kInvalid);
  EXPECT_EQ(nul.status.message(), "NUL byte in JSON text");
  EXPECT_EQ(scan(std::string("{\"a\":1}\0", 8)).status.code(), Code::kInvalid);
}

TEST(ScanMembers, NullOutputPointersAreAllowed) {
  Limits l;
  EXPECT_TRUE(scan_members(R"({"a":[1,2]})", l, nullptr, nullptr).ok());
  EXPECT_EQ(scan_members("{", l, nullptr, nullptr).code(), Code::kInvalid);
}

const Member* first(const Scan& s) { return s.members.empty() ? nullptr : &s.members[0]; }

bool truthy(std::string_view value) {
  static std::string text;  // the members point into it
  static Scan s;
  text = "{\"v\":" + std::string(value) + "}";
  s = scan(text);
  EXPECT_TRUE(s.status.ok()) << value;
  return is_truthy(first(s));
}

// JavaScript truthiness (what `if (entry.summary)` decides).
TEST(IsTruthy, FollowsJavaScript) {
  EXPECT_FALSE(is_truthy(nullptr));
  EXPECT_FALSE(truthy("null"));
  EXPECT_FALSE(truthy("false"));
  EXPECT_TRUE(truthy("true"));
  EXPECT_FALSE(truthy(R"("")"));
  EXPECT_TRUE(truthy(R"("x")"));
  EXPECT_TRUE(truthy(R"(" ")"));
  EXPECT_TRUE(truthy(R"("0")"));
  EXPECT_FALSE(truthy("0"));
  EXPECT_FALSE(truthy("-0"));
  EXPECT_FALSE(truthy("0.0"));
  EXPECT_FALSE(truthy("0e5"));
  EXPECT_FALSE(truthy("-0.000E+10"));
  EXPECT_TRUE(truthy("1"));
  EXPECT_TRUE(truthy("0.5"));
  EXPECT_TRUE(truthy("-2"));
  EXPECT_TRUE(truthy("{}"));
  EXPECT_TRUE(truthy("[]"));
}

// Number("1e400") is Infinity (truthy); Number("1e-400") underflows to 0 (falsy).
TEST(IsTruthy, NumbersOutsideDoubleRange) {
  EXPECT_TRUE(truthy("1e400"));
  EXPECT_FALSE(truthy("1e-400"));
  EXPECT_FALSE(truthy("2.5e-999"));
}

}  // namespace
}  // namespace xs::json
