#include "format/header.h"

#include <cmath>
#include <vector>

#include "json/json_string.h"
#include "json/member_scanner.h"
#include "json/object_edit.h"

namespace xs::format {

namespace {

std::optional<std::string> string_member(const std::vector<json::Member>& members, std::string_view key) {
  return json::string_value(json::find_member(members, key));
}

}  // namespace

Result<Header> parse_header(std::string_view line) {
  std::vector<json::Member> members;
  bool is_object = false;
  XS_RETURN_IF_ERROR(json::scan_members(line, json::internal_limits(), &members, &is_object));
  Header h;
  auto id = string_member(members, "id");
  if (!is_object || !id) return Status(Code::kNoHeader, "not a session header");
  h.id = *id;
  // The reference takes `header.version ?? 1` and compares it with JavaScript's < and >=, which
  // convert to a number first: "3" is 3, true is 1, and a value that is not a number (NaN) is
  // neither below 2 nor below 3, so it migrates nothing.
  double d = 1;
  if (const json::Member* v = json::find_member(members, "version")) {
    std::string text(v->value);
    switch (v->kind) {
      case json::Kind::kNumber: d = std::strtod(text.c_str(), nullptr); break;
      case json::Kind::kTrue: d = 1; break;
      case json::Kind::kFalse: d = 0; break;
      case json::Kind::kNull: d = 1; break;  // ?? treats null as missing
      case json::Kind::kString: {
        std::string s;
        json::decode_string_token(v->value, s);
        std::string_view t = json::js_trim(s);
        char* end = nullptr;
        std::string ts(t);
        d = ts.empty() ? 0 : std::strtod(ts.c_str(), &end);
        if (!ts.empty() && (end != ts.c_str() + ts.size() || ts.find_first_of("xXnN") != std::string::npos)) {
          d = std::nan("");  // not a decimal number as JavaScript reads it
        }
        break;
      }
      default: d = std::nan(""); break;
    }
  }
  h.version = std::isnan(d) || d >= kCurrentVersion ? kCurrentVersion : d >= 2 ? 2 : 1;
  h.timestamp = string_member(members, "timestamp").value_or("");
  h.cwd = string_member(members, "cwd").value_or("");
  h.title = string_member(members, "title");
  h.parent_session = string_member(members, "parentSession");
  return h;
}

std::string build_header_line(const Header& h) {
  std::string s = "{\"type\":\"session\",\"version\":" + std::to_string(h.version) + ",\"id\":";
  json::append_quoted(s, h.id);
  s += ",\"timestamp\":";
  json::append_quoted(s, h.timestamp);
  s += ",\"cwd\":";
  json::append_quoted(s, h.cwd);
  if (h.title) {
    s += ",\"title\":";
    json::append_quoted(s, *h.title);
  }
  if (h.parent_session) {
    s += ",\"parentSession\":";
    json::append_quoted(s, *h.parent_session);
  }
  s += "}";
  return s;
}

Result<std::string> set_header_title(std::string_view line, const std::optional<std::string>& title) {
  if (!title) return json::remove_member(line, "title");
  std::string value;
  json::append_quoted(value, *title);
  return json::set_member(line, "title", value, "parentSession");
}

}  // namespace xs::format
