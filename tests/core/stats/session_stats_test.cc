// stats/session_stats and Session::stats(): the counters after appends, after a reload, across
// branches, and contextTokens' rule (docs/session-stats.md).
#include "stats/session_stats.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "store/store.h"

namespace xs::stats {
namespace {

using session::Session;
using session::SessionOptions;

// An assistant reply with two tool calls; usage with totalTokens.
constexpr const char* kA1 =
    R"({"role":"assistant","content":[{"type":"text","text":"x"},{"type":"toolCall","id":"c1","name":"bash","arguments":{}},)"
    R"({"type":"toolCall","id":"c2","name":"read","arguments":{}}],"usage":{"input":100,"output":20,"cacheRead":5,)"
    R"("cacheWrite":7,"totalTokens":132,"cost":{"input":0.1,"total":0.25}},"stopReason":"toolUse"})";
// One tool call; usage without totalTokens (contextTokens then adds the four counters).
constexpr const char* kA2 =
    R"({"role":"assistant","content":[{"type":"toolCall","id":"c3","name":"bash","arguments":{}}],)"
    R"("usage":{"input":50,"output":30,"cacheRead":0,"cacheWrite":3,"cost":{"total":0.5}},"stopReason":"toolUse"})";
constexpr const char* kUser = R"({"role":"user","content":"go"})";

std::string tool_result(const char* call) {
  return std::string(R"({"role":"toolResult","toolCallId":")") + call +
         R"(","toolName":"bash","content":[{"type":"text","text":"ok"}],"isError":false})";
}

class SessionStatsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store::StoreOptions o;
    o.in_memory = true;
    store_ = *store::Store::open("", o);
    SessionOptions so;
    so.session_id = "s1";
    so.clock = format::Clock::Fixed(1767225600000, 1000);
    so.id_seed = 3;
    auto s = store_->create_session("/w", so);
    ASSERT_TRUE(s.ok()) << s.status().message();
    s_ = std::move(*s);
  }
  std::string add(const std::string& message) {
    std::string id;
    Status st = s_->append_message(message, &id);
    EXPECT_TRUE(st.ok()) << st.message();
    return id;
  }
  std::unique_ptr<Session> reopen() {
    std::string path = s_->path();
    EXPECT_TRUE(s_->close().ok());
    s_.reset();
    auto s = store_->open_session(path, SessionOptions());
    EXPECT_TRUE(s.ok()) << s.status().message();
    return s.ok() ? std::move(*s) : nullptr;
  }

  std::shared_ptr<store::Store> store_;
  std::unique_ptr<Session> s_;
};

TEST_F(SessionStatsTest, EmptySession) {
  EXPECT_EQ(s_->stats_json(),
            R"({"inputTokens":0,"outputTokens":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"contextTokens":0,)"
            R"("cost":0,"compactionCount":0,"messageCounts":{},"toolCalls":0})");
}

TEST_F(SessionStatsTest, CountsEachAppendAndTheSameAfterReload) {
  add(kUser);
  EXPECT_EQ(s_->stats_json(),
            R"({"inputTokens":0,"outputTokens":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"contextTokens":0,)"
            R"("cost":0,"compactionCount":0,"messageCounts":{"user":1},"toolCalls":0})");
  add(kA1);
  add(tool_result("c1"));
  add(tool_result("c2"));
  std::string a2 = add(kA2);
  std::string id;
  ASSERT_TRUE(s_->append_custom_message({"note", R"("text")", true, std::nullopt, std::nullopt}, &id).ok());
  ASSERT_TRUE(s_->append_thinking_level("high", &id).ok());  // not a message: counts nowhere
  const std::string live =
      R"({"inputTokens":150,"outputTokens":50,"cacheRead":5,"cacheWrite":10,"totalTokens":215,"contextTokens":83,)"
      R"("cost":0.75,"compactionCount":0,"messageCounts":{"user":1,"assistant":2,"toolResult":2,"custom":1},)"
      R"("toolCalls":3})";
  EXPECT_EQ(s_->stats_json(), live);
  auto again = reopen();
  ASSERT_TRUE(again);
  EXPECT_EQ(again->stats_json(), live);
  // Counted from the load, then kept by appends: a compaction counts and hides older usage.
  ASSERT_TRUE(
      again->append_compaction({"sum", std::nullopt, a2, 215, std::nullopt, std::nullopt, std::nullopt}, &id).ok());
  EXPECT_EQ(again->stats().counts.compactions, 1u);
  EXPECT_EQ(again->stats().context_tokens, 0);
}

TEST_F(SessionStatsTest, BranchesAllCountContextFollowsTheLeaf) {
  std::string u = add(kUser);
  add(kA1);
  add(tool_result("c1"));
  std::string a2 = add(kA2);
  ASSERT_TRUE(s_->set_leaf(u).ok());
  add(R"({"role":"assistant","content":[],"usage":{"input":1000,"output":1,"totalTokens":2000}})");
  SessionStats on_branch = s_->stats();
  EXPECT_EQ(on_branch.counts.input_tokens, 1150);  // every branch of the file
  EXPECT_EQ(on_branch.counts.messages_of("assistant"), 3u);
  EXPECT_EQ(on_branch.context_tokens, 2000);  // the new branch's reply
  ASSERT_TRUE(s_->set_leaf(a2).ok());
  EXPECT_EQ(s_->stats().context_tokens, 83);  // back on the first branch
  ASSERT_TRUE(s_->set_leaf(u).ok());
  EXPECT_EQ(s_->stats().context_tokens, 0);  // no reply on the path yet
  std::string live_at_last_entry = stats_json(on_branch);
  auto again = reopen();  // the leaf of a loaded file is its last entry
  ASSERT_TRUE(again);
  EXPECT_EQ(again->stats_json(), live_at_last_entry);
}

TEST_F(SessionStatsTest, ContextSkipsFailedRepliesAndStopsAtACompaction) {
  std::string u = add(kUser);
  add(kA2);
  add(R"({"role":"assistant","content":[],"usage":{"input":9,"output":0},"stopReason":"error"})");
  add(R"({"role":"assistant","content":[],"usage":{"input":8,"output":0},"stopReason":"aborted"})");
  EXPECT_EQ(s_->stats().context_tokens, 83);
  EXPECT_EQ(s_->stats().counts.input_tokens, 67);  // failed replies still cost what they report
  std::string id;
  ASSERT_TRUE(s_->append_compaction({"sum", std::nullopt, u, 83, std::nullopt, std::nullopt, std::nullopt}, &id).ok());
  EXPECT_EQ(s_->stats().context_tokens, 0);
  add(R"({"role":"assistant","content":[],"usage":{"input":1,"output":2,"cacheRead":3,"cacheWrite":4,"totalTokens":0}})");
  EXPECT_EQ(s_->stats().context_tokens, 10);  // totalTokens 0: the sum of the four
  EXPECT_EQ(s_->stats().counts.compactions, 1u);
}

TEST_F(SessionStatsTest, ReloadOfAReadOnlyHandleCountsWhatArrived) {
  add(kUser);
  add(kA1);
  ASSERT_TRUE(s_->flush().ok());
  SessionOptions ro;
  ro.read_only = true;
  auto reader = store_->open_session(s_->path(), ro);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->stats().counts.tool_calls, 2u);
  add(kA2);
  ASSERT_TRUE(s_->flush().ok());
  int64_t added = 0;
  ASSERT_TRUE((*reader)->reload(&added).ok());
  EXPECT_EQ(added, 1);
  EXPECT_EQ((*reader)->stats_json(), s_->stats_json());
}

}  // namespace
}  // namespace xs::stats
