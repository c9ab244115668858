// What each entry kind gives the index: its text and role, bounded and cleaned.
#include "search/entry_text.h"

#include <gtest/gtest.h>

#include <string>

#include "search_fixture.h"
#include "test_util.h"

namespace xs::search {
namespace {

// The text and role of the only entry of a file made of `line` after a header.
std::string text_of(const std::string& line) {
  auto l = test::load(header("s1", "/w") + line);
  EXPECT_TRUE(l->status.ok()) << l->status.message();
  EXPECT_EQ(l->data.entries.size(), 1u);
  if (l->data.entries.size() != 1) return "";
  EntryText t = entry_text(l->data.entries[0]);
  return std::string(t.role) + ":" + t.text;
}

TEST(EntryText, UserTextAsStringOrTextBlocks) {
  EXPECT_EQ(text_of(msg("e1", "", 1, "user", "\"fix the build\"")), "user:fix the build");
  EXPECT_EQ(text_of(msg("e1", "", 1, "user",
                        "[{\"type\":\"text\",\"text\":\"one\"},{\"type\":\"image\",\"data\":\"AAAA\"},"
                        "{\"type\":\"text\",\"text\":\"two\"}]")),
            "user:one two");
}

TEST(EntryText, AssistantTextThenToolCallsWithArguments) {
  EXPECT_EQ(text_of(msg("e1", "", 1, "assistant",
                        "[{\"type\":\"thinking\",\"thinking\":\"secret\"},{\"type\":\"text\",\"text\":\"Reading.\"},"
                        "{\"type\":\"toolCall\",\"id\":\"c1\",\"name\":\"read\",\"arguments\":{\"path\":\"a.c\"}}]")),
            "assistant:Reading. read {\"path\":\"a.c\"}");
  // Only tool calls: the tool role.
  EXPECT_EQ(text_of(msg("e1", "", 1, "assistant",
                        "[{\"type\":\"toolCall\",\"id\":\"c1\",\"name\":\"bash\",\"arguments\":{\"cmd\":\"ls\"}}]")),
            "tool:bash {\"cmd\":\"ls\"}");
}

TEST(EntryText, ToolResultsAndExecutionsAreTool) {
  EXPECT_EQ(text_of(msg("e1", "", 1, "toolResult", "[{\"type\":\"text\",\"text\":\"int x;\"}]",
                        ",\"toolCallId\":\"c1\",\"toolName\":\"read\"")),
            "tool:read int x;");
  EXPECT_EQ(
      text_of("{\"type\":\"message\",\"id\":\"e1\",\"parentId\":null,\"timestamp\":\"2026-01-01T00:00:01.000Z\","
              "\"message\":{\"role\":\"bashExecution\",\"command\":\"make\",\"output\":\"ok\",\"exitCode\":0}}\n"),
      "tool:make ok");
}

TEST(EntryText, ToolResultIsCutToItsBoundOnACharacterBoundary) {
  std::string big(kMaxToolTextBytes - 6, 'x');
  big += "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9";  // "éééé" across the bound
  std::string t = text_of(msg("e1", "", 1, "toolResult", "\"" + big + "\"", ",\"toolName\":\"t\""));
  // "tool:" + "t " + 8186 x's leaves room for 2 of the 2-byte characters within 8192 bytes.
  EXPECT_EQ(t, "tool:t " + std::string(kMaxToolTextBytes - 6, 'x') + "\xC3\xA9\xC3\xA9");
}

TEST(EntryText, SummariesLabelsAndCustomMessages) {
  EXPECT_EQ(text_of("{\"type\":\"compaction\",\"id\":\"e1\",\"parentId\":null,\"timestamp\":\"t\",\"summary\":\"we "
                    "fixed it\",\"firstKeptEntryId\":\"x\",\"tokensBefore\":5}\n"),
            "summary:we fixed it");
  EXPECT_EQ(text_of("{\"type\":\"branch_summary\",\"id\":\"e1\",\"parentId\":null,\"timestamp\":\"t\",\"fromId\":"
                    "\"root\",\"summary\":\"tried mmap\"}\n"),
            "summary:tried mmap");
  EXPECT_EQ(text_of("{\"type\":\"label\",\"id\":\"e1\",\"parentId\":null,\"timestamp\":\"t\",\"targetId\":\"x\","
                    "\"label\":\"good spot\"}\n"),
            "label:good spot");
  EXPECT_EQ(text_of("{\"type\":\"custom_message\",\"customType\":\"note\",\"content\":\"shown\",\"display\":true,"
                    "\"id\":\"e1\",\"parentId\":null,\"timestamp\":\"t\"}\n"),
            "user:shown");
  EXPECT_EQ(text_of("{\"type\":\"custom_message\",\"customType\":\"note\",\"content\":\"hidden\",\"display\":false,"
                    "\"id\":\"e1\",\"parentId\":null,\"timestamp\":\"t\"}\n"),
            ":");
}

TEST(EntryText, EntriesWithoutTextGiveNone) {
  EXPECT_EQ(
      text_of("{\"type\":\"model_change\",\"id\":\"e1\",\"parentId\":null,\"timestamp\":\"t\",\"model\":\"a/b\"}\n"),
      ":");
  EXPECT_EQ(text_of("{\"type\":\"custom\",\"customType\":\"x\",\"data\":{\"text\":\"no\"},\"id\":\"e1\","
                    "\"parentId\":null,\"timestamp\":\"t\"}\n"),
            ":");
  EXPECT_EQ(text_of(msg("e1", "", 1, "user", "\"\"")), ":");
}

TEST(EntryText, NulAndLoneSurrogatesAreMadeValidText) {
  // \u0000 decodes to a NUL byte (indexed as a space), a lone surrogate escape to U+FFFD.
  EXPECT_EQ(text_of(msg("e1", "", 1, "user", "\"a\\u0000b \\ud800c\"")),
            "user:a b \xEF\xBF\xBD"
            "c");
}

TEST(EntryText, AHugeMessageIsCutToTheEntryBound) {
  std::string t = text_of(msg("e1", "", 1, "user", "\"" + std::string(10 << 20, 'y') + "\""));
  EXPECT_EQ(t, "user:" + std::string(kMaxEntryTextBytes, 'y'));
}

TEST(EntryText, CutNeverSplitsASequence) {
  EXPECT_EQ(cut_utf8("ab\xE2\x82\xAC", 4), "ab");
  EXPECT_EQ(cut_utf8("ab\xE2\x82\xAC", 5), "ab\xE2\x82\xAC");
  EXPECT_EQ(cut_utf8("abc", 0), "");
}

}  // namespace
}  // namespace xs::search
