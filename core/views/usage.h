// Token and cost totals over a session: omp's getUsageStatistics. Every assistant message in the
// file counts (all branches), as omp adds them up while indexing.
#pragma once

#include <string>
#include <vector>

#include "json/member_scanner.h"
#include "model/session_data.h"

namespace xs::views {

// One message's `usage` as omp reads it: each of usage.input, .output, .cacheRead, .cacheWrite,
// .premiumRequests, .totalTokens and .cost.total, 0 when missing or not a number. `present`: the
// message has a usage object at all.
struct MessageUsage {
  bool present = false;
  double input = 0, output = 0, cache_read = 0, cache_write = 0, premium = 0, total_tokens = 0, cost = 0;
};

// The usage of a message, given its top-level members (json::members_of(entry.message())).
MessageUsage usage_of(const std::vector<json::Member>& message);

// {"input":N,"output":N,"cacheRead":N,"cacheWrite":N,"premiumRequests":N,"cost":X,
//  "assistantMessages":N}; numbers as JavaScript writes them.
std::string usage_json(const model::SessionData& data);

}  // namespace xs::views
