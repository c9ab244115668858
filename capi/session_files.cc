// Session calls that make or move files: fork, create-branched, move-to; and reload.
#include "handles.h"

using xs::Status;
using xs::capi::guarded;
using xs::capi::null_arg;

extern "C" {

xs_status xs_session_fork(xs_session* s, const xs_session_options* opts, xs_session** out) {
  if (out) *out = nullptr;
  return guarded(s, [&]() -> Status {
    if (!out) return null_arg("out");
    xs::session::SessionOptions o;
    XS_RETURN_IF_ERROR(xs::capi::translate_options(opts, &o));
    return xs::capi::wrap_session(s->store, s->store->fork_session(*s->impl, std::move(o)), out);
  });
}

xs_status xs_session_create_branched(xs_session* s, const char* leaf_id, const xs_session_options* opts,
                                     xs_session** out) {
  if (out) *out = nullptr;
  return guarded(s, [&]() -> Status {
    if (!out) return null_arg("out");
    xs::session::SessionOptions o;
    XS_RETURN_IF_ERROR(xs::capi::translate_options(opts, &o));
    auto leaf = leaf_id ? std::optional<std::string_view>(leaf_id) : std::nullopt;
    return xs::capi::wrap_session(s->store, s->store->create_branched(*s->impl, leaf, std::move(o)), out);
  });
}

xs_status xs_session_move_to(xs_session* s, const char* new_cwd) {
  return guarded(s, [&]() -> Status {
    if (!new_cwd) return null_arg("new_cwd");
    return s->store->move_session(*s->impl, new_cwd);
  });
}

xs_status xs_session_reload(xs_session* s, int64_t* added) {
  return guarded(s, [&]() -> Status {
    int64_t n = 0;
    Status st = s->impl->reload(&n);
    if (added) *added = n;
    return st;
  });
}

}  // extern "C"
