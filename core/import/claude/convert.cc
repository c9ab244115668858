#include "import/claude/convert.h"

#include <simdjson.h>

#include "format/clock.h"
#include "import/parsed_row.h"
#include "json/json_string.h"
#include "json/limits.h"

namespace xs::import::claude {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

void quoted(std::string& out, std::string_view s) { json::append_quoted(out, s); }
void raw(std::string& out, const element& e) { append_minified(out, e); }

std::string timestamp_ms(const Row& row) {
  auto ms = format::parse_iso_ms(row.timestamp);
  return std::to_string(ms ? *ms : 0);
}

// An image block {type:"image", source:{type:"base64", media_type, data}} as the native
// {type:"image", data, mimeType}; any other source is kept as it is.
bool image_block(const object& b, std::string& out) {
  object src;
  std::string_view kind, data, media;
  if (b["source"].get(src) != simdjson::SUCCESS || src["type"].get(kind) != simdjson::SUCCESS || kind != "base64" ||
      src["data"].get(data) != simdjson::SUCCESS || src["media_type"].get(media) != simdjson::SUCCESS) {
    return false;
  }
  out += "{\"type\":\"image\",\"data\":";
  quoted(out, data);
  out += ",\"mimeType\":";
  quoted(out, media);
  out += '}';
  return true;
}

// One content block in native form; blocks the native format has no form for are kept verbatim.
void block(const element& e, std::string& out) {
  object b;
  std::string_view type;
  if (e.get(b) != simdjson::SUCCESS || b["type"].get(type) != simdjson::SUCCESS) return raw(out, e);
  std::string_view text;
  if (type == "text" && b["text"].get(text) == simdjson::SUCCESS) {
    out += "{\"type\":\"text\",\"text\":";
    quoted(out, text);
    out += '}';
  } else if (type == "thinking" && b["thinking"].get(text) == simdjson::SUCCESS) {
    out += "{\"type\":\"thinking\",\"thinking\":";
    quoted(out, text);
    std::string_view sig;
    if (b["signature"].get(sig) == simdjson::SUCCESS) {
      out += ",\"thinkingSignature\":";
      quoted(out, sig);
    }
    out += '}';
  } else if (type == "tool_use") {
    out += "{\"type\":\"toolCall\",\"id\":";
    quoted(out, str_member(b, "id"));
    out += ",\"name\":";
    quoted(out, str_member(b, "name"));
    out += ",\"arguments\":";
    element input;
    if (b["input"].get(input) == simdjson::SUCCESS) {
      raw(out, input);
    } else {
      out += "{}";
    }
    out += '}';
  } else if (type == "image") {
    if (!image_block(b, out)) raw(out, e);
  } else {
    raw(out, e);
  }
}

// A tool_result's content (a string or blocks) as native blocks.
void result_content(const object& b, std::string& out) {
  element content;
  out += '[';
  if (b["content"].get(content) == simdjson::SUCCESS) {
    std::string_view s;
    array items;
    if (content.get(s) == simdjson::SUCCESS) {
      out += "{\"type\":\"text\",\"text\":";
      quoted(out, s);
      out += '}';
    } else if (content.get(items) == simdjson::SUCCESS) {
      bool first = true;
      for (element it : items) {
        if (!first) out += ',';
        first = false;
        block(it, out);
      }
    }
  }
  out += ']';
}

const char* stop_reason(std::string_view claude, bool has_tool_call) {
  if (claude == "end_turn" || claude == "stop_sequence") return "stop";
  if (claude == "tool_use") return "toolUse";
  if (claude == "max_tokens") return "length";
  return has_tool_call ? "toolUse" : "stop";
}

}  // namespace

