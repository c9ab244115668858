#include "json/object_edit.h"

#include <vector>

#include "json/json_string.h"
#include "json/member_scanner.h"

namespace xs::json {

namespace {

Status object_members(std::string_view object, std::vector<Member>* members) {
  bool is_object = false;
  XS_RETURN_IF_ERROR(scan_members(object, internal_limits(), members, &is_object));
  if (!is_object) return Status::Invalid("not a JSON object");
  return Status::Ok();
}

size_t offset_in(std::string_view whole, std::string_view part) {
  return static_cast<size_t>(part.data() - whole.data());
}

}  // namespace

Result<std::string> set_member(std::string_view object, std::string_view key, std::string_view value,
                               std::string_view before_key) {
  std::vector<Member> members;
  XS_RETURN_IF_ERROR(object_members(object, &members));
  std::string out;
  if (const Member* m = find_member(members, key)) {
    size_t at = offset_in(object, m->value);
    out.append(object.substr(0, at)).append(value).append(object.substr(at + m->value.size()));
    return out;
  }
  std::string pair;
  append_quoted(pair, key);
  pair.push_back(':');
  pair.append(value);
  if (const Member* b = before_key.empty() ? nullptr : find_member(members, before_key)) {
    size_t at = offset_in(object, b->key);
    out.append(object.substr(0, at)).append(pair).push_back(',');
    out.append(object.substr(at));
    return out;
  }
  size_t close = object.rfind('}');
  out.append(object.substr(0, close));
  if (!members.empty()) out.push_back(',');
  out.append(pair).append(object.substr(close));
  return out;
}

Result<std::string> remove_member(std::string_view object, std::string_view key) {
  std::vector<Member> members;
  XS_RETURN_IF_ERROR(object_members(object, &members));
  auto removed = [&](size_t i) { return find_member({members[i]}, key) != nullptr; };
  auto key_start = [&](size_t i) { return offset_in(object, members[i].key); };
  auto value_end = [&](size_t i) { return offset_in(object, members[i].value) + members[i].value.size(); };
  long last_kept = -1;
  for (size_t i = 0; i < members.size(); ++i) {
    if (!removed(i)) last_kept = static_cast<long>(i);
  }
  // A removed member followed by a kept one takes its own trailing comma; one after the last
  // kept member takes the comma before it. Overlapping cuts merge.
  std::vector<std::pair<size_t, size_t>> cuts;
  for (size_t i = 0; i < members.size(); ++i) {
    if (!removed(i)) continue;
    if (static_cast<long>(i) < last_kept) {
      cuts.emplace_back(key_start(i), key_start(i + 1));
    } else if (last_kept >= 0) {
      cuts.emplace_back(value_end(static_cast<size_t>(last_kept)), value_end(i));
    } else {
      cuts.emplace_back(key_start(0), value_end(i));
    }
  }
  std::string out;
  size_t copied = 0;
  for (auto [from, to] : cuts) {
    if (from > copied) out.append(object.substr(copied, from - copied));
    if (to > copied) copied = to;
  }
  out.append(object.substr(copied));
  return out;
}

}  // namespace xs::json
