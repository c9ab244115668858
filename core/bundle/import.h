// Import: a portable bundle into a store (docs/bundles.md#import). Every member is checked against
// the manifest (name, kind, size, SHA-256) while it is read, before anything is placed; a bundle
// that fails any check leaves the store as it was. Sessions go to the directory of their cwd (a
// cwd map rewrites it and the header records the old one), blobs to the blob store (identical
// ones kept), key records into the keyed store (an existing record of another content kept).
// Importing the same bundle again changes nothing; a session id the store holds with other bytes
// is refused (kExists) unless rename gives the bundle's copy a new id.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bundle/bundle_format.h"
#include "storage/fs.h"
#include "store/store.h"
#include "util/status.h"

namespace xs::bundle {

struct ImportOptions {
  bool rename = false;
  bool dry_run = false;  // verify everything and say what would happen; write nothing
  CwdMap cwd_map;
};

struct ImportedSession {
  std::string id;                      // as the bundle carries it
  std::string new_id;                  // empty unless renamed
  std::string path;                    // in the target store
  std::string cwd;                     // as placed
  std::optional<std::string> old_cwd;  // the carried cwd, when a cwd map rewrote it
  bool archived = false;
  std::string action;  // "imported", "renamed" or "present" (already there, byte for byte)
};

struct ImportReport {
  bool dry_run = false;
  std::string bundle;
  std::string source_root;
  std::vector<ImportedSession> sessions;
  std::vector<std::pair<std::string, std::string>> blobs;  // hash, "imported" or "present"
  std::vector<std::pair<std::string, std::string>> keys;   // key, "imported", "present" or "kept"
};

// Imports the bundle at `bundle_path`, read through `bundle_fs`, into `store`. kCorrupt for a bundle
// that fails a check (the message says which and what), kVersion for a newer format, kExists for
// an id clash without rename, kInvalid (options), kNotFound (no such bundle), kIo.
Result<ImportReport> import_bundle(const std::shared_ptr<store::Store>& store,
                                   const std::shared_ptr<storage::Fs>& bundle_fs, const std::string& bundle_path,
                                   const ImportOptions& options);

// {"dryRun","bundle","sourceRoot","sessions":[{"id","newId","path","cwd","oldCwd","archived",
// "action"}],"blobs":[{"hash","action"}],"keys":[{"key","action"}]}
std::string import_report_json(const ImportReport& r);

}  // namespace xs::bundle
