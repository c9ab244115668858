// compaction/compaction_plan (docs/compaction-planning.md): the gateway's thresholds, the memory
// flush once per cycle, token estimates, and cut points that keep tool results with their calls;
// a compaction written at the plan's cut gives the context summary + kept entries.
#include "compaction/compaction_plan.h"

#include <gtest/gtest.h>

#include <string>

#include "session/session.h"
#include "storage/fs.h"
#include "test_util.h"

namespace xs::compaction {
namespace {

TEST(CompactionThresholds, TheGatewaysRule) {
  Settings s;
  s.context_window = 200000;
  s.reserve_tokens = 16384;
  s.reserve_floor = 20000;  // the floor wins: 200000 - 20000
  EXPECT_FALSE(should_compact(180000, s));
  EXPECT_TRUE(should_compact(180001, s));
  s.reserve_floor = 0;  // no floor: 200000 - 16384
  EXPECT_TRUE(should_compact(183617, s));
  EXPECT_FALSE(should_compact(183616, s));
}

TEST(CompactionThresholds, MemoryFlushOncePerCycleBelowTheCompaction) {
  Settings s;
  s.context_window = 200000;  // compaction at > 180000, flush at > 176000
  EXPECT_FALSE(should_flush_memory(176000, s, 2, 1));
  EXPECT_TRUE(should_flush_memory(176001, s, 2, 1));
  EXPECT_FALSE(should_flush_memory(179000, s, 2, 2));  // already flushed in compaction cycle 2
  EXPECT_TRUE(should_flush_memory(179000, s, 3, 2));
}

class PlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    session::SessionOptions o;
    o.defer_until_assistant = false;
    o.clock = format::Clock::Fixed(1767225600000, 1000);
    o.id_seed = 5;
    o.session_id = "plan";
    auto s = session::Session::create(storage::make_memory_fs(), "/m", o);
    ASSERT_TRUE(s.ok());
    s_ = std::move(*s);
  }
  std::string add(const std::string& role, size_t bytes, const std::string& extra = "") {
    std::string msg = R"({"role":")" + role + R"(","content":")" + std::string(bytes, 'x') + "\"" + extra + "}";
    std::string id;
    EXPECT_TRUE(s_->append_message(msg, &id).ok());
    return id;
  }
  std::unique_ptr<session::Session> s_;
};

TEST_F(PlanTest, EstimatesUseUsageOutputElseBytesOverFour) {
  add("user", 400);
  add("assistant", 4000, R"(,"usage":{"input":10,"output":123})");
  add("assistant", 4000, R"(,"usage":{"input":10})");
  const auto& e = s_->data().entries;
  EXPECT_EQ(estimate_tokens(e[0]), static_cast<int64_t>((e[0].line.size() + 3) / 4));
  EXPECT_EQ(estimate_tokens(e[1]), 123);
  EXPECT_EQ(estimate_tokens(e[2]), static_cast<int64_t>((e[2].line.size() + 3) / 4));
}

TEST_F(PlanTest, CutKeepsTheNewestTokensAndNeverSplitsAToolResultFromItsCall) {
  std::string u1 = add("user", 4000), a1 = add("assistant", 4000);
  std::string u2 = add("user", 4000), call = add("assistant", 400, R"(,"toolCall":"t1")");
  std::string result = add("toolResult", 8000), a2 = add("assistant", 400);
  // Keeping ~2,200 tokens reaches back into the tool result: the cut moves to its call.
  auto plan = plan_cut(s_->data(), s_->tree(), model::kNone, 2200);
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->needed);
  EXPECT_EQ(plan->first_kept_entry_id, call);
  EXPECT_EQ(plan->to_summarise, (std::vector<std::string>{u1, a1, u2}));
  int64_t all = 0, kept = 0;
  for (size_t i = 0; i < s_->data().entries.size(); ++i) {
    all += estimate_tokens(s_->data().entries[i]);
    if (i >= 3) kept += estimate_tokens(s_->data().entries[i]);
  }
  EXPECT_EQ(plan->tokens_before, all);
  EXPECT_EQ(plan->kept_tokens, kept);
  EXPECT_EQ(cut_plan_json(*plan), R"({"needed":true,"firstKeptEntryId":")" + call + R"(","toSummarise":[")" + u1 +
                                      R"(",")" + a1 + R"(",")" + u2 + R"("],"tokensBefore":)" + std::to_string(all) +
                                      ",\"keptTokens\":" + std::to_string(kept) + "}");

  // Written at the plan's cut, the compaction's context is its summary and the kept entries.
  std::string c;
  ASSERT_TRUE(s_->append_compaction({"summary", std::nullopt, plan->first_kept_entry_id, plan->tokens_before,
                                     std::nullopt, std::nullopt, std::nullopt},
                                    &c)
                  .ok());
  auto ctx = s_->context(std::nullopt);
  ASSERT_TRUE(ctx.ok());
  std::string messages;
  for (size_t i = 3; i < 6; ++i) messages += "," + std::string(s_->data().entries[i].message());
  EXPECT_EQ(*ctx, R"({"leafId":")" + c + R"(","messages":[{"role":"compactionSummary","summary":"summary",)" +
                      R"("tokensBefore":)" + std::to_string(all) + R"(,"timestamp":1767225607000})" + messages +
                      R"(],"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none"})");
  // The next plan starts from the compaction's kept range.
  std::string u3 = add("user", 4000);
  auto next = plan_cut(s_->data(), s_->tree(), model::kNone, 1000);
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next->first_kept_entry_id, u3);
  EXPECT_EQ(next->to_summarise, (std::vector<std::string>{call, result, a2, c}));
}

TEST_F(PlanTest, NothingToCutWhenEverythingFits) {
  add("user", 40);
  add("assistant", 40);
  auto plan = plan_cut(s_->data(), s_->tree(), model::kNone, 20000);
  ASSERT_TRUE(plan.ok());
  EXPECT_FALSE(plan->needed);
  EXPECT_EQ(cut_plan_json(*plan), R"({"needed":false,"firstKeptEntryId":null,"toSummarise":[],"tokensBefore":)" +
                                      std::to_string(plan->tokens_before) + R"(,"keptTokens":0})");
}

}  // namespace
}  // namespace xs::compaction
