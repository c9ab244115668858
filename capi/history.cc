// The prompt history (xs_history_*): argument checks and one forward call each to
// history::History, which owns the database, its writer thread and the rules (docs/history.md).
#include <string>

#include "handles.h"
#include "history/history.h"
#include "storage/path.h"

using xs::Code;
using xs::Result;
using xs::Status;
using xs::capi::guarded;
using xs::capi::null_arg;
using xs::capi::OutputId;

// Independent of the store once open: SQLite and the writer thread need nothing of it.
struct xs_history {
  std::mutex mu;
  uint64_t calls = 0;
  std::unique_ptr<xs::history::History> impl;
  xs::capi::ErrorSlot err;
  xs::capi::OutputCache cache;
};

namespace {

constexpr uint32_t kDefaultBusyMs = 5000;

std::optional<std::string_view> opt(const char* s) {
  if (!s) return std::nullopt;
  return std::string_view(s);
}

}  // namespace

extern "C" {

xs_status xs_history_options_init(xs_history_options* o, uint32_t version) {
  if (!o) return XS_EINVAL;
  if (version != XS_HISTORY_OPTIONS_VERSION) return XS_EVERSION;
  *o = xs_history_options{};
  o->version = version;
  return XS_OK;
}

xs_status xs_history_open(xs_store* st, const xs_history_options* opts, xs_history** out) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(xs::capi::need_open(st));
    if (!out) return null_arg("out");
    *out = nullptr;
    xs::history::HistoryOptions o;
    std::string path;
    if (opts) {
      XS_RETURN_IF_ERROR(
          xs::capi::check_struct_version(opts->version, XS_HISTORY_OPTIONS_VERSION, "xs_history_options"));
      if (opts->flags & ~XS_HISTORY_SYNC) return Status::Invalid("unknown bits in xs_history_options.flags");
      o.sync_full = opts->flags & XS_HISTORY_SYNC;
      if (opts->path) path = opts->path;
      o.busy_timeout = std::chrono::milliseconds(opts->busy_timeout_ms ? opts->busy_timeout_ms : kDefaultBusyMs);
      if (opts->max_prompt_bytes) o.max_prompt_bytes = opts->max_prompt_bytes;
    }
    if (path.empty()) {
      if (st->in_memory) return Status::Invalid("an in-memory store keeps no history.db: name a path in the options");
      // SQLite reads and writes its own files: they cannot live in a host's storage.
      if (st->host_storage) {
        return Status::Invalid("a store on a host's storage keeps no history.db: name a path in the options");
      }
      path = xs::storage::join_path(st->store->root(), "history.db");
    }
    auto h = std::make_unique<xs_history>();
    // SQLite writes the real disk whatever the store's seam is, so its directory and a damaged
    // file's copy go there too.
    Result<std::unique_ptr<xs::history::History>> opened =
        xs::history::History::open(xs::storage::make_posix_fs(), std::move(path), o);
    if (!opened.ok()) return opened.status();
    h->impl = std::move(*opened);
    *out = h.release();
    return Status::Ok();
  });
}

xs_status xs_history_close(xs_history* h) {
  if (!h) return XS_OK;
  xs_status rc;
  {
    std::lock_guard<std::mutex> lock(h->mu);
    try {
      rc = static_cast<xs_status>(h->impl->close().code());
    } catch (...) {
      rc = XS_EINTERNAL;  // close() allocates only for an error's text
    }
  }
  delete h;
  return rc;
}

xs_status xs_history_errcode(const xs_history* h) { return h ? h->err.code : XS_EMISUSE; }

const char* xs_history_errmsg(const xs_history* h) { return h ? h->err.message.c_str() : "history handle is NULL"; }

xs_status xs_history_add(xs_history* h, const char* prompt, size_t prompt_len, const char* cwd, int64_t time_ms) {
  return guarded(h, [&]() -> Status {
    if (!prompt) return null_arg("prompt");
    return h->impl->add({prompt, prompt_len}, opt(cwd), time_ms);
  });
}

xs_status xs_history_flush(xs_history* h) {
  return guarded(h, [&]() -> Status { return h->impl->flush(); });
}

xs_status xs_history_search(xs_history* h, const char* query, const char* cwd, uint32_t flags, uint32_t limit,
                            char* buf, size_t cap, size_t* out_len) {
  return guarded(h, [&]() -> Status {
    if (!query) return null_arg("query");
    if (flags & ~XS_HISTORY_LITERAL) return Status::Invalid("unknown bits in flags");
    xs::history::SearchOptions o;
    if (cwd) o.cwd = cwd;
    o.literal = flags & XS_HISTORY_LITERAL;
    o.limit = limit;
    std::string key = xs::capi::call_key({query, cwd}, {flags, limit});
    uint64_t generation = xs::capi::retry_generation(h->cache, h->calls);
    return xs::capi::fill(h->cache, OutputId::kHistorySearch, key, generation, buf, cap, out_len,
                          [&] { return h->impl->search_json(query, o); });
  });
}

xs_status xs_history_recent(xs_history* h, const char* cwd, uint32_t limit, char* buf, size_t cap, size_t* out_len) {
  return guarded(h, [&]() -> Status {
    std::string key = xs::capi::call_key({cwd}, {limit});
    uint64_t generation = xs::capi::retry_generation(h->cache, h->calls);
    return xs::capi::fill(h->cache, OutputId::kHistoryRecent, key, generation, buf, cap, out_len,
                          [&] { return h->impl->recent_json(opt(cwd), limit); });
  });
}

xs_status xs_history_info(xs_history* h, char* buf, size_t cap, size_t* out_len) {
  return guarded(h, [&]() -> Status {
    uint64_t generation = xs::capi::retry_generation(h->cache, h->calls);
    return xs::capi::fill(h->cache, OutputId::kHistoryInfo, "", generation, buf, cap, out_len,
                          [&] { return h->impl->info_json(); });
  });
}

}  // extern "C"
