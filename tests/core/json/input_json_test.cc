// json/input_json: caller JSON validated under the limits and minified token for token.
#include <gtest/gtest.h>

#include <string>

#include "json/input_json.h"

namespace xs::json {
namespace {

struct Prepared {
  Status status;
  std::string minified;
  Kind kind = Kind::kAbsent;
};

Prepared prepare(std::string_view text, Limits limits = {}) {
  InputJson in(limits);
  Prepared p;
  p.status = in.prepare(text, &p.minified, &p.kind);
  return p;
}

TEST(InputJson, RemovesOnlyWhitespaceBetweenTokens) {
  Prepared p = prepare(
      "{ \"role\" : \"user\" ,\n  \"content\" : [ { \"type\" : \"text\", \"text\" : \"a  b\\n c\" } ] ,\r\n\t\"n\" : [ ] }");
  ASSERT_TRUE(p.status.ok()) << p.status.message();
  EXPECT_EQ(p.minified, R"({"role":"user","content":[{"type":"text","text":"a  b\n c"}],"n":[]})");
  EXPECT_EQ(p.kind, Kind::kObject);
}

TEST(InputJson, NumbersKeepTheirSpelling) {
  Prepared p = prepare("[ 1.0 , 1e2, 1E+2, -0, 18446744073709551616, 0.1000, 123456789012345678901234567890 ]");
  ASSERT_TRUE(p.status.ok()) << p.status.message();
  EXPECT_EQ(p.minified, "[1.0,1e2,1E+2,-0,18446744073709551616,0.1000,123456789012345678901234567890]");
  EXPECT_EQ(p.kind, Kind::kArray);
}

TEST(InputJson, StringEscapesKeepTheirSpelling) {
  Prepared p = prepare(R"( { "s" : "\u00e9\/\n\u0041\"" , "e": "é" } )");
  ASSERT_TRUE(p.status.ok()) << p.status.message();
  EXPECT_EQ(p.minified, R"({"s":"\u00e9\/\n\u0041\"","e":"é"})");
}

TEST(InputJson, LoneSurrogatesAreAcceptedAndKept) {
  Prepared p = prepare(R"({ "role": "user", "content": "cut \ud83d" })");
  ASSERT_TRUE(p.status.ok()) << p.status.message();
  EXPECT_EQ(p.minified, R"({"role":"user","content":"cut \ud83d"})");
  EXPECT_EQ(p.kind, Kind::kObject);
}

TEST(InputJson, NumbersBeyondDoubleRangeAreAcceptedAndKept) {
  Prepared p = prepare(R"({ "a": 1e400, "b": [ -1e400 ] })");
  ASSERT_TRUE(p.status.ok()) << p.status.message();
  EXPECT_EQ(p.minified, R"({"a":1e400,"b":[-1e400]})");
}

TEST(InputJson, ScalarRoots) {
  struct Case {
    const char* in;
    const char* out;
    Kind kind;
  } cases[] = {{" \"x y\" ", "\"x y\"", Kind::kString}, {" 12 ", "12", Kind::kNumber},
               {"true", "true", Kind::kTrue},            {" null", "null", Kind::kNull},
               {"false ", "false", Kind::kFalse}};
  for (const Case& c : cases) {
    Prepared p = prepare(c.in);
    ASSERT_TRUE(p.status.ok()) << c.in;
    EXPECT_EQ(p.minified, c.out);
    EXPECT_EQ(p.kind, c.kind);
  }
}

TEST(InputJson, ReportsMessageFacts) {
  InputJson in{Limits{}};  // the facts point into its parser: keep it alive while reading them
  std::string out;
  Kind kind;
  LineFacts f;
  ASSERT_TRUE(in.prepare(R"({"role":"assistant","provider":"anthropic","model":"claude","content":[]})", &out, &kind,
                         &f).ok());
  EXPECT_EQ(f.role.str, "assistant");
  EXPECT_EQ(f.provider.str, "anthropic");
  EXPECT_EQ(f.model.str, "claude");
  ASSERT_TRUE(in.prepare(R"({ "role" : "user", "content" : "\ud83d" })", &out, &kind, &f).ok());
  EXPECT_EQ(f.role.str, "user");
  EXPECT_EQ(f.provider.kind, Kind::kAbsent);
}

TEST(InputJson, InvalidInputIsKInvalid) {
  for (std::string_view bad : {"", "   ", "{", R"({"a":})", "{} {}", "[1,]", "undefined", "{'a':1}",
                               "{\"a\":\"raw\nnewline\"}"}) {
    Prepared p = prepare(bad);
    EXPECT_EQ(p.status.code(), Code::kInvalid) << "input: [" << bad << "]";
  }
}

TEST(InputJson, RawInvalidUtf8IsRefused) {
  EXPECT_EQ(prepare("{\"role\":\"user\",\"content\":\"\xff\"}").status.code(), Code::kInvalid);
  EXPECT_EQ(prepare("\"\xed\xa0\x80\"").status.code(), Code::kInvalid);
  EXPECT_EQ(prepare("\"\xc3\"").status.code(), Code::kInvalid);
}

TEST(InputJson, NulBytesAreRefused) {
  EXPECT_EQ(prepare(std::string("{\"a\":\"x\0\"}", 10)).status.code(), Code::kInvalid);
  EXPECT_EQ(prepare(std::string("{}\0", 3)).status.code(), Code::kInvalid);
}

TEST(InputJson, DepthAndSizeLimitsAreKLimit) {
  Limits l;
  l.max_depth = 2;
  EXPECT_TRUE(prepare(R"({"a":1})", l).status.ok());
  EXPECT_TRUE(prepare(R"({"a":[]})", l).status.ok());
  EXPECT_EQ(prepare(R"({"a":[1]})", l).status.code(), Code::kLimit);
  EXPECT_EQ(prepare(std::string(1000000, '[') + std::string(1000000, ']')).status.code(), Code::kLimit);

  Limits s;
  s.max_line_bytes = 10;
  EXPECT_TRUE(prepare(R"({"a":"12"})", s).status.ok());  // exactly 10 bytes
  EXPECT_EQ(prepare(R"({"a":"123"})", s).status.code(), Code::kLimit);
}

TEST(InputJson, OneInstanceServesManyCalls) {
  InputJson in{Limits{}};
  std::string out;
  Kind kind;
  ASSERT_TRUE(in.prepare(R"({ "x" : 1 })", &out, &kind).ok());
  EXPECT_EQ(out, R"({"x":1})");
  EXPECT_EQ(in.prepare("{", &out, &kind).code(), Code::kInvalid);
  ASSERT_TRUE(in.prepare(R"([ "\ud83d" ])", &out, &kind).ok());
  EXPECT_EQ(out, R"(["\ud83d"])");
  EXPECT_EQ(kind, Kind::kArray);
  ASSERT_TRUE(in.prepare("2", &out, &kind).ok());
  EXPECT_EQ(out, "2");
}

}  // namespace
}  // namespace xs::json
