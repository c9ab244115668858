// Compaction planning (xs_compaction_settings, xs_should_*, xs_compaction_plan,
// xs_keys_claim_memory_flush): argument checks and one call each into compaction/ or
// store/memory_flush (docs/compaction-planning.md).
#include "compaction/compaction_plan.h"
#include "handles.h"
#include "store/memory_flush.h"

using xs::Result;
using xs::Status;
using xs::capi::guarded;
using xs::capi::need_open;
using xs::capi::null_arg;
using xs::capi::OutputId;

namespace {

// The core's settings from the caller's; every count must be >= 0 and, for the decisions, the
// window > 0 (a window of 0 would make every context "too large").
Status settings_of(const xs_compaction_settings* in, bool need_window, xs::compaction::Settings* out) {
  if (!in) return null_arg("settings");
  XS_RETURN_IF_ERROR(
      xs::capi::check_struct_version(in->version, XS_COMPACTION_SETTINGS_VERSION, "xs_compaction_settings"));
  if (need_window && in->context_window <= 0) return Status::Invalid("context_window must be > 0");
  if (in->context_window < 0 || in->reserve_tokens < 0 || in->reserve_floor < 0 || in->keep_recent_tokens < 0 ||
      in->soft_threshold_tokens < 0) {
    return Status::Invalid("compaction settings may not be negative");
  }
  out->context_window = in->context_window;
  out->reserve_tokens = in->reserve_tokens;
  out->reserve_floor = in->reserve_floor;
  out->keep_recent_tokens = in->keep_recent_tokens;
  out->soft_threshold_tokens = in->soft_threshold_tokens;
  return Status::Ok();
}

// The handle-less decisions report a status only (there is no handle to hold a message); the
// core's codes are the C API's (capi/library.cc checks).
xs_status code_of(const Status& st) { return static_cast<xs_status>(st.code()); }

}  // namespace

extern "C" {

xs_status xs_compaction_settings_init(xs_compaction_settings* s, uint32_t version) {
  if (!s) return XS_EINVAL;
  if (version != XS_COMPACTION_SETTINGS_VERSION) return XS_EVERSION;
  xs::compaction::Settings defaults;
  *s = xs_compaction_settings{};
  s->version = version;
  s->context_window = defaults.context_window;
  s->reserve_tokens = defaults.reserve_tokens;
  s->reserve_floor = defaults.reserve_floor;
  s->keep_recent_tokens = defaults.keep_recent_tokens;
  s->soft_threshold_tokens = defaults.soft_threshold_tokens;
  return XS_OK;
}

xs_status xs_should_compact(const xs_compaction_settings* s, int64_t context_tokens, int* out) {
  xs::compaction::Settings settings;
  Status st = settings_of(s, true, &settings);
  if (!st.ok()) return code_of(st);
  if (!out || context_tokens < 0) return XS_EINVAL;
  *out = xs::compaction::should_compact(context_tokens, settings) ? 1 : 0;
  return XS_OK;
}

xs_status xs_should_flush_memory(const xs_compaction_settings* s, int64_t context_tokens, int64_t compaction_count,
                                 int64_t last_flush_compaction_count, int* out) {
  xs::compaction::Settings settings;
  Status st = settings_of(s, true, &settings);
  if (!st.ok()) return code_of(st);
  if (!out || context_tokens < 0 || compaction_count < 0 || last_flush_compaction_count < -1) return XS_EINVAL;
  *out = xs::compaction::should_flush_memory(context_tokens, settings, compaction_count, last_flush_compaction_count)
             ? 1
             : 0;
  return XS_OK;
}

xs_status xs_compaction_plan(xs_session* s, const char* leaf_id, const xs_compaction_settings* settings, char* buf,
                             size_t cap, size_t* out_len) {
  return guarded(s, [&]() -> Status {
    xs::compaction::Settings c;
    XS_RETURN_IF_ERROR(settings_of(settings, false, &c));
    // The key holds every argument, so a retry after XS_EBUFS with other ones computes again.
    std::string key = std::to_string(c.keep_recent_tokens) + (leaf_id ? std::string("=") + leaf_id : std::string());
    return xs::capi::fill(s->cache, OutputId::kCompactionPlan, key, s->impl->generation(), buf, cap, out_len,
                          [&]() -> Result<std::string> {
                            auto plan = xs::compaction::plan_cut(
                                s->impl->data(), s->impl->tree(),
                                leaf_id ? std::optional<std::string_view>(leaf_id) : std::nullopt,
                                c.keep_recent_tokens);
                            if (!plan.ok()) return plan.status();
                            return xs::compaction::cut_plan_json(*plan);
                          });
  });
}

xs_status xs_keys_claim_memory_flush(xs_store* st, const char* key, const xs_compaction_settings* settings,
                                     int64_t context_tokens, int64_t now_ms, int* run) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(need_open(st));
    if (!key) return null_arg("key");
    if (!run) return null_arg("run");
    *run = 0;
    xs::compaction::Settings c;
    XS_RETURN_IF_ERROR(settings_of(settings, true, &c));
    if (context_tokens < 0) return Status::Invalid("context_tokens may not be negative");
    if (now_ms < 0) return Status::Invalid("now_ms may not be negative");
    auto claimed = xs::store::claim_memory_flush(st->store->keys(), key, c, context_tokens, now_ms);
    if (!claimed.ok()) return claimed.status();
    *run = *claimed ? 1 : 0;
    return Status::Ok();
  });
}

}  // extern "C"
