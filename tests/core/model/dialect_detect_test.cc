// docs/dialects.md#detection: the last marked line decides, else the header, else nothing.
#include "model/dialect_detect.h"

#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

namespace xs::model {
namespace {

using format::Dialect;

const std::string kHex = R"({"type":"session","version":3,"id":"0a1b2c3d4e5f6071","timestamp":"t","cwd":"/w"})";
const std::string kUuid =
    R"({"type":"session","version":3,"id":"019424f8-7410-70f4-a995-bfaf6656e553","timestamp":"t","cwd":"/w"})";
const std::string kOther = R"({"type":"session","version":3,"id":"s1","timestamp":"t","cwd":"/w"})";
const std::string kTitled = R"({"type":"session","version":3,"id":"s1","timestamp":"t","cwd":"/w","title":"T"})";

std::string entry(const std::string& id, const std::string& type, const std::string& payload) {
  return R"({"type":")" + type + R"(","id":")" + id + R"(","parentId":null,"timestamp":"t")" +
         (payload.empty() ? "" : "," + payload) + "}";
}

std::optional<Dialect> detect(const std::string& header, std::initializer_list<std::string> lines) {
  std::string text = header + "\n";
  for (const std::string& l : lines) text += l + "\n";
  auto loaded = test::load(text);
  EXPECT_TRUE(loaded->status.ok()) << loaded->status.message();
  return detect_dialect(loaded->data);
}

TEST(DialectDetect, EachMark) {
  const std::string pi[] = {
      entry("a", "model_change", R"("provider":"p","modelId":"m")"),
      entry("a", "session_info", R"("name":"n")"),
      entry("a", "compaction", R"("summary":"s","firstKeptEntryId":"x","tokensBefore":1,"fromHook":true)"),
      entry("a", "branch_summary", R"("fromId":"root","summary":"s","fromHook":false)"),
  };
  for (const std::string& l : pi) EXPECT_EQ(detect(kOther, {l}), Dialect::kPi) << l;
  const std::string omp[] = {
      entry("a", "model_change", R"("model":"p/m")"),
      entry("a", "ttsr_injection", R"("injectedRules":[])"),
      entry("a", "session_init", R"("systemPrompt":"s","task":"t","tools":[])"),
      entry("a", "mode_change", R"("mode":"plan")"),
      entry("a", "service_tier_change", R"("serviceTier":null)"),
      entry("a", "mcp_tool_selection", R"("selectedToolNames":[])"),
      entry("a", "compaction", R"("summary":"s","shortSummary":"x","firstKeptEntryId":"x","tokensBefore":1)"),
      entry("a", "compaction", R"("summary":"s","firstKeptEntryId":"x","tokensBefore":1,"preserveData":{})"),
      entry("a", "branch_summary", R"("fromId":"root","summary":"s","fromExtension":true)"),
      entry("a", "custom_message", R"("customType":"t","content":"c","display":true,"attribution":"agent")"),
  };
  for (const std::string& l : omp) EXPECT_EQ(detect(kUuid, {l}), Dialect::kOmp) << l;
}

TEST(DialectDetect, TheLastMarkWinsOverEarlierOnesAndTheHeader) {
  std::string omp = entry("a", "model_change", R"("model":"p/m")");
  std::string pi = entry("b", "model_change", R"("provider":"p","modelId":"m")");
  EXPECT_EQ(detect(kTitled, {omp, pi}), Dialect::kPi);
  EXPECT_EQ(detect(kUuid, {pi, omp}), Dialect::kOmp);
}

TEST(DialectDetect, UnmarkedLinesLeaveItToTheHeaderThenToTheCaller) {
  std::string msg = entry("a", "message", R"("message":{"role":"user","content":"hi"})");
  std::string neither = entry("b", "compaction", R"("summary":"s","firstKeptEntryId":"x","tokensBefore":1)");
  std::string own = entry("c", "custom_message", R"("customType":"t","content":"c","display":true)");
  EXPECT_EQ(detect(kTitled, {msg, neither}), Dialect::kOmp);
  EXPECT_EQ(detect(kUuid, {msg}), Dialect::kPi);
  EXPECT_EQ(detect(kHex, {msg}), Dialect::kOmp);
  EXPECT_FALSE(detect(kOther, {msg, neither, own}).has_value());
}

// pi's v1 files (the corpus's): no ids, provider/modelId changes and UUID header ids.
TEST(DialectDetect, PisVersionOneFiles) {
  std::string header = R"({"type":"session","id":"ffae836b-9420-4060-ac13-7745215f90ff","timestamp":"t","cwd":"/w"})";
  EXPECT_EQ(detect(header, {R"({"type":"message","timestamp":"t","message":{"role":"user","content":"x"}})"}),
            Dialect::kPi);
  std::string v1 = R"({"type":"session","id":"s1","timestamp":"t","cwd":"/w"})";
  EXPECT_EQ(detect(v1, {R"({"type":"model_change","timestamp":"t","provider":"a","modelId":"b"})"}), Dialect::kPi);
}

}  // namespace
}  // namespace xs::model
