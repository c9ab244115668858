#include "entry_text.h"

#include "json.h"
#include "text.h"

namespace xs::cli {

namespace {

void add_line(std::string& out, std::string_view s) {
  if (s.empty()) return;
  if (!out.empty()) out += '\n';
  out += s;
}

}  // namespace

std::string content_text(Json message) {
  std::optional<Json> content = member(message, "content");
  if (!content) content = member(message, "summary");  // compaction and branch summaries
  if (!content) return {};
  if (content->is_string()) return std::string(text_of(*content));
  std::string out;
  for (Json block : items(*content)) {
    std::string_view type = str(block, "type");
    if (type == "text") {
      add_line(out, str(block, "text"));
    } else if (type == "toolCall") {
      std::optional<Json> args = member(block, "arguments");
      add_line(out, "→ " + std::string(str(block, "name", "?")) + "(" + (args ? to_json(*args) : "") + ")");
    } else if (type == "image") {
      add_line(out, "[image]");
    } else if (type == "thinking") {
      add_line(out, "[thinking]");
    } else if (!type.empty()) {
      add_line(out, "[" + std::string(type) + "]");
    }
  }
  return out;
}

std::string message_heading(Json m) {
  std::string_view role = str(m, "role", "?");
  if (role == "assistant") {
    std::string_view provider = str(m, "provider"), model = str(m, "model");
    if (!model.empty())
      return "assistant (" + (provider.empty() ? "" : std::string(provider) + "/") + std::string(model) + ")";
    return "assistant";
  }
  if (role == "toolResult")
    return "tool result (" + std::string(str(m, "toolName", "?")) + (flag(m, "isError") ? ", error)" : ")");
  if (role == "compactionSummary") return "compaction summary";
  if (role == "branchSummary") return "branch summary";
  if (role == "custom") return "custom (" + std::string(str(m, "customType", "?")) + ")";
  return std::string(role);
}

std::string entry_preview(Json e, size_t max_chars) {
  std::string_view type = str(e, "type", "?");
  std::string head, body;
  if (type == "message") {
    std::optional<Json> m = member(e, "message");
    if (m && m->is_object()) {
      std::string_view role = str(*m, "role", "?");
      head = role == "toolResult" ? "toolResult(" + std::string(str(*m, "toolName", "?")) + ")" : std::string(role);
      body = content_text(*m);
    } else {
      head = "message";
    }
  } else if (type == "compaction" || type == "branch_summary") {
    head = type == "compaction" ? "compaction" : "branch summary";
    body = str(e, "summary");
  } else if (type == "label") {
    head = "label " + std::string(str(e, "targetId", "?"));
    body = str(e, "label", "(cleared)");
  } else if (type == "model_change") {
    head = "model";
    body = str(e, "model");
    if (body.empty()) body = std::string(str(e, "provider")) + "/" + std::string(str(e, "modelId"));
  } else if (type == "thinking_level_change") {
    head = "thinking";
    body = str(e, "thinkingLevel", "off");
  } else if (type == "custom" || type == "custom_message") {
    head = std::string(type) + "(" + std::string(str(e, "customType", "?")) + ")";
    if (type == "custom_message") body = content_text(e);
  } else if (type == "mode_change") {
    head = "mode";
    body = str(e, "mode");
  } else {
    head = std::string(type);
  }
  std::string line = body.empty() ? head : head + ": " + body;
  return one_line(line, max_chars);
}

}  // namespace xs::cli
