// The sessions of a store by id and by path, and a session file's bytes, as export and import
// both need them (docs/bundles.md).
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "discovery/session_info.h"
#include "storage/fs.h"
#include "store/store.h"
#include "util/status.h"

namespace xs::bundle {

struct StoreSessions {
  std::vector<discovery::SessionSummary> all;  // live and archived, path order
  std::unordered_map<std::string, std::vector<size_t>> by_id;
  std::unordered_map<std::string, size_t> by_path;

  // The one session of `id` (nullptr: none); kAmbiguous when several files claim it.
  Result<const discovery::SessionSummary*> find_id(const std::string& id) const;
  // The session a header's parentSession names: a path (pi's forks and every branched session;
  // also found once archived, as "<path>.gz") or an id (oh-my-pi's forks). nullptr: not here.
  const discovery::SessionSummary* find_parent(const std::string& parent) const;
};

Result<StoreSessions> index_sessions(const store::Store& store);

// The file's bytes as stored (an archive compressed), at most `max` of them (kLimit past that).
Status read_stored(storage::Fs& fs, const std::string& path, uint64_t max, storage::PaddedBuffer* out);

// The session text of stored bytes: an archive's inflated content, a live file's bytes as they are.
Status session_text(std::string_view stored, bool archived, std::string* out);

}  // namespace xs::bundle
