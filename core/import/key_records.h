// The keys of a gateway's `sessions.json`, mapped into our keyed store
// (docs/import-hosts.md#keys): the record kept member for member, in order and token for token,
// its `sessionFile` pointing at our copy of the transcript, and one member of ours,
// `importedFrom`, that marks it as an import (and keeps the gateway's own sessionFile).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "import/gateway/reader.h"
#include "import/import_report.h"
#include "store/key_store.h"
#include "store/store.h"
#include "util/status.h"

namespace xs::import {

// What becomes of an imported record where our store may already hold the key.
enum class KeyDecision {
  kWrite,    // new, or an earlier import's record that the source changed (its members set one by one)
  kSame,     // an earlier import already wrote exactly this
  kOwn,      // the key is this store's own (no importedFrom): left as it is
  kMovedOn,  // it names another session, updated later than the source's: left as it is
};
// Decides, and sets *out to the record to write for kWrite. `fresh` is minified.
KeyDecision decide_key(std::optional<std::string_view> current, const std::string& fresh, std::string* out);
// "the key is ..." for the skipped rows of kOwn and kMovedOn.
const char* decision_reason(KeyDecision d);

// An index in the report (docs/import-hosts.md#keys): a "session" whose source is the index file,
// whose native file is our keyed document and whose rows are its keys or elements; `problems`
// (refused rows, or the index as a whole at line 0) go into the report, the refused rows counted.
ImportedSession index_session(const std::string& index_path, const store::KeyStore& keys, uint64_t rows,
                              const std::vector<SkippedRow>& problems, ImportReport& report);

// The sessions of our store by id (a re-import continues them), live files only.
Result<std::map<std::string, std::string>> existing_sessions(store::Store& target);

// Writes (or, in a dry run, only decides) one key, counting it in `index` and reporting a skip.
void import_key(const store::KeyStore& keys, bool dry_run, const std::string& key, const std::string& fresh,
                const std::string& file, uint64_t line, ImportedSession& index, ImportReport& report);

// A key of a source's index, with the record we keep for it and its line in the index.
struct KeyToImport {
  std::string key;
  std::string record;
  uint64_t line = 0;
};
// import_key for many keys of one index, in one update of the keyed store (KeyStore::update_many:
// one lock, one rewrite of the document however many keys).
void import_keys(const store::KeyStore& keys, bool dry_run, const std::vector<KeyToImport>& batch,
                 const std::string& file, ImportedSession& index, ImportReport& report);

}  // namespace xs::import

namespace xs::import::gateway {

class KeyImport {
 public:
  KeyImport(const store::KeyStore& keys, bool dry_run, ImportReport& report)
      : keys_(keys), dry_run_(dry_run), report_(report) {}
  // The keys of `agent`'s index; copies[i]: our file for agent.transcripts[i] ("" for none).
  void run(const Agent& agent, const std::vector<std::string>& copies);

 private:
  // The record as we keep it, or the reason it cannot be.
  Result<std::string> record_of(const Agent& agent, const IndexEntry& e, const std::vector<std::string>& copies) const;

  const store::KeyStore& keys_;
  bool dry_run_;
  ImportReport& report_;
  std::set<std::string> taken_;  // keys written by this run (two agents may use one key)
};

}  // namespace xs::import::gateway
