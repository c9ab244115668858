// Codex rollout rows turned into native messages and entries (docs/import-codex.md#how-rows-map).
// Each function returns the members of the entry after its `type`, without the envelope or
// sourceRows (the writer adds them).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "import/codex/reader.h"

namespace xs::import::codex {

// "message":{role, content, timestamp} of a user, developer or system message item.
std::string message_members(const Row& row);

// "message":{"role":"assistant",...} of one model response: its reasoning items as thinking
// blocks (the item's JSON kept verbatim as the thinkingSignature, encrypted content included), its
// text, its calls as toolCall blocks; usage from `usage` (a token_count row; null: none).
std::string assistant_members(const std::vector<const Row*>& items, const Row* usage, const std::string& provider,
                              const std::string& model);

// "message":{"role":"toolResult",...} of a function_call_output or custom_tool_call_output.
std::string tool_result_members(const Row& row, const std::unordered_map<std::string, std::string>& tool_names);

// "summary","firstKeptEntryId","tokensBefore"[,"preserveData"] of a compacted row.
std::string compaction_members(const Row& row, int64_t tokens_before, const std::string& provider);

// "customType":"codex/<type>[/<item>]","data":<the row verbatim>.
std::string custom_members(const Row& row);

}  // namespace xs::import::codex
