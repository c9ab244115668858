// What a session is, in a few facts: its title, counts, first prompt, and the info object the C API
// and `xs show` print.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "format/dialect.h"
#include "model/session_data.h"
#include "model/tree.h"

namespace xs::views {

// The header's title (oh-my-pi keeps it there), else the name of the last session_info entry,
// trimmed (pi's); nullopt when neither gives a non-empty one. An empty name clears the title.
std::optional<std::string> title(const model::SessionData& data);
// "message" entries of any role (pi's messageCount).
size_t message_count(const model::SessionData& data);
// The text of the first user message that has some (pi's firstMessage).
std::optional<std::string> first_user_text(const model::SessionData& data);
// What a listing shows as the first prompt: the first user text not injected by an agent, cut
// to format::kFirstPromptChars (format/prompt_text.h).
std::optional<std::string> first_prompt(const model::SessionData& data);

// What the model does not know about the handle that loaded it.
struct HandleFacts {
  std::string_view path;
  bool persisted = false;
  bool read_only = false;
  bool archived = false;   // loaded from "<file>.jsonl.gz" (docs/retention.md)
  size_t diagnostics = 0;  // every diagnostic the handle reports
  format::Dialect dialect = format::Dialect::kOmp;
};

// {"id","path","cwd","timestamp","title","parentSession","version","dialect","entryCount","leafId",
//  "persisted","readOnly","archived","diagnostics","entryTypes":{type:count, in the enum's order, unknown last}}
std::string info_json(const model::SessionData& data, const model::Tree& tree, const HandleFacts& handle);

}  // namespace xs::views
