// format/header: the session header line (docs/format.md#the-header).
#include <gtest/gtest.h>

#include <string>

#include "format/header.h"

namespace xs::format {
namespace {

Header make(std::string id, std::string ts, std::string cwd) {
  Header h;
  h.id = std::move(id);
  h.version = kCurrentVersion;
  h.timestamp = std::move(ts);
  h.cwd = std::move(cwd);
  return h;
}

TEST(BuildHeaderLine, KeyOrderTypeVersionIdTimestampCwd) {
  Header h = make("1f9d2a6b9c0d1234", "2026-02-16T10:20:30.000Z", "/home/u/proj");
  EXPECT_EQ(build_header_line(h),
            R"({"type":"session","version":3,"id":"1f9d2a6b9c0d1234","timestamp":"2026-02-16T10:20:30.000Z","cwd":"/home/u/proj"})");
}

TEST(BuildHeaderLine, TitleThenParentSessionWhenSet) {
  Header h = make("s", "t", "/w");
  h.parent_session = "/sessions/old.jsonl";
  EXPECT_EQ(build_header_line(h),
            R"({"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/w","parentSession":"/sessions/old.jsonl"})");
  h.title = "My \"title\"";
  EXPECT_EQ(build_header_line(h),
            R"({"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/w","title":"My \"title\"","parentSession":"/sessions/old.jsonl"})");
  h.parent_session.reset();
  EXPECT_EQ(build_header_line(h), R"({"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/w","title":"My \"title\""})");
}

TEST(BuildHeaderLine, EscapesLikeJsonStringify) {
  Header h = make("s", "t", "C:\\Users\\me\t\x01" "caf\xc3\xa9");
  EXPECT_EQ(build_header_line(h),
            "{\"type\":\"session\",\"version\":3,\"id\":\"s\",\"timestamp\":\"t\",\"cwd\":\"C:\\\\Users\\\\me\\t\\u0001caf\xc3\xa9\"}");
}

TEST(ParseHeader, ReadsEveryField) {
  auto h = parse_header(
      R"({"type":"session","version":3,"id":"abc","timestamp":"2026-02-16T10:20:30.000Z","cwd":"/w","title":"T","parentSession":"p"})");
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_EQ(h->id, "abc");
  EXPECT_EQ(h->version, 3);
  EXPECT_EQ(h->timestamp, "2026-02-16T10:20:30.000Z");
  EXPECT_EQ(h->cwd, "/w");
  ASSERT_TRUE(h->title.has_value());
  EXPECT_EQ(*h->title, "T");
  ASSERT_TRUE(h->parent_session.has_value());
  EXPECT_EQ(*h->parent_session, "p");
}

TEST(ParseHeader, MissingVersionMeansV1) {
  auto h = parse_header(R"({"type":"session","id":"a","timestamp":"t","cwd":"/"})");
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->version, 1);
  EXPECT_FALSE(h->title.has_value());
  EXPECT_FALSE(h->parent_session.has_value());
}

TEST(ParseHeader, VersionIsComparedNumerically) {
  struct Case {
    const char* v;
    int expect;
  } cases[] = {{"1", 1}, {"2", 2}, {"3", 3}, {"4", 3}, {"2.5", 2}, {"0", 1}, {"-7", 1}, {"3.0", 3},
               {"null", 1}, {"true", 1}};
  for (const Case& c : cases) {
    auto h = parse_header(std::string(R"({"type":"session","id":"a","version":)") + c.v + "}");
    ASSERT_TRUE(h.ok()) << c.v << ": " << h.status().message();
    EXPECT_EQ(h->version, c.expect) << c.v;
  }
}

// The agents compare `version >= 3` / `< 2` in JavaScript, which converts a numeric string:
// "3" >= 3 is true (no migration), "2" is a v2 file.
TEST(ParseHeader, NumericStringVersionsCompareLikeJavaScript) {
  auto three = parse_header(R"({"type":"session","id":"a","version":"3"})");
  ASSERT_TRUE(three.ok());
  EXPECT_EQ(three->version, 3);
  auto two = parse_header(R"({"type":"session","id":"a","version":"2"})");
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two->version, 2);
}

// 1e400 is valid JSON (Infinity), and Infinity >= 3.
TEST(ParseHeader, HugeVersionNumberIsCurrent) {
  auto h = parse_header(R"({"type":"session","id":"a","version":1e400})");
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_EQ(h->version, 3);
}

TEST(ParseHeader, MissingOrMistypedOptionalFields) {
  auto h = parse_header(R"({"type":"session","id":"a","cwd":7,"timestamp":null,"title":false,"parentSession":1})");
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->cwd, "");
  EXPECT_EQ(h->timestamp, "");
  EXPECT_FALSE(h->title.has_value());
  EXPECT_FALSE(h->parent_session.has_value());
}

TEST(ParseHeader, DecodesEscapesAndLoneSurrogates) {
  auto h = parse_header(R"({"type":"session","id":"a\u0062","cwd":"C:\\x","title":"cut \ud83d"})");
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_EQ(h->id, "ab");
  EXPECT_EQ(h->cwd, "C:\\x");
  EXPECT_EQ(*h->title, "cut \xef\xbf\xbd");
}

TEST(ParseHeader, DuplicateKeysLastWins) {
  auto h = parse_header(R"({"type":"session","id":"first","cwd":"/a","id":"second"})");
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->id, "second");
}

TEST(ParseHeader, NoStringIdIsNoHeader) {
  EXPECT_EQ(parse_header(R"({"type":"session"})").status().code(), Code::kNoHeader);
  EXPECT_EQ(parse_header(R"({"type":"session","id":5})").status().code(), Code::kNoHeader);
  EXPECT_EQ(parse_header(R"(["session"])").status().code(), Code::kNoHeader);
  EXPECT_EQ(parse_header("{").status().code(), Code::kInvalid);
}

TEST(SetHeaderTitle, NewTitleGoesBeforeParentSessionOrAtTheEnd) {
  auto r = set_header_title(R"({"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/w"})", "T");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, R"({"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/w","title":"T"})");
  r = set_header_title(R"({"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/w","parentSession":"p"})",
                       "T");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, R"({"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/w","title":"T","parentSession":"p"})");
}

TEST(SetHeaderTitle, ExistingTitleIsReplacedInPlace) {
  auto r = set_header_title(R"({"type":"session","title":"old","id":"s","parentSession":"p"})", "new \"one\"\n");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, R"({"type":"session","title":"new \"one\"\n","id":"s","parentSession":"p"})");
}

TEST(SetHeaderTitle, NulloptRemovesTheTitle) {
  auto r = set_header_title(R"({"type":"session","id":"s","title":"old","parentSession":"p"})", std::nullopt);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, R"({"type":"session","id":"s","parentSession":"p"})");
  r = set_header_title(R"({"type":"session","id":"s"})", std::nullopt);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, R"({"type":"session","id":"s"})");
}

TEST(SetHeaderTitle, EmptyTitleIsWrittenAsEmptyString) {
  auto r = set_header_title(R"({"type":"session","id":"s"})", std::string());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, R"({"type":"session","id":"s","title":""})");
}

}  // namespace
}  // namespace xs::format
