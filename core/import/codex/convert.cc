#include "import/codex/convert.h"

#include <simdjson.h>

#include "format/clock.h"
#include "import/parsed_row.h"
#include "json/json_string.h"
#include "json/limits.h"
#include "json/member_scanner.h"

namespace xs::import::codex {

namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

// Text from the source may hold a lone surrogate escape JSON.parse accepts: U+FFFD in its place.
void quoted(std::string& out, std::string_view s) { json::append_quoted_lossy(out, s); }

std::string timestamp_ms(const Row& row) {
  auto ms = format::parse_iso_ms(row.timestamp);
  return std::to_string(ms ? *ms : 0);
}

void text_block(std::string& out, std::string_view text) {
  out += "{\"type\":\"text\",\"text\":";
  quoted(out, text);
  out += '}';
}

// A data: URL image as the native {type:"image", data, mimeType}; false for any other URL.
bool image_block(std::string_view url, std::string& out) {
  constexpr std::string_view kData = "data:";
  size_t marker = url.find(";base64,");
  if (url.substr(0, kData.size()) != kData || marker == std::string_view::npos) return false;
  out += "{\"type\":\"image\",\"data\":";
  quoted(out, url.substr(marker + 8));
  out += ",\"mimeType\":";
  quoted(out, url.substr(kData.size(), marker - kData.size()));
  out += '}';
  return true;
}

// One content item (input_text, output_text, input_image) in native form; any other is kept as
// it is.
void content_block(const element& e, std::string& out) {
  object b;
  std::string_view type, text;
  if (e.get(b) == simdjson::SUCCESS && b["type"].get(type) == simdjson::SUCCESS) {
    if ((type == "input_text" || type == "output_text") && b["text"].get(text) == simdjson::SUCCESS) {
      return text_block(out, text);
    }
    if (type == "input_image" && b["image_url"].get(text) == simdjson::SUCCESS && image_block(text, out)) return;
  }
  append_minified(out, e);
}

void content_blocks(const element& content, std::string& out) {
  array items;
  std::string_view s;
  out += '[';
  if (content.get(items) == simdjson::SUCCESS) {
    bool first = true;
    for (element it : items) {
      if (!first) out += ',';
      first = false;
      content_block(it, out);
    }
  } else if (content.get(s) == simdjson::SUCCESS) {
    text_block(out, s);
  }
  out += ']';
}

// The texts of `key`'s items, joined by `sep`.
std::string joined_texts(const object& o, std::string_view key, std::string_view sep) {
  array items;
  std::string out;
  if (o[key].get(items) != simdjson::SUCCESS) return out;
  for (element it : items) {
    std::string_view text;
    if (it["text"].get(text) != simdjson::SUCCESS) continue;
    if (!out.empty()) out += sep;
    out += text;
  }
  return out;
}

// The raw JSON text of a top-level member of `object_text` ("" when absent).
std::string_view raw_member(std::string_view object_text, std::string_view key, json::Kind* kind = nullptr) {
  static thread_local std::vector<json::Member> members;
  members = json::members_of(object_text);
  const json::Member* m = json::find_member(members, key);
  if (kind) *kind = m ? m->kind : json::Kind::kAbsent;
  return m ? m->value : std::string_view();
}

// A call's arguments: the JSON object Codex's argument string holds, else {"input": the string}
// (a custom tool's free-form input, or arguments that are not JSON).
void arguments(std::string& out, std::string_view text) {
  std::vector<json::Member> members;
  bool is_object = false;
  if (json::scan_members(text, json::Limits(), &members, &is_object).ok() && is_object) {
    out.append(text.data(), text.size());
    return;
  }
  out += "{\"input\":";
  quoted(out, text);
  out += '}';
}

void tool_call(const Row& row, const object& p, std::string& out) {
  out += "{\"type\":\"toolCall\",\"id\":";
  std::string id = str_member(p, "call_id");
  if (id.empty()) id = str_member(p, "id");
  quoted(out, id);
  out += ",\"name\":";
  if (row.item == "local_shell_call") {
    quoted(out, "local_shell");
    std::string_view action = raw_member(row.payload, "action");
    out += ",\"arguments\":";
    out += action.empty() ? std::string_view("{}") : action;
  } else {
    quoted(out, str_member(p, "name"));
    out += ",\"arguments\":";
    arguments(out, str_member(p, row.item == "custom_tool_call" ? "input" : "arguments"));
  }
  out += '}';
}

void usage(std::string& out, const Row& row) {
  ParsedRow p(row.payload);
  object u;
  if (p.root()["info"]["last_token_usage"].get(u) != simdjson::SUCCESS &&
      p.root()["info"]["total_token_usage"].get(u) != simdjson::SUCCESS) {
    return;
  }
  int64_t in = int_member(u, "input_tokens"), cached = int_member(u, "cached_input_tokens");
  int64_t output = int_member(u, "output_tokens"), total = int_member(u, "total_tokens");
  // Codex's input_tokens include the cached ones; the native input does not.
  out += ",\"usage\":{\"input\":" + std::to_string(in - cached) + ",\"output\":" + std::to_string(output) +
         ",\"cacheRead\":" + std::to_string(cached) + ",\"cacheWrite\":0,\"totalTokens\":" + std::to_string(total) +
         ",\"cost\":{\"input\":0,\"output\":0,\"cacheRead\":0,\"cacheWrite\":0,\"total\":0}}";
}

}  // namespace

