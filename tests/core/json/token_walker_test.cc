// json/token_walker: every token of a validated JSON text, in document order, with its byte span
// in the original text and (keys, strings) its decoded text. The size rules and the blob
// resolver edit lines through these spans, so an off-by-one here corrupts stored lines.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json/token_walker.h"

namespace xs::json {
namespace {

// One token as "<kind><start>-<end>[:text]": { } [ ] for containers, K key, S string, N number,
// T true, F false, 0 null.
std::string render(const Token& t) {
  static const char* kKinds[] = {"K", "S", "N", "T", "F", "0", "{", "}", "[", "]"};
  std::string out = kKinds[t.kind] + std::to_string(t.start) + "-" + std::to_string(t.end);
  if (t.kind == Token::kKey || t.kind == Token::kString) out += ":" + std::string(t.text);
  return out;
}

std::vector<std::string> walk(std::string_view json, Status* st = nullptr) {
  std::vector<std::string> out;
  Status s = walk_tokens(json, [&](const Token& t) {
    out.push_back(render(t));
    return true;
  });
  if (st) *st = s;
  EXPECT_TRUE(st || s.ok()) << s.message();
  return out;
}

using V = std::vector<std::string>;

TEST(TokenWalker, KindsSpansAndDecodedTextOfANestedDocument) {
  std::string doc = R"({"a":[1,-2.5e3,"x\ny"],"b\u0063":{"t":true,"f":false,"n":null},"e":[]})";
  EXPECT_EQ(walk(doc), (V{"{0-1", "K1-4:a", "[5-6", "N6-7", "N8-14", "S15-21:x\ny", "]5-22", "K23-32:bc", "{33-34",
                          "K34-37:t", "T38-42", "K43-46:f", "F47-52", "K53-56:n", "057-61", "}33-62", "K63-66:e",
                          "[67-68", "]67-69", "}0-70"}));
}

// Spans start at the token itself, never at the whitespace, comma or colon before it.
TEST(TokenWalker, SpansSkipWhitespaceAndSeparators) {
  std::string doc = " { \"k\" : [ 1 , { } ] } ";
  EXPECT_EQ(walk(doc), (V{"{1-2", "K3-6:k", "[9-10", "N11-12", "{15-16", "}15-18", "]9-20", "}1-22"}));
  EXPECT_EQ(walk("\t[\r\n\"s\"\n]"), (V{"[1-2", "S4-7:s", "]1-9"}));
}

TEST(TokenWalker, ScalarRoots) {
  EXPECT_EQ(walk("\"abc\""), (V{"S0-5:abc"}));
  EXPECT_EQ(walk("-0.5E+2"), (V{"N0-7"}));
  EXPECT_EQ(walk("null"), (V{"00-4"}));
}

// The spans cover each token's raw bytes whatever the escapes in it, so a replaced span keeps
// every other byte of the line.
TEST(TokenWalker, SpansCoverRawBytesAndTextIsDecoded) {
  std::string doc = R"({"\u0069d":"\u00e9\t\"\\\/"})";
  std::vector<std::string> tokens = walk(doc);
  ASSERT_EQ(tokens.size(), 4u);
  EXPECT_EQ(tokens[1], "K1-10:id");
  EXPECT_EQ(tokens[2], "S11-27:\xC3\xA9\t\"\\/");
  EXPECT_EQ(doc.substr(11, 16), R"("\u00e9\t\"\\\/")");
}

// Lone surrogates are valid (JSON.stringify writes them) although RapidJSON refuses them; their
// text reads as 'X' and their span still covers the original 6-byte escape.
TEST(TokenWalker, LoneSurrogateEscapesReadAsX) {
  EXPECT_EQ(walk(R"(["\ud83d","\uDE00x",{"\udbff":1}])"),
            (V{"[0-1", "S1-9:X", "S10-19:Xx", "{20-21", "K21-29:X", "N30-31", "}20-32", "]0-33"}));
  // An escaped backslash followed by "ud83d" is no escape at all.
  EXPECT_EQ(walk(R"(["\\ud83d"])"), (V{"[0-1", R"(S1-10:\ud83d)", "]0-11"}));
}

// A well-formed pair is one astral character, not two lone halves.
TEST(TokenWalker, SurrogatePairEscapeDecodesToItsCharacter) {
  EXPECT_EQ(walk(R"(["\ud83d\ude00"])"), (V{"[0-1", "S1-15:\xF0\x9F\x98\x80", "]0-16"}));
  EXPECT_EQ(walk(R"({"\uD83D\uDE00":0})"), (V{"{0-1", "K1-15:\xF0\x9F\x98\x80", "N16-17", "}0-18"}));
}

TEST(TokenWalker, NumbersBeyondDoubleRangeKeepTheirSpans) {
  std::string big = "-" + std::string(400, '9');
  std::string doc = "[1e400," + big + ",1.5e-400]";
  std::vector<std::string> tokens = walk(doc);
  size_t b = 7, e = 7 + big.size();
  EXPECT_EQ(tokens, (V{"[0-1", "N1-6", "N" + std::to_string(b) + "-" + std::to_string(e),
                       "N" + std::to_string(e + 1) + "-" + std::to_string(e + 9), "]0-" + std::to_string(doc.size())}));
  EXPECT_EQ(doc.substr(b, e - b), big);
}

TEST(TokenWalker, VisitReturningFalseStopsTheWalkWithoutAnError) {
  std::vector<std::string> seen;
  Status st = walk_tokens(R"({"a":1,"b":2,"c":3})", [&](const Token& t) {
    seen.push_back(render(t));
    return t.kind != Token::kNumber;
  });
  EXPECT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(seen, (V{"{0-1", "K1-4:a", "N5-6"}));
}

TEST(TokenWalker, InvalidJsonIsReportedWithItsOffset) {
  Status st;
  walk(R"({"a":})", &st);
  EXPECT_EQ(st.code(), Code::kInvalid);
  EXPECT_EQ(st.message().rfind("invalid JSON at byte 5", 0), 0u) << st.message();
  walk(R"([01])", &st);
  EXPECT_EQ(st.code(), Code::kInvalid) << "a malformed number is not made valid by the compat copy";
  walk(R"(["\ud83d)", &st);
  EXPECT_EQ(st.code(), Code::kInvalid) << "an unterminated string";
  walk("", &st);
  EXPECT_EQ(st.code(), Code::kInvalid);
}

}  // namespace
}  // namespace xs::json
