// What a Codex CLI sessions directory holds (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl), read
// only (docs/import-codex.md#the-listing): each rollout file's rows, classified by what they are,
// and the session they belong to (the first session_meta row).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "import/import_report.h"
#include "import/source_rows.h"
#include "storage/fs.h"
#include "util/status.h"

namespace xs::import::codex {

// What a row is: the `type` of a `{timestamp, type, payload}` line (docs/import-codex.md#rows).
enum class RowKind { kSessionMeta, kTurnContext, kResponseItem, kEventMsg, kCompacted, kOther };

// One row that is a JSON object (rows that are not are in Rollout::bad).
struct Row {
  uint64_t line = 0;
  bool terminated = true;    // false: the file's last line, still without its newline
  std::string_view text;     // the whole line
  std::string_view payload;  // the payload's JSON text: an object for every kind but kOther
  RowKind kind = RowKind::kOther;
  std::string type;       // the line's `type` ("" when it has none)
  std::string item;       // the payload's `type`: the response item or event ("message", "token_count", ...)
  std::string role;       // a message item's role
  std::string timestamp;  // the line's `timestamp` as written ("" when it has none)
};

// A rollout file found under the root, not read yet.
struct RolloutFile {
  std::string path;  // as the file system names it
  std::string rel;   // relative to the root: the report's and the sourceRows' file name
  uint64_t size = 0;
};

// A rollout file read whole.
struct Rollout {
  RolloutFile file;
  SourceFile source;           // the bytes the rows' views point into
  std::vector<Row> rows;       // the rows that are JSON objects, in file order
  std::vector<SourceRow> bad;  // the rows that are not, with their reasons in `bad_reasons`
  std::vector<std::string> bad_reasons;
  // From the first session_meta row (empty when the file has none).
  std::string session_id, cwd, started, cli_version, originator, provider, forked_from;
  std::string first_prompt;  // the first user_message event's text
  std::string model;         // the first turn_context's model
};

// Every rollout-*.jsonl under `root`, at any depth (symbolic links to directories followed once),
// sorted by relative path. kNotFound when `root` is not a directory.
Result<std::vector<RolloutFile>> find_rollouts(storage::Fs& fs, const std::string& root);

// Reads one rollout (never writes). The Fs's status when it cannot be read (kInvalid for a binary
// file, kLimit past kMaxSourceFileBytes); the rows inside are classified, never a failure.
Status read_rollout(storage::Fs& fs, const RolloutFile& file, Rollout* out);

// What `root` holds, read only: {"source":"codex","root","sessions":[{"file","sessionId","cwd",
// "started","cliVersion","originator","model","firstPrompt","rows","badRows","size","mtime"}],
// "problems":[{"file","line","reason"}],"notes":[]} (docs/import-codex.md#the-listing).
// kNotFound when `root` is not a directory.
Result<std::string> list_json(storage::Fs& fs, const std::string& root);

}  // namespace xs::import::codex
