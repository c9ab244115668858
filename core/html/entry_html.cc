#include "html/entry_html.h"

#include <optional>
#include <string_view>
#include <vector>

#include "blobs/blob_resolver.h"
#include "format/message_text.h"
#include "html/escape.h"
#include "html/markdown.h"
#include "json/json_string.h"
#include "json/member_scanner.h"

namespace xs::html {

namespace {

using format::EntryType;
using json::Kind;
using json::Member;
using Members = std::vector<Member>;

constexpr size_t kPreviewBytes = 120;

std::string str(const Members& m, std::string_view key) {
  return json::string_value(json::find_member(m, key)).value_or("");
}

void text(std::string& out, std::string_view s) { append_escaped(out, s); }

// <pre> of plain text (tool output, code a tool ran, raw JSON).
void pre(std::string& out, std::string_view s, const char* cls = nullptr) {
  out += cls ? std::string("<pre class=\"") + cls + "\">" : std::string("<pre>");
  text(out, s);
  out += "</pre>";
}

void markdown(std::string& out, std::string_view s) {
  out += "<div class=\"md\">";
  append_markdown(out, s);
  out += "</div>";
}

// A member shown as text: a string decoded, anything else as its JSON.
std::string shown_value(const Member& m) {
  if (m.kind == Kind::kString) return json::string_value(&m).value_or("");
  return std::string(m.value);
}

std::string shown_member(const Members& m, std::string_view key) {
  const Member* v = json::find_member(m, key);
  return v ? shown_value(*v) : std::string();
}

// The elements of an array value (validated JSON), in order.
std::vector<Member> elements(std::string_view array) {
  std::vector<Member> out;
  bool is_object = false;
  if (!json::scan_members(array, json::internal_limits(), &out, &is_object).ok() || is_object) out.clear();
  return out;
}

bool is_base64(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    bool ok =
        (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/' || c == '=';
    if (!ok) return false;
  }
  return true;
}

// Raster types only: an SVG could not run script inside <img>, but it is no photo either.
bool shown_image_type(std::string_view mime) {
  return mime == "image/png" || mime == "image/jpeg" || mime == "image/gif" || mime == "image/webp";
}

void image(std::string& out, const Members& block) {
  std::string mime = str(block, "mimeType");
  std::string data = str(block, "data");
  if (data.rfind("blob:sha256:", 0) == 0) {
    out += "<p class=\"missing\">[image not in the blob store: ";
    text(out, data);
    out += "]</p>";
    return;
  }
  if (!shown_image_type(mime) || !is_base64(data)) {
    out += "<p class=\"missing\">[image not shown: type ";
    text(out, mime.empty() ? "unknown" : mime);
    out += "]</p>";
    return;
  }
  out += "<img class=\"image\" alt=\"image\" src=\"data:" + mime + ";base64,";
  out += data;  // checked above: base64 characters only
  out += "\">";
}

void tool_call(std::string& out, const Members& block) {
  out += "<details class=\"tool-call\"><summary>Tool call <code>";
  text(out, str(block, "name"));
  out += "</code></summary>";
  const Member* args = json::find_member(block, "arguments");
  if (args && args->kind == Kind::kObject) {
    out += "<dl class=\"args\">";
    for (const Member& a : json::members_of(args->value)) {
      std::string key;
      json::decode_string_token(a.key, key);
      out += "<dt>";
      text(out, key);
      out += "</dt><dd>";
      pre(out, shown_value(a));
      out += "</dd>";
    }
    out += "</dl>";
  } else if (args) {
    pre(out, shown_value(*args));
  }
  out += "</details>";
}

// The blocks of a `content` member: a string, or an array of text, thinking, toolCall and image
// blocks. `as_markdown` false shows text as it is (tool output).
void content(std::string& out, const Member* c, bool as_markdown) {
  if (!c) return;
  if (c->kind == Kind::kString) {
    std::string s = json::string_value(c).value_or("");
    return as_markdown ? markdown(out, s) : pre(out, s);
  }
  if (c->kind != Kind::kArray) return pre(out, c->value, "raw");
  for (const Member& b : elements(c->value)) {
    if (b.kind != Kind::kObject) {
      pre(out, b.value, "raw");
      continue;
    }
    Members block = json::members_of(b.value);
    std::string type = str(block, "type");
    if (type == "text") {
      as_markdown ? markdown(out, str(block, "text")) : pre(out, str(block, "text"));
    } else if (type == "thinking") {
      out += "<details class=\"thinking\"><summary>Thinking</summary>";
      markdown(out, str(block, "thinking"));
      out += "</details>";
    } else if (type == "redactedThinking" || type == "redacted_thinking") {
      out += "<details class=\"thinking\"><summary>Thinking (redacted)</summary></details>";
    } else if (type == "toolCall") {
      tool_call(out, block);
    } else if (type == "image") {
      image(out, block);
    } else {
      pre(out, b.value, "raw");
    }
  }
}

void meta(std::string& out, std::string_view cls, std::string_view what) {
  out += "<span class=\"";
  out += cls;
  out += "\">";
  text(out, what);
  out += "</span>";
}

void message_body(std::string& out, std::string_view role, std::string_view message, const Members& m) {
  const Member* c = json::find_member(m, "content");
  if (role == "user" || role == "custom" || role == "developer" || role == "system") {
    content(out, c, true);
  } else if (role == "assistant") {
    content(out, c, true);
    std::string stop = str(m, "stopReason");
    if (stop == "error" || stop == "aborted") {
      out += "<p class=\"stop\">";
      text(out, stop == "error" ? "Error: " + str(m, "errorMessage") : "Aborted");
      out += "</p>";
    }
  } else if (role == "toolResult") {
    bool error = json::is_truthy(json::find_member(m, "isError"));
    out += error ? "<details class=\"tool-result error\"><summary>Error from <code>"
                 : "<details class=\"tool-result\"><summary>Result of <code>";
    text(out, str(m, "toolName"));
    out += "</code></summary>";
    content(out, c, false);
    out += "</details>";
  } else if (role == "bashExecution" || role == "pythonExecution") {
    bool bash = role == "bashExecution";
    out += "<details class=\"tool-result\"><summary><code>";
    text(out, shortened(str(m, bash ? "command" : "code"), kPreviewBytes));
    out += "</code></summary>";
    pre(out, str(m, bash ? "command" : "code"), "command");
    pre(out, str(m, "output"));
    if (const Member* code = json::find_member(m, "exitCode"); code && code->kind == Kind::kNumber) {
      out += "<p class=\"exit\">exit code ";
      text(out, code->value);
      out += "</p>";
    }
    out += "</details>";
  } else {
    out += "<details class=\"other\"><summary>Message</summary>";
    pre(out, message, "raw");
    out += "</details>";
  }
}

std::string role_title(std::string_view role) {
  if (role == "user") return "User";
  if (role == "assistant") return "Assistant";
  if (role == "toolResult") return "Tool result";
  if (role == "bashExecution") return "Shell";
  if (role == "pythonExecution") return "Python";
  return std::string(role);
}

// The article's header: what it is, its label, its time, its id as a link to itself.
void open_article(std::string& out, const EntrySource& src, const model::Entry& e, std::string_view cls,
                  std::string_view title) {
  out += "<article class=\"entry ";
  text(out, cls);
  out += "\" id=\"";
  text(out, entry_anchor(e.id));
  out += "\"><header>";
  meta(out, "kind", title);
  if (const model::LabelState* l = src.tree.label_of(e.id); l && l->alive) meta(out, "label", l->label);
  if (!e.timestamp.empty()) meta(out, "time", e.timestamp);
  out += "<a class=\"id\" href=\"#";
  text(out, entry_anchor(e.id));
  out += "\">";
  text(out, e.id);
  out += "</a></header>";
}

void link_to(std::string& out, std::string_view id) {
  out += "<a href=\"#";
  text(out, entry_anchor(id));
  out += "\">";
  text(out, id);
  out += "</a>";
}

// The one line a state entry (model, thinking level, mode...) shows before its JSON.
std::string state_summary(EntryType type, const Members& m) {
  switch (type) {
    case EntryType::kModelChange: {
      std::string model = str(m, "model");  // pi's v1 form: provider and modelId
      return "model: " + (model.empty() ? str(m, "provider") + "/" + str(m, "modelId") : model);
    }
    case EntryType::kThinkingLevelChange: return "thinking level: " + shown_member(m, "thinkingLevel");
    case EntryType::kModeChange: return "mode: " + str(m, "mode");
    case EntryType::kServiceTierChange: return "service tier: " + shown_member(m, "serviceTier");
    case EntryType::kSessionInfo: return "name: " + str(m, "name");
    case EntryType::kSessionInit: return "session start: " + shortened(str(m, "task"), kPreviewBytes);
    case EntryType::kCustom: return "custom: " + str(m, "customType");
    case EntryType::kTtsrInjection: return "rules injected";
    case EntryType::kMcpToolSelection: return "MCP tools selected";
    default: return "entry";
  }
}

void message_entry(std::string& out, const EntrySource& src, const model::Entry& e) {
  std::string resolved;
  std::string_view message = e.message();
  if (src.blobs && e.has_blob_ref()) {
    auto r = blobs::resolve_blobs(message, *src.blobs, nullptr);
    if (r.ok()) message = resolved = std::move(*r);
  }
  Members m = json::members_of(message);
  std::string role(e.role);
  std::string title = role_title(role);
  if (role == "assistant" && !e.model.empty()) title += " \xC2\xB7 " + std::string(e.model);
  if (role == "custom") title = "Custom \xC2\xB7 " + str(m, "customType");
  open_article(out, src, e, "msg " + role, title);
  message_body(out, role, message, m);
  out += "</article>";
}

// compaction, branch_summary, label: marked as such; the other entries as small state lines.
void other_entry(std::string& out, const EntrySource& src, const model::Entry& e) {
  Members m = json::members_of(e.line);
  switch (e.type) {
    case EntryType::kCompaction: {
      open_article(out, src, e, "mark compaction", "Compaction");
      out += "<p class=\"facts\">";
      text(out, "tokens before: " + shown_member(m, "tokensBefore") + ", first kept entry: ");
      link_to(out, str(m, "firstKeptEntryId"));
      out += "</p><details class=\"summary\"><summary>Summary</summary>";
      markdown(out, str(m, "summary"));
      out += "</details>";
      break;
    }
    case EntryType::kBranchSummary: {
      open_article(out, src, e, "mark branch-summary", "Branch summary");
      out += "<p class=\"facts\">from ";
      link_to(out, str(m, "fromId"));
      out += "</p>";
      markdown(out, str(m, "summary"));
      break;
    }
    case EntryType::kLabel: {
      open_article(out, src, e, "mark label-entry", e.label_set ? "Label" : "Label cleared");
      out += "<p class=\"facts\">";
      if (e.label_set) {
        meta(out, "label", e.label);
        out += " on ";
      } else {
        out += "on ";
      }
      link_to(out, e.target_id);
      out += "</p>";
      break;
    }
    case EntryType::kCustomMessage: {
      open_article(out, src, e, "custom-message", "Custom \xC2\xB7 " + str(m, "customType"));
      content(out, json::find_member(m, "content"), true);
      break;
    }
    default: {
      std::string kind(format::entry_type_name(e.type));
      if (kind.empty()) kind = str(m, "type");
      open_article(out, src, e, "state", kind);
      out += "<details class=\"raw\"><summary>";
      text(out, state_summary(e.type, m));
      out += "</summary>";
      pre(out, e.line, "raw");
      out += "</details>";
    }
  }
  out += "</article>";
}

}  // namespace

std::string entry_anchor(std::string_view id) { return "e-" + std::string(id); }

void append_entry(std::string& out, const EntrySource& src, uint32_t index) {
  const model::Entry& e = src.data.entries[index];
  if (e.type == EntryType::kMessage) return message_entry(out, src, e);
  other_entry(out, src, e);
}

std::string entry_preview(const model::Entry& e) {
  std::string what;
  if (e.type == EntryType::kMessage) {
    what = role_title(e.role) + ": " + format::message_text(e.message());
  } else if (e.type == EntryType::kBranchSummary || e.type == EntryType::kCompaction) {
    Members m = json::members_of(e.line);
    what = std::string(e.type == EntryType::kCompaction ? "Compaction: " : "Branch summary: ") + str(m, "summary");
  } else {
    what = std::string(format::entry_type_name(e.type));
  }
  return shortened(what, kPreviewBytes);
}

}  // namespace xs::html
