#include "format/message_text.h"

#include <vector>

#include "json/json_string.h"
#include "json/member_scanner.h"

namespace xs::format {

namespace {

using json::Kind;
using json::Member;

std::vector<Member> members_of(std::string_view text) {
  std::vector<Member> m;
  bool is_object = false;
  if (!json::scan_members(text, json::internal_limits(), &m, &is_object).ok() || !is_object) m.clear();
  return m;
}

std::string decoded(const Member* m) {
  std::string s;
  if (m && m->kind == Kind::kString) json::decode_string_token(m->value, s);
  return s;
}

}  // namespace

std::string message_text(std::string_view message_json) {
  auto m = members_of(message_json);
  const Member* content = json::find_member(m, "content");
  if (!content) return std::string();
  if (content->kind == Kind::kString) return decoded(content);
  if (content->kind != Kind::kArray) return std::string();
  std::vector<Member> blocks;
  bool is_object = true;
  if (!json::scan_members(content->value, json::internal_limits(), &blocks, &is_object).ok()) return std::string();
  std::string text;
  bool first = true;
  for (const Member& b : blocks) {
    if (b.kind != Kind::kObject) continue;
    auto bm = members_of(b.value);
    if (decoded(json::find_member(bm, "type")) != "text") continue;
    if (!first) text += ' ';
    text += decoded(json::find_member(bm, "text"));
    first = false;
  }
  return text;
}

}  // namespace xs::format
