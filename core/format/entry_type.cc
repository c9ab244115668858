#include "format/entry_type.h"

namespace xs::format {

namespace {

struct Name {
  EntryType type;
  std::string_view name;
};

constexpr Name kNames[] = {
    {EntryType::kMessage, "message"},
    {EntryType::kThinkingLevelChange, "thinking_level_change"},
    {EntryType::kModelChange, "model_change"},
    {EntryType::kCompaction, "compaction"},
    {EntryType::kBranchSummary, "branch_summary"},
    {EntryType::kCustom, "custom"},
    {EntryType::kCustomMessage, "custom_message"},
    {EntryType::kLabel, "label"},
    {EntryType::kTtsrInjection, "ttsr_injection"},
    {EntryType::kSessionInit, "session_init"},
    {EntryType::kModeChange, "mode_change"},
    {EntryType::kSessionInfo, "session_info"},
    {EntryType::kServiceTierChange, "service_tier_change"},
    {EntryType::kMcpToolSelection, "mcp_tool_selection"},
};

}  // namespace

EntryType entry_type_from_name(std::string_view name) {
  for (const Name& n : kNames) {
    if (n.name == name) return n.type;
  }
  return EntryType::kUnknown;
}

std::string_view entry_type_name(EntryType t) {
  for (const Name& n : kNames) {
    if (n.type == t) return n.name;
  }
  return {};
}

}  // namespace xs::format
