// The gateway store (openclaw-style `agents/<agentId>/sessions/`), read only
// (docs/import-hosts.md#the-gateway-store): per agent, its `sessions.json` keyed store (read with
// the gateway's lock convention), and its transcripts, which are already sessions in the native
// format: live files, topic files and rotated generations (`.reset.<ts>`, `.deleted.<ts>`, `.bak`,
// `.checkpoint.`). What `xs ls --foreign gateway` shows; nothing here writes.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "import/import_report.h"
#include "import/source_rows.h"
#include "session/session.h"
#include "storage/fs.h"
#include "util/status.h"

namespace xs::import::gateway {

// How a gateway rotates a transcript out of use; kLive is the one it appends to.
enum class Generation { kLive, kReset, kDeleted, kBackup, kCheckpoint };
const char* generation_name(Generation g);

// What a file name in a sessions directory says.
struct TranscriptName {
  std::string stem;  // "<sessionId>" or "<sessionId>-topic-<threadId>"
  std::string session_id;
  std::optional<std::string> thread_id;  // a topic file's
  Generation generation = Generation::kLive;
  std::string stamp;  // a rotated file's suffix after its generation word ("2026-03-02T12-06-51.572Z")
};
// nullopt for names that are not transcripts (sessions.json, locks, temp files, anything else).
std::optional<TranscriptName> parse_transcript_name(std::string_view file_name);

struct Transcript {
  std::string path;
  std::string file;  // the name in its directory
  TranscriptName name;
  uint64_t size = 0;
  int64_t mtime_ms = 0;
  bool has_write_lock = false;    // a "<file>.lock" beside it
  std::vector<std::string> keys;  // the index keys whose sessionId or sessionFile names it
};

// One key of an agent's `sessions.json`.
struct IndexEntry {
  std::string key;
  std::string record;  // the value as the file holds it (layout included)
  uint64_t line = 0;   // where its key starts in the file
  std::string session_id;
  std::optional<std::string> session_file;
  std::optional<size_t> transcript;  // index into Agent::transcripts: the live file it names
};

struct Agent {
  std::string id;
  std::string dir;  // .../agents/<id>/sessions
  bool has_index = false;
  std::string index_path;
  std::vector<IndexEntry> entries;
  std::vector<Transcript> transcripts;  // sorted by file name
  uint64_t index_rows = 0;              // keys in the index, entries and refused ones
  // Refused index keys (line, reason) and a whole index that could not be read (line 0).
  std::vector<SkippedRow> problems;
  std::vector<std::string> notes;  // locks met, keys without a transcript, transcripts without a key
};

using import::ReadOptions;  // import/source_rows.h

struct Listing {
  std::string root;
  std::vector<Agent> agents;  // sorted by id
};

// `root` is a state directory holding `agents/` (~/.openclaw), the `agents/` directory itself, or
// one `sessions/` directory. kNotFound when it is none of these.
Result<Listing> list(storage::Fs& fs, const std::string& root, const ReadOptions& options = {});

// The listing as JSON (what xs_foreign_list returns, docs/import-hosts.md#listing-json):
// {"source":"gateway","root","agents":[{"id","dir","index":path|null,"indexRows",
//   "keys":[{"key","sessionId","line","transcript":file|null}],
//   "transcripts":[{"file","path","sessionId","threadId","generation","stamp","size","mtimeMs",
//                   "writeLock","keys":[...]}],
//   "problems":[{"file","line","reason"}],"notes":[...]}]}
std::string listing_json(const Listing& listing);

// A transcript opened read-only where it is: it is a native session already. A file without a
// header (a live file that continues a rotated one) is kNoHeader: it becomes a session when
// imported (importer.h gives it one).
Result<std::unique_ptr<session::Session>> open_transcript(std::shared_ptr<storage::Fs> fs, const std::string& path);

}  // namespace xs::import::gateway
