// Store handles, and the session constructors (whose errors are reported on the store).
#include "handles.h"
#include "storage_bridge.h"

using xs::Code;
using xs::Status;
using xs::capi::guarded;
using xs::capi::null_arg;

namespace {

constexpr uint32_t kKnownSessionFlags =
    XS_SESSION_READ_ONLY | XS_SESSION_CREATE | XS_SESSION_NO_DEFER | XS_SESSION_SYNC | XS_SESSION_FIXED_CLOCK;

}  // namespace

Status xs::capi::translate_options(const xs_session_options* o, xs::session::SessionOptions* out) {
  if (!o) return Status::Ok();
  if (o->version != 1 && o->version != XS_SESSION_OPTIONS_VERSION) {
    return Status(Code::kVersion, "xs_session_options version " + std::to_string(o->version) + " is not supported");
  }
  if (o->flags & ~kKnownSessionFlags) return Status::Invalid("unknown bits in xs_session_options.flags");
  if (o->dialect > XS_DIALECT_PI) return Status::Invalid("xs_session_options.dialect must be an XS_DIALECT_* value");
  if (o->max_line_bytes > xs::json::kMaxConfigurableLineBytes) {
    return Status::Invalid("max_line_bytes may be at most " + std::to_string(xs::json::kMaxConfigurableLineBytes));
  }
  if (o->max_depth != 0 && (o->max_depth < 3 || o->max_depth > xs::json::kMaxConfigurableDepth)) {
    return Status::Invalid("max_depth must be between 3 and " + std::to_string(xs::json::kMaxConfigurableDepth));
  }
  out->read_only = o->flags & XS_SESSION_READ_ONLY;
  out->create_if_missing = o->flags & XS_SESSION_CREATE;
  out->defer_until_assistant = !(o->flags & XS_SESSION_NO_DEFER);
  out->durability = (o->flags & XS_SESSION_SYNC) ? xs::session::Durability::kSync : xs::session::Durability::kBuffered;
  if (o->max_line_bytes) out->limits.max_line_bytes = o->max_line_bytes;
  if (o->max_depth) out->limits.max_depth = o->max_depth;
  if (o->flags & XS_SESSION_FIXED_CLOCK) out->clock = xs::format::Clock::Fixed(o->clock_start_ms, o->clock_step_ms);
  out->id_seed = o->id_seed;
  if (o->cwd) out->cwd = o->cwd;
  if (o->session_id) out->session_id = std::string(o->session_id);
  if (o->title) out->title = std::string(o->title);
  if (o->parent_session) out->parent_session = std::string(o->parent_session);
  if (o->version >= 2 && o->key) out->key = std::string(o->key);
  if (o->dialect == XS_DIALECT_OMP) out->dialect = xs::format::Dialect::kOmp;
  if (o->dialect == XS_DIALECT_PI) out->dialect = xs::format::Dialect::kPi;
  return Status::Ok();
}

Status xs::capi::wrap_session(const std::shared_ptr<xs::store::Store>& store,
                              xs::Result<std::unique_ptr<xs::session::Session>> r, xs_session** out) {
  if (!r.ok()) return r.status();
  auto* h = new xs_session;
  h->store = store;
  h->impl = std::move(*r);
  *out = h;
  return Status::Ok();
}

extern "C" {

xs_store* xs_store_new(void) { return new (std::nothrow) xs_store; }

void xs_store_free(xs_store* st) { delete st; }

xs_status xs_store_errcode(const xs_store* st) { return st ? st->err.code : XS_EMISUSE; }

const char* xs_store_errmsg(const xs_store* st) { return st ? st->err.message.c_str() : "store handle is NULL"; }

xs_status xs_store_open(xs_store* st, const char* root, const xs_store_options* opts) {
  return guarded(st, [&]() -> Status {
    if (st->store) return Status(Code::kMisuse, "the store is already open");
    if (opts && (opts->version < 1 || opts->version > XS_STORE_OPTIONS_VERSION)) {
      return Status(Code::kVersion, "xs_store_options version " + std::to_string(opts->version) + " is not supported");
    }
    uint32_t flags = opts ? opts->flags : 0;
    if (flags & ~(XS_STORE_IN_MEMORY | XS_STORE_DIALECT_PI)) {
      return Status::Invalid("unknown bits in xs_store_options.flags");
    }
    xs::store::StoreOptions o;
    o.in_memory = flags & XS_STORE_IN_MEMORY;
    if (flags & XS_STORE_DIALECT_PI) o.default_dialect = xs::format::Dialect::kPi;
    if (opts && opts->version >= 2 && opts->keys_path) o.keys_path = opts->keys_path;
    if (opts && opts->version >= 3 && opts->reset_policy) {
      XS_RETURN_IF_ERROR(xs::capi::translate_policy(opts->reset_policy, &o.reset_policy.emplace()));
    }
    if (!root && !o.in_memory) return null_arg("root");
    std::shared_ptr<xs::capi::HostTable> host;
    if (opts && opts->version >= 4 && opts->storage) {
      if (o.in_memory) return Status::Invalid("XS_STORE_IN_MEMORY and a storage table exclude each other");
      XS_RETURN_IF_ERROR(xs::capi::check_storage(*opts->storage));
      host = std::make_shared<xs::capi::HostTable>(*opts->storage);
      o.fs = xs::capi::make_host_fs(host);
    }
    auto opened = xs::store::Store::open(root ? root : "", std::move(o));
    if (!opened.ok()) {
      if (host) host->disarm();  // the caller keeps the table's user
      return opened.status();
    }
    st->store = std::move(*opened);
    st->in_memory = flags & XS_STORE_IN_MEMORY;
    st->host_storage = host != nullptr;
    return Status::Ok();
  });
}

xs_status xs_store_session_dir(xs_store* st, const char* cwd, char* buf, size_t cap, size_t* out_len) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(xs::capi::need_open(st));
    if (!cwd) return null_arg("cwd");
    return xs::capi::fill(st->cache, xs::capi::OutputId::kSessionDir, cwd, 0, buf, cap, out_len,
                          [&]() -> xs::Result<std::string> { return st->store->session_dir(cwd); });
  });
}

xs_status xs_session_create(xs_store* st, const char* cwd, const xs_session_options* opts, xs_session** out) {
  if (out) *out = nullptr;
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(xs::capi::need_open(st));
    if (!cwd) return null_arg("cwd");
    if (!out) return null_arg("out");
    xs::session::SessionOptions o;
    XS_RETURN_IF_ERROR(xs::capi::translate_options(opts, &o));
    return xs::capi::wrap_session(st->store, st->store->create_session(cwd, std::move(o)), out);
  });
}

xs_status xs_session_open(xs_store* st, const char* path_or_id, const xs_session_options* opts, xs_session** out) {
  if (out) *out = nullptr;
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(xs::capi::need_open(st));
    if (!path_or_id) return null_arg("path_or_id");
    if (!out) return null_arg("out");
    xs::session::SessionOptions o;
    XS_RETURN_IF_ERROR(xs::capi::translate_options(opts, &o));
    return xs::capi::wrap_session(st->store, st->store->open_session(path_or_id, std::move(o)), out);
  });
}

}  // extern "C"
