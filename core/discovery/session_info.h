// What a session file is, learned cheaply: the header and the first user prompt from a bounded
// prefix (4096 bytes, as oh-my-pi reads), without the blind spot for longer headers: the read
// grows up to the first newline, bounded by the line limit (docs/decisions.md#4-discovery-has-no-blind-spot).
// A full summary loads the whole file for counts, as pi's list() does.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "storage/fs.h"
#include "util/status.h"

namespace xs::discovery {

constexpr uint64_t kPrefixBytes = 4096;

struct SessionSummary {
  std::string path;
  std::string id;
  std::string cwd;
  std::string timestamp;    // the header's (creation time)
  int64_t modified_ms = 0;  // file mtime
  uint64_t size = 0;
  std::optional<std::string> title;
  std::optional<std::string> parent_session;
  int version = 1;
  std::optional<std::string> first_message;  // text of the first user message with text
  std::optional<std::string> first_prompt;   // views::first_prompt: skips injected text, cut short
  uint64_t corrupt_copies = 0;               // "<file>.corrupt-*" copies beside it (set by the lister)
  // An archive ("<file>.jsonl.gz", docs/retention.md): modified and size are the archive file's.
  bool archived = false;
  // Full summaries only:
  bool full = false;
  uint64_t message_count = 0;
  uint64_t entry_count = 0;
  uint64_t diagnostics = 0;
};

// kNoHeader when the file has no session header (such files are not sessions to list).
Result<SessionSummary> read_summary(const std::shared_ptr<storage::Fs>& fs, const std::string& path, bool full,
                                    uint64_t max_line_bytes);

// {"path","id","cwd","timestamp","modified","size","title","parentSession","version",
//  "needsMigration","corruptCopies","archived","firstMessage","firstPrompt"[,"messageCount","entryCount",
//  "diagnostics"]}
std::string summary_json(const SessionSummary& s);
// A JSON array of summary_json objects, in the list's order.
std::string summaries_json(const std::vector<SessionSummary>& list);
// A summary_json text read back, as the session index keeps it (docs/search.md#listing). Its path
// is the lossy one summary_json wrote: the caller sets the real one. kCorrupt for anything else.
Result<SessionSummary> parse_summary_json(std::string_view text);

}  // namespace xs::discovery
