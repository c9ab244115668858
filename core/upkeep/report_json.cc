#include "upkeep/report_json.h"

#include "json/json_string.h"

namespace xs::upkeep {

void append_problem(std::string& out, const model::Diagnostic& d, std::optional<bool> fixable) {
  out += "{\"line\":" + std::to_string(d.line) + ",\"offset\":" + std::to_string(d.offset) +
         ",\"length\":" + std::to_string(d.length) + ",\"code\":";
  json::append_quoted(out, d.code);
  out += ",\"reason\":";
  json::append_quoted_lossy(out, d.reason);
  if (fixable) out += std::string(",\"fixable\":") + (*fixable ? "true" : "false");
  out += '}';
}

}  // namespace xs::upkeep
