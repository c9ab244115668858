// Import and foreign listings. Translation only: the kind and path checks, the options, and which
// core entry point a kind and path go to; the work is in core/import/.
#include <chrono>
#include <cstddef>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "handles.h"
#include "import/claude/importer.h"
#include "import/claude/reader.h"
#include "import/codex/importer.h"
#include "import/codex/reader.h"
#include "import/gateway/importer.h"
#include "import/gateway/reader.h"
#include "import/myagents/importer.h"
#include "import/myagents/reader.h"
#include "json/json_string.h"
#include "storage/fs.h"

using xs::Code;
using xs::Result;
using xs::Status;
using xs::capi::guarded;
using xs::capi::need_open;
using xs::capi::null_arg;
using xs::capi::OutputId;

namespace {

enum class Kind { kClaude, kMyAgents, kGateway, kCodex };

struct Request {
  Kind kind = Kind::kClaude;
  std::string path;  // without trailing slashes
  bool dry_run = false;
  std::optional<std::string> target_cwd;
  std::string fallback_cwd;
  int64_t lock_wait_ms = 2000;
  int64_t now_ms = 0;
  xs::import::ImportProgressFn progress;  // not part of key(): it does not shape the report

  // Every argument that shapes the result: a cached result serves only the same request.
  std::string key() const {
    return std::to_string(static_cast<int>(kind)) + ":" + std::to_string(dry_run) + ":" + std::to_string(lock_wait_ms) +
           ":" + std::to_string(now_ms) + ":" + std::to_string(path.size()) + ":" + path + ":" +
           (target_cwd ? "t" + *target_cwd : "-") + ":" + fallback_cwd;
  }
  xs::import::ReadOptions read_options() const {
    xs::import::ReadOptions r;
    r.lock_wait = std::chrono::milliseconds(lock_wait_ms);
    r.now_ms = now_ms;
    return r;
  }
};

Status parse_kind(const char* kind, Kind* out) {
  if (!kind) return null_arg("kind");
  std::string_view k(kind);
  if (k == "claude") {
    *out = Kind::kClaude;
  } else if (k == "myagents") {
    *out = Kind::kMyAgents;
  } else if (k == "gateway") {
    *out = Kind::kGateway;
  } else if (k == "codex") {
    *out = Kind::kCodex;
  } else {
    return Status::Invalid("unknown import kind \"" + xs::json::to_valid_utf8(k) +
                           "\" (expected \"claude\", \"myagents\", \"gateway\" or \"codex\")");
  }
  return Status::Ok();
}

// A session's cwd: absolute, no "." or ".." components (it names where the session ran).
Status check_cwd(const char* cwd, const char* field) {
  std::string_view c(cwd);
  if (c.empty() || c.front() != '/') return Status::Invalid(std::string(field) + " must be an absolute path");
  size_t start = 1;
  while (start <= c.size()) {
    size_t end = c.find('/', start);
    if (end == std::string_view::npos) end = c.size();
    std::string_view part = c.substr(start, end - start);
    if (part == "." || part == "..") {
      return Status::Invalid(std::string(field) + " must not have \".\" or \"..\" components");
    }
    start = end + 1;
  }
  return Status::Ok();
}

Status translate(const char* kind, const char* source_path, const xs_import_options* opts, bool importing,
                 Request* out) {
  XS_RETURN_IF_ERROR(parse_kind(kind, &out->kind));
  if (!source_path) return null_arg("source_path");
  out->path = source_path;
  if (out->path.empty()) return Status::Invalid("source_path is empty");
  while (out->path.size() > 1 && out->path.back() == '/') out->path.pop_back();
  if (!opts) return Status::Ok();
  if (opts->version != 1) {
    XS_RETURN_IF_ERROR(xs::capi::check_struct_version(opts->version, XS_IMPORT_OPTIONS_VERSION, "xs_import_options"));
  }
  if (opts->lock_wait_ms < 0) return Status::Invalid("xs_import_options.lock_wait_ms is negative");
  out->lock_wait_ms = opts->lock_wait_ms;
  out->now_ms = opts->now_ms;
  if (!importing) return Status::Ok();
  if (opts->flags & ~XS_IMPORT_DRY_RUN) return Status::Invalid("unknown bits in xs_import_options.flags");
  out->dry_run = opts->flags & XS_IMPORT_DRY_RUN;
  if (opts->version >= 2 && opts->progress) {
    out->progress = [fn = opts->progress, user = opts->progress_user](uint64_t done, uint64_t total) {
      fn(done, total, user);
    };
  }
  if (opts->target_cwd) {
    if (out->kind != Kind::kClaude) {
      return Status::Invalid("xs_import_options.target_cwd is for \"claude\" (use fallback_cwd)");
    }
    XS_RETURN_IF_ERROR(check_cwd(opts->target_cwd, "xs_import_options.target_cwd"));
    out->target_cwd = opts->target_cwd;
  }
  if (opts->fallback_cwd) {
    if (out->kind == Kind::kClaude) {
      return Status::Invalid(
          "xs_import_options.fallback_cwd is for \"gateway\", \"myagents\" and \"codex\" (use target_cwd)");
    }
    XS_RETURN_IF_ERROR(check_cwd(opts->fallback_cwd, "xs_import_options.fallback_cwd"));
    out->fallback_cwd = opts->fallback_cwd;
  }
  return Status::Ok();
}

// The source must be a directory: a missing path is kNotFound, a file kInvalid, each said plainly
// (the core readers would give a bare "not a directory").
Status check_source_dir(xs::storage::Fs& fs, const std::string& path) {
  auto info = fs.stat(path);
  if (!info.ok()) {
    if (info.status().code() == Code::kNotFound) {
      return Status::NotFound("import source " + xs::json::to_valid_utf8(path) + " does not exist");
    }
    return info.status();
  }
  if (!info->is_dir) return Status::Invalid("import source " + xs::json::to_valid_utf8(path) + " is not a directory");
  return Status::Ok();
}

Result<xs::import::ImportReport> run_import(xs::store::Store& store, const std::shared_ptr<xs::storage::Fs>& source,
                                            const Request& r) {
  if (r.kind == Kind::kClaude) {
    xs::import::claude::ImportOptions o;
    o.dry_run = r.dry_run;
    o.target_cwd = r.target_cwd;
    o.progress = r.progress;
    return xs::import::claude::import_path(store, source, r.path, o);
  }
  xs::import::ImportOptions o;
  o.dry_run = r.dry_run;
  o.read = r.read_options();
  o.fallback_cwd = r.fallback_cwd;
  o.progress = r.progress;
  if (r.kind == Kind::kGateway) return xs::import::gateway::import_store(*source, r.path, store, o);
  if (r.kind == Kind::kCodex) return xs::import::codex::import_sessions(*source, r.path, store, o);
  return xs::import::myagents::import_store(*source, r.path, store, o);
}

Result<std::string> import_json(xs::store::Store& store, const Request& r) {
  std::shared_ptr<xs::storage::Fs> source = xs::storage::make_posix_fs();
  XS_RETURN_IF_ERROR(check_source_dir(*source, r.path));
  auto report = run_import(store, source, r);
  if (!report.ok()) return report.status();
  return report->to_json();
}

Result<std::string> listing_json(const Request& r) {
  std::shared_ptr<xs::storage::Fs> source = xs::storage::make_posix_fs();
  XS_RETURN_IF_ERROR(check_source_dir(*source, r.path));
  if (r.kind == Kind::kGateway) {
    auto listing = xs::import::gateway::list(*source, r.path, r.read_options());
    if (!listing.ok()) return listing.status();
    return xs::import::gateway::listing_json(*listing);
  }
  if (r.kind == Kind::kMyAgents) {
    auto listing = xs::import::myagents::list(*source, r.path, r.read_options());
    if (!listing.ok()) return listing.status();
    return xs::import::myagents::listing_json(*listing);
  }
  if (r.kind == Kind::kCodex) return xs::import::codex::list_json(*source, r.path);
  return xs::import::claude::list_json(source, r.path);
}

}  // namespace

