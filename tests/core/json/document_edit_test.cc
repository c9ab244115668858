#include "json/document_edit.h"

#include <gtest/gtest.h>

#include <string>

namespace xs::json {
namespace {

std::string merged(std::string_view target, std::string_view patch) {
  auto r = merge_patch(target, patch);
  return r.ok() ? *r : "<error: " + r.status().message() + ">";
}

// RFC 7386's own examples (appendix A), plus what the RFC leaves to the implementation: order.
TEST(MergePatch, Rfc7386Examples) {
  EXPECT_EQ(merged(R"({"a":"b"})", R"({"a":"c"})"), R"({"a":"c"})");
  EXPECT_EQ(merged(R"({"a":"b"})", R"({"b":"c"})"), R"({"a":"b","b":"c"})");
  EXPECT_EQ(merged(R"({"a":"b"})", R"({"a":null})"), R"({})");
  EXPECT_EQ(merged(R"({"a":"b","b":"c"})", R"({"a":null})"), R"({"b":"c"})");
  EXPECT_EQ(merged(R"({"a":["b"]})", R"({"a":"c"})"), R"({"a":"c"})");
  EXPECT_EQ(merged(R"({"a":"c"})", R"({"a":["b"]})"), R"({"a":["b"]})");
  EXPECT_EQ(merged(R"({"a":{"b":"c"}})", R"({"a":{"b":"d","c":null}})"), R"({"a":{"b":"d"}})");
  EXPECT_EQ(merged(R"({"a":[{"b":"c"}]})", R"({"a":[1]})"), R"({"a":[1]})");
  EXPECT_EQ(merged(R"(["a","b"])", R"(["c","d"])"), R"(["c","d"])");
  EXPECT_EQ(merged(R"({"a":"b"})", R"(["c"])"), R"(["c"])");
  EXPECT_EQ(merged(R"({"a":"foo"})", "null"), "null");
  EXPECT_EQ(merged(R"({"a":"foo"})", R"("bar")"), R"("bar")");
  EXPECT_EQ(merged(R"({"e":null})", R"({"a":1})"), R"({"e":null,"a":1})");
  EXPECT_EQ(merged(R"([1,2])", R"({"a":"b","c":null})"), R"({"a":"b"})");
  EXPECT_EQ(merged(R"({})", R"({"a":{"bb":{"ccc":null}}})"), R"({"a":{"bb":{}}})");
}

TEST(MergePatch, KeepsPositionsAndTokens) {
  EXPECT_EQ(merged(R"({"x":1e3,"y":"\u00e9","z":2})", R"({"y":"\/","w":1.50})"),
            R"({"x":1e3,"y":"\/","z":2,"w":1.50})");
  // A duplicate key reads as JSON.parse reads it: the last value, at the first place.
  EXPECT_EQ(merged(R"({"a":1,"b":2,"a":3})", R"({"c":4})"), R"({"a":3,"b":2,"c":4})");
}

TEST(Indent2, LaysOutAsJsonStringifyWithTwoSpaces) {
  EXPECT_EQ(indent_2(R"({"a":1,"b":[1,{"c":"x,y:{"}],"e":{},"f":[]})"),
            "{\n  \"a\": 1,\n  \"b\": [\n    1,\n    {\n      \"c\": \"x,y:{\"\n    }\n  ],\n"
            "  \"e\": {},\n  \"f\": []\n}");
  EXPECT_EQ(indent_2(R"({"q":"a\"b\\"})"), "{\n  \"q\": \"a\\\"b\\\\\"\n}");
  EXPECT_EQ(indent_2("{}"), "{}");
  EXPECT_EQ(indent_2("7"), "7");
}

TEST(SplitMinifiedObject, MembersWithNestedValuesAndEscapes) {
  auto m = split_minified_object(R"({"a":1,"b\"":{"c":[1,{"d":"},]"}]},"e":"x\\","f":[],"g":null})");
  ASSERT_EQ(m.size(), 5u);
  EXPECT_EQ(m[0].first, R"("a")");
  EXPECT_EQ(m[0].second, "1");
  EXPECT_EQ(m[1].first, R"("b\"")");
  EXPECT_EQ(m[1].second, R"({"c":[1,{"d":"},]"}]})");
  EXPECT_EQ(m[2].second, R"("x\\")");
  EXPECT_EQ(m[3].second, "[]");
  EXPECT_EQ(m[4].first, R"("g")");
  EXPECT_EQ(m[4].second, "null");
  EXPECT_TRUE(split_minified_object("{}").empty());
}

}  // namespace
}  // namespace xs::json
