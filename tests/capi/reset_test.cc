// Reset policies through the C API (xs_reset_policy_init, xs_store_session_for_key,
// xs_reset_reason_str, xs_store_options version 3; docs/reset-policies.md): the reasons, the
// document's bytes, a session another writer holds, bad arguments leaving the document as it was,
// and two processes asking for the same key at once getting the same session.
#include <sys/wait.h>

#include <string>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;

constexpr const char* kKey = "agent:main:main";
// A minute after the sessions' fixed clock starts (kT0): a bound session's record takes the later
// of the message's time and its last entry's (docs/session-stats.md#binding-a-session-to-a-key).
constexpr int64_t kNow = xstest::kT0 + 60000;

class Reset : public CapiTest {
 protected:
  std::string Doc() { return xstest::ReadFile(root_.path() + "/sessions.json"); }
  std::string Record() {
    return xstest::Fetch([&](char* b, size_t c, size_t* n) { return xs_keys_get(store_, kKey, b, c, n); });
  }
  // One call; its session is closed by TearDown. *reason gets XS_RESET_*.
  // Each call's new session gets ids of its own (`seed`), as separate runs of an agent would.
  xs_session* Ask(int64_t now, const xs_reset_policy* p, uint32_t flags, uint32_t* reason, xs_status want = XS_OK,
                  xs_store* store = nullptr, uint64_t seed = 0) {
    xs_session_options o = Opts();
    o.cwd = "/work";
    o.id_seed = seed ? seed : static_cast<uint64_t>(++calls_);
    xs_session* s = reinterpret_cast<xs_session*>(1);
    xs_status st = xs_store_session_for_key(store ? store : store_, kKey, now, p, flags, &o, &s, reason);
    EXPECT_EQ(st, want) << xs_store_errmsg(store ? store : store_);
    if (s) owned_.push_back(s);
    return s;
  }
  int calls_ = 0;
  static xs_reset_policy Idle(int64_t minutes) {
    xs_reset_policy p;
    EXPECT_EQ(xs_reset_policy_init(&p, XS_RESET_POLICY_VERSION), XS_OK);
    p.idle_minutes = minutes;
    return p;
  }
};

TEST_F(Reset, InitAndReasonNames) {
  xs_reset_policy p;
  p.daily_hour = 7;
  ASSERT_EQ(xs_reset_policy_init(&p, XS_RESET_POLICY_VERSION), XS_OK);
  EXPECT_EQ(p.version, 1u);
  EXPECT_EQ(p.daily_hour, -1);
  EXPECT_EQ(p.idle_minutes, 0);
  EXPECT_EQ(p.time_zone, nullptr);
  EXPECT_EQ(xs_reset_policy_init(&p, 2), XS_EVERSION);
  EXPECT_EQ(xs_reset_policy_init(nullptr, 1), XS_EINVAL);
  EXPECT_STREQ(xs_reset_reason_str(XS_RESET_CONTINUED), "continued");
  EXPECT_STREQ(xs_reset_reason_str(XS_RESET_NEW), "new");
  EXPECT_STREQ(xs_reset_reason_str(XS_RESET_DAILY), "daily");
  EXPECT_STREQ(xs_reset_reason_str(XS_RESET_IDLE), "idle");
  EXPECT_STREQ(xs_reset_reason_str(XS_RESET_FORCED), "forced");
  EXPECT_STREQ(xs_reset_reason_str(5), "unknown");
}

