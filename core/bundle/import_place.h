// The second half of an import (docs/bundles.md#import): a verified bundle put in place. Blobs
// first (an entry may point at a blob only once it is there), then the sessions, each written
// whole beside its target and renamed there without replacing anything, then the key records in
// one update of the keyed store. A failure on the way removes what this import had placed.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bundle/bundle_reader.h"
#include "bundle/import.h"
#include "store/key_store.h"
#include "store/store.h"
#include "util/status.h"

namespace xs::bundle {

struct PlacedSession {
  std::string id;
  std::string new_id;  // empty: the id it had
  std::string path;    // where it goes (or, when present, where it is)
  std::string cwd;
  std::optional<std::string> old_cwd;
  bool archived = false;
  std::string action;                 // "imported", "renamed" or "present"
  std::string_view bytes;             // what the file will hold: the carried bytes, or `owned`
  ReceivedSession* staged = nullptr;  // when `bytes` are the carried ones: their staged copy
  std::string owned;                  // the bytes when the header changed
  std::string existing;               // the file of another content that holds its id (a clash)
};

class Placement {
 public:
  // `staging` is null on a dry run: then nothing is written, and the report says what would be.
  Placement(std::shared_ptr<store::Store> store, Staging* staging, bool dry_run);
  ~Placement();
  Placement(const Placement&) = delete;
  Placement& operator=(const Placement&) = delete;

  // Places everything and fills report->blobs and report->keys.
  Status run(const std::vector<StagedBlob>& blobs, const std::vector<PlacedSession>& sessions,
             const std::vector<store::KeyRecord>& keys, ImportReport* report);

 private:
  Result<std::string> place_blob(const StagedBlob& b);
  Status place_session(const PlacedSession& s);
  Status place_keys(const std::vector<store::KeyRecord>& keys, ImportReport* report);

  std::shared_ptr<store::Store> store_;
  Staging* staging_;
  bool dry_run_;
  std::vector<std::string> made_;  // files this import created, removed again unless it succeeds
  bool done_ = false;
};

}  // namespace xs::bundle
