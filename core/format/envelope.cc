#include "format/envelope.h"

#include "json/json_string.h"

namespace xs::format {

void Payload::key(std::string_view k) {
  if (!bytes_.empty()) bytes_.push_back(',');
  json::append_quoted(bytes_, k);
  bytes_.push_back(':');
}

void Payload::raw(std::string_view k, std::string_view json) {
  key(k);
  bytes_.append(json);
}

void Payload::text(std::string_view k, std::string_view utf8) {
  key(k);
  json::append_quoted(bytes_, utf8);
}

size_t Payload::member(std::string_view key_colon_value) {
  if (!bytes_.empty()) bytes_.push_back(',');
  size_t at = bytes_.size();
  bytes_.append(key_colon_value);
  return at;
}

std::string build_entry_line(const Envelope& env, const Payload& payload, size_t* payload_at) {
  std::string ids = ",\"id\":";
  json::append_quoted(ids, env.id);
  ids += ",\"parentId\":";
  if (env.parent_id) {
    json::append_quoted(ids, *env.parent_id);
  } else {
    ids += "null";
  }
  ids += ",\"timestamp\":";
  ids += env.timestamp_token;

  std::string line;
  // One allocation, with room for the newline the writer adds.
  line.reserve(10 + env.type_token.size() + ids.size() + payload.bytes().size() + 3);
  line += "{\"type\":";
  line += env.type_token;
  if (!env.after_payload) line += ids;
  if (!payload.bytes().empty()) {
    line += ',';
    if (payload_at) *payload_at = line.size();
    line += payload.bytes();
  } else if (payload_at) {
    *payload_at = line.size();
  }
  if (env.after_payload) line += ids;
  line += '}';
  return line;
}

}  // namespace xs::format
