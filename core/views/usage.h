// Token and cost totals over a session: omp's getUsageStatistics. Every assistant message in the
// file counts (all branches), as omp adds them up while indexing.
#pragma once

#include <string>

#include "model/session_data.h"

namespace xs::views {

// {"input":N,"output":N,"cacheRead":N,"cacheWrite":N,"premiumRequests":N,"cost":X,
//  "assistantMessages":N}; numbers as JavaScript writes them.
std::string usage_json(const model::SessionData& data);

}  // namespace xs::views
