// The HTML view (xs_export_html): argument checks and one call to html::export_html, which owns
// the page and the rules (docs/html-view.md).
#include <string>
#include <vector>

#include "handles.h"
#include "html/html_export.h"
#include "storage/fs.h"

using xs::Result;
using xs::Status;
using xs::capi::guarded;
using xs::capi::null_arg;
using xs::capi::OutputId;

extern "C" {

xs_status xs_html_options_init(xs_html_options* o, uint32_t version) {
  if (!o) return XS_EINVAL;
  if (version != XS_HTML_OPTIONS_VERSION) return XS_EVERSION;
  *o = xs_html_options{};
  o->version = version;
  return XS_OK;
}

xs_status xs_export_html(xs_store* st, const char* const* session_ids, size_t n_ids, const char* out_path,
                         const xs_html_options* opts, char* buf, size_t cap, size_t* out_len) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(xs::capi::need_open(st));
    if (!session_ids) return null_arg("session_ids");
    if (!out_path) return null_arg("out_path");
    if (n_ids == 0) return Status::Invalid("n_ids is 0: name at least one session");
    if (opts) {
      XS_RETURN_IF_ERROR(xs::capi::check_struct_version(opts->version, XS_HTML_OPTIONS_VERSION, "xs_html_options"));
      if (opts->flags) return Status::Invalid("unknown bits in xs_html_options.flags");
    }
    std::vector<std::string> refs;
    std::string key = xs::capi::call_key({out_path}, {static_cast<int64_t>(n_ids)});
    for (size_t i = 0; i < n_ids; ++i) {
      if (!session_ids[i]) return null_arg(("session_ids[" + std::to_string(i) + "]").c_str());
      refs.emplace_back(session_ids[i]);
      key += xs::capi::call_key({session_ids[i]}, {});
    }
    uint64_t generation = xs::capi::retry_generation(st->cache, st->calls);
    return xs::capi::fill(st->cache, OutputId::kExportHtml, key, generation, buf, cap, out_len,
                          [&]() -> Result<std::string> {
                            // Pages are for a browser on this machine: the local disk, whatever
                            // file system the store's sessions are on.
                            std::shared_ptr<xs::storage::Fs> disk = xs::storage::make_posix_fs();
                            auto report = xs::html::export_html(*st->store, *disk, refs, out_path);
                            if (!report.ok()) return report.status();
                            return xs::html::report_json(*report);
                          });
  });
}

}  // extern "C"
