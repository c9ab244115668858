// Claude Code rows turned into native messages (docs/import-claude.md#messages): the blocks of an
// assistant reply spread over several rows merged into one `assistant` message, each tool_result
// block of a user row one `toolResult` message, the rest of a user row one `user` message.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "import/claude/rows.h"

namespace xs::import::claude {

// The `message` object of an assistant entry made of `rows` (one API message, in chain order):
// their content blocks concatenated, model/usage/stopReason from the last row that has them.
std::string assistant_message(const std::vector<const Row*>& rows);

// The messages of a user row: one toolResult per tool_result block (tool names looked up in
// `tool_names`, id → name), then one user message with the other blocks when there are any; a
// row without tool results is one user message. One element per message, in order.
std::vector<std::string> user_messages(const Row& row, const std::unordered_map<std::string, std::string>& tool_names);

// The text of a compaction summary row (its content string, or its text blocks joined by "\n").
std::string summary_text(const Row& row);

// compactMetadata.preTokens of a compact_boundary row (0 when absent), and
// compactMetadata.preservedSegment.headUuid ("" when absent).
int64_t pre_tokens(const Row& row);
std::string preserved_head(const Row& row);

}  // namespace xs::import::claude
