// store/key_sessions: Store::session_for_key (docs/reset-policies.md): the first call starts a
// session and its record, later calls continue it, a policy's expiry or a forced reset starts a new
// one naming the old (parentSession) while the old transcript stays, the record's history is
// bounded, a session another writer holds changes nothing, and refused input leaves the document
// byte for byte. Times are exact: every call passes the time of its message.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "storage/path.h"
#include "store/store.h"
#include "test_util.h"

namespace xs::store {
namespace {

using session::SessionOptions;

constexpr int64_t kT = 1767225600000;  // 2026-01-01T00:00:00Z = 08:00 in Shanghai
constexpr const char* kKey = "agent:main:main";
constexpr const char* kAssistant =
    R"({"role":"assistant","provider":"p","model":"m","content":[{"type":"text","text":"hi"}]})";

SessionOptions opts(uint64_t seed = 1) {
  SessionOptions o;
  o.cwd = "/work";
  o.clock = format::Clock::Fixed(kT, 1000);
  o.id_seed = seed;
  return o;
}

ResetPolicy daily4() { return ResetPolicy{4, "Asia/Shanghai", std::nullopt}; }

class KeySessionsTest : public ::testing::Test {
 protected:
  void SetUp() override { store_ = open_store({}); }
  std::shared_ptr<Store> open_store(StoreOptions o) {
    auto s = Store::open(tmp_.path(), std::move(o));
    EXPECT_TRUE(s.ok()) << s.status().message();
    return s.ok() ? *s : nullptr;
  }
  std::string doc() { return test::read_file(tmp_.file("sessions.json")); }
  std::string record() { return *store_->keys().get(kKey); }
  // One call whose session is closed at once; its id (or the error as "<code>: <message>").
  KeySession call(int64_t now, std::optional<ResetPolicy> p = std::nullopt, bool force = false,
                  SessionOptions o = opts()) {
    auto r = store_->session_for_key(kKey, now, p, force, std::move(o));
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? std::move(*r) : KeySession{};
  }

  test::TempDir tmp_;
  std::shared_ptr<Store> store_;
};

TEST_F(KeySessionsTest, FirstCallStartsASessionAndLaterCallsContinueIt) {
  KeySession first = call(kT);
  ASSERT_TRUE(first.session);
  EXPECT_EQ(first.reason, ResetReason::kNew);
  const std::string id = first.session->header_info().id, path = first.session->path();
  EXPECT_EQ(storage::dir_name(path), store_->session_dir("/work"));
  EXPECT_EQ(record(), R"({"sessionId":")" + id + R"(","sessionFile":")" + path + R"(","createdAt":)" +
                          std::to_string(kT) + R"(,"updatedAt":)" + std::to_string(kT) + "}");
  ASSERT_OK(first.session->append_message(kAssistant, nullptr));
  ASSERT_OK(first.session->close());
  first.session.reset();

  KeySession again = call(kT + 5000);
  ASSERT_TRUE(again.session);
  EXPECT_EQ(again.reason, ResetReason::kContinued);
  EXPECT_EQ(again.session->path(), path);
  EXPECT_EQ(again.session->entry_count(), 1u);
  // The returned session is bound to the key: its first reply wrote its stats (session-stats.md).
  EXPECT_EQ(record(), R"({"sessionId":")" + id + R"(","sessionFile":")" + path + R"(","createdAt":)" +
                          std::to_string(kT) + R"(,"updatedAt":)" + std::to_string(kT + 5000) +
                          R"(,"inputTokens":0,"outputTokens":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,)"
                          R"("contextTokens":0,"cost":0,"compactionCount":0,"messageCounts":{"assistant":1},"toolCalls":0})");
  again.session.reset();
  // An earlier message than the last activity does not move updatedAt back.
  call(kT + 1000);
  EXPECT_NE(record().find(R"("updatedAt":)" + std::to_string(kT + 5000)), std::string::npos);
}

TEST_F(KeySessionsTest, ASessionAnotherWriterHoldsChangesNothing) {
  KeySession held = call(kT);
  ASSERT_TRUE(held.session);
  std::string before = doc();
  auto second = store_->session_for_key(kKey, kT + 1000, std::nullopt, false, opts());
  EXPECT_EQ(second.status().code(), Code::kLocked) << second.status().message();
  EXPECT_EQ(doc(), before);
  // A reset does not need the old session's lock: the old handle keeps its file, the key moves on.
  auto forced = store_->session_for_key(kKey, kT + 2000, std::nullopt, true, opts(2));
  ASSERT_TRUE(forced.ok()) << forced.status().message();
  EXPECT_EQ(forced->reason, ResetReason::kForced);
}

TEST_F(KeySessionsTest, DailyResetStartsANewSessionNamingTheOld) {
  // The host's record: its own fields, counters of the old session.
  const std::string host = R"({"sessionId":"old1","updatedAt":)" + std::to_string(kT) +
                           R"(,"chatType":"direct","inputTokens":120,"cost":0.5,"compactionCount":2,)"
                           R"("origin":{"label":"x"},"previousSessionIds":["old0"]})";
  ASSERT_OK(store_->keys().put(kKey, host));
  // 08:00 in Shanghai; asked at 03:59:59.999 the next day: continued; at 04:00: a new session.
  const int64_t four = kT + 20 * 3600000LL;
  KeySession same = call(four - 1, daily4());
  EXPECT_EQ(same.reason, ResetReason::kContinued);
  EXPECT_EQ(same.session->header_info().id, "old1");  // the missing file starts again under its id
  const std::string old_path = same.session->path();
  ASSERT_OK(same.session->append_message(kAssistant, nullptr));
  same.session.reset();

  KeySession next = call(four, daily4(), false, opts(2));
  ASSERT_TRUE(next.session);
  EXPECT_EQ(next.reason, ResetReason::kDaily);
  const std::string id = next.session->header_info().id, path = next.session->path();
  EXPECT_NE(id, "old1");
  EXPECT_EQ(next.session->header(),
            R"({"type":"session","version":3,"id":")" + id +
                R"(","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/work","parentSession":"old1"})");
  // The old session's reply wrote its stats into the record; the reset sets them to an empty
  // session's, and the host's own fields stay.
  EXPECT_EQ(record(), R"({"sessionId":")" + id + R"(","updatedAt":)" + std::to_string(four) +
                          R"(,"chatType":"direct","inputTokens":0,"cost":0,"compactionCount":0,"origin":{"label":"x"},)"
                          R"("previousSessionIds":["old0","old1"],"sessionFile":")" + path +
                          R"(","outputTokens":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"contextTokens":0,)"
                          R"("messageCounts":{},"toolCalls":0,"createdAt":)" + std::to_string(four) + "}");
  EXPECT_TRUE(test::file_exists(old_path));  // the old transcript stays
}

