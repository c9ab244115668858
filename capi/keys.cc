// The keyed session store (xs_keys_*): argument checks and one forward call each to the store's
// store::KeyStore, which owns the document, the lock and the rules (docs/keyed-store.md).
#include "handles.h"

using xs::Code;
using xs::Result;
using xs::Status;
using xs::capi::guarded;
using xs::capi::need_open;
using xs::capi::null_arg;
using xs::capi::OutputId;

namespace {

Status need_key(const char* key) { return key ? Status::Ok() : null_arg("key"); }

}  // namespace

extern "C" {

xs_status xs_keys_get(xs_store* st, const char* key, char* buf, size_t cap, size_t* out_len) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(need_open(st));
    XS_RETURN_IF_ERROR(need_key(key));
    uint64_t generation = xs::capi::retry_generation(st->cache, st->calls);
    return xs::capi::fill(st->cache, OutputId::kKeysGet, key, generation, buf, cap, out_len,
                          [&] { return st->store->keys().get(key); });
  });
}

xs_status xs_keys_list(xs_store* st, const char* prefix, char* buf, size_t cap, size_t* out_len) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(need_open(st));
    std::string_view p = prefix ? prefix : "";
    uint64_t generation = xs::capi::retry_generation(st->cache, st->calls);
    return xs::capi::fill(st->cache, OutputId::kKeysList, p, generation, buf, cap, out_len,
                          [&] { return st->store->keys().list_json(p); });
  });
}

xs_status xs_keys_put(xs_store* st, const char* key, const char* record_json, size_t len) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(need_open(st));
    XS_RETURN_IF_ERROR(need_key(key));
    if (!record_json) return null_arg("record_json");
    return st->store->keys().put(key, {record_json, len});
  });
}

xs_status xs_keys_patch(xs_store* st, const char* key, const char* patch_json, size_t len) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(need_open(st));
    XS_RETURN_IF_ERROR(need_key(key));
    if (!patch_json) return null_arg("patch_json");
    return st->store->keys().patch(key, {patch_json, len});
  });
}

xs_status xs_keys_delete(xs_store* st, const char* key) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(need_open(st));
    XS_RETURN_IF_ERROR(need_key(key));
    return st->store->keys().remove(key);
  });
}

xs_status xs_keys_update(xs_store* st, const char* key, xs_keys_update_fn fn, void* user) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(need_open(st));
    XS_RETURN_IF_ERROR(need_key(key));
    if (!fn) return null_arg("fn");
    return st->store->keys().update(
        key, [&](std::optional<std::string_view> current) -> Result<std::optional<std::string>> {
          const char* out = current ? current->data() : nullptr;
          size_t out_len = current ? current->size() : 0;
          xs_status rc;
          {
            // A call on this handle from inside the callback would wait for the lock this call holds.
            xs::capi::InCallback mark(st);
            rc = fn(user, out, out_len, &out, &out_len);
          }
          if (rc != XS_OK) {
            return Status(static_cast<Code>(rc),
                          "the update function cancelled with " + std::string(xs_status_str(rc)));
          }
          if (!out) return std::optional<std::string>();
          return std::optional<std::string>(std::string(out, out_len));
        });
  });
}

}  // extern "C"
