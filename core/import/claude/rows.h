// One Claude Code transcript read row by row, tolerantly (docs/import-claude.md#reading): every
// non-blank line is a row; a line that is not a JSON object is a bad row with its line and reason,
// and reading goes on. A row keeps its bytes (a view into the file's buffer) and the facts the
// listing and the importer need; the importer parses a row's bytes again for its content.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "storage/buffer.h"
#include "storage/fs.h"
#include "util/status.h"

namespace xs::import::claude {

struct Row {
  uint64_t line = 0;      // from 1
  uint64_t offset = 0;    // of the line in the file, in bytes
  std::string_view text;  // the line's bytes (no newline, no byte-order mark)
  std::string type;       // "user", "assistant", "system", "progress", "summary", ... as written
  std::string subtype;    // system rows: "compact_boundary", "local_command", ...
  std::string uuid;       // empty for side rows (summary, file-history-snapshot, queue-operation)
  std::string parent_uuid;
  bool has_parent = false;          // parentUuid is a string (null, absent or another type: a root)
  std::string logical_parent_uuid;  // compact_boundary
  std::string session_id, cwd, timestamp, agent_id, git_branch, version;
  bool is_sidechain = false;
  bool is_meta = false;
  bool is_compact_summary = false;
  bool has_message = false;                 // user/assistant: `message` is an object
  std::string message_id;                   // assistant: message.id
  std::string request_id;                   // assistant: requestId
  std::vector<std::string> tool_use_ids;    // assistant: ids of its tool_use blocks
  std::vector<std::string> tool_use_names;  // and their names, in the same order
  std::string tool_result_for;              // user: tool_use_id of its first tool_result block
  uint32_t tool_results = 0;                // user: how many tool_result blocks it holds
  bool other_blocks = false;                // user: blocks besides the tool results
  std::string prompt_text;                  // user: the content string, or its first text block
  std::string leaf_uuid, summary;           // summary rows
  std::string message_ref;                  // file-history-snapshot: messageId
  std::string custom_title;                 // custom-title rows (reported in newer versions)
  std::string progress_agent_id;            // progress rows: data.agentId (agent_progress)
  std::string parent_tool_use_id;           // progress rows: parentToolUseID (the Task call)
  std::vector<std::string> type_problems;   // members present with the wrong JSON type

  bool is_chain() const { return !uuid.empty(); }
  bool is_conversation() const { return (type == "user" || type == "assistant") && has_message; }
};

struct BadRow {
  uint64_t line = 0;
  std::string reason;
};

struct Transcript {
  std::string path;
  storage::PaddedBuffer bytes;
  storage::FileInfo info;
  std::vector<Row> rows;
  std::vector<BadRow> bad;
  std::vector<std::string> notes;    // lines holding two rows, lone surrogates replaced
  std::deque<std::string> repaired;  // copies of lines rows view instead of the file's bytes
  // Rows read: a line is one row, or two when a row was glued onto it.
  uint64_t row_count() const { return rows.size() + bad.size(); }
};

// The longest file read whole (a larger one is refused with kLimit, reported, never half-read).
constexpr uint64_t kMaxTranscriptBytes = 4ull << 30;

// Reads `path` through the seam (read only) and splits it into rows. kNotFound, kLimit or an I/O
// error for the file as a whole; bad lines are in `bad`, never a failure.
Status read_transcript(storage::Fs& fs, const std::string& path, Transcript* out);

// Parses one line into `row` (its line/offset already set). False with `reason` for a bad row.
bool parse_row(std::string_view text, Row* row, std::string* reason);

}  // namespace xs::import::claude