TEST_F(KeySessionsTest, IdleForcedAndThePiDialectsParentPath) {
  KeySession first = call(kT, std::nullopt, false, opts());
  const std::string old_id = first.session->header_info().id, old_path = first.session->path();
  first.session.reset();
  ResetPolicy idle{std::nullopt, "", 60};
  EXPECT_EQ(call(kT + 3600000, idle).reason, ResetReason::kContinued);
  SessionOptions pi = opts(3);
  pi.dialect = format::Dialect::kPi;
  KeySession reset = call(kT + 2 * 3600000 + 1, idle, false, pi);
  EXPECT_EQ(reset.reason, ResetReason::kIdle);
  EXPECT_EQ(reset.session->header_info().parent_session, old_path);  // pi names the source by path
  const std::string pi_id = reset.session->header_info().id;
  reset.session.reset();
  KeySession forced = call(kT + 2 * 3600000 + 2, idle, true, opts(4));
  EXPECT_EQ(forced.reason, ResetReason::kForced);
  EXPECT_EQ(forced.session->header_info().parent_session, pi_id);  // omp: by id
  EXPECT_NE(record().find(R"("previousSessionIds":[")" + old_id + R"(",")" + pi_id + R"("])"), std::string::npos)
      << record();
}

TEST_F(KeySessionsTest, AnExpiredRecordWhoseFileIsGone) {
  ASSERT_OK(store_->keys().put(kKey, R"({"sessionId":"gone","sessionFile":"/nonexistent/gone.jsonl","updatedAt":1})"));
  KeySession s = call(kT, ResetPolicy{std::nullopt, "", 60});
  EXPECT_EQ(s.reason, ResetReason::kIdle);
  EXPECT_EQ(s.session->header_info().parent_session, "gone");
  EXPECT_NE(record().find(R"("previousSessionIds":["gone"])"), std::string::npos) << record();
  EXPECT_FALSE(test::file_exists("/nonexistent/gone.jsonl"));
}

TEST_F(KeySessionsTest, OpenclawsFileBesideTheDocumentIsContinued) {
  test::write_file(tmp_.file("abc.jsonl"),
                   R"({"type":"session","version":3,"id":"abc","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"})"
                   "\n");
  ASSERT_OK(store_->keys().put(kKey, R"({"sessionId":"abc","updatedAt":5})"));
  KeySession s = call(kT);
  EXPECT_EQ(s.reason, ResetReason::kContinued);
  EXPECT_EQ(s.session->path(), tmp_.file("abc.jsonl"));
  // The bound session writes its file and stats once: the record lacked them.
  EXPECT_EQ(record(), R"({"sessionId":"abc","updatedAt":)" + std::to_string(kT) + R"(,"sessionFile":")" +
                          tmp_.file("abc.jsonl") +
                          R"(","inputTokens":0,"outputTokens":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,)"
                          R"("contextTokens":0,"cost":0,"compactionCount":0,"messageCounts":{},"toolCalls":0})");
}

