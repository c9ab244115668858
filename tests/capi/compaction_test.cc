// Compaction planning through the C API (docs/compaction-planning.md): the settings' defaults and
// versions, the handle-less decisions' argument checks, the plan's buffer protocol, and the memory
// flush claim's errors. The rules themselves are proved by conformance cases 81-83.
#include <cstring>
#include <string>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;

xs_compaction_settings Window(int64_t window) {
  xs_compaction_settings s;
  EXPECT_EQ(xs_compaction_settings_init(&s, XS_COMPACTION_SETTINGS_VERSION), XS_OK);
  s.context_window = window;
  return s;
}

TEST(CompactionSettings, DefaultsAndVersions) {
  xs_compaction_settings s;
  std::memset(&s, 0x5a, sizeof s);
  ASSERT_EQ(xs_compaction_settings_init(&s, XS_COMPACTION_SETTINGS_VERSION), XS_OK);
  EXPECT_EQ(s.version, 1u);
  EXPECT_EQ(s.context_window, 0);
  EXPECT_EQ(s.reserve_tokens, 16384);
  EXPECT_EQ(s.reserve_floor, 20000);
  EXPECT_EQ(s.keep_recent_tokens, 20000);
  EXPECT_EQ(s.soft_threshold_tokens, 4000);
  EXPECT_EQ(xs_compaction_settings_init(&s, 2), XS_EVERSION);
  EXPECT_EQ(xs_compaction_settings_init(nullptr, 1), XS_EINVAL);
}

TEST(CompactionDecisions, BadArgumentsAreRefusedAndOutIsUntouched) {
  xs_compaction_settings s = Window(200000);
  int out = 7;
  EXPECT_EQ(xs_should_compact(nullptr, 1, &out), XS_EINVAL);
  EXPECT_EQ(xs_should_compact(&s, 1, nullptr), XS_EINVAL);
  EXPECT_EQ(xs_should_compact(&s, -1, &out), XS_EINVAL);
  s.reserve_floor = -1;
  EXPECT_EQ(xs_should_compact(&s, 1, &out), XS_EINVAL);
  s = Window(0);
  EXPECT_EQ(xs_should_compact(&s, 1, &out), XS_EINVAL);
  s = Window(200000);
  s.version = 0;
  EXPECT_EQ(xs_should_flush_memory(&s, 1, 0, -1, &out), XS_EVERSION);
  s = Window(200000);
  EXPECT_EQ(xs_should_flush_memory(&s, 1, -1, -1, &out), XS_EINVAL);
  EXPECT_EQ(out, 7);
  ASSERT_EQ(xs_should_flush_memory(&s, 176001, 3, 2, &out), XS_OK);
  EXPECT_EQ(out, 1);
}

class CompactionPlan : public CapiTest {};

TEST_F(CompactionPlan, TheBufferProtocolAndTheLeafArgument) {
  xs_session_options o = Opts(XS_SESSION_NO_DEFER);
  xs_session* s = Create(&o);
  char id[XS_ID_BUFSIZE];
  std::string user = R"({"role":"user","content":"hello"})";
  ASSERT_EQ(xs_append_message(s, user.data(), user.size(), id), XS_OK);
  xs_compaction_settings settings = Window(0);  // the plan does not read the window
  settings.keep_recent_tokens = 0;
  size_t need = 0;
  ASSERT_EQ(xs_compaction_plan(s, nullptr, &settings, nullptr, 0, &need), XS_EBUFS);
  std::string plan(need, '\0');
  size_t got = 0;
  ASSERT_EQ(xs_compaction_plan(s, nullptr, &settings, plan.data(), plan.size() + 1, &got), XS_OK);
  plan.resize(got);
  // One user message: the only cut point is the first entry, so there is nothing before it. Its
  // estimate is its line's bytes / 4, rounded up.
  std::string line = std::string(R"({"type":"message","id":")") + id + R"(","parentId":null,"timestamp":")" +
                     xstest::Ts(1) + R"(","message":{"role":"user","content":"hello"}})";
  EXPECT_EQ(plan, R"({"needed":false,"firstKeptEntryId":null,"toSummarise":[],"tokensBefore":)" +
                      std::to_string((line.size() + 3) / 4) + R"(,"keptTokens":0})");
  EXPECT_EQ(xs_compaction_plan(s, "", &settings, plan.data(), plan.size() + 1, &got), XS_ENOTFOUND);
  EXPECT_STREQ(xs_session_errmsg(s), "no entry ");
  EXPECT_EQ(xs_compaction_plan(s, nullptr, nullptr, plan.data(), plan.size() + 1, &got), XS_EINVAL);
  EXPECT_STREQ(xs_session_errmsg(s), "settings is NULL");
  EXPECT_EQ(xs_compaction_plan(nullptr, nullptr, &settings, plan.data(), plan.size() + 1, &got), XS_EMISUSE);
}

TEST_F(CompactionPlan, ClaimErrorsLeaveRunZero) {
  xs_compaction_settings s = Window(200000);
  int run = 7;
  EXPECT_EQ(xs_keys_claim_memory_flush(store_, "k", &s, 190000, 1, &run), XS_ENOTFOUND);
  EXPECT_EQ(run, 0);
  EXPECT_STREQ(xs_store_errmsg(store_), "no record for key k");
  EXPECT_EQ(xs_keys_claim_memory_flush(store_, nullptr, &s, 190000, 1, &run), XS_EINVAL);
  EXPECT_EQ(xs_keys_claim_memory_flush(store_, "k", &s, 190000, 1, nullptr), XS_EINVAL);
  EXPECT_EQ(xs_keys_claim_memory_flush(store_, "k", &s, 190000, -5, &run), XS_EINVAL);
  EXPECT_STREQ(xs_store_errmsg(store_), "now_ms may not be negative");
  xs_store* closed = xs_store_new();
  EXPECT_EQ(xs_keys_claim_memory_flush(closed, "k", &s, 190000, 1, &run), XS_EMISUSE);
  xs_store_free(closed);
  EXPECT_FALSE(xstest::Exists(root_.path() + "/sessions.json"));  // nothing was written
}

}  // namespace
