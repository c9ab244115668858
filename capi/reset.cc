// Reset policies and a key's current session (xs_reset_policy_init, xs_store_session_for_key,
// xs_reset_reason_str): argument checks and one call to store::Store::session_for_key, which
// decides and records under the keyed store's lock (docs/reset-policies.md).
#include <chrono>

#include "handles.h"

using xs::Status;
using xs::capi::guarded;
using xs::capi::null_arg;

Status xs::capi::translate_policy(const xs_reset_policy* p, xs::store::ResetPolicy* out) {
  XS_RETURN_IF_ERROR(xs::capi::check_struct_version(p->version, XS_RESET_POLICY_VERSION, "xs_reset_policy"));
  if (p->daily_hour < -1 || p->daily_hour > 23) {
    return Status::Invalid("xs_reset_policy.daily_hour must be 0-23 (or -1 for none), not " +
                           std::to_string(p->daily_hour));
  }
  if (p->idle_minutes < 0) {
    return Status::Invalid("xs_reset_policy.idle_minutes must be positive (or 0 for none), not " +
                           std::to_string(p->idle_minutes));
  }
  *out = xs::store::ResetPolicy{};
  if (p->daily_hour >= 0) out->daily_hour = p->daily_hour;
  if (p->idle_minutes > 0) out->idle_minutes = p->idle_minutes;
  if (p->time_zone) out->time_zone = p->time_zone;
  return Status::Ok();
}

extern "C" {

xs_status xs_reset_policy_init(xs_reset_policy* p, uint32_t version) {
  if (!p) return XS_EINVAL;
  if (version != XS_RESET_POLICY_VERSION) return XS_EVERSION;
  *p = xs_reset_policy{};
  p->version = version;
  p->daily_hour = -1;
  return XS_OK;
}

const char* xs_reset_reason_str(uint32_t reason) {
  switch (reason) {
    case XS_RESET_CONTINUED: return "continued";
    case XS_RESET_NEW: return "new";
    case XS_RESET_DAILY: return "daily";
    case XS_RESET_IDLE: return "idle";
    case XS_RESET_FORCED: return "forced";
    default: return "unknown";
  }
}

xs_status xs_store_session_for_key(xs_store* st, const char* key, int64_t now_ms, const xs_reset_policy* policy,
                                   uint32_t flags, const xs_session_options* opts, xs_session** out,
                                   uint32_t* reason_out) {
  if (out) *out = nullptr;
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(xs::capi::need_open(st));
    if (!key) return null_arg("key");
    if (!out) return null_arg("out");
    if (flags & ~XS_RESET_FORCE) return Status::Invalid("unknown bits in the flags of xs_store_session_for_key");
    if (now_ms < 0) return Status::Invalid("now_ms must not be negative");
    if (now_ms == 0) {
      using namespace std::chrono;
      now_ms = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
    }
    std::optional<xs::store::ResetPolicy> p;
    if (policy) XS_RETURN_IF_ERROR(xs::capi::translate_policy(policy, &p.emplace()));
    xs::session::SessionOptions o;
    XS_RETURN_IF_ERROR(xs::capi::translate_options(opts, &o));
    auto got = st->store->session_for_key(key, now_ms, p, flags & XS_RESET_FORCE, std::move(o));
    if (!got.ok()) return got.status();
    if (reason_out) *reason_out = static_cast<uint32_t>(got->reason);
    return xs::capi::wrap_session(st->store, std::move(got->session), out);
  });
}

}  // extern "C"
