// Session stats through the C API (xs_session_stats, xs_session_options.key, xs_keys_fix_stats;
// docs/session-stats.md): exact counters, the bound record's bytes in sessions.json, the repair of
// a stale record, options version 1, and bad input with nothing written.
#include <cstring>
#include <string>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;
using xstest::Ms;

const std::string kReply =
    R"({"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{}}],)"
    R"("usage":{"input":100,"output":20,"cacheRead":5,"cacheWrite":7,"totalTokens":132,"cost":{"total":0.25}}})";
const std::string kResult =
    R"({"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"ok"}],"isError":false})";

class Stats : public CapiTest {
 protected:
  static std::string StatsOf(xs_session* s, xs_status* st = nullptr) {
    return xstest::Fetch([s](char* b, size_t c, size_t* n) { return xs_session_stats(s, b, c, n); }, st);
  }
  std::string Fix(const char* prefix) {
    return xstest::Fetch([&](char* b, size_t c, size_t* n) { return xs_keys_fix_stats(store_, prefix, b, c, n); });
  }
  xs_session* Bound(const char* key, const char* id = "s1") {
    xs_session_options o = Opts();
    o.key = key;
    o.session_id = id;
    return Create(&o);
  }
  std::string Doc() {
    std::string p = root_.path() + "/sessions.json";
    return xstest::Exists(p) ? xstest::ReadFile(p) : "<none>";
  }
};

TEST_F(Stats, CountersAfterAppendsAndAfterReopen) {
  xs_session* s = Create();
  EXPECT_EQ(StatsOf(s), R"({"inputTokens":0,"outputTokens":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,)"
                        R"("contextTokens":0,"cost":0,"compactionCount":0,"messageCounts":{},"toolCalls":0})");
  Msg(s, xstest::kUser1);
  Msg(s, kReply);
  Msg(s, kResult);
  const std::string want =
      R"({"inputTokens":100,"outputTokens":20,"cacheRead":5,"cacheWrite":7,"totalTokens":132,"contextTokens":132,)"
      R"("cost":0.25,"compactionCount":0,"messageCounts":{"user":1,"assistant":1,"toolResult":1},"toolCalls":1})";
  EXPECT_EQ(StatsOf(s), want);
  std::string path = xstest::PathOf(s);
  Close(s);
  EXPECT_EQ(StatsOf(Open(path, XS_SESSION_READ_ONLY)), want);
  EXPECT_EQ(Doc(), "<none>");  // no key: no record
}

TEST_F(Stats, ABoundSessionWritesItsRecordAtEachReply) {
  xs_session* s = Bound("agent:main:main");
  Msg(s, xstest::kUser1);
  EXPECT_EQ(Doc(), "<none>");  // deferred until the first reply, record included
  Msg(s, kReply);
  const std::string path = xstest::PathOf(s);
  EXPECT_EQ(Doc(), "{\n  \"agent:main:main\": {\n    \"sessionId\": \"s1\",\n    \"sessionFile\": \"" + path +
                       "\",\n    \"updatedAt\": " + Ms(2) +
                       ",\n    \"inputTokens\": 100,\n    \"outputTokens\": 20,\n    \"cacheRead\": 5,\n"
                       "    \"cacheWrite\": 7,\n    \"totalTokens\": 132,\n    \"contextTokens\": 132,\n"
                       "    \"cost\": 0.25,\n    \"compactionCount\": 0,\n    \"messageCounts\": {\n"
                       "      \"user\": 1,\n      \"assistant\": 1\n    },\n    \"toolCalls\": 1\n  }\n}\n");
  Msg(s, kResult);
  EXPECT_NE(Doc().find("\"assistant\": 1\n    },"), std::string::npos);  // a tool result waits for flush
  XS_ASSERT_OK(s, xs_session_flush(s));
  EXPECT_NE(Doc().find("\"toolResult\": 1\n"), std::string::npos) << Doc();
  EXPECT_NE(Doc().find("\"updatedAt\": " + Ms(3) + ","), std::string::npos) << Doc();
}

