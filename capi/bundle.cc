// Portable bundles: xs_export and xs_import_bundle. Translation only: the arguments, the options,
// the bundle file on the local disk; the work is in core/bundle/ (docs/bundles.md).
#include <string>
#include <vector>

#include "bundle/export.h"
#include "bundle/import.h"
#include "handles.h"
#include "storage/fs.h"

using xs::Result;
using xs::Status;
using xs::capi::guarded;
using xs::capi::need_open;
using xs::capi::null_arg;
using xs::capi::OutputId;

namespace {

// The key of a call: every argument that shapes what it does, so a kept report serves only the
// retry of the same call.
std::string key_of(const std::vector<std::string>& strings, uint32_t flags) {
  std::string key = std::to_string(flags);
  key.push_back('\0');
  for (const std::string& s : strings) {
    key += std::to_string(s.size()) + ":" + s;
    key.push_back('\0');
  }
  return key;
}

Status translate(const xs_import_bundle_options* opts, xs::bundle::ImportOptions* out, uint32_t* flags) {
  if (!opts) return Status::Ok();
  XS_RETURN_IF_ERROR(
      xs::capi::check_struct_version(opts->version, XS_IMPORT_BUNDLE_OPTIONS_VERSION, "xs_import_bundle_options"));
  if (opts->flags & ~(XS_IMPORT_BUNDLE_RENAME | XS_IMPORT_BUNDLE_DRY_RUN)) {
    return Status::Invalid("unknown bits in xs_import_bundle_options.flags");
  }
  *flags = opts->flags;
  out->rename = opts->flags & XS_IMPORT_BUNDLE_RENAME;
  out->dry_run = opts->flags & XS_IMPORT_BUNDLE_DRY_RUN;
  if (opts->cwd_map_len % 2)
    return Status::Invalid("xs_import_bundle_options.cwd_map_len is odd: it counts pairs twice");
  if (opts->cwd_map_len && !opts->cwd_map) return null_arg("xs_import_bundle_options.cwd_map");
  for (size_t i = 0; i < opts->cwd_map_len; i += 2) {
    if (!opts->cwd_map[i] || !opts->cwd_map[i + 1]) return null_arg("a path of xs_import_bundle_options.cwd_map");
    out->cwd_map.emplace_back(opts->cwd_map[i], opts->cwd_map[i + 1]);
  }
  return Status::Ok();
}

}  // namespace

extern "C" {

xs_status xs_export_options_init(xs_export_options* o, uint32_t version) {
  if (!o) return XS_EINVAL;
  if (version != XS_EXPORT_OPTIONS_VERSION) return XS_EVERSION;
  *o = xs_export_options{};
  o->version = version;
  return XS_OK;
}

xs_status xs_import_bundle_options_init(xs_import_bundle_options* o, uint32_t version) {
  if (!o) return XS_EINVAL;
  if (version != XS_IMPORT_BUNDLE_OPTIONS_VERSION) return XS_EVERSION;
  *o = xs_import_bundle_options{};
  o->version = version;
  return XS_OK;
}

xs_status xs_export(xs_store* st, const char* const* session_ids, size_t n_ids, const char* out_path,
                    const xs_export_options* opts, char* buf, size_t cap, size_t* out_len) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(need_open(st));
    if (!session_ids) return null_arg("session_ids");
    if (n_ids == 0) return Status::Invalid("n_ids is 0: name at least one session");
    if (!out_path) return null_arg("out_path");
    if (!*out_path) return Status::Invalid("out_path is empty");
    uint32_t flags = 0;
    if (opts) {
      XS_RETURN_IF_ERROR(xs::capi::check_struct_version(opts->version, XS_EXPORT_OPTIONS_VERSION, "xs_export_options"));
      if (opts->flags & ~(XS_EXPORT_NO_LINEAGE | XS_EXPORT_GZIP)) {
        return Status::Invalid("unknown bits in xs_export_options.flags");
      }
      flags = opts->flags;
    }
    std::vector<std::string> ids;
    for (size_t i = 0; i < n_ids; ++i) {
      if (!session_ids[i]) return Status::Invalid("session_ids[" + std::to_string(i) + "] is NULL");
      ids.emplace_back(session_ids[i]);
    }
    xs::bundle::ExportOptions o;
    o.lineage = !(flags & XS_EXPORT_NO_LINEAGE);
    o.compression = flags & XS_EXPORT_GZIP ? xs::bundle::Compression::kGzip : xs::bundle::Compression::kZstd;
    std::vector<std::string> key_parts = ids;
    key_parts.push_back(out_path);
    uint64_t generation = xs::capi::retry_generation(st->cache, st->calls);
    return xs::capi::fill(st->cache, OutputId::kExport, key_of(key_parts, flags), generation, buf, cap, out_len,
                          [&]() -> Result<std::string> {
                            auto r =
                                xs::bundle::export_bundle(st->store, ids, xs::storage::make_posix_fs(), out_path, o);
                            if (!r.ok()) return r.status();
                            return xs::bundle::export_report_json(*r);
                          });
  });
}

xs_status xs_import_bundle(xs_store* st, const char* bundle_path, const xs_import_bundle_options* opts, char* buf,
                           size_t cap, size_t* out_len) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(need_open(st));
    if (!bundle_path) return null_arg("bundle_path");
    if (!*bundle_path) return Status::Invalid("bundle_path is empty");
    xs::bundle::ImportOptions o;
    uint32_t flags = 0;
    XS_RETURN_IF_ERROR(translate(opts, &o, &flags));
    std::vector<std::string> key_parts{bundle_path};
    for (const auto& [from, to] : o.cwd_map) {
      key_parts.push_back(from);
      key_parts.push_back(to);
    }
    uint64_t generation = xs::capi::retry_generation(st->cache, st->calls);
    return xs::capi::fill(st->cache, OutputId::kImportBundle, key_of(key_parts, flags), generation, buf, cap, out_len,
                          [&]() -> Result<std::string> {
                            auto r = xs::bundle::import_bundle(st->store, xs::storage::make_posix_fs(), bundle_path, o);
                            if (!r.ok()) return r.status();
                            return xs::bundle::import_report_json(*r);
                          });
  });
}

}  // extern "C"
