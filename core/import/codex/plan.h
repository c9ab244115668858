// How the rows of one rollout become native entries (docs/import-codex.md#how-rows-map): one
// linear chain in file order, the items of one model response merged into one assistant message.
// The plan is made over every row each time, so a re-import and a continued import make the same
// entries; the importer then writes only the entries whose rows are new.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "import/codex/reader.h"

namespace xs::import::codex {

enum class EntryKind {
  kMessage,        // a user, developer or system message item
  kAssistant,      // a model response: reasoning, text and tool calls, with its token_count's usage
  kToolResult,     // a function_call_output or custom_tool_call_output
  kModelChange,    // a turn_context whose model differs from the one before
  kThinkingLevel,  // a turn_context whose reasoning effort differs from the one before
  kCompaction,     // a compacted row
  kCustom,         // anything else, the row verbatim
};

struct PlannedEntry {
  EntryKind kind = EntryKind::kCustom;
  std::vector<size_t> rows;   // indices into Rollout::rows; kAssistant: its items, then its token_count
  bool has_usage = false;     // kAssistant: the last row is the token_count that gives its usage
  std::string model;          // kAssistant: the model then; kModelChange: the new one
  std::string effort;         // kThinkingLevel: the new level
  int64_t tokens_before = 0;  // kCompaction: the context's size at the last token_count before it
};

enum class RowOutcome { kImported, kCustom };

struct Plan {
  std::vector<PlannedEntry> entries;
  std::vector<RowOutcome> outcome;                          // per row of the rollout
  std::unordered_map<std::string, std::string> tool_names;  // call_id → the call's name
  std::string provider;                                     // the session's model_provider ("openai" if none)
};

Plan make_plan(const Rollout& rollout);

}  // namespace xs::import::codex
