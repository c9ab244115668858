// Session stats and their repair in the keyed store (docs/session-stats.md): argument checks and
// one call into core each (Session::stats_json, store::fix_key_stats).
#include "handles.h"
#include "store/key_stats.h"

using xs::Result;
using xs::Status;
using xs::capi::guarded;
using xs::capi::OutputId;

extern "C" {

xs_status xs_session_stats(xs_session* s, char* buf, size_t cap, size_t* out_len) {
  return guarded(s, [&] {
    return xs::capi::fill(s->cache, OutputId::kStats, "", s->impl->generation(), buf, cap, out_len,
                          [&]() -> Result<std::string> { return s->impl->stats_json(); });
  });
}

xs_status xs_keys_fix_stats(xs_store* st, const char* key_prefix, char* buf, size_t cap, size_t* out_len) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(xs::capi::need_open(st));
    std::string_view prefix = key_prefix ? key_prefix : "";
    uint64_t generation = xs::capi::retry_generation(st->cache, st->calls);
    return xs::capi::fill(st->cache, OutputId::kKeysFixStats, prefix, generation, buf, cap, out_len,
                          [&] { return xs::store::fix_key_stats(*st->store, prefix); });
  });
}

}  // extern "C"
