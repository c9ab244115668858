#include "lines.h"

#include <simdjson.h>

namespace xspg {

namespace {

simdjson::dom::parser& parser() {
  thread_local simdjson::dom::parser p;
  return p;
}

std::optional<std::string> string_member(simdjson::dom::object obj, const char* key) {
  std::string_view v;
  if (obj[key].get_string().get(v) != simdjson::SUCCESS) return std::nullopt;
  return std::string(v);
}

// Cheap refusal of what cannot be an object (gzip bytes, blank lines) before the parser runs.
bool starts_like_object(std::string_view s) {
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    return c == '{';
  }
  return false;
}

}  // namespace

LineFields line_fields(std::string_view line) {
  LineFields out;
  if (!starts_like_object(line)) return out;
  simdjson::dom::object obj;
  if (parser().parse(line.data(), line.size(), true).get_object().get(obj) != simdjson::SUCCESS) return out;
  out.id = string_member(obj, "id");
  out.parent_id = string_member(obj, "parentId");
  std::optional<std::string> type = string_member(obj, "type");
  out.session_header = type && *type == "session";
  if (out.session_header) out.cwd = string_member(obj, "cwd");
  return out;
}

bool is_json_object(std::string_view doc) {
  if (!starts_like_object(doc)) return false;
  simdjson::dom::object obj;
  return parser().parse(doc.data(), doc.size(), true).get_object().get(obj) == simdjson::SUCCESS;
}

}  // namespace xspg