std::string assistant_message(const std::vector<const Row*>& rows) {
  std::string content, model, stop, usage, response_id;
  bool has_tool_call = false;
  for (const Row* r : rows) {
    ParsedRow p(r->text);
    object msg = p.object_member("message");
    array blocks;
    element c;
    if (msg["content"].get(c) == simdjson::SUCCESS) {
      std::string_view s;
      if (c.get(s) == simdjson::SUCCESS) {
        if (!content.empty()) content += ',';
        content += "{\"type\":\"text\",\"text\":";
        quoted(content, s);
        content += '}';
      } else if (c.get(blocks) == simdjson::SUCCESS) {
        for (element b : blocks) {
          if (!content.empty()) content += ',';
          block(b, content);
        }
      }
    }
    has_tool_call = has_tool_call || !r->tool_use_ids.empty();
    if (response_id.empty()) response_id = str_member(msg, "id");
    std::string m = str_member(msg, "model");
    if (!m.empty()) model = m;
    std::string sr = str_member(msg, "stop_reason");
    if (!sr.empty()) stop = sr;
    object u;
    if (msg["usage"].get(u) == simdjson::SUCCESS) {
      int64_t in = int_member(u, "input_tokens"), outp = int_member(u, "output_tokens");
      int64_t cr = int_member(u, "cache_read_input_tokens"), cw = int_member(u, "cache_creation_input_tokens");
      usage = "{\"input\":" + std::to_string(in) + ",\"output\":" + std::to_string(outp) +
              ",\"cacheRead\":" + std::to_string(cr) + ",\"cacheWrite\":" + std::to_string(cw) +
              ",\"totalTokens\":" + std::to_string(in + outp + cr + cw) +
              ",\"cost\":{\"input\":0,\"output\":0,\"cacheRead\":0,\"cacheWrite\":0,\"total\":0}}";
    }
  }
  std::string out = "{\"role\":\"assistant\",\"content\":[" + content + "],\"api\":\"anthropic-messages\"";
  out += ",\"provider\":\"anthropic\",\"model\":";
  quoted(out, model);
  if (!usage.empty()) out += ",\"usage\":" + usage;
  out += ",\"stopReason\":\"";
  out += stop_reason(stop, has_tool_call);
  out += "\"";
  if (!response_id.empty()) {
    out += ",\"responseId\":";
    quoted(out, response_id);
  }
  out += ",\"timestamp\":" + timestamp_ms(*rows.front()) + "}";
  return out;
}

std::vector<std::string> user_messages(const Row& row, const std::unordered_map<std::string, std::string>& tool_names) {
  ParsedRow p(row.text);
  object msg = p.object_member("message");
  std::vector<std::string> out;
  std::string ts = timestamp_ms(row);
  element c;
  if (msg["content"].get(c) != simdjson::SUCCESS) {
    out.push_back("{\"role\":\"user\",\"content\":[],\"timestamp\":" + ts + "}");
    return out;
  }
  std::string_view s;
  if (c.get(s) == simdjson::SUCCESS) {
    std::string m = "{\"role\":\"user\",\"content\":";
    quoted(m, s);
    out.push_back(m + ",\"timestamp\":" + ts + "}");
    return out;
  }
  array blocks;
  std::string rest;
  if (c.get(blocks) == simdjson::SUCCESS) {
    for (element e : blocks) {
      object b;
      std::string_view type;
      if (e.get(b) == simdjson::SUCCESS && b["type"].get(type) == simdjson::SUCCESS && type == "tool_result") {
        std::string id = str_member(b, "tool_use_id");
        auto name = tool_names.find(id);
        std::string m = "{\"role\":\"toolResult\",\"toolCallId\":";
        quoted(m, id);
        m += ",\"toolName\":";
        quoted(m, name == tool_names.end() ? "" : name->second);
        m += ",\"content\":";
        result_content(b, m);
        element details;
        // Only the first result carries the row's structured result: Claude writes one per row.
        if (out.empty() && p.root()["toolUseResult"].get(details) == simdjson::SUCCESS) {
          m += ",\"details\":";
          raw(m, details);
        }
        bool is_error = false;
        if (b["is_error"].get(is_error) != simdjson::SUCCESS) is_error = false;
        m += is_error ? ",\"isError\":true" : ",\"isError\":false";
        out.push_back(m + ",\"timestamp\":" + ts + "}");
      } else {
        if (!rest.empty()) rest += ',';
        block(e, rest);
      }
    }
  }
  if (out.empty() || !rest.empty())
    out.push_back("{\"role\":\"user\",\"content\":[" + rest + "],\"timestamp\":" + ts + "}");
  return out;
}

std::string summary_text(const Row& row) {
  ParsedRow p(row.text);
  element c;
  if (p.object_member("message")["content"].get(c) != simdjson::SUCCESS) return "";
  std::string_view s;
  if (c.get(s) == simdjson::SUCCESS) return std::string(s);
  std::string out;
  array blocks;
  if (c.get(blocks) != simdjson::SUCCESS) return "";
  for (element e : blocks) {
    object b;
    std::string_view text;
    if (e.get(b) != simdjson::SUCCESS || b["text"].get(text) != simdjson::SUCCESS) continue;
    if (!out.empty()) out += '\n';
    out += text;
  }
  return out;
}

int64_t pre_tokens(const Row& row) {
  ParsedRow p(row.text);
  object meta;
  if (p.root()["compactMetadata"].get(meta) != simdjson::SUCCESS) return 0;
  return int_member(meta, "preTokens");
}

std::string preserved_head(const Row& row) {
  ParsedRow p(row.text);
  object seg;
  if (p.root()["compactMetadata"]["preservedSegment"].get(seg) != simdjson::SUCCESS) return "";
  return str_member(seg, "headUuid");
}

}  // namespace xs::import::claude
