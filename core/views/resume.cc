#include "views/resume.h"

#include <unordered_set>
#include <vector>

#include "format/message_text.h"
#include "json/json_string.h"
#include "json/member_scanner.h"

namespace xs::views {

using model::Entry;
using model::kNone;

Result<std::string> resume_json(const model::SessionData& data, const model::Tree& tree,
                                std::optional<std::string_view> leaf_id) {
  uint32_t leaf = tree.leaf();
  if (leaf_id) {
    leaf = tree.find(*leaf_id);
    if (leaf == kNone) return Status::NotFound("no entry " + std::string(*leaf_id));
  }
  std::string out = "{\"leafId\":";
  if (leaf == kNone) {
    out += "null";
  } else {
    json::append_quoted(out, data.entries[leaf].id);
  }
  out += ",\"orphans\":[";
  bool first = true;
  for (const Entry& e : data.entries) {
    if (!e.has_parent_id || tree.find(e.parent_id) != kNone) continue;
    out += first ? "{\"id\":" : ",{\"id\":";
    first = false;
    json::append_quoted(out, e.id);
    out += ",\"parentId\":";
    json::append_quoted(out, e.parent_id);
    out += ",\"line\":" + std::to_string(e.line_no + 1u) + "}";
  }
  out += "],\"pendingToolCalls\":[";
  if (leaf != kNone) {
    std::vector<uint32_t> path = tree.path_to(leaf);
    std::unordered_set<std::string> answered;
    for (uint32_t i : path) {
      const Entry& e = data.entries[i];
      if (e.type != format::EntryType::kMessage || e.role != "toolResult") continue;
      if (auto id = json::string_value(json::find_member(json::members_of(e.message()), "toolCallId"))) {
        answered.insert(*id);
      }
    }
    first = true;
    for (uint32_t i : path) {
      const Entry& e = data.entries[i];
      if (!e.is_assistant()) continue;
      auto message = json::members_of(e.message());  // kept: the content member points into it
      for (const format::ToolCallBlock& call : format::tool_call_blocks(json::find_member(message, "content"))) {
        if (!call.id || answered.count(*call.id)) continue;
        out += first ? "{\"entryId\":" : ",{\"entryId\":";
        first = false;
        json::append_quoted(out, e.id);
        out += ",\"toolCallId\":";
        // Decoded from the line, where an escaped lone surrogate is valid JSON but not UTF-8.
        json::append_quoted_lossy(out, *call.id);
        out += ",\"name\":";
        json::append_quoted_lossy(out, call.name);
        out += "}";
      }
    }
  }
  out += "]}";
  return out;
}

}  // namespace xs::views
