// Resume analysis (docs/context.md#resume-analysis): what an agent must know before it continues
// a session from a leaf — entries whose parent is missing (they read as roots, so a chain the user
// remembers may have been cut), and tool calls on the path that never got a result (the model
// would see a call without an answer; the agent should answer or drop it before the next turn).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "model/session_data.h"
#include "model/tree.h"
#include "util/status.h"

namespace xs::views {

// {"leafId":id|null,
//  "orphans":[{"id","parentId","line"}],                 every entry of the file, in file order
//  "pendingToolCalls":[{"entryId","toolCallId","name"}]} on the path to the leaf, in path order
// `leaf_id` nullopt: the session's leaf. kNotFound for an id the session does not hold.
Result<std::string> resume_json(const model::SessionData& data, const model::Tree& tree,
                                std::optional<std::string_view> leaf_id);

}  // namespace xs::views
