// format/envelope and format/entry_type: omp's key order around a payload.
#include <gtest/gtest.h>

#include <string>

#include "format/entry_type.h"
#include "format/envelope.h"

namespace xs::format {
namespace {

constexpr const char* kTs = "\"2026-02-16T10:20:30.000Z\"";

TEST(Payload, BuildsMembersInOrder) {
  Payload p;
  p.text("summary", "line1\n\"q\"");
  p.raw("details", R"({"a":[1,2]})");
  p.boolean("yes", true);
  p.boolean("no", false);
  p.null("nothing");
  p.integer("n", -42);
  p.integer("big", 9007199254740993);
  EXPECT_EQ(p.bytes(),
            R"("summary":"line1\n\"q\"","details":{"a":[1,2]},"yes":true,"no":false,"nothing":null,"n":-42,"big":9007199254740993)");
}

TEST(Payload, MemberCopiesKeyColonValueAndReportsWhereItStarts) {
  Payload p;
  EXPECT_EQ(p.member(R"("a":1)"), 0u);
  EXPECT_EQ(p.member(R"("b":{"c":2})"), 6u);
  EXPECT_EQ(p.bytes(), R"("a":1,"b":{"c":2})");
}

TEST(BuildEntryLine, EnvelopeFirstForOrdinaryTypes) {
  Payload p;
  p.raw("message", R"({"role":"user","content":"hi"})");
  Envelope env{"\"message\"", "a1b2c3d4", std::nullopt, kTs, false};
  size_t at = 0;
  std::string line = build_entry_line(env, p, &at);
  EXPECT_EQ(line,
            R"({"type":"message","id":"a1b2c3d4","parentId":null,"timestamp":"2026-02-16T10:20:30.000Z","message":{"role":"user","content":"hi"}})");
  EXPECT_EQ(line.substr(at, 10), R"("message":)");
}

TEST(BuildEntryLine, CustomTypesPutTheEnvelopeAfterThePayload) {
  Payload p;
  p.text("customType", "ext");
  p.raw("data", R"({"k":1})");
  Envelope env{"\"custom\"", "e1", std::optional<std::string_view>("p0"), kTs, true};
  size_t at = 0;
  std::string line = build_entry_line(env, p, &at);
  EXPECT_EQ(line,
            R"({"type":"custom","customType":"ext","data":{"k":1},"id":"e1","parentId":"p0","timestamp":"2026-02-16T10:20:30.000Z"})");
  EXPECT_EQ(at, std::string(R"({"type":"custom",)").size());
}

TEST(BuildEntryLine, EmptyPayload) {
  Payload p;
  Envelope env{"\"x\"", "i", std::optional<std::string_view>("p"), kTs, false};
  size_t at = 0;
  EXPECT_EQ(build_entry_line(env, p, &at), R"({"type":"x","id":"i","parentId":"p","timestamp":"2026-02-16T10:20:30.000Z"})");
  Envelope after{"\"custom\"", "i", std::nullopt, kTs, true};
  EXPECT_EQ(build_entry_line(after, p), R"({"type":"custom","id":"i","parentId":null,"timestamp":"2026-02-16T10:20:30.000Z"})");
}

TEST(BuildEntryLine, IdsAreEscapedLikeJsonStringify) {
  Payload p;
  Envelope env{"\"x\"", "a\"b", std::optional<std::string_view>("c\\d\n"), kTs, false};
  EXPECT_EQ(build_entry_line(env, p),
            R"({"type":"x","id":"a\"b","parentId":"c\\d\n","timestamp":"2026-02-16T10:20:30.000Z"})");
}

TEST(BuildEntryLine, TokensAreCopiedRaw) {
  Payload p;
  p.raw("n", "1e400");
  // The type and timestamp are raw tokens (a caller's entry keeps its own spelling).
  Envelope env{"\"mess\\u0061ge\"", "i", std::nullopt, "\"t\\u0031\"", false};
  EXPECT_EQ(build_entry_line(env, p), R"({"type":"mess\u0061ge","id":"i","parentId":null,"timestamp":"t\u0031","n":1e400})");
}

TEST(EntryType, NamesRoundTrip) {
  struct Case {
    EntryType t;
    const char* name;
  } cases[] = {{EntryType::kMessage, "message"},
               {EntryType::kThinkingLevelChange, "thinking_level_change"},
               {EntryType::kModelChange, "model_change"},
               {EntryType::kCompaction, "compaction"},
               {EntryType::kBranchSummary, "branch_summary"},
               {EntryType::kCustom, "custom"},
               {EntryType::kCustomMessage, "custom_message"},
               {EntryType::kLabel, "label"},
               {EntryType::kTtsrInjection, "ttsr_injection"},
               {EntryType::kSessionInit, "session_init"},
               {EntryType::kModeChange, "mode_change"},
               {EntryType::kSessionInfo, "session_info"},
               {EntryType::kServiceTierChange, "service_tier_change"},
               {EntryType::kMcpToolSelection, "mcp_tool_selection"}};
  for (const Case& c : cases) {
    EXPECT_EQ(entry_type_from_name(c.name), c.t) << c.name;
    EXPECT_EQ(entry_type_name(c.t), c.name);
  }
  EXPECT_EQ(entry_type_from_name("session"), EntryType::kUnknown);
  EXPECT_EQ(entry_type_from_name("Message"), EntryType::kUnknown);
  EXPECT_EQ(entry_type_from_name(""), EntryType::kUnknown);
  EXPECT_EQ(entry_type_from_name("my_extension_type"), EntryType::kUnknown);
  EXPECT_EQ(entry_type_name(EntryType::kUnknown), "");
}

TEST(EntryType, OnlyCustomAndCustomMessagePutTheEnvelopeLast) {
  for (int t = 0; t <= static_cast<int>(EntryType::kMcpToolSelection); ++t) {
    EntryType type = static_cast<EntryType>(t);
    EXPECT_EQ(envelope_after_payload(type), type == EntryType::kCustom || type == EntryType::kCustomMessage) << t;
  }
}

}  // namespace
}  // namespace xs::format
