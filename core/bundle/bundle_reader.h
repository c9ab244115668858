// The first half of an import (docs/bundles.md#what-an-import-refuses): the bundle read member by
// member and held to its manifest. Sessions and key records are kept in memory; blobs stream into
// staging files in the store's root (none on a dry run), which go with the Received unless placed.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "bundle/bundle_format.h"
#include "storage/buffer.h"
#include "storage/fs.h"
#include "util/status.h"

namespace xs::bundle {

// Staging files ".xs-bundle-<random>-<n>" in the store root, removed when this dies unless
// release()d (a placed file is no longer staged). While it lives, the import holds the lock
// ".xs-bundle-<random>.lock" beside them, so that the next import can tell a crashed one's
// leftovers from a running one's (docs/bundles.md#staging-files).
class Staging {
 public:
  // Sweeps what crashed imports left in `root` (sweep_staging). Nothing is created before the
  // first next_path().
  Staging(std::shared_ptr<storage::Fs> fs, std::string root);
  ~Staging();
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;
  // A new staging file's path; the first call makes the root and takes the lock.
  Result<std::string> next_path();
  void release(const std::string& path);

 private:
  std::shared_ptr<storage::Fs> fs_;
  std::string root_, token_;
  std::unique_ptr<storage::FileLock> lock_;
  size_t n_ = 0;
  std::vector<std::string> paths_;
};

// Removes the staging files of imports that died in `root`: those whose lock nobody holds. A lock
// file is removed with them once it is a minute old (a younger one may be one an import has just
// created and not yet locked). Best effort: what cannot be listed, locked or removed stays for the
// next import. Returns how many staging files it removed.
size_t sweep_staging(storage::Fs& fs, const std::string& root);

struct StagedBlob {
  std::string hash;
  uint64_t size = 0;
  std::string staged;  // empty on a dry run
};

// A session member as read: its bytes, and (unless a dry run) the same bytes in a staging file
// whose writing to the disk began while the bundle was read. A session that goes in as carried
// is that file, synced and renamed into place: not written again (docs/bundles.md#import).
struct ReceivedSession {
  storage::PaddedBuffer bytes;
  std::string staged;                           // "" on a dry run
  std::unique_ptr<storage::WritableFile> file;  // open on `staged`, not yet synced
};

struct Received {
  Manifest manifest;
  std::unordered_map<std::string, ReceivedSession> sessions;  // member -> bytes
  std::string keys;                                           // keys.json, empty when absent
  std::vector<StagedBlob> blobs;                              // in archive order, synced
};

// Reads the whole bundle, refusing it (kCorrupt, with the member and the reason) at the first
// member that is not as the manifest says: manifest.json missing or not first; a member with an
// absolute or ".." path, one that is not a regular file (links, devices), one not in the manifest,
// one that appears twice, one larger than declared (reading stops one byte past the declared size)
// or whose SHA-256 differs; a member the manifest lists that never comes; a stream that inflates
// past what the manifest declares. `staging` null: a dry run, nothing is written.
Result<Received> read_bundle(const std::shared_ptr<storage::Fs>& bundle_fs, const std::string& bundle_path,
                             Staging* staging, storage::Fs* store_fs);

}  // namespace xs::bundle
