// A session bound to a key of the keyed store reports its stats into that key's record
// (docs/session-stats.md#binding-a-session-to-a-key): the store's side of stats::StatsSink, and the repair of records
// whose stats disagree with a recount of their session (xs_keys_fix_stats, `xs verify --fix-stats`).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "stats/session_stats.h"
#include "storage/fs.h"
#include "store/key_store.h"
#include "store/store.h"
#include "util/status.h"

namespace xs::store {

// The record `record` (minified) with the snapshot's stat fields set in place (new ones last):
// inputTokens ... toolCalls (stats::stat_fields); with `identity` also sessionId, sessionFile and
// updatedAt, which go first in a new record. Every other field stays as it was.
Result<std::string> with_stats(std::string_view record, const stats::Snapshot& snapshot, bool identity);

// Writes a bound session's stats into its key's record, through a KeyStore of its own on the
// store's document (the same lock and atomic replace as every other writer).
class KeyStatsSink : public stats::StatsSink {
 public:
  KeyStatsSink(std::shared_ptr<storage::Fs> fs, std::string document, std::string key);
  Status check() const override { return KeyStore::check_key(key_); }
  // The record exists, names `session_id` and has the stats fields (messageCounts marks them).
  Result<bool> holds_stats_of(std::string_view session_id) const override;
  Status publish(const stats::Snapshot& snapshot) override;

 private:
  KeyStore keys_;
  std::string key_;
};

// Recounts the session of every record whose key starts with `prefix` (opened read-only: its
// sessionFile, else its sessionId resolved in the store) and rewrites the stat fields of the
// records that differ, each under the document's lock (a record whose sessionId changed meanwhile
// is left alone). Returns what it did as JSON:
//   {"checked":N,"fixed":[{"key","sessionId","before":{field: old or null},"after":{field: new}}],
//    "skipped":[{"key","reason"}]}
// listing in before/after only the fields that changed.
Result<std::string> fix_key_stats(Store& store, std::string_view prefix);

}  // namespace xs::store
