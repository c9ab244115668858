#include "json/document_edit.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "json/limits.h"

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

// split_minified_object reads kPadding bytes past the text, as simdjson does.
std::vector<std::pair<std::string, std::string>> split(std::string_view text) {
  std::string padded(text);
  padded.append(kPadding, '\0');
  auto spans = split_minified_object(std::string_view(padded.data(), text.size()));
  EXPECT_TRUE(spans.ok()) << spans.status().message();
  std::vector<std::pair<std::string, std::string>> out;
  if (spans.ok()) {
    for (const Member& m : *spans) out.emplace_back(m.key, m.value);
  }
  return out;
}

TEST(SplitMinifiedObject, MembersWithNestedValuesAndEscapes) {
  auto m = split(R"({"a":1,"b\"":{"c":[1,{"d":"},]"}]},"e":"x\\","f":[],"g":null,"h":-1.5e3,"i":true})");
  ASSERT_EQ(m.size(), 7u);
  EXPECT_EQ(m[0].first, R"("a")");
  EXPECT_EQ(m[0].second, "1");
  EXPECT_EQ(m[1].first, R"("b\"")");
  EXPECT_EQ(m[1].second, R"({"c":[1,{"d":"},]"}]})");
  EXPECT_EQ(m[2].second, R"("x\\")");
  EXPECT_EQ(m[3].second, "[]");
  EXPECT_EQ(m[4].first, R"("g")");
  EXPECT_EQ(m[4].second, "null");
  EXPECT_EQ(m[5].second, "-1.5e3");
  EXPECT_EQ(m[6].first, R"("i")");
  EXPECT_EQ(m[6].second, "true");
  EXPECT_TRUE(split("{}").empty());
}

// What validation accepts beyond simdjson's DOM (docs/decisions.md): a lone surrogate escape and a
// number out of double's range split like any other member, their tokens untouched.
TEST(SplitMinifiedObject, LenientTokensSplitAsTheyAre) {
  auto m = split(R"({"s":"\ud800","n":1e400,"k\udc00":[18446744073709551616]})");
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].second, R"("\ud800")");
  EXPECT_EQ(m[1].second, "1e400");
  EXPECT_EQ(m[2].first, R"("k\udc00")");
  EXPECT_EQ(m[2].second, "[18446744073709551616]");
}

TEST(SplitMinifiedObject, KindsAreTheValuesKinds) {
  std::string text = R"({"o":{},"a":[1],"s":"x","n":-0.5,"t":true,"f":false,"z":null})";
  std::string padded = text + std::string(kPadding, '\0');
  auto m = split_minified_object(std::string_view(padded.data(), text.size()));
  ASSERT_TRUE(m.ok());
  std::vector<Kind> kinds;
  for (const Member& x : *m) kinds.push_back(x.kind);
  EXPECT_EQ(kinds, (std::vector<Kind>{Kind::kObject, Kind::kArray, Kind::kString, Kind::kNumber, Kind::kTrue,
                                      Kind::kFalse, Kind::kNull}));
}

// Not a minified object after all (a caller's bug): kInternal, never a guess.
TEST(SplitMinifiedObject, ANonObjectIsAnInternalError) {
  std::string padded = "[1,2]" + std::string(kPadding, '\0');
  auto spans = split_minified_object(std::string_view(padded.data(), 5));
  EXPECT_EQ(spans.status().code(), Code::kInternal);
}

}  // namespace
}  // namespace xs::json