TEST_F(Reset, NewContinuedIdleForcedAndTheRecord) {
  uint32_t reason = 99;
  xs_session* first = Ask(kNow, nullptr, 0, &reason);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(reason, static_cast<uint32_t>(XS_RESET_NEW));
  const std::string id = xstest::JsonStr(xstest::Info(first), "id"), path = xstest::PathOf(first);
  EXPECT_EQ(path, root_.path() + "/sessions/--work--/" + xstest::FileName(xstest::Ts(0), id));
  EXPECT_EQ(Record(), R"({"sessionId":")" + id + R"(","sessionFile":")" + path +
                          R"(","createdAt":)" + std::to_string(kNow) + R"(,"updatedAt":)" + std::to_string(kNow) + "}");
  ASSERT_EQ(xs_append_message(first, xstest::kAssistant1.data(), xstest::kAssistant1.size(), nullptr), XS_OK);
  // Held by `first`: another call for the key is refused and changes nothing.
  const std::string before = Doc();
  EXPECT_EQ(Ask(kNow + 1000, nullptr, 0, &reason, XS_ELOCKED), nullptr);
  EXPECT_EQ(Doc(), before);
  xs_session_close(first);
  owned_.clear();

  xs_reset_policy idle = Idle(60);
  xs_session* again = Ask(kNow + 3600000, &idle, 0, &reason);
  EXPECT_EQ(reason, static_cast<uint32_t>(XS_RESET_CONTINUED));
  EXPECT_EQ(xstest::PathOf(again), path);
  xs_session_close(again);
  owned_.clear();
  xs_session* fresh = Ask(kNow + 2 * 3600000 + 1, &idle, 0, &reason);
  EXPECT_EQ(reason, static_cast<uint32_t>(XS_RESET_IDLE));
  const std::string id2 = xstest::JsonStr(xstest::Info(fresh), "id");
  EXPECT_NE(id2, id);
  EXPECT_EQ(xstest::Header(fresh),
            xstest::HeaderLine(id2, xstest::Ts(0), "/work", ",\"parentSession\":\"" + id + "\""));
  EXPECT_NE(Record().find(R"("previousSessionIds":[")" + id + R"("])"), std::string::npos) << Record();
  EXPECT_TRUE(xstest::Exists(path));  // the old transcript stays
  xs_session_close(fresh);
  owned_.clear();
  Ask(kNow + 2 * 3600000 + 2, nullptr, XS_RESET_FORCE, &reason);
  EXPECT_EQ(reason, static_cast<uint32_t>(XS_RESET_FORCED));
  EXPECT_NE(Record().find(R"("previousSessionIds":[")" + id + R"(",")" + id2 + R"("])"), std::string::npos);
}

TEST_F(Reset, BadArgumentsLeaveTheDocument) {
  uint32_t reason = 0;
  Ask(kNow, nullptr, 0, &reason);
  for (xs_session* s : owned_) xs_session_close(s);
  owned_.clear();
  const std::string before = Doc();
  xs_session_options o = Opts();
  xs_session* s = nullptr;
  EXPECT_EQ(xs_store_session_for_key(store_, nullptr, kNow, nullptr, 0, &o, &s, nullptr), XS_EINVAL);
  EXPECT_EQ(xs_store_session_for_key(store_, kKey, kNow, nullptr, 0, &o, nullptr, nullptr), XS_EINVAL);
  EXPECT_EQ(xs_store_session_for_key(store_, "a/b", kNow, nullptr, 0, &o, &s, nullptr), XS_EINVAL);
  EXPECT_EQ(xs_store_session_for_key(store_, kKey, -1, nullptr, 0, &o, &s, nullptr), XS_EINVAL);
  EXPECT_EQ(xs_store_session_for_key(store_, kKey, kNow, nullptr, 0x2, &o, &s, nullptr), XS_EINVAL);
  xs_reset_policy p = Idle(0);
  p.daily_hour = 24;
  EXPECT_EQ(xs_store_session_for_key(store_, kKey, kNow, &p, 0, &o, &s, nullptr), XS_EINVAL);
  p = Idle(-5);
  EXPECT_EQ(xs_store_session_for_key(store_, kKey, kNow, &p, 0, &o, &s, nullptr), XS_EINVAL);
  p = Idle(0);
  p.daily_hour = 4;
  p.time_zone = "Mars/Olympus_Mons";
  EXPECT_EQ(xs_store_session_for_key(store_, kKey, kNow, &p, 0, &o, &s, nullptr), XS_EINVAL);
  EXPECT_NE(std::string(xs_store_errmsg(store_)).find("unknown time zone \"Mars/Olympus_Mons\""), std::string::npos);
  p.version = 9;
  EXPECT_EQ(xs_store_session_for_key(store_, kKey, kNow, &p, 0, &o, &s, nullptr), XS_EVERSION);
  o.flags |= XS_SESSION_READ_ONLY;
  EXPECT_EQ(xs_store_session_for_key(store_, kKey, kNow, nullptr, 0, &o, &s, nullptr), XS_EINVAL);
  EXPECT_EQ(s, nullptr);
  EXPECT_EQ(Doc(), before);
  xs_store* closed = xs_store_new();
  EXPECT_EQ(xs_store_session_for_key(closed, kKey, kNow, nullptr, 0, nullptr, &s, nullptr), XS_EMISUSE);
  xs_store_free(closed);
}

