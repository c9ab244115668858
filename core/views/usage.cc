#include "views/usage.h"

#include <cstdlib>
#include <vector>

#include "json/js_number.h"
#include "json/member_scanner.h"

namespace xs::views {

namespace {

using json::Member;

double number(const Member* m) {
  if (!m || m->kind != json::Kind::kNumber) return 0;
  return std::strtod(std::string(m->value).c_str(), nullptr);
}

}  // namespace

std::string usage_json(const model::SessionData& data) {
  double input = 0, output = 0, cache_read = 0, cache_write = 0, premium = 0, cost = 0;
  uint64_t assistants = 0;
  for (const model::Entry& e : data.entries) {
    if (!e.is_assistant()) continue;
    ++assistants;
    auto msg = json::members_of(e.message());
    const Member* usage = json::find_member(msg, "usage");
    if (!usage || usage->kind != json::Kind::kObject) continue;
    auto u = json::members_of(usage->value);
    input += number(json::find_member(u, "input"));
    output += number(json::find_member(u, "output"));
    cache_read += number(json::find_member(u, "cacheRead"));
    cache_write += number(json::find_member(u, "cacheWrite"));
    premium += number(json::find_member(u, "premiumRequests"));
    const Member* c = json::find_member(u, "cost");
    if (c && c->kind == json::Kind::kObject) cost += number(json::find_member(json::members_of(c->value), "total"));
  }
  std::string out = "{\"input\":";
  json::append_js_number(out, input);
  out += ",\"output\":";
  json::append_js_number(out, output);
  out += ",\"cacheRead\":";
  json::append_js_number(out, cache_read);
  out += ",\"cacheWrite\":";
  json::append_js_number(out, cache_write);
  out += ",\"premiumRequests\":";
  json::append_js_number(out, premium);
  out += ",\"cost\":";
  json::append_js_number(out, cost);
  out += ",\"assistantMessages\":" + std::to_string(assistants) + "}";
  return out;
}

}  // namespace xs::views