extern "C" {

xs_status xs_import_options_init(xs_import_options* o, uint32_t version) {
  if (!o) return XS_EINVAL;
  if (version != 1 && version != XS_IMPORT_OPTIONS_VERSION) return XS_EVERSION;
  // A version 1 caller's struct ends before progress: write only what it has.
  std::memset(o, 0, version == 1 ? offsetof(xs_import_options, progress) : sizeof *o);
  o->version = version;
  o->lock_wait_ms = 2000;
  return XS_OK;
}

xs_status xs_import(xs_store* st, const char* kind, const char* source_path, const xs_import_options* opts, char* buf,
                    size_t cap, size_t* out_len) {
  return guarded(st, [&]() -> Status {
    XS_RETURN_IF_ERROR(need_open(st));
    Request r;
    XS_RETURN_IF_ERROR(translate(kind, source_path, opts, true, &r));
    if (r.progress) {
      // This call holds st's lock while progress runs: a call on st from it is refused, not a deadlock.
      r.progress = [st, inner = std::move(r.progress)](uint64_t done, uint64_t total) {
        xs::capi::InCallback mark(st);
        inner(done, total);
      };
    }
    uint64_t generation = xs::capi::retry_generation(st->cache, st->calls);
    return xs::capi::fill(st->cache, OutputId::kImport, r.key(), generation, buf, cap, out_len,
                          [&] { return import_json(*st->store, r); });
  });
}

xs_status xs_foreign_list(xs_store* st, const char* kind, const char* source_path, const xs_import_options* opts,
                          char* buf, size_t cap, size_t* out_len) {
  return guarded(st, [&]() -> Status {
    Request r;
    XS_RETURN_IF_ERROR(translate(kind, source_path, opts, false, &r));
    uint64_t generation = xs::capi::retry_generation(st->cache, st->calls);
    return xs::capi::fill(st->cache, OutputId::kForeignList, r.key(), generation, buf, cap, out_len,
                          [&] { return listing_json(r); });
  });
}

}  // extern "C"
