#include "reset_steps.h"

using namespace case_json;

void reset_policy_of(element v, xs_reset_policy* p) {
  xs_reset_policy_init(p, XS_RESET_POLICY_VERSION);
  if (has(v, "daily_hour")) p->daily_hour = static_cast<int32_t>(int64(v, "daily_hour"));
  if (has(v, "idle_minutes")) p->idle_minutes = int64(v, "idle_minutes");
  p->time_zone = str(v, "time_zone");
}

xs_session* run_session_for_key(xs_store* store, element s, xs_status expect, xs_session_options o) {
  o.session_id = str(s, "session_id");
  if (has(s, "id_seed")) o.id_seed = uint64(s, "id_seed");
  xs_reset_policy policy;
  if (has(s, "policy")) reset_policy_of(at(s, "policy"), &policy);
  uint32_t flags = flag(s, "force") ? XS_RESET_FORCE : 0;
  xs_session* out = nullptr;
  uint32_t reason = 99;
  xs_status rc = xs_store_session_for_key(store, c_str(s, "key"), int64(s, "now_ms"),
                                          has(s, "policy") ? &policy : nullptr, flags, &o, &out, &reason);
  EXPECT_EQ(rc, expect) << xs_store_errmsg(store);
  if (rc != XS_OK) {
    EXPECT_EQ(out, nullptr);
    return nullptr;
  }
  if (has(s, "expect_reason")) {
    EXPECT_EQ(std::string(xs_reset_reason_str(reason)), view(s, "expect_reason"));
  }
  return out;
}

bool run_reset_step(const std::string& root, std::string_view op, element s) {
  if (op != "check_keys_file_rooted") return false;
  // "{root}" stands for the store's directory (the sessionFile paths the library records).
  std::string want = text(s, "raw");
  for (size_t at; (at = want.find("{root}")) != std::string::npos;) want.replace(at, 6, root);
  EXPECT_EQ(read_file(root + "/sessions.json"), want);
  return true;
}
