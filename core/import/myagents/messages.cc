#include "import/myagents/messages.h"

#include <cmath>

#include "format/clock.h"
#include "import/source_rows.h"
#include "json/js_number.h"
#include "json/json_string.h"

namespace xs::import::myagents {

namespace {

using json::Kind;
using json::Member;

std::string key_of(const Member& m) {
  std::string k;
  json::decode_string_token(m.key, k);
  return k;
}

void append_member(std::string& out, std::string_view key, std::string_view raw_value) {
  if (out.size() > 1) out += ',';
  json::append_quoted(out, key);
  out += ':';
  out += raw_value;
}

// A block of MyAgents' structured content (Anthropic's shapes) in the native form; nullopt for
// shapes the native message has no place for (they stay in source.fields.content).
std::optional<std::string> native_block(std::string_view block) {
  std::vector<Member> b = json::members_of(block);
  std::string type = json::string_value(json::find_member(b, "type")).value_or("");
  auto raw = [&](std::string_view k) -> const Member* { return json::find_member(b, k); };
  std::string out = "{";
  if (type == "text" && raw("text") && raw("text")->kind == Kind::kString) {
    append_member(out, "type", "\"text\"");
    append_member(out, "text", raw("text")->value);
  } else if (type == "thinking" && raw("thinking") && raw("thinking")->kind == Kind::kString) {
    append_member(out, "type", "\"thinking\"");
    append_member(out, "thinking", raw("thinking")->value);
    if (raw("signature") && raw("signature")->kind == Kind::kString) {
      append_member(out, "thinkingSignature", raw("signature")->value);
    }
  } else if (type == "tool_use" && raw("id") && raw("name") && raw("id")->kind == Kind::kString &&
             raw("name")->kind == Kind::kString) {
    append_member(out, "type", "\"toolCall\"");
    append_member(out, "id", raw("id")->value);
    append_member(out, "name", raw("name")->value);
    append_member(out, "arguments", raw("input") && raw("input")->kind == Kind::kObject ? raw("input")->value : "{}");
  } else if (type == "image" && raw("source") && raw("source")->kind == Kind::kObject) {
    std::vector<Member> src = json::members_of(raw("source")->value);
    const Member* data = json::find_member(src, "data");
    const Member* mime = json::find_member(src, "media_type");
    if (!data || !mime || data->kind != Kind::kString || mime->kind != Kind::kString) return std::nullopt;
    append_member(out, "type", "\"image\"");
    append_member(out, "data", data->value);
    append_member(out, "mimeType", mime->value);
  } else {
    return std::nullopt;
  }
  return out + "}";
}

// The native content array of a row's content; *exact: whether it says all the source said.
std::string native_content(const Member* content, bool* exact) {
  *exact = false;
  if (!content) return "[]";
  std::vector<Member> parsed;
  bool is_object = false;
  std::string text;
  if (content->kind == Kind::kString) {
    json::decode_string_token(content->value, text);
    std::string_view t = json::js_trim(text);
    // "a JSON string or plain text": a string that parses as an array of blocks is the former.
    if (t.empty() || t.front() != '[' || !json::scan_members(t, json::Limits(), &parsed, &is_object).ok()) {
      *exact = true;
      return "[{\"type\":\"text\",\"text\":" + std::string(content->value) + "}]";
    }
  } else if (content->kind == Kind::kArray) {
    if (!json::scan_members(content->value, json::internal_limits(), &parsed, &is_object).ok()) parsed.clear();
  } else {
    return "[]";
  }
  std::string out = "[";
  for (const Member& block : parsed) {
    if (block.kind != Kind::kObject) continue;
    if (auto b = native_block(block.value)) {
      if (out.size() > 1) out += ',';
      out += *b;
    }
  }
  return out + "]";
}

double usage_number(const std::vector<Member>& u, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names) {
    if (auto v = number_value(json::find_member(u, n)); v && std::isfinite(*v)) return *v;
  }
  return 0;
}

// MyAgents' usage in the native form (docs/session-stats.md#counters reads it).
std::string native_usage(std::string_view usage) {
  std::vector<Member> u = json::members_of(usage);
  double in = usage_number(u, {"inputTokens", "input_tokens", "input"});
  double out_tokens = usage_number(u, {"outputTokens", "output_tokens", "output"});
  double read = usage_number(u, {"cacheReadTokens", "cache_read_input_tokens", "cacheRead"});
  double write = usage_number(u, {"cacheCreationTokens", "cache_creation_input_tokens", "cacheWrite"});
  std::string out = "{\"input\":";
  json::append_js_number(out, in);
  out += ",\"output\":";
  json::append_js_number(out, out_tokens);
  out += ",\"cacheRead\":";
  json::append_js_number(out, read);
  out += ",\"cacheWrite\":";
  json::append_js_number(out, write);
  out += ",\"totalTokens\":";
  json::append_js_number(out, in + out_tokens + read + write);
  return out + "}";
}

}  // namespace

