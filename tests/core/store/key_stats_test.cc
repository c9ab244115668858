// store/key_stats: a session bound to a key writes its stats into the key's record (after each
// reply, on flush and close, once at an open that finds none), a failed record write never fails
// an append, and fix_key_stats repairs exactly the records that disagree with a recount
// (docs/session-stats.md).
#include "store/key_stats.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "test_util.h"

namespace xs::store {
namespace {

using session::Session;
using session::SessionOptions;

constexpr const char* kUser = R"({"role":"user","content":"go"})";
constexpr const char* kReply =
    R"({"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{}}],)"
    R"("usage":{"input":100,"output":20,"cacheRead":5,"cacheWrite":7,"totalTokens":132,"cost":{"total":0.25}}})";

std::string stats_fields(int in, int out, int cr, int cw, int ctx, const std::string& cost, const std::string& roles,
                         int tools) {
  return "\"inputTokens\":" + std::to_string(in) + ",\"outputTokens\":" + std::to_string(out) +
         ",\"cacheRead\":" + std::to_string(cr) + ",\"cacheWrite\":" + std::to_string(cw) +
         ",\"totalTokens\":" + std::to_string(in + out + cr + cw) + ",\"contextTokens\":" + std::to_string(ctx) +
         ",\"cost\":" + cost + ",\"compactionCount\":0,\"messageCounts\":" + roles +
         ",\"toolCalls\":" + std::to_string(tools);
}

class KeyStatsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = Store::open(tmp_.path());
    ASSERT_TRUE(s.ok()) << s.status().message();
    store_ = *s;
  }
  SessionOptions bound(const std::string& key, const std::string& id = "s1") {
    SessionOptions o;
    o.session_id = id;
    o.clock = format::Clock::Fixed(1767225600000, 1000);
    o.id_seed = 5;
    o.key = key;
    return o;
  }
  std::string record(const std::string& key) {
    auto r = store_->keys().get(key);
    return r.ok() ? *r : "<" + r.status().message() + ">";
  }
  std::string doc() { return test::file_exists(doc_path()) ? test::read_file(doc_path()) : "<none>"; }
  std::string doc_path() { return tmp_.file("sessions.json"); }

  test::TempDir tmp_;
  std::shared_ptr<Store> store_;
};

TEST_F(KeyStatsTest, WrittenAfterEachReplyNotOnEveryAppend) {
  auto s = store_->create_session("/w", bound("agent:main:main"));
  ASSERT_TRUE(s.ok()) << s.status().message();
  ASSERT_TRUE((*s)->append_message(kUser, nullptr).ok());
  EXPECT_EQ(doc(), "<none>");  // deferred: no file yet, so no record naming it
  ASSERT_TRUE((*s)->append_message(kReply, nullptr).ok());
  const std::string file = (*s)->path();
  const std::string after_reply = R"({"sessionId":"s1","sessionFile":")" + file + R"(","updatedAt":1767225602000,)" +
                                  stats_fields(100, 20, 5, 7, 132, "0.25", R"({"user":1,"assistant":1})", 1) + "}";
  EXPECT_EQ(record("agent:main:main"), after_reply);
  ASSERT_TRUE((*s)->append_message(kUser, nullptr).ok());
  EXPECT_EQ(record("agent:main:main"), after_reply);  // a user message waits for the turn's end
  ASSERT_TRUE((*s)->flush().ok());
  EXPECT_EQ(record("agent:main:main"),
            R"({"sessionId":"s1","sessionFile":")" + file + R"(","updatedAt":1767225603000,)" +
                stats_fields(100, 20, 5, 7, 132, "0.25", R"({"user":2,"assistant":1})", 1) + "}");
}

TEST_F(KeyStatsTest, HostFieldsStayInPlace) {
  ASSERT_TRUE(store_->keys().put("k", R"({"sessionId":"old","title":"T","inputTokens":3,"origin":{"x":1}})").ok());
  auto s = store_->create_session("/w", bound("k"));
  ASSERT_TRUE(s.ok());
  ASSERT_TRUE((*s)->append_message(kReply, nullptr).ok());
  EXPECT_EQ(record("k"), R"({"sessionId":"s1","title":"T","inputTokens":100,"origin":{"x":1},"sessionFile":")" +
                             (*s)->path() +
                             R"(","updatedAt":1767225601000,"outputTokens":20,"cacheRead":5,"cacheWrite":7,)"
                             R"("totalTokens":132,"contextTokens":132,"cost":0.25,"compactionCount":0,)"
                             R"("messageCounts":{"assistant":1},"toolCalls":1})");
}

