// Export: sessions of a store into one portable bundle (docs/bundles.md#export). The named
// sessions, the sessions they descend from (parentSession, followed to the root unless lineage is
// off), every blob they reference and the keyed-store records that point at them, each file byte
// for byte, behind a manifest that lists every member's SHA-256 and size.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bundle/archive_io.h"
#include "storage/fs.h"
#include "store/store.h"
#include "util/status.h"

namespace xs::bundle {

struct ExportOptions {
  bool lineage = true;
  Compression compression = Compression::kZstd;
};

struct ExportedSession {
  std::string id;
  std::string path;  // in the source store
  std::string cwd;
  bool archived = false;
  bool lineage = false;
  uint64_t bytes = 0;
  std::optional<std::string> parent_session;
  bool parent_in_bundle = false;
};

struct ExportReport {
  std::string path;  // the bundle
  uint64_t bytes = 0;
  Compression compression = Compression::kZstd;
  std::vector<ExportedSession> sessions;
  std::vector<std::pair<std::string, uint64_t>> blobs;  // hash, size
  std::vector<std::string> missing_blobs;               // referenced, not in the blob store
  std::vector<std::string> keys;
};

// Writes the bundle of `refs` (ids, unambiguous id prefixes or session file paths) to `out_path`
// through `out_fs` (replacing a file there whole). kNotFound for a session the store does not
// have, kAmbiguous, kInvalid (no refs; a session whose id or file cannot travel), kCorrupt (a
// damaged blob or archive), kConflict (a file changed while it was exported), kIo.
Result<ExportReport> export_bundle(const std::shared_ptr<store::Store>& store, const std::vector<std::string>& refs,
                                   const std::shared_ptr<storage::Fs>& out_fs, const std::string& out_path,
                                   const ExportOptions& options);

// {"path","bytes","compression","sessions":[{"id","path","cwd","archived","lineage","bytes",
// "parentSession","parentInBundle"}],"blobs":[{"hash","bytes"}],"missingBlobs":[…],"keys":[…]}
std::string export_report_json(const ExportReport& r);

}  // namespace xs::bundle