MappedRow map_message_row(const std::vector<Member>& row, uint64_t line) {
  MappedRow r;
  const Member* id = json::find_member(row, "id");
  std::string id_token;
  if (id && id->kind == Kind::kString) {
    id_token = std::string(id->value);
    json::decode_string_token(id->value, r.source_id);
  } else {
    r.source_id = "#" + std::to_string(line);
    json::append_quoted(id_token, r.source_id);
  }
  std::string role = json::string_value(json::find_member(row, "role")).value_or("");
  const Member* ts = json::find_member(row, "timestamp");
  int64_t ms = 0;
  bool dated = false;
  if (ts && ts->kind == Kind::kString) {
    if (auto parsed = format::parse_iso_ms(json::string_value(ts).value_or(""))) {
      ms = *parsed;
      dated = true;
    }
  }
  std::string iso_token;  // the entry's timestamp, as the session writes them
  if (dated) json::append_quoted(iso_token, format::iso_from_ms(ms));

  r.custom = role != "user" && role != "assistant";
  bool exact_content = false;
  std::string content = r.custom ? "" : native_content(json::find_member(row, "content"), &exact_content);

  // What the entry does not say exactly, member for member as the row has it.
  std::string fields = "{";
  for (const Member& m : row) {
    std::string k = key_of(m);
    if (k == "id" && m.kind == Kind::kString) continue;
    if (!r.custom && k == "role") continue;
    if (!r.custom && k == "content" && exact_content) continue;
    if (k == "timestamp" && dated && m.value == iso_token) continue;
    if (r.custom) continue;  // a custom entry keeps the whole row as its data
    append_member(fields, k, m.value);
  }
  fields += '}';
  std::string source = "{\"kind\":\"myagents\",\"id\":" + id_token;
  if (fields.size() > 2) source += ",\"fields\":" + fields;
  source += '}';

  std::string e = "{";
  if (r.custom) {
    append_member(e, "type", "\"custom\"");
    append_member(e, "customType", "\"myagents/message\"");
    append_member(e, "data", without_members(row, {}));
  } else {
    std::string msg = "{";
    append_member(msg, "role", role == "user" ? "\"user\"" : "\"assistant\"");
    append_member(msg, "content", content);
    if (role == "assistant") {
      const Member* usage = json::find_member(row, "usage");
      if (usage && usage->kind == Kind::kObject) append_member(msg, "usage", native_usage(usage->value));
      append_member(msg, "stopReason", "\"stop\"");
    }
    if (dated) {
      std::string n;
      json::append_js_number(n, static_cast<double>(ms));
      append_member(msg, "timestamp", n);
    }
    msg += '}';
    append_member(e, "type", "\"message\"");
    append_member(e, "message", msg);
  }
  if (dated) append_member(e, "timestamp", iso_token);
  append_member(e, "source", source);
  r.entry = e + "}";
  return r;
}

std::optional<std::string> source_id_of(std::string_view entry_line) {
  std::vector<Member> m = json::members_of(entry_line);
  const Member* source = json::find_member(m, "source");
  if (!source || source->kind != Kind::kObject) return std::nullopt;
  std::vector<Member> s = json::members_of(source->value);
  if (json::string_value(json::find_member(s, "kind")).value_or("") != "myagents") return std::nullopt;
  return json::string_value(json::find_member(s, "id"));
}

}  // namespace xs::import::myagents