TEST_F(KeyStatsTest, OpeningWritesTheLoadsCountsOnceWhenTheRecordHasNone) {
  std::string path;
  {
    SessionOptions o = bound("k");
    o.key.reset();
    auto s = store_->create_session("/w", o);
    ASSERT_TRUE((*s)->append_message(kUser, nullptr).ok());
    ASSERT_TRUE((*s)->append_message(kReply, nullptr).ok());
    path = (*s)->path();
  }
  ASSERT_TRUE(store_->keys().put("k", R"({"sessionId":"s1"})").ok());
  auto s = store_->open_session(path, bound("k"));
  ASSERT_TRUE(s.ok()) << s.status().message();
  const std::string counted = R"({"sessionId":"s1","sessionFile":")" + path + R"(","updatedAt":1767225602000,)" +
                              stats_fields(100, 20, 5, 7, 132, "0.25", R"({"user":1,"assistant":1})", 1) + "}";
  EXPECT_EQ(record("k"), counted);
  s->reset();
  // A record that has this session's stats is not rewritten by an open, even when they are wrong:
  // only fix_key_stats (a deliberate repair) touches it.
  std::string stale = counted;
  stale.replace(stale.find("\"toolCalls\":1"), 13, "\"toolCalls\":9");
  ASSERT_TRUE(store_->keys().put("k", stale).ok());
  auto again = store_->open_session(path, bound("k"));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(record("k"), stale);
}

TEST_F(KeyStatsTest, BadBindingsFailWithNothingWritten) {
  for (const char* key : {"", "a/b", "tab\there"}) {
    SessionOptions o = bound(key);
    o.defer_until_assistant = false;
    auto s = store_->create_session("/w", o);
    EXPECT_EQ(s.status().code(), Code::kInvalid) << key;
  }
  EXPECT_EQ(test::list_dir(tmp_.path()), std::vector<std::string>{});
  SessionOptions ro = bound("k");
  ro.read_only = true;
  ro.create_if_missing = false;
  EXPECT_EQ(store_->open_session(tmp_.file("x.jsonl"), ro).status().code(), Code::kInvalid);
  EXPECT_EQ(test::list_dir(tmp_.path()), std::vector<std::string>{});
}

TEST_F(KeyStatsTest, AFailedRecordWriteNeverFailsTheAppendAndFlushReportsIt) {
  auto s = store_->create_session("/w", bound("k"));
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(mkdir(tmp_.file("sessions.json.lock").c_str(), 0755), 0);  // the record cannot be locked
  ASSERT_TRUE((*s)->append_message(kReply, nullptr).ok());
  EXPECT_EQ(doc(), "<none>");
  Status flushed = (*s)->flush();
  EXPECT_FALSE(flushed.ok());
  EXPECT_NE(flushed.message().find("the key record was not updated (the transcript is unaffected)"), std::string::npos)
      << flushed.message();
  EXPECT_EQ(test::read_file((*s)->path()).find(R"("usage":{"input":100)") != std::string::npos, true);
  ASSERT_EQ(rmdir(tmp_.file("sessions.json.lock").c_str()), 0);
  ASSERT_TRUE((*s)->flush().ok());  // retried: the record catches up
  EXPECT_NE(record("k").find(R"("inputTokens":100)"), std::string::npos) << record("k");
}

TEST_F(KeyStatsTest, FixRepairsExactlyTheStaleRecord) {
  std::string path_a, path_b;
  for (const char* id : {"sa", "sb"}) {
    auto s = store_->create_session("/w", bound(std::string("agent:") + id, id));
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE((*s)->append_message(kUser, nullptr).ok());
    ASSERT_TRUE((*s)->append_message(kReply, nullptr).ok());
    ASSERT_TRUE((*s)->close().ok());
    (id[1] == 'a' ? path_a : path_b) = (*s)->path();
  }
  ASSERT_TRUE(store_->keys().put("agent:gone", R"({"sessionId":"nosuch"})").ok());
  ASSERT_TRUE(store_->keys().put("other", R"({"sessionId":"sa","inputTokens":1})").ok());
  const std::string good_b = record("agent:sb");
  // A crash after the transcript got a reply but before the record did: the record is behind.
  {
    auto s = store_->open_session(path_a, SessionOptions());
    ASSERT_TRUE((*s)->append_message(kReply, nullptr).ok());
    ASSERT_TRUE((*s)->close().ok());
  }
  const std::string before_doc = doc();
  auto report = fix_key_stats(*store_, "agent:");
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_EQ(*report,
            R"({"checked":3,"fixed":[{"key":"agent:sa","sessionId":"sa","before":{"inputTokens":100,)"
            R"("outputTokens":20,"cacheRead":5,"cacheWrite":7,"totalTokens":132,"cost":0.25,)"
            R"("messageCounts":{"user":1,"assistant":1},"toolCalls":1},"after":{"inputTokens":200,"outputTokens":40,)"
            R"("cacheRead":10,"cacheWrite":14,"totalTokens":264,"cost":0.5,"messageCounts":{"user":1,"assistant":2},)"
            R"("toolCalls":2}}],"skipped":[{"key":"agent:gone","reason":"no session matches \"nosuch\""}]})");
  EXPECT_EQ(record("agent:sb"), good_b);
  EXPECT_EQ(record("other"), R"({"sessionId":"sa","inputTokens":1})");  // outside the prefix
  EXPECT_NE(doc(), before_doc);
  const std::string after_doc = doc();
  auto again = fix_key_stats(*store_, "agent:");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again,
            R"({"checked":3,"fixed":[],"skipped":[{"key":"agent:gone","reason":"no session matches \"nosuch\""}]})");
  EXPECT_EQ(doc(), after_doc);  // nothing differs: nothing written
}

}  // namespace
}  // namespace xs::store