TEST_F(Reset, StoreOptionsVersionThreeCarryTheDefaultPolicy) {
  xs_store_options so;
  so.reset_policy = reinterpret_cast<const xs_reset_policy*>(1);  // a version 2 init leaves it alone
  ASSERT_EQ(xs_store_options_init(&so, 2), XS_OK);
  EXPECT_EQ(so.reset_policy, reinterpret_cast<const xs_reset_policy*>(1));
  ASSERT_EQ(xs_store_options_init(&so, 3), XS_OK);
  EXPECT_EQ(so.version, 3u);
  EXPECT_EQ(so.reset_policy, nullptr);
  EXPECT_EQ(xs_store_options_init(&so, 5), XS_EVERSION);

  xs_reset_policy daily;
  ASSERT_EQ(xs_reset_policy_init(&daily, XS_RESET_POLICY_VERSION), XS_OK);
  daily.daily_hour = 4;
  daily.time_zone = "Asia/Shanghai";
  so.reset_policy = &daily;
  xs_store* other = xs_store_new();
  ASSERT_EQ(xs_store_open(other, root_.path().c_str(), &so), XS_OK) << xs_store_errmsg(other);
  daily.time_zone = "Nowhere/Town";  // copied at open: changing it afterwards changes nothing
  uint32_t reason = 0;
  const int64_t four = 1771272000000;  // 2026-02-16T20:00Z: 04:00 in Shanghai (UTC+8), after kNow
  Ask(four - 1, nullptr, 0, &reason, XS_OK, other);
  for (xs_session* s : owned_) xs_session_close(s);
  owned_.clear();
  Ask(four, nullptr, 0, &reason, XS_OK, other);
  EXPECT_EQ(reason, static_cast<uint32_t>(XS_RESET_DAILY));
  xs_store_free(other);

  xs_store* bad = xs_store_new();
  EXPECT_EQ(xs_store_open(bad, root_.path().c_str(), &so), XS_EINVAL);  // Nowhere/Town now
  daily.time_zone = "Asia/Shanghai";
  daily.daily_hour = 24;
  EXPECT_EQ(xs_store_open(bad, root_.path().c_str(), &so), XS_EINVAL);
  xs_store_free(bad);
}

// Two processes ask for one key whose session has expired, at the same moment: one resets, the
// other continues the session the first made (retrying while the first holds it open).
TEST_F(Reset, TwoProcessesGetTheSameSession) {
  const std::string old = R"({"sessionId":"old","updatedAt":1})";
  ASSERT_EQ(xs_keys_put(store_, kKey, old.data(), old.size()), XS_OK);
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t kids[2];
  for (int i = 0; i < 2; ++i) {
    kids[i] = fork();
    ASSERT_GE(kids[i], 0);
    if (kids[i] == 0) {
      xs_store* st = xs_store_new();
      if (xs_store_open(st, root_.path().c_str(), nullptr) != XS_OK) _exit(3);
      xs_reset_policy p = Idle(60);
      xs_session_options o = Opts();
      o.id_seed = 100 + i;
      // Every exit frees what the child made: under valgrind (--error-exitcode) a child's leak is
      // its exit status.
      int code = 6;
      for (int tries = 0; tries < 100000 && code == 6; ++tries) {
        xs_session* s = nullptr;
        uint32_t reason = 0;
        xs_status rc = xs_store_session_for_key(st, kKey, kNow, &p, 0, &o, &s, &reason);
        if (rc == XS_ELOCKED) continue;
        if (rc != XS_OK) {
          code = 4;
          break;
        }
        std::string line = xstest::JsonStr(xstest::Info(s), "id") + " " + xs_reset_reason_str(reason) + "\n";
        xs_session_close(s);
        code = write(fds[1], line.data(), line.size()) == static_cast<ssize_t>(line.size()) ? 0 : 5;
      }
      xs_store_free(st);
      _exit(code);
    }
  }
  close(fds[1]);
  for (pid_t k : kids) {
    int status = 0;
    ASSERT_EQ(waitpid(k, &status, 0), k);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  }
  std::string out;
  char buf[256];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  size_t nl = out.find('\n');
  ASSERT_NE(nl, std::string::npos) << out;
  std::string a = out.substr(0, nl), b = out.substr(nl + 1);
  ASSERT_FALSE(b.empty()) << out;
  b.pop_back();
  std::string id_a = a.substr(0, a.find(' ')), id_b = b.substr(0, b.find(' '));
  EXPECT_EQ(id_a, id_b) << out;
  EXPECT_NE(id_a, "old");
  // One reset ("idle") and one continuation, in either order.
  std::string reasons = a.substr(a.find(' ') + 1) + "," + b.substr(b.find(' ') + 1);
  EXPECT_TRUE(reasons == "idle,continued" || reasons == "continued,idle") << out;
  EXPECT_NE(Record().find(R"("previousSessionIds":["old"])"), std::string::npos) << Record();
}

}  // namespace
