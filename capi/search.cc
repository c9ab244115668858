// The session index and search (xs_index_*, xs_search): argument checks and one forward call each
// to search::SessionIndex, which owns the database and the rules (docs/search.md).
#include <string>

#include "handles.h"
#include "search/session_index.h"

using xs::Result;
using xs::Status;
using xs::capi::guarded;
using xs::capi::null_arg;
using xs::capi::OutputId;

// Holds the store's engine object (the sessions are read through it), not the store handle: the
// index stays usable after xs_store_free, as sessions do.
struct xs_index {
  std::mutex mu;
  uint64_t calls = 0;
  std::unique_ptr<xs::search::SessionIndex> impl;
  xs::capi::ErrorSlot err;
  xs::capi::OutputCache cache;
};

namespace {

constexpr uint32_t kDefaultBusyMs = 5000;

// Runs a report-producing call through the size-query protocol: an XS_EBUFS result is kept, and
// the retry right after copies it instead of running the work again.
template <class F>
Status report(xs_index* ix, OutputId id, char* buf, size_t cap, size_t* out_len, F&& work) {
  uint64_t generation = xs::capi::retry_generation(ix->cache, ix->calls);
  return xs::capi::fill(ix->cache, id, "", generation, buf, cap, out_len, [&]() -> Result<std::string> {
    auto r = work();
    if (!r.ok()) return r.status();
    return xs::search::report_json(*r);
  });
}

}  // namespace

extern "C" {

xs_status xs_index_options_init(xs_index_options* o, uint32_t version) {
  if (!o) return XS_EINVAL;
  if (version != XS_INDEX_OPTIONS_VERSION) return XS_EVERSION;
  *o = xs_index_options{};
  o->version = version;
  return XS_OK;
}

xs_status xs_search_options_init(xs_search_options* o, uint32_t version) {
  if (!o) return XS_EINVAL;
  if (version != XS_SEARCH_OPTIONS_VERSION) return XS_EVERSION;
  *o = xs_search_options{};
  o->version = version;
  return XS_OK;
}

xs_status xs_index_open(xs_store* st, const xs_index_options* opts, xs_index** out) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(xs::capi::need_open(st));
    if (!out) return null_arg("out");
    *out = nullptr;
    xs::search::IndexOptions o;
    o.busy_timeout = std::chrono::milliseconds(kDefaultBusyMs);
    if (opts) {
      XS_RETURN_IF_ERROR(xs::capi::check_struct_version(opts->version, XS_INDEX_OPTIONS_VERSION, "xs_index_options"));
      if (opts->flags & ~XS_INDEX_FOLLOW_WRITES) return Status::Invalid("unknown bits in xs_index_options.flags");
      o.follow_writes = opts->flags & XS_INDEX_FOLLOW_WRITES;
      if (opts->path) o.path = opts->path;
      if (opts->busy_timeout_ms) o.busy_timeout = std::chrono::milliseconds(opts->busy_timeout_ms);
    }
    // SQLite reads and writes its own file on the real disk (docs/search.md#the-file): a store
    // whose sessions are elsewhere has no directory to put it in.
    if (o.path.empty() && st->in_memory) {
      return Status::Invalid("an in-memory store keeps no index.db: name a path in the options");
    }
    if (o.path.empty() && st->host_storage) {
      return Status::Invalid("a store on a host's storage keeps no index.db: name a path in the options");
    }
    auto ix = std::make_unique<xs_index>();
    Result<std::unique_ptr<xs::search::SessionIndex>> opened = xs::search::SessionIndex::open(st->store, o);
    if (!opened.ok()) return opened.status();
    ix->impl = std::move(*opened);
    *out = ix.release();
    return Status::Ok();
  });
}

void xs_index_close(xs_index* ix) { delete ix; }

xs_status xs_index_errcode(const xs_index* ix) { return ix ? ix->err.code : XS_EMISUSE; }

const char* xs_index_errmsg(const xs_index* ix) { return ix ? ix->err.message.c_str() : "index handle is NULL"; }

xs_status xs_index_rebuild(xs_index* ix, char* buf, size_t cap, size_t* out_len) {
  return guarded(ix, [&]() -> Status {
    return report(ix, OutputId::kIndexRebuild, buf, cap, out_len, [&] { return ix->impl->rebuild(); });
  });
}

xs_status xs_index_refresh(xs_index* ix, char* buf, size_t cap, size_t* out_len) {
  return guarded(ix, [&]() -> Status {
    return report(ix, OutputId::kIndexRefresh, buf, cap, out_len, [&] { return ix->impl->refresh(); });
  });
}

xs_status xs_index_flush(xs_index* ix) {
  return guarded(ix, [&]() -> Status { return ix->impl->flush(); });
}

xs_status xs_index_verify(xs_index* ix, char* buf, size_t cap, size_t* out_len) {
  return guarded(ix, [&]() -> Status {
    return report(ix, OutputId::kIndexVerify, buf, cap, out_len, [&] { return ix->impl->verify(); });
  });
}

xs_status xs_index_list(xs_index* ix, const char* cwd, uint32_t limit, char* buf, size_t cap, size_t* out_len) {
  return guarded(ix, [&]() -> Status {
    uint64_t generation = xs::capi::retry_generation(ix->cache, ix->calls);
    std::optional<std::string_view> where;
    if (cwd) where = cwd;
    return xs::capi::fill(ix->cache, OutputId::kIndexList, xs::capi::call_key({cwd}, {limit}), generation, buf, cap,
                          out_len, [&] { return ix->impl->list_json(where, limit); });
  });
}

xs_status xs_index_info(xs_index* ix, char* buf, size_t cap, size_t* out_len) {
  return guarded(ix, [&]() -> Status {
    uint64_t generation = xs::capi::retry_generation(ix->cache, ix->calls);
    return xs::capi::fill(ix->cache, OutputId::kIndexInfo, "", generation, buf, cap, out_len,
                          [&] { return ix->impl->info_json(); });
  });
}

xs_status xs_search(xs_index* ix, const char* query, const xs_search_options* opts, char* buf, size_t cap,
                    size_t* out_len) {
  return guarded(ix, [&]() -> Status {
    if (!query) return null_arg("query");
    xs_search_options in;
    xs_search_options_init(&in, XS_SEARCH_OPTIONS_VERSION);
    if (opts) {
      XS_RETURN_IF_ERROR(xs::capi::check_struct_version(opts->version, XS_SEARCH_OPTIONS_VERSION, "xs_search_options"));
      in = *opts;
    }
    if (in.flags & ~XS_SEARCH_LITERAL) return Status::Invalid("unknown bits in xs_search_options.flags");
    if (in.since_ms < 0) return Status::Invalid("xs_search_options.since_ms is negative");
    xs::search::SearchOptions o;
    if (in.cwd) o.cwd = in.cwd;
    if (in.role) o.role = in.role;
    if (in.since_ms > 0) o.since_ms = in.since_ms;
    if (in.session_id) o.session_id = in.session_id;
    o.limit = in.limit;
    o.literal = in.flags & XS_SEARCH_LITERAL;
    std::string key = xs::capi::call_key({query, in.cwd, in.role, in.session_id}, {in.flags, in.since_ms, in.limit});
    uint64_t generation = xs::capi::retry_generation(ix->cache, ix->calls);
    return xs::capi::fill(ix->cache, OutputId::kSearch, key, generation, buf, cap, out_len,
                          [&] { return ix->impl->search_json(query, o); });
  });
}

}  // extern "C"
