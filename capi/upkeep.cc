// Upkeep: session verify/repair and blob store listing/collection. Translation only; the work is
// in core/upkeep/verify.cc, core/session/session_rewrites.cc (repair) and core/blobs/blob_upkeep.cc.
#include "blobs/blob_upkeep.h"
#include "handles.h"

using xs::Code;
using xs::Result;
using xs::Status;
using xs::capi::guarded;
using xs::capi::need_open;
using xs::capi::OutputId;

namespace {

// Results that read the disk afresh or change it are reused only by the retry right after.
template <class H, class F>
Status fill_once(H* h, OutputId fn, const std::string& key, char* buf, size_t cap, size_t* out_len, F&& compute) {
  uint64_t generation = xs::capi::retry_generation(h->cache, h->calls);
  return xs::capi::fill(h->cache, fn, key, generation, buf, cap, out_len, std::forward<F>(compute));
}

}  // namespace

extern "C" {

xs_status xs_blob_list(xs_store* st, uint32_t flags, char* buf, size_t cap, size_t* out_len) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(need_open(st));
    if (flags & ~XS_BLOB_LIST_VERIFY) return Status::Invalid("unknown bits in the blob list flags");
    bool verify = flags & XS_BLOB_LIST_VERIFY;
    return fill_once(st, OutputId::kBlobList, std::to_string(flags), buf, cap, out_len, [&]() -> Result<std::string> {
      auto listing = st->store->list_blobs(verify);
      if (!listing.ok()) return listing.status();
      return xs::blobs::listing_json(*listing, verify);
    });
  });
}

xs_status xs_gc_options_init(xs_gc_options* o, uint32_t version) {
  if (!o) return XS_EINVAL;
  if (version != XS_GC_OPTIONS_VERSION) return XS_EVERSION;
  *o = xs_gc_options{};
  o->version = version;
  o->grace_ms = xs::blobs::kDefaultGraceMs;
  return XS_OK;
}

xs_status xs_blob_gc(xs_store* st, const xs_gc_options* opts, char* buf, size_t cap, size_t* out_len) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(need_open(st));
    xs::blobs::GcOptions o;
    if (opts) {
      if (opts->version != XS_GC_OPTIONS_VERSION) return Status(Code::kVersion, "unsupported xs_gc_options version");
      if (opts->flags & ~XS_GC_DRY_RUN) return Status::Invalid("unknown bits in xs_gc_options.flags");
      if (opts->grace_ms < 0) return Status::Invalid("xs_gc_options.grace_ms is negative");
      o.grace_ms = opts->grace_ms;
      o.now_ms = opts->now_ms;
      o.dry_run = opts->flags & XS_GC_DRY_RUN;
    }
    // The key holds the caller's arguments (now_ms 0, "now", included), so the retry after XS_EBUFS
    // finds the kept report even though the clock has moved: the collection runs once.
    std::string key = std::to_string(o.dry_run) + ":" + std::to_string(o.grace_ms) + ":" + std::to_string(o.now_ms);
    return fill_once(st, OutputId::kBlobGc, key, buf, cap, out_len, [&]() -> Result<std::string> {
      auto report = st->store->collect_garbage(o);
      if (!report.ok()) return report.status();
      return xs::blobs::gc_report_json(*report);
    });
  });
}

xs_status xs_session_verify(xs_session* s, char* buf, size_t cap, size_t* out_len) {
  return guarded(s, [&] {
    return fill_once(s, OutputId::kVerify, "", buf, cap, out_len,
                     [&]() -> Result<std::string> { return s->impl->verify_json(); });
  });
}

xs_status xs_session_repair(xs_session* s, uint32_t flags, char* buf, size_t cap, size_t* out_len) {
  return guarded(s, [&]() -> Status {
    if (flags & ~XS_REPAIR_QUARANTINE) return Status::Invalid("unknown bits in the repair flags");
    auto mode =
        flags & XS_REPAIR_QUARANTINE ? xs::session::RepairMode::kQuarantine : xs::session::RepairMode::kKeepLines;
    // The flags are the key: only the retry of the same call copies the kept report.
    return fill_once(s, OutputId::kRepair, std::to_string(flags), buf, cap, out_len,
                     [&]() { return s->impl->repair(mode); });
  });
}

}  // extern "C"
