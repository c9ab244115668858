// A session's counters (docs/session-stats.md): messages by role, tool calls, tokens, cost and
// compactions over the whole file (every branch, as views/usage.h adds usage up), plus the context
// size the current path's last reply reported. Counted once from a loaded session and then one
// entry at a time as entries are appended, so nothing is read twice.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/session_data.h"
#include "util/status.h"

namespace xs::stats {

struct RoleCount {
  std::string role;
  uint64_t count = 0;
};

struct Counts {
  // Message entries by message.role, custom_message entries as "custom"; roles in the order they
  // first occur in the file (so a live session and the same file reloaded list them alike).
  std::vector<RoleCount> messages;
  uint64_t tool_calls = 0;  // "toolCall" content blocks of assistant messages
  double input_tokens = 0, output_tokens = 0, cache_read = 0, cache_write = 0, cost = 0;
  uint64_t compactions = 0;  // compaction entries

  // Counts one entry (loaded or just appended).
  void add(const model::Entry& e);
  uint64_t messages_of(std::string_view role) const;
};

// Every entry of a loaded session, in file order.
Counts count_entries(const model::SessionData& data);

// The context the path ending at `leaf` holds, as the last reply on it reported
// (docs/session-stats.md#context-tokens): walking from the leaf towards the root, the first
// assistant message with a usage object whose stopReason is neither "aborted" nor "error" gives
// usage.totalTokens when positive, else input + output + cacheRead + cacheWrite; a compaction met
// first, or no such message, gives 0 (unknown until the next reply).
double context_tokens(const model::SessionData& data, uint32_t leaf);

struct SessionStats {
  Counts counts;
  double context_tokens = 0;
  // inputTokens + outputTokens + cacheRead + cacheWrite.
  double total_tokens() const;
};

// The stats as (field name, JSON value) pairs, in the order records and JSON list them:
// inputTokens, outputTokens, cacheRead, cacheWrite, totalTokens, contextTokens, cost,
// compactionCount, messageCounts ({role: n}), toolCalls.
std::vector<std::pair<std::string, std::string>> stat_fields(const SessionStats& s);
// The same as one JSON object (xs_session_stats).
std::string stats_json(const SessionStats& s);

// Where a session bound to a key reports its stats (installed by the store, which implements it
// over the keyed store: store/key_stats.h). The session layer knows only this interface.
struct Snapshot {
  SessionStats stats;
  std::string session_id;
  std::string session_file;
  int64_t updated_at_ms = 0;  // the timestamp of the session's last entry (its header's without one)
  // The handle's first write: the key is pointed at this session, whatever it named. Later writes
  // leave a key that has moved on to another session (a reset elsewhere) as it is.
  bool claim = false;
};

class StatsSink {
 public:
  virtual ~StatsSink() = default;
  // Whether the binding can be used at all (a valid key): checked before a session is opened or
  // created, so a bad binding fails the call with nothing written.
  virtual Status check() const = 0;
  // Whether the bound record already holds the stats of session `session_id` (else the session
  // writes its counts once when opened).
  virtual Result<bool> holds_stats_of(std::string_view session_id) const = 0;
  // Writes the snapshot into the bound record.
  virtual Status publish(const Snapshot& snapshot) = 0;
};

}  // namespace xs::stats
