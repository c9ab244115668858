#include "blobs/blob_upkeep.h"

#include <algorithm>
#include <set>
#include <unordered_set>

#include "blobs/blob_refs.h"
#include "json/json_string.h"
#include "storage/gzip.h"
#include "storage/path.h"

namespace xs::blobs {

namespace {

constexpr int kMaxWalkDepth = 64;  // a deeper tree is a symlink loop, not a store

bool is_put_leftover(const std::string& name) {
  // atomic_replace names its temp files ".<target>.xs-tmp-<random>"; the target is a hash here.
  return name.size() > 1 && name[0] == '.' && is_blob_hash(std::string_view(name).substr(1, 64)) &&
         std::string_view(name).substr(65, 8) == ".xs-tmp-";
}

void append_file(std::string& out, const BlobFile& f, const char* name_key, bool with_problem) {
  out += "{\"";
  out += name_key;
  out += "\":";
  json::append_quoted_lossy(out, f.name);
  out += ",\"size\":" + std::to_string(f.size) + ",\"mtimeMs\":" + std::to_string(f.mtime_ms);
  if (with_problem) {
    out += ",\"problem\":";
    if (f.problem.empty())
      out += "null";
    else
      json::append_quoted_lossy(out, f.problem);
  }
  out += '}';
}

void append_files(std::string& out, const char* key, const std::vector<BlobFile>& files, const char* name_key,
                  bool with_problem) {
  out += ",\"";
  out += key;
  out += "\":[";
  for (size_t i = 0; i < files.size(); ++i) {
    if (i) out += ',';
    append_file(out, files[i], name_key, with_problem);
  }
  out += ']';
}

// Mark: every hash mentioned by any regular file under `dir` (recursively), `skip` excepted.
Status mark(storage::Fs& fs, const std::string& dir, const std::string& skip, int depth,
            std::unordered_set<std::string>* marked, uint64_t* files) {
  if (depth > kMaxWalkDepth) return Status::Limit(dir + ": directories nested too deeply to scan (a link loop?)");
  auto names = fs.list_dir(dir);
  if (!names.ok()) return names.status().With("scanning " + dir + " for blob references");
  std::sort(names->begin(), names->end());
  for (const std::string& name : *names) {
    std::string path = storage::join_path(dir, name);
    if (path == skip) continue;
    auto info = fs.stat(path);
    if (info.status().code() == Code::kNotFound) continue;  // removed meanwhile (a temp file, a lock)
    if (!info.ok()) return info.status().With("scanning for blob references");
    if (info->is_dir) {
      XS_RETURN_IF_ERROR(mark(fs, path, skip, depth + 1, marked, files));
      continue;
    }
    if (!info->is_regular) continue;
    storage::PaddedBuffer bytes;
    Status st = fs.read_file(path, UINT64_MAX, &bytes);
    if (st.code() == Code::kNotFound) continue;
    if (!st.ok()) return st.With("reading " + path + " for blob references; nothing was deleted");
    // An archived session (docs/retention.md) names its blobs inside the compressed bytes.
    if (storage::is_archive_path(name)) {
      storage::PaddedBuffer inflated;
      st = storage::gunzip(bytes.view(), storage::kMaxInflatedBytes, &inflated);
      if (!st.ok()) return st.With("inflating " + path + " for blob references; nothing was deleted");
      bytes = std::move(inflated);
    }
    ++*files;
    for (std::string_view h : find_blob_refs(bytes.view())) marked->emplace(h);
  }
  return Status::Ok();
}

}  // namespace

Result<BlobListing> list_blobs(storage::Fs& fs, BlobStore& store, bool verify) {
  BlobListing out;
  auto names = fs.list_dir(store.dir());
  if (names.status().code() == Code::kNotFound) return out;
  if (!names.ok()) return names.status();
  std::sort(names->begin(), names->end());
  for (const std::string& name : *names) {
    auto info = fs.stat(storage::join_path(store.dir(), name));
    if (info.status().code() == Code::kNotFound) continue;
    if (!info.ok()) return info.status();
    BlobFile f{name, info->size, info->mtime_ms, ""};
    if (!is_blob_hash(name) || !info->is_regular) {
      out.others.push_back(std::move(f));
      continue;
    }
    if (verify) {
      Status st = store.check(name);
      if (!st.ok()) f.problem = st.message();
    }
    out.blobs.push_back(std::move(f));
  }
  return out;
}

std::string listing_json(const BlobListing& listing, bool verified) {
  std::string out = "{\"count\":" + std::to_string(listing.blobs.size());
  uint64_t bytes = 0;
  for (const BlobFile& f : listing.blobs) bytes += f.size;
  out += ",\"bytes\":" + std::to_string(bytes);
  append_files(out, "blobs", listing.blobs, "hash", verified);
  append_files(out, "others", listing.others, "name", false);
  out += '}';
  return out;
}

Result<GcReport> collect_garbage(storage::Fs& fs, BlobStore& store, const std::string& root, const GcOptions& o) {
  GcReport report;
  report.dry_run = o.dry_run;
  std::unordered_set<std::string> marked;
  XS_RETURN_IF_ERROR(mark(fs, root, store.dir(), 0, &marked, &report.files_scanned));
  auto listing = list_blobs(fs, store, false);
  if (!listing.ok()) return listing.status();
  std::set<std::string> present;
  std::vector<BlobFile> candidates;
  for (BlobFile& f : listing->blobs) {
    present.insert(f.name);
    if (marked.count(f.name)) {
      ++report.referenced;
    } else {
      candidates.push_back(std::move(f));
    }
  }
  for (BlobFile& f : listing->others) {
    if (is_put_leftover(f.name)) candidates.push_back(std::move(f));
  }
  for (BlobFile& f : candidates) {
    if (o.now_ms - f.mtime_ms < o.grace_ms) {
      report.young.push_back(std::move(f));
      continue;
    }
    if (!o.dry_run) {
      Status st = fs.unlink(storage::join_path(store.dir(), f.name));
      if (!st.ok() && st.code() != Code::kNotFound) return st.With("deleting blob " + f.name);
    }
    report.deleted.push_back(std::move(f));
  }
  for (const std::string& h : marked) {
    if (!present.count(h)) report.missing.push_back(h);
  }
  std::sort(report.missing.begin(), report.missing.end());
  if (!o.dry_run && !report.deleted.empty()) XS_RETURN_IF_ERROR(fs.sync_dir(store.dir()));
  return report;
}

std::string gc_report_json(const GcReport& r) {
  std::string out = "{\"dryRun\":";
  out += r.dry_run ? "true" : "false";
  out += ",\"filesScanned\":" + std::to_string(r.files_scanned);
  out += ",\"referenced\":" + std::to_string(r.referenced);
  uint64_t freed = 0;
  for (const BlobFile& f : r.deleted) freed += f.size;
  out += ",\"bytesFreed\":" + std::to_string(freed);
  append_files(out, "deleted", r.deleted, "name", false);
  append_files(out, "young", r.young, "name", false);
  out += ",\"missing\":[";
  for (size_t i = 0; i < r.missing.size(); ++i) {
    if (i) out += ',';
    json::append_quoted(out, r.missing[i]);
  }
  out += "]}";
  return out;
}

}  // namespace xs::blobs
