// A message's text as pi shows it in lists: the content string, or its text blocks joined with " ".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/member_scanner.h"

namespace xs::format {

std::string message_text(std::string_view message_json);

// A "toolCall" block of an assistant message's content (its id and name as stored; the id is
// nullopt when it is absent or not a string).
struct ToolCallBlock {
  std::optional<std::string> id;
  std::string name;
};
// The toolCall blocks of a message's `content` member (empty for anything but an array).
std::vector<ToolCallBlock> tool_call_blocks(const json::Member* content);

}  // namespace xs::format