TEST_F(Stats, VersionOneOptionsStillOpenAndBindNothing) {
  xs_session_options o;
  std::memset(&o, 0, sizeof o);
  ASSERT_EQ(xs_session_options_init(&o, 1), XS_OK);
  o.flags = XS_SESSION_NO_DEFER;
  o.key = "never-read";  // beyond a version 1 struct: ignored
  xs_session* s = Create(&o);
  ASSERT_NE(s, nullptr);
  Msg(s, kReply);
  XS_ASSERT_OK(s, xs_session_flush(s));
  EXPECT_EQ(Doc(), "<none>");
}

TEST_F(Stats, FixStatsRepairsTheStaleRecordAndReportsIt) {
  xs_session* s = Bound("agent:a");
  Msg(s, xstest::kUser1);
  Msg(s, kReply);
  Close(s);
  // The record falls behind (a crash between an append and its record write, simulated).
  std::string stale;
  stale = xstest::Fetch([&](char* b, size_t c, size_t* n) { return xs_keys_get(store_, "agent:a", b, c, n); });
  std::string edited = stale;
  edited.replace(edited.find("\"inputTokens\":100"), 17, "\"inputTokens\":1");
  ASSERT_EQ(xs_keys_put(store_, "agent:a", edited.data(), edited.size()), XS_OK);
  EXPECT_EQ(Fix("agent:"), R"({"checked":1,"fixed":[{"key":"agent:a","sessionId":"s1","before":{"inputTokens":1},)"
                           R"("after":{"inputTokens":100}}],"skipped":[]})");
  EXPECT_EQ(xstest::Fetch([&](char* b, size_t c, size_t* n) { return xs_keys_get(store_, "agent:a", b, c, n); }),
            stale);
  EXPECT_EQ(Fix(nullptr), R"({"checked":1,"fixed":[],"skipped":[]})");
}

TEST_F(Stats, BadInput) {
  size_t n = 0;
  char buf[8];
  EXPECT_EQ(xs_session_stats(nullptr, buf, sizeof buf, &n), XS_EMISUSE);
  EXPECT_EQ(xs_keys_fix_stats(nullptr, nullptr, buf, sizeof buf, &n), XS_EMISUSE);
  xs_session* s = Create();
  XS_EXPECT_S(XS_EINVAL, s, xs_session_stats(s, buf, sizeof buf, nullptr));
  XS_EXPECT_S(XS_EINVAL, s, xs_session_stats(s, nullptr, 4, &n));
  XS_EXPECT_S(XS_EBUFS, s, xs_session_stats(s, buf, sizeof buf, &n));
  EXPECT_GT(n, sizeof buf);
  EXPECT_EQ(xs_keys_fix_stats(store_, nullptr, buf, sizeof buf, nullptr), XS_EINVAL);
  xs_store* closed = xs_store_new();
  EXPECT_EQ(xs_keys_fix_stats(closed, nullptr, buf, sizeof buf, &n), XS_EMISUSE);
  xs_store_free(closed);
  // Keys the keyed store refuses, and a key on a read-only handle: XS_EINVAL, nothing written.
  for (const char* key : {"", "a/b", "a\\b", "tab\there"}) {
    xs_session_options o = Opts(XS_SESSION_NO_DEFER);
    o.key = key;
    xs_session* bad = nullptr;
    EXPECT_EQ(xs_session_create(store_, "/work/proj", &o, &bad), XS_EINVAL) << key;
    EXPECT_EQ(bad, nullptr);
  }
  EXPECT_EQ(xstest::ListDir(root_.path()), std::vector<std::string>{});
  xs_session_options ro = Opts(XS_SESSION_READ_ONLY);
  ro.key = "k";
  xs_session* none = nullptr;
  EXPECT_EQ(xs_session_open(store_, (root_.path() + "/x.jsonl").c_str(), &ro, &none), XS_EINVAL);
  EXPECT_EQ(xstest::ListDir(root_.path()), std::vector<std::string>{});
  // A damaged document: the repair reports it and touches nothing.
  xstest::WriteFile(root_.path() + "/sessions.json", "{\"k\":");
  EXPECT_EQ(xs_keys_fix_stats(store_, nullptr, buf, sizeof buf, &n), XS_ECORRUPT);
  EXPECT_EQ(Doc(), "{\"k\":");
}

}  // namespace
