#include "format/message_text.h"

#include <vector>

#include "json/json_string.h"
#include "json/member_scanner.h"

namespace xs::format {

using json::Kind;
using json::Member;

std::string message_text(std::string_view message_json) {
  auto m = json::members_of(message_json);
  const Member* content = json::find_member(m, "content");
  if (!content) return std::string();
  if (content->kind == Kind::kString) return json::string_value(content).value_or("");
  if (content->kind != Kind::kArray) return std::string();
  std::vector<Member> blocks;
  bool is_object = true;
  if (!json::scan_members(content->value, json::internal_limits(), &blocks, &is_object).ok()) return std::string();
  std::string text;
  bool first = true;
  for (const Member& b : blocks) {
    if (b.kind != Kind::kObject) continue;
    auto bm = json::members_of(b.value);
    if (json::string_value(json::find_member(bm, "type")).value_or("") != "text") continue;
    if (!first) text += ' ';
    text += json::string_value(json::find_member(bm, "text")).value_or("");
    first = false;
  }
  return text;
}

std::vector<ToolCallBlock> tool_call_blocks(const Member* content) {
  std::vector<ToolCallBlock> out;
  if (!content || content->kind != Kind::kArray) return out;
  std::vector<Member> blocks;
  bool is_object = false;
  if (!json::scan_members(content->value, json::internal_limits(), &blocks, &is_object).ok()) return out;
  for (const Member& b : blocks) {
    if (b.kind != Kind::kObject) continue;
    auto bm = json::members_of(b.value);
    if (json::string_value(json::find_member(bm, "type")).value_or("") != "toolCall") continue;
    out.push_back({json::string_value(json::find_member(bm, "id")),
                   json::string_value(json::find_member(bm, "name")).value_or("")});
  }
  return out;
}

}  // namespace xs::format
