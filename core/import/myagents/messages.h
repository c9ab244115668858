// One MyAgents message row as a native entry (docs/import-hosts.md#messages): a `message` for the
// user and assistant roles (content blocks mapped, usage in the native form), a `custom` entry of
// type "myagents/message" holding the row for anything else. Every entry carries
// `source: {kind: "myagents", id, fields}`, where `fields` keeps verbatim each member of the row the
// message does not reproduce exactly (usage, toolCount, durationMs, attachments, a structured
// content, unknown members), so nothing of the row is lost.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/member_scanner.h"

namespace xs::import::myagents {

struct MappedRow {
  std::string source_id;  // the row's id, or "#<line>" for a row without one
  std::string entry;      // the entry to append (no id, no parentId: the session sets them)
  bool custom = false;
};

MappedRow map_message_row(const std::vector<json::Member>& row, uint64_t line);

// The source id of an entry an earlier import wrote (nullopt: not one of ours).
std::optional<std::string> source_id_of(std::string_view entry_line);

}  // namespace xs::import::myagents