TEST_F(KeySessionsTest, TheHistoryKeepsTheLastTwenty) {
  std::vector<std::string> ids;
  for (int i = 0; i < 25; ++i) {
    KeySession s = call(kT + i, std::nullopt, true, opts(100 + i));
    ids.push_back(s.session->header_info().id);
  }
  std::string want = "[";
  for (int i = 4; i < 24; ++i) want += (i > 4 ? ",\"" : "\"") + ids[i] + "\"";
  want += "]";
  EXPECT_NE(record().find(R"("previousSessionIds":)" + want), std::string::npos) << record();
}

TEST_F(KeySessionsTest, TheStoresDefaultPolicyAndACallsOwn) {
  StoreOptions o;
  o.reset_policy = ResetPolicy{std::nullopt, "", 10};
  store_ = open_store(o);
  call(kT).session.reset();
  EXPECT_EQ(call(kT + 600001, std::nullopt, false, opts(2)).reason, ResetReason::kIdle);
  // A call's policy replaces the default; an empty one never expires.
  EXPECT_EQ(call(kT + 9 * 3600000, ResetPolicy{}).reason, ResetReason::kContinued);
  StoreOptions bad;
  bad.reset_policy = ResetPolicy{4, "Nowhere/Town", std::nullopt};
  auto refused = Store::open(tmp_.path(), bad);
  EXPECT_EQ(refused.status().code(), Code::kInvalid);
}

TEST_F(KeySessionsTest, BadInputLeavesTheDocument) {
  call(kT).session.reset();
  const std::string before = doc();
  auto code = [&](std::string_view key, int64_t now, std::optional<ResetPolicy> p, SessionOptions o = opts()) {
    return store_->session_for_key(key, now, p, false, std::move(o)).status().code();
  };
  EXPECT_EQ(code("a/b", kT, std::nullopt), Code::kInvalid);
  EXPECT_EQ(code("", kT, std::nullopt), Code::kInvalid);
  EXPECT_EQ(code(kKey, -1, std::nullopt), Code::kInvalid);
  EXPECT_EQ(code(kKey, kT, ResetPolicy{24, "UTC", std::nullopt}), Code::kInvalid);
  EXPECT_EQ(code(kKey, kT, ResetPolicy{std::nullopt, "", -5}), Code::kInvalid);
  EXPECT_EQ(code(kKey, kT, ResetPolicy{4, "Mars/Olympus_Mons", std::nullopt}), Code::kInvalid);
  SessionOptions ro = opts();
  ro.read_only = true;
  EXPECT_EQ(code(kKey, kT, std::nullopt, ro), Code::kInvalid);
  // A new session under the key's current id (here: the same id seed again) would be the old one.
  EXPECT_EQ(store_->session_for_key(kKey, kT, std::nullopt, true, opts()).status().code(), Code::kExists);
  EXPECT_EQ(doc(), before);
}

TEST_F(KeySessionsTest, TwoStoresAtOnceGetTheSameSession) {
  ASSERT_OK(store_->keys().put(kKey, R"({"sessionId":"old","updatedAt":1})"));
  // Two handles (as two processes: each its own document lock), both asking at the same moment with
  // a policy under which the record has expired: one resets, the other continues what it made.
  std::vector<std::string> got(2);
  std::vector<ResetReason> reasons(2);
  std::atomic<int> ready{0};
  auto ask = [&](int i) {
    auto store = open_store({});
    ready++;
    while (ready < 2) std::this_thread::yield();
    for (;;) {
      auto r = store->session_for_key(kKey, kT, ResetPolicy{std::nullopt, "", 60}, false, opts(10 + i));
      if (r.status().code() == Code::kLocked) continue;  // the other holds the session: ask again
      ASSERT_TRUE(r.ok()) << r.status().message();
      got[i] = r->session->header_info().id;
      reasons[i] = r->reason;
      return;
    }
  };
  std::thread a(ask, 0), b(ask, 1);
  a.join();
  b.join();
  EXPECT_EQ(got[0], got[1]);
  EXPECT_NE(got[0], "old");
  EXPECT_EQ((reasons[0] == ResetReason::kIdle) + (reasons[1] == ResetReason::kIdle), 1);
  EXPECT_NE(record().find(R"("previousSessionIds":["old"])"), std::string::npos) << record();
}

}  // namespace
}  // namespace xs::store
