// Compaction planning: the decisions every agent re-implements around a compaction entry
// (docs/compaction-planning.md): when to compact (a gateway's rule, #when), when to run the
// pre-compaction memory flush (once per compaction cycle), and where to cut the path: keep at least
// keep_recent_tokens of the newest entries, never keep a tool result without the call before it.
// The plan is advice: Session::append_compaction writes the entry.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/session_data.h"
#include "model/tree.h"
#include "util/status.h"

namespace xs::compaction {

struct Settings {
  int64_t context_window = 0;            // the model's context window, in tokens
  int64_t reserve_tokens = 16384;        // room left for the prompt and the next reply
  int64_t reserve_floor = 20000;         // the gateway's floor under reserve_tokens (0: none)
  int64_t keep_recent_tokens = 20000;    // what a compaction keeps of the newest entries
  int64_t soft_threshold_tokens = 4000;  // how far below the compaction threshold the memory flush runs
};

// contextTokens > contextWindow - max(reserveTokens, reserveFloor).
bool should_compact(int64_t context_tokens, const Settings& s);

// The memory flush before a compaction: past the soft threshold (the compaction threshold minus
// soft_threshold_tokens), and not yet in this compaction cycle (the key's record remembers the
// compaction count of the last flush: memoryFlushCompactionCount).
bool should_flush_memory(int64_t context_tokens, const Settings& s, int64_t compaction_count,
                         int64_t last_flush_compaction_count);

// An entry's size in tokens: an assistant message's usage.output when the provider reported it,
// else its line's bytes / 4, rounded up (the common characters-per-token rule; bytes, so the
// estimate is cheap and never below the characters' count / 4 for ASCII).
int64_t estimate_tokens(const model::Entry& e);

struct CutPlan {
  bool needed = false;                    // false: the path already fits in keep_recent_tokens
  std::string first_kept_entry_id;        // the compaction's firstKeptEntryId
  std::vector<std::string> to_summarise;  // the path entries before it (since the last compaction's kept range)
  int64_t tokens_before = 0;              // estimate of the path the context holds now
  int64_t kept_tokens = 0;                // estimate of the entries kept
};

// Where a compaction at `leaf` should cut. Only entries a context can start from are cut points:
// messages other than tool results, custom messages and branch summaries; so a tool result always
// stays with the call before it. kNotFound for an unknown leaf (kNone: the session's leaf).
Result<CutPlan> plan_cut(const model::SessionData& data, const model::Tree& tree, uint32_t leaf,
                         int64_t keep_recent_tokens);
// The same at the entry with id `leaf_id` (nullopt: the session's leaf); kNotFound for an id the
// session does not hold.
Result<CutPlan> plan_cut(const model::SessionData& data, const model::Tree& tree,
                         std::optional<std::string_view> leaf_id, int64_t keep_recent_tokens);

// The plan as JSON: {"needed","firstKeptEntryId","toSummarise":[ids],"tokensBefore","keptTokens"}.
std::string cut_plan_json(const CutPlan& plan);

}  // namespace xs::compaction