std::string message_members(const Row& row) {
  ParsedRow p(row.payload);
  std::string out = "\"message\":{\"role\":";
  quoted(out, row.role);
  out += ",\"content\":";
  element content;
  if (p.root()["content"].get(content) == simdjson::SUCCESS) {
    content_blocks(content, out);
  } else {
    out += "[]";
  }
  return out + ",\"timestamp\":" + timestamp_ms(row) + "}";
}

std::string assistant_members(const std::vector<const Row*>& items, const Row* usage_row, const std::string& provider,
                              const std::string& model) {
  std::string content;
  bool calls = false;
  for (const Row* r : items) {
    ParsedRow p(r->payload);
    object o = p.root();
    if (r->item == "message") {
      element c;
      if (o["content"].get(c) != simdjson::SUCCESS) continue;
      std::string blocks;
      content_blocks(c, blocks);
      if (blocks.size() > 2) content += (content.empty() ? "" : ",") + blocks.substr(1, blocks.size() - 2);
      continue;
    }
    if (!content.empty()) content += ',';
    if (r->item == "reasoning") {
      std::string thinking = joined_texts(o, "content", "\n");
      if (thinking.empty()) thinking = joined_texts(o, "summary", "\n\n");
      content += "{\"type\":\"thinking\",\"thinking\":";
      quoted(content, thinking);
      content += ",\"thinkingSignature\":";
      quoted(content, r->payload);
      content += '}';
    } else {
      tool_call(*r, o, content);
      calls = true;
    }
  }
  std::string out = "\"message\":{\"role\":\"assistant\",\"content\":[" + content + "],\"api\":\"openai-responses\"";
  out += ",\"provider\":";
  quoted(out, provider);
  out += ",\"model\":";
  quoted(out, model);
  if (usage_row) usage(out, *usage_row);
  out += calls ? ",\"stopReason\":\"toolUse\"" : ",\"stopReason\":\"stop\"";
  return out + ",\"timestamp\":" + timestamp_ms(*items.front()) + "}";
}

std::string tool_result_members(const Row& row, const std::unordered_map<std::string, std::string>& tool_names) {
  ParsedRow p(row.payload);
  object o = p.root();
  std::string id = str_member(o, "call_id");
  auto name = tool_names.find(id);
  std::string out = "\"message\":{\"role\":\"toolResult\",\"toolCallId\":";
  quoted(out, id);
  out += ",\"toolName\":";
  quoted(out, name == tool_names.end() ? "" : name->second);
  out += ",\"content\":";
  element output;
  object legacy;
  bool failed = false;
  if (o["output"].get(legacy) == simdjson::SUCCESS) {
    // An older payload: {content, success}.
    element content;
    if (legacy["content"].get(content) == simdjson::SUCCESS) {
      content_blocks(content, out);
    } else {
      out += "[]";
    }
    bool success = true;
    failed = legacy["success"].get(success) == simdjson::SUCCESS && !success;
  } else if (o["output"].get(output) == simdjson::SUCCESS) {
    content_blocks(output, out);
  } else {
    out += "[]";
  }
  out += failed ? ",\"isError\":true" : ",\"isError\":false";
  return out + ",\"timestamp\":" + timestamp_ms(row) + "}";
}

std::string compaction_members(const Row& row, int64_t tokens_before, const std::string& provider) {
  ParsedRow p(row.payload);
  std::string out = "\"summary\":";
  quoted(out, str_member(p.root(), "message"));
  // Codex resumes from the compaction alone: nothing before it is kept.
  out += ",\"firstKeptEntryId\":\"\",\"tokensBefore\":" + std::to_string(tokens_before);
  json::Kind kind;
  std::string_view history = raw_member(row.payload, "replacement_history", &kind);
  if (kind == json::Kind::kArray) {
    out += ",\"preserveData\":{\"openaiRemoteCompaction\":{\"provider\":";
    quoted(out, provider);
    out += ",\"replacementHistory\":";
    out.append(history.data(), history.size());
    out += "}}";
  }
  return out;
}

std::string custom_members(const Row& row) {
  std::string type = "codex/" + (row.type.empty() ? std::string("row") : row.type);
  bool wrapped = row.payload.data() != row.text.data();  // the older shape has no wrapper
  if (!wrapped && row.kind == RowKind::kSessionMeta) type = "codex/session_meta";
  if (wrapped && !row.item.empty() && (row.kind == RowKind::kResponseItem || row.kind == RowKind::kEventMsg)) {
    type += "/" + row.item;
  }
  std::string out = "\"customType\":";
  json::append_quoted_lossy(out, type);
  out += ",\"data\":";
  out.append(row.text.data(), row.text.size());
  return out;
}

}  // namespace xs::import::codex
