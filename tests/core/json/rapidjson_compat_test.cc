// json/rapidjson_compat: the copy RapidJSON 1.1.0 is run on so that what JSON.parse accepts and
// RapidJSON refuses (lone surrogate escapes, numbers beyond the double range) still parses. The
// copy has the same length and the same bytes outside the replaced tokens, so every offset
// RapidJSON reports is an offset in the original text.
#include <gtest/gtest.h>

#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <optional>
#include <string>

#include "json/rapidjson_compat.h"

namespace xs::json {
namespace {

// Whether RapidJSON, run the way the walkers run it (iterative, numbers as strings), accepts text.
bool rapidjson_accepts(const std::string& text) {
  rapidjson::MemoryStream stream(text.data(), text.size());
  rapidjson::BaseReaderHandler<> handler;
  rapidjson::Reader reader;
  constexpr unsigned kFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag;
  return !reader.Parse<kFlags>(stream, handler).IsError();
}

std::string copy_of(const std::string& text) {
  std::optional<std::string> c = rapidjson_compatible_copy(text);
  return c ? *c : "<none>";
}

TEST(RapidjsonCompat, TextWithNothingToReplaceHasNoCopy) {
  EXPECT_EQ(copy_of(R"({"a":"b","c":[true,false,null],"d":"\u00e9"})"), "<none>");
  EXPECT_EQ(copy_of(""), "<none>");
  // Digits and escapes inside strings are string content, not tokens.
  EXPECT_EQ(copy_of(R"({"s":"1e400 -99"})"), "<none>");
  // "\\ud83d" is an escaped backslash followed by letters: no surrogate escape.
  EXPECT_EQ(copy_of(R"(["\\ud83d"])"), "<none>");
}

TEST(RapidjsonCompat, LoneSurrogateEscapesBecomeAnXOfTheSameLength) {
  std::string text = R"({"s":"\ud83d","t":"a\uDBFFb","\udc00":"\uDFFF"})";
  EXPECT_FALSE(rapidjson_accepts(text));
  std::string copy = copy_of(text);
  EXPECT_EQ(copy, R"({"s":"\u0058","t":"a\u0058b","\u0058":"\u0058"})");
  EXPECT_TRUE(rapidjson_accepts(copy));
  // An escaped backslash before a real escape: only the real escape is replaced.
  EXPECT_EQ(copy_of(R"(["\\\ud83d"])"), R"(["\\\u0058"])");
  // An escaped quote does not end the string.
  EXPECT_EQ(copy_of(R"(["\"\ud83d"])"), R"(["\"\u0058"])");
}

// Found by fuzz_blob_resolver: "\ud8" is a malformed escape, not a surrogate. Replacing four bytes
// from its "d" overwrote the closing quote, and the copy of `"\ud8" n\udda"an"` became the valid
// string "\u0058n\u0058an": xs_append accepted it and wrote a line JSON.parse rejects.
TEST(RapidjsonCompat, ShortEscapesAreNotSurrogatesAndStayInvalid) {
  for (const std::string text : {R"("\ud8" n\udda"an")", R"(["\ud8","\udda"])", R"({"a":"\ud8"})",
                                  R"(["\uDBF"])", R"(["\udc0"])", R"(["\ud8x1"])"}) {
    EXPECT_EQ(copy_of(text), "<none>") << text;
    EXPECT_FALSE(rapidjson_accepts(text)) << text;
  }
  // After a short escape the scan stays in step: the string ends at its quote, so the lone
  // surrogate in the next string is still found (the whole text stays invalid for RapidJSON).
  EXPECT_EQ(copy_of(R"(["\u12","\ud83d"])"), R"(["\u12","\u0058"])");
  EXPECT_FALSE(rapidjson_accepts(copy_of(R"(["\u12","\ud83d"])")));
}

TEST(RapidjsonCompat, NumbersBeyondDoubleRangeBecomeSmallNumbersOfTheSameLength) {
  std::string digits(400, '7');
  std::string text = "[1e400,-1E+400," + digits + ",-" + digits + ",0.5e-99999]";
  EXPECT_FALSE(rapidjson_accepts(text));
  std::string copy = copy_of(text);
  ASSERT_EQ(copy.size(), text.size());
  EXPECT_TRUE(rapidjson_accepts(copy)) << copy.substr(0, 80);
  // Every byte outside the number tokens is the same, so offsets carry over.
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '[' || text[i] == ']' || text[i] == ',') {
      EXPECT_EQ(copy[i], text[i]) << i;
    }
  }
  EXPECT_EQ(copy.substr(0, 15), "[1.000,1.00000,");
}

// A malformed number is never turned into a valid one: RapidJSON still refuses the copy, so the
// grammar check stays RapidJSON's.
TEST(RapidjsonCompat, MalformedNumbersAreLeftForRapidjsonToRefuse) {
  for (const char* bad : {"[01]", "[1.]", "[-]", "[1e]", "[1e+]", "[--1]", "[1.2.3]", "[.5]", "[+1]", "[1e400.5]"}) {
    EXPECT_FALSE(rapidjson_accepts(bad)) << bad;
    EXPECT_FALSE(rapidjson_accepts(copy_of(bad) == "<none>" ? std::string(bad) : copy_of(bad))) << bad;
  }
  // The well-formed-but-refused ones around them are still replaced.
  EXPECT_EQ(copy_of("[01,1e400]"), "[01,1.000]");
}

TEST(RapidjsonCompat, StructureAndOtherTokensAreUntouched) {
  std::string text = R"({ "k\ud83d" : [ 1e400 , "v" , {"n":null} ] })";
  std::string copy = copy_of(text);
  EXPECT_EQ(copy, R"({ "k\u0058" : [ 1.000 , "v" , {"n":null} ] })");
  EXPECT_TRUE(rapidjson_accepts(copy));
}

}  // namespace
}  // namespace xs::json
