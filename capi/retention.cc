// Retention: archive and prune. Translation only; the work is in core/retention/.
#include "retention/retention.h"
#include "handles.h"

using xs::Code;
using xs::Result;
using xs::Status;
using xs::capi::guarded;
using xs::capi::need_open;
using xs::capi::OutputId;

namespace {

struct Limits {
  int64_t older_than_ms = 0;
  int64_t now_ms = 0;
  bool dry_run = false;
};

Status translate(const xs_archive_options* opts, Limits* out) {
  if (!opts) return Status::Invalid("xs_archive_options are required: older_than_ms is the caller's choice");
  if (opts->version != XS_ARCHIVE_OPTIONS_VERSION)
    return Status(Code::kVersion, "unsupported xs_archive_options version");
  if (opts->flags & ~XS_ARCHIVE_DRY_RUN) return Status::Invalid("unknown bits in xs_archive_options.flags");
  if (opts->older_than_ms < 0) return Status::Invalid("xs_archive_options.older_than_ms is not set (or negative)");
  out->older_than_ms = opts->older_than_ms;
  out->now_ms = opts->now_ms;
  out->dry_run = opts->flags & XS_ARCHIVE_DRY_RUN;
  return Status::Ok();
}

// One run of `work` per call: the report is kept for the retry right after XS_EBUFS, which copies
// it. The caller's arguments are the key ("now" 0 included), so the run is never repeated for it.
template <class F>
xs_status run_once(xs_store* st, OutputId fn, const xs_archive_options* opts, char* buf, size_t cap, size_t* out_len,
                   F&& work) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(need_open(st));
    Limits l;
    XS_RETURN_IF_ERROR(translate(opts, &l));
    std::string key =
        std::to_string(l.dry_run) + ":" + std::to_string(l.older_than_ms) + ":" + std::to_string(l.now_ms);
    uint64_t generation = xs::capi::retry_generation(st->cache, st->calls);
    return xs::capi::fill(st->cache, fn, key, generation, buf, cap, out_len, [&] { return work(l); });
  });
}

}  // namespace

extern "C" {

xs_status xs_archive_options_init(xs_archive_options* o, uint32_t version) {
  if (!o) return XS_EINVAL;
  if (version != XS_ARCHIVE_OPTIONS_VERSION) return XS_EVERSION;
  *o = xs_archive_options{};
  o->version = version;
  o->older_than_ms = -1;
  return XS_OK;
}

xs_status xs_store_archive(xs_store* st, const xs_archive_options* opts, char* buf, size_t cap, size_t* out_len) {
  return run_once(st, OutputId::kArchive, opts, buf, cap, out_len, [&](const Limits& l) -> Result<std::string> {
    xs::retention::ArchiveOptions o;
    o.older_than_ms = l.older_than_ms;
    o.now_ms = l.now_ms;
    o.dry_run = l.dry_run;
    if (opts->progress) {
      // This call holds st's lock while progress runs: a call on st from it is refused, not a deadlock.
      o.progress = [opts, st](uint64_t done, uint64_t total) {
        xs::capi::InCallback mark(st);
        opts->progress(done, total, opts->progress_user);
      };
    }
    auto report = st->store->archive(o);
    if (!report.ok()) return report.status();
    return xs::retention::archive_report_json(*report);
  });
}

xs_status xs_store_prune(xs_store* st, const xs_archive_options* opts, char* buf, size_t cap, size_t* out_len) {
  return run_once(st, OutputId::kPrune, opts, buf, cap, out_len, [&](const Limits& l) -> Result<std::string> {
    auto report = st->store->prune({l.now_ms, l.older_than_ms, l.dry_run});
    if (!report.ok()) return report.status();
    return xs::retention::prune_report_json(*report);
  });
}

}  // extern "C"
