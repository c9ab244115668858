// MyAgents' store (`~/.myagents/`), read only (docs/import-hosts.md#myagents): `sessions.json`, an
// array of session metadata with stats, read while its `sessions.lock/` directory lock is free;
// `sessions/<id>.jsonl`, flat messages; legacy `sessions/<id>.json` files; and the interrupted
// migration that leaves both (the JSONL is the one MyAgents reads). What `xs ls --foreign myagents`
// shows; nothing here writes.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "import/import_report.h"
#include "import/source_rows.h"
#include "storage/fs.h"
#include "util/status.h"

namespace xs::import::myagents {

// MyAgents' own rule for a session id (it makes file names of them): [A-Za-z0-9-], 1-99 bytes.
bool is_valid_session_id(std::string_view id);

// One SessionMetadata of the index. Fields of the wrong type are left out here (and noted); the
// element itself is kept as the file holds it.
struct IndexEntry {
  std::string id;
  std::string metadata;  // the element's text
  uint64_t line = 0;     // where the element starts in the file
  std::optional<std::string> agent_dir, title, created_at, last_active_at;
  // stats: messageCount, totalInputTokens, totalOutputTokens, totalCacheReadTokens,
  // totalCacheCreationTokens, when numbers.
  std::optional<double> message_count, input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens;
};

// A session's files in `sessions/`, and its index entry.
struct SessionFiles {
  std::string id;
  std::optional<std::string> jsonl;   // sessions/<id>.jsonl
  std::optional<std::string> legacy;  // sessions/<id>.json
  std::optional<size_t> entry;        // into Listing::entries
  // Which file holds the messages: the JSONL whenever there is one (an interrupted migration
  // leaves both; MyAgents reads the JSONL and so do we), else the legacy file.
  const std::optional<std::string>& messages_file() const { return jsonl ? jsonl : legacy; }
};

using import::ReadOptions;  // import/source_rows.h

struct Listing {
  std::string root;
  std::string index_path;
  bool has_index = false;
  LockWait index_lock;
  uint64_t index_rows = 0;  // elements of the index array
  std::vector<IndexEntry> entries;
  std::vector<SessionFiles> sessions;  // by id: every id with a file or an index entry
  // Refused index elements (line, reason) and an index that could not be read at all (line 0).
  std::vector<SkippedRow> problems;
  std::vector<std::string> notes;
};

// kNotFound when `root` has neither `sessions.json` nor `sessions/`.
Result<Listing> list(storage::Fs& fs, const std::string& root, const ReadOptions& options = {});

// The listing as JSON (what xs_foreign_list returns, docs/import-hosts.md#listing-json):
// {"source":"myagents","root","index":path|null,"indexLock":"free"|"released"|"stale"|"held",
//  "indexRows","sessions":[{"id","messagesFile","legacyFile","legacyBeside","inIndex","line",
//  "title","agentDir","createdAt","lastActiveAt","stats":{...}|null}],"problems":[...],"notes":[...]}
// (title ... lastActiveAt null when absent; stats holds the numbers the index has).
std::string listing_json(const Listing& listing);

// The messages of a session: the JSONL's non-blank lines, or the legacy file's `messages` array
// (or the file itself when it is an array), one row per element with `line` its position from 1.
// kInvalid for a legacy file that holds neither; the Fs's status, or "binary file", otherwise.
struct Messages {
  std::string file;
  bool legacy = false;
  SourceFile source;  // rows point into its bytes
};
Status read_messages(storage::Fs& fs, const SessionFiles& session, Messages* out);

}  // namespace xs::import::myagents
