// What an entry gives the search index (docs/search.md#what-is-indexed): its searchable text and
// the role a search filters on. One function for every entry kind, so what is findable is decided
// in one place.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "model/session_data.h"

namespace xs::search {

// A tool result (and each tool call's arguments) is indexed up to this many bytes: outputs of
// tools are often megabytes of file contents or logs, and the start is what names them.
inline constexpr size_t kMaxToolTextBytes = 8 * 1024;
// Any other entry's text is indexed up to this many bytes (a pasted 10 MB log stays searchable by
// its start without making the index as large as the store).
inline constexpr size_t kMaxEntryTextBytes = 64 * 1024;

struct EntryText {
  // "user", "assistant", "tool", "summary" or "label"; empty for an entry without text.
  std::string_view role;
  std::string text;  // valid UTF-8 without NUL bytes, at most kMaxEntryTextBytes
};

// The text of one entry:
// - message, role user: its text (a string content, or text blocks joined with " ");
// - message, role assistant: text blocks, then each tool call as "name arguments" (arguments as
//   stored JSON, cut to kMaxToolTextBytes); role "tool" when it holds only tool calls;
// - message, role toolResult: "toolName text" cut to kMaxToolTextBytes; bashExecution and
//   pythonExecution: the command (code) and the output, cut the same way; role "tool";
// - message, role custom (and custom_message entries) shown to the user (display true): their
//   text, role "user" (they reach the model as user messages);
// - compaction and branch_summary: the summary, role "summary";
// - label: the label, role "label".
// Anything else gives no text.
EntryText entry_text(const model::Entry& e);

// `text` cut to at most `max` bytes, never inside a UTF-8 sequence.
std::string_view cut_utf8(std::string_view text, size_t max);

}  // namespace xs::search
