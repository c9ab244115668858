// The entry types the engine knows. Unknown types are kept and carried verbatim (kUnknown).
#pragma once

#include <cstdint>
#include <string_view>

namespace xs::format {

enum class EntryType : uint8_t {
  kUnknown,
  kMessage,
  kThinkingLevelChange,
  kModelChange,
  kCompaction,
  kBranchSummary,
  kCustom,
  kCustomMessage,
  kLabel,
  kTtsrInjection,
  kSessionInit,
  kModeChange,
  kSessionInfo,        // pi only: a session name
  kServiceTierChange,  // omp only
  kMcpToolSelection,   // omp only
};

EntryType entry_type_from_name(std::string_view name);
std::string_view entry_type_name(EntryType t);  // "" for kUnknown

// custom and custom_message put id, parentId and timestamp after their payload (omp's order).
inline bool envelope_after_payload(EntryType t) { return t == EntryType::kCustom || t == EntryType::kCustomMessage; }

}  // namespace xs::format
