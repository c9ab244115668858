#include "views/summary.h"

#include "format/entry_type.h"
#include "format/message_text.h"
#include "format/prompt_text.h"
#include "json/json_string.h"
#include "json/member_scanner.h"

namespace xs::views {

using model::Entry;
using model::SessionData;
using model::Tree;

std::optional<std::string> title(const SessionData& data) {
  if (data.header.title) return data.header.title;
  for (auto it = data.entries.rbegin(); it != data.entries.rend(); ++it) {
    if (it->type != format::EntryType::kSessionInfo) continue;
    std::optional<std::string> name = json::string_value(json::find_member(json::members_of(it->line), "name"));
    if (!name) return std::nullopt;
    std::string_view trimmed = json::js_trim(*name);
    if (trimmed.empty()) return std::nullopt;  // an empty name clears it (pi)
    return std::string(trimmed);
  }
  return std::nullopt;
}

size_t message_count(const SessionData& data) {
  size_t n = 0;
  for (const Entry& e : data.entries) n += e.type == format::EntryType::kMessage;
  return n;
}

std::optional<std::string> first_user_text(const SessionData& data) {
  for (const Entry& e : data.entries) {
    if (e.type != format::EntryType::kMessage || e.role != "user") continue;
    std::string text = format::message_text(e.message());
    if (!text.empty()) return text;
  }
  return std::nullopt;
}

std::optional<std::string> first_prompt(const SessionData& data) {
  for (const Entry& e : data.entries) {
    if (e.type != format::EntryType::kMessage || e.role != "user") continue;
    std::string text = format::message_text(e.message());
    if (!text.empty() && !format::is_injected_prompt(text)) return format::listing_text(text);
  }
  return std::nullopt;
}

std::string info_json(const SessionData& data, const Tree& tree, const HandleFacts& handle) {
  const format::Header& h = data.header;
  std::string out = "{\"id\":";
  json::append_quoted(out, h.id);
  out += ",\"path\":";
  json::append_quoted_lossy(out, handle.path);
  out += ",\"cwd\":";
  json::append_quoted(out, h.cwd);
  out += ",\"timestamp\":";
  json::append_quoted(out, h.timestamp);
  json::append_optional_member(out, "title", title(data));
  json::append_optional_member(out, "parentSession", h.parent_session);
  out += ",\"version\":" + std::to_string(h.version);
  out += ",\"dialect\":";
  json::append_quoted(out, format::dialect_name(handle.dialect));
  out += ",\"entryCount\":" + std::to_string(data.entries.size());
  out += ",\"leafId\":";
  if (tree.leaf() != model::kNone)
    json::append_quoted(out, data.entries[tree.leaf()].id);
  else
    out += "null";
  out += std::string(",\"persisted\":") + (handle.persisted ? "true" : "false");
  out += std::string(",\"readOnly\":") + (handle.read_only ? "true" : "false");
  out += std::string(",\"archived\":") + (handle.archived ? "true" : "false");
  out += ",\"diagnostics\":" + std::to_string(handle.diagnostics);
  // Counts by type in the enum's order, unknown types last (xs show; no entry is parsed again).
  constexpr size_t kTypes = static_cast<size_t>(format::EntryType::kMcpToolSelection) + 1;
  uint64_t counts[kTypes] = {};
  for (const Entry& e : data.entries) ++counts[static_cast<size_t>(e.type)];
  out += ",\"entryTypes\":{";
  bool first = true;
  for (size_t t = 1; t <= kTypes; ++t) {
    size_t type = t % kTypes;  // kUnknown (0) comes last
    if (!counts[type]) continue;
    if (!first) out += ',';
    first = false;
    std::string_view name = format::entry_type_name(static_cast<format::EntryType>(type));
    json::append_quoted(out, name.empty() ? "unknown" : name);
    out += ':' + std::to_string(counts[type]);
  }
  out += "}}";
  return out;
}

}  // namespace xs::views
