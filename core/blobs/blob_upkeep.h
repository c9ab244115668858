// Upkeep of the blob store (<root>/blobs): listing, verifying and garbage collection.
//
// Collection is mark and sweep. Mark reads every regular file under the store root (sessions,
// their .corrupt-* copies and backups alike; the blobs directory excepted) and keeps every hash
// any of them mentions. If any file cannot be read, nothing is deleted: a sweep after an
// incomplete mark could delete a blob a session still needs. Archived sessions ("*.jsonl.gz",
// docs/retention.md) are read inflated, so a blob only an archive names is kept. Sweep deletes unreferenced blobs,
// and leftover temp files of interrupted puts, only when older than the grace period
// (default 1 hour, docs/decisions.md#3-blobs), so a put whose entry is not appended yet survives.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "blobs/blob_store.h"
#include "storage/fs.h"
#include "util/status.h"

namespace xs::blobs {

constexpr int64_t kDefaultGraceMs = 3600 * 1000;

struct BlobFile {
  std::string name;  // the hash, for a blob; the file name, for anything else
  uint64_t size = 0;
  int64_t mtime_ms = 0;
  std::string problem;  // after verification: "" when the content matches its name, else why not
};

struct BlobListing {
  std::vector<BlobFile> blobs;   // files named by a hash, sorted by name
  std::vector<BlobFile> others;  // anything else in the directory (temp files of puts...), sorted
};

// The blob directory's files (an absent directory is an empty store). With `verify`, every blob
// is read and hashed; mismatches and unreadable blobs get a `problem`.
Result<BlobListing> list_blobs(storage::Fs& fs, BlobStore& store, bool verify);
std::string listing_json(const BlobListing& listing, bool verified);

struct GcOptions {
  int64_t grace_ms = kDefaultGraceMs;
  int64_t now_ms = 0;
  bool dry_run = false;
};

struct GcReport {
  uint64_t files_scanned = 0;        // files read by the mark phase
  uint64_t referenced = 0;           // distinct hashes they mention that are in the store
  std::vector<BlobFile> deleted;     // (would be, on a dry run) deleted
  std::vector<BlobFile> young;       // unreferenced but within the grace period: kept
  std::vector<std::string> missing;  // referenced but not in the store (reported, sorted)
  bool dry_run = false;
};

Result<GcReport> collect_garbage(storage::Fs& fs, BlobStore& store, const std::string& root, const GcOptions& o);
std::string gc_report_json(const GcReport& report);

}  // namespace xs::blobs
