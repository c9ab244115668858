// Store-level calls beyond lifecycle: blobs, listing, resolving ids, breadcrumbs, continue-recent
// and fork-from.
#include "handles.h"
#include "search/session_index.h"

using xs::Code;
using xs::Status;
using xs::capi::guarded;
using xs::capi::need_open;
using xs::capi::null_arg;
using xs::capi::OutputId;

namespace {

// A store on the disk whose root holds index.db lists from it (docs/search.md#listing): the
// summaries of files unchanged since they were indexed come from the index, the others are read.
// An index that cannot be opened (a newer schema, say) leaves listings to read every file.
void use_index_if_present(xs_store* st) {
  if (st->listing_index_tried || st->in_memory || st->host_storage) return;
  auto x = xs::search::SessionIndex::open_existing(st->store);
  if (x.ok() && !*x) return;  // no index.db: looked for again at the next listing
  st->listing_index_tried = true;
  if (x.ok()) st->listing_index = std::move(*x);
}

}  // namespace

extern "C" {

xs_status xs_blob_put(xs_store* st, const void* data, size_t len, char* hash_out) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(need_open(st));
    if (!data && len) return null_arg("data");
    if (!hash_out) return null_arg("hash_out");
    std::string hash;
    XS_RETURN_IF_ERROR(st->store->blobs().put({static_cast<const char*>(data), len}, &hash));
    std::memcpy(hash_out, hash.c_str(), hash.size() + 1);
    return Status::Ok();
  });
}

xs_status xs_blob_get(xs_store* st, const char* hash, void* buf, size_t cap, size_t* out_len) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(need_open(st));
    if (!hash) return null_arg("hash");
    // Blobs change only by being added, so the generation of a cached read never goes stale.
    return xs::capi::fill(st->cache, OutputId::kBlobGet, hash, 0, static_cast<char*>(buf), cap, out_len,
                          [&]() -> xs::Result<std::string> {
                            std::string bytes;
                            XS_RETURN_IF_ERROR(st->store->blobs().get(hash, &bytes));
                            return bytes;
                          });
  });
}

xs_status xs_store_list(xs_store* st, const xs_list_options* opts, char* buf, size_t cap, size_t* out_len) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(need_open(st));
    xs::discovery::ListQuery q;
    std::string key = "all";
    if (opts) {
      if (opts->version != XS_LIST_OPTIONS_VERSION)
        return Status(Code::kVersion, "unsupported xs_list_options version");
      if (opts->flags & ~XS_LIST_FULL) return Status::Invalid("unknown bits in xs_list_options.flags");
      if (opts->cwd) q.cwd = std::string(opts->cwd);
      q.limit = opts->limit;
      q.full = opts->flags & XS_LIST_FULL;
      key = std::to_string(opts->flags) + ":" + std::to_string(opts->limit) + ":" + (opts->cwd ? "=" + *q.cwd : "");
    }
    uint64_t generation = xs::capi::retry_generation(st->cache, st->calls);
    return xs::capi::fill(st->cache, OutputId::kList, key, generation, buf, cap, out_len,
                          [&]() -> xs::Result<std::string> {
                            use_index_if_present(st);
                            auto found = st->store->list(q);
                            if (!found.ok()) return found.status();
                            return xs::discovery::summaries_json(*found);
                          });
  });
}

xs_status xs_store_resolve(xs_store* st, const char* query, const char* cwd, char* buf, size_t cap, size_t* out_len) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(need_open(st));
    if (!query) return null_arg("query");
    std::string key = std::string(query) + '\0' + (cwd ? cwd : "");
    uint64_t generation = xs::capi::retry_generation(st->cache, st->calls);
    return xs::capi::fill(st->cache, OutputId::kResolve, key, generation, buf, cap, out_len,
                          [&]() -> xs::Result<std::string> {
                            return st->store->resolve(query, cwd ? std::optional<std::string_view>(cwd) : std::nullopt);
                          });
  });
}

xs_status xs_store_write_breadcrumb(xs_store* st, const char* terminal_id, const char* cwd, const char* session_path) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(need_open(st));
    if (!terminal_id) return null_arg("terminal_id");
    if (!cwd) return null_arg("cwd");
    if (!session_path) return null_arg("session_path");
    return st->store->write_breadcrumb(terminal_id, cwd, session_path);
  });
}

xs_status xs_session_continue_recent(xs_store* st, const char* cwd, const char* terminal_id,
                                     const xs_session_options* opts, xs_session** out) {
  if (out) *out = nullptr;
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(need_open(st));
    if (!cwd) return null_arg("cwd");
    if (!out) return null_arg("out");
    xs::session::SessionOptions o;
    XS_RETURN_IF_ERROR(xs::capi::translate_options(opts, &o));
    auto terminal = terminal_id ? std::optional<std::string_view>(terminal_id) : std::nullopt;
    use_index_if_present(st);
    return xs::capi::wrap_session(st->store, st->store->continue_recent(cwd, terminal, std::move(o)), out);
  });
}

xs_status xs_session_fork_from(xs_store* st, const char* source_path, const char* target_cwd,
                               const xs_session_options* opts, xs_session** out) {
  if (out) *out = nullptr;
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(need_open(st));
    if (!source_path) return null_arg("source_path");
    if (!target_cwd) return null_arg("target_cwd");
    if (!out) return null_arg("out");
    xs::session::SessionOptions o;
    XS_RETURN_IF_ERROR(xs::capi::translate_options(opts, &o));
    return xs::capi::wrap_session(st->store, st->store->fork_from(source_path, target_cwd, std::move(o)), out);
  });
}

}  // extern "C"
