#include "views/usage.h"

#include <cstdlib>
#include <vector>

#include "json/js_number.h"

namespace xs::views {

namespace {

using json::Member;

double number(const Member* m) {
  if (!m || m->kind != json::Kind::kNumber) return 0;
  return std::strtod(std::string(m->value).c_str(), nullptr);
}

}  // namespace

MessageUsage usage_of(const std::vector<json::Member>& message) {
  MessageUsage out;
  const Member* usage = json::find_member(message, "usage");
  if (!usage || usage->kind != json::Kind::kObject) return out;
  out.present = true;
  auto u = json::members_of(usage->value);
  out.input = number(json::find_member(u, "input"));
  out.output = number(json::find_member(u, "output"));
  out.cache_read = number(json::find_member(u, "cacheRead"));
  out.cache_write = number(json::find_member(u, "cacheWrite"));
  out.premium = number(json::find_member(u, "premiumRequests"));
  out.total_tokens = number(json::find_member(u, "totalTokens"));
  const Member* c = json::find_member(u, "cost");
  if (c && c->kind == json::Kind::kObject) out.cost = number(json::find_member(json::members_of(c->value), "total"));
  return out;
}

std::string usage_json(const model::SessionData& data) {
  MessageUsage sum;
  uint64_t assistants = 0;
  for (const model::Entry& e : data.entries) {
    if (!e.is_assistant()) continue;
    ++assistants;
    MessageUsage u = usage_of(json::members_of(e.message()));
    sum.input += u.input;
    sum.output += u.output;
    sum.cache_read += u.cache_read;
    sum.cache_write += u.cache_write;
    sum.premium += u.premium;
    sum.cost += u.cost;
  }
  std::string out = "{\"input\":";
  json::append_js_number(out, sum.input);
  out += ",\"output\":";
  json::append_js_number(out, sum.output);
  out += ",\"cacheRead\":";
  json::append_js_number(out, sum.cache_read);
  out += ",\"cacheWrite\":";
  json::append_js_number(out, sum.cache_write);
  out += ",\"premiumRequests\":";
  json::append_js_number(out, sum.premium);
  out += ",\"cost\":";
  json::append_js_number(out, sum.cost);
  out += ",\"assistantMessages\":" + std::to_string(assistants) + "}";
  return out;
}

}  // namespace xs::views
