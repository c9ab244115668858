#include "stats/session_stats.h"

#include "format/message_text.h"
#include "json/js_number.h"
#include "json/json_string.h"
#include "json/member_scanner.h"
#include "views/usage.h"

namespace xs::stats {

namespace {

using format::EntryType;

void add_role(std::vector<RoleCount>& roles, std::string_view role) {
  if (role.empty()) role = "unknown";
  for (RoleCount& r : roles) {
    if (r.role == role) {
      ++r.count;
      return;
    }
  }
  roles.push_back({std::string(role), 1});
}

std::string number(double v) {
  std::string out;
  json::append_js_number(out, v);
  return out;
}

}  // namespace

void Counts::add(const model::Entry& e) {
  if (e.type == EntryType::kCompaction) ++compactions;
  if (e.type == EntryType::kCustomMessage) add_role(messages, "custom");
  if (e.type != EntryType::kMessage) return;
  add_role(messages, e.role);
  if (!e.is_assistant()) return;
  auto msg = json::members_of(e.message());
  views::MessageUsage u = views::usage_of(msg);
  input_tokens += u.input;
  output_tokens += u.output;
  cache_read += u.cache_read;
  cache_write += u.cache_write;
  cost += u.cost;
  tool_calls += format::tool_call_blocks(json::find_member(msg, "content")).size();
}

uint64_t Counts::messages_of(std::string_view role) const {
  for (const RoleCount& r : messages) {
    if (r.role == role) return r.count;
  }
  return 0;
}

Counts count_entries(const model::SessionData& data) {
  Counts c;
  for (const model::Entry& e : data.entries) c.add(e);
  return c;
}

double context_tokens(const model::SessionData& data, uint32_t leaf) {
  // Bounded by the entry count, so a parent cycle the tree did not cut could not loop forever.
  for (size_t steps = 0; leaf != model::kNone && steps <= data.entries.size(); ++steps) {
    const model::Entry& e = data.entries[leaf];
    if (e.type == EntryType::kCompaction) return 0;
    if (e.is_assistant()) {
      auto msg = json::members_of(e.message());
      auto stop = json::string_value(json::find_member(msg, "stopReason"));
      views::MessageUsage u = views::usage_of(msg);
      if (u.present && !(stop && (*stop == "aborted" || *stop == "error"))) {
        return u.total_tokens > 0 ? u.total_tokens : u.input + u.output + u.cache_read + u.cache_write;
      }
    }
    leaf = e.parent;
  }
  return 0;
}

double SessionStats::total_tokens() const {
  return counts.input_tokens + counts.output_tokens + counts.cache_read + counts.cache_write;
}

std::vector<std::pair<std::string, std::string>> stat_fields(const SessionStats& s) {
  std::string roles = "{";
  for (const RoleCount& r : s.counts.messages) {
    if (roles.size() > 1) roles += ',';
    json::append_quoted(roles, r.role);
    roles += ':' + std::to_string(r.count);
  }
  roles += '}';
  return {
      {"inputTokens", number(s.counts.input_tokens)},
      {"outputTokens", number(s.counts.output_tokens)},
      {"cacheRead", number(s.counts.cache_read)},
      {"cacheWrite", number(s.counts.cache_write)},
      {"totalTokens", number(s.total_tokens())},
      {"contextTokens", number(s.context_tokens)},
      {"cost", number(s.counts.cost)},
      {"compactionCount", std::to_string(s.counts.compactions)},
      {"messageCounts", std::move(roles)},
      {"toolCalls", std::to_string(s.counts.tool_calls)},
  };
}

std::string stats_json(const SessionStats& s) {
  std::string out = "{";
  for (const auto& [name, value] : stat_fields(s)) {
    if (out.size() > 1) out += ',';
    json::append_quoted(out, name);
    out += ':' + value;
  }
  return out + "}";
}

}  // namespace xs::stats
