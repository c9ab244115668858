// The searchable text of an entry (entry_text.h).
#include "search/entry_text.h"

#include <vector>

#include "json/json_string.h"
#include "json/member_scanner.h"

namespace xs::search {
namespace {

using format::EntryType;
using json::Kind;
using json::Member;

// Adds `piece` after a space, cut so that the whole stays within `max` bytes.
void add(std::string& out, std::string_view piece, size_t max) {
  if (piece.empty() || out.size() >= max) return;
  if (!out.empty()) out += ' ';
  out += cut_utf8(piece, max - std::min(out.size(), max));
}

std::string string_member(const std::vector<Member>& m, std::string_view key) {
  return json::string_value(json::find_member(m, key)).value_or("");
}

// A `content` member: a string, or the text of its {"type":"text"} blocks; tool calls (for an
// assistant) as "name arguments", each cut to kMaxToolTextBytes.
void add_content(std::string& out, const Member* content, size_t max, std::string* calls) {
  if (!content) return;
  if (content->kind == Kind::kString) return add(out, json::string_value(content).value_or(""), max);
  if (content->kind != Kind::kArray) return;
  std::vector<Member> blocks;
  bool is_object = false;
  if (!json::scan_members(content->value, json::internal_limits(), &blocks, &is_object).ok()) return;
  for (const Member& b : blocks) {
    if (b.kind != Kind::kObject) continue;
    auto bm = json::members_of(b.value);
    std::string type = string_member(bm, "type");
    if (type == "text") {
      add(out, string_member(bm, "text"), max);
    } else if (type == "toolCall" && calls) {
      std::string call = string_member(bm, "name");
      if (const Member* args = json::find_member(bm, "arguments")) add(call, args->value, kMaxToolTextBytes);
      add(*calls, call, max);
    }
  }
}

// Text as the index stores it: valid UTF-8 (a lone surrogate escape decodes to bytes that are
// not), a NUL byte (an escaped \u0000) as a space.
std::string clean(std::string text) {
  if (!json::is_valid_utf8(text)) text = json::to_valid_utf8(text);
  for (char& c : text) {
    if (c == '\0') c = ' ';
  }
  return text;
}

EntryText message_text(const model::Entry& e) {
  EntryText out;
  auto m = json::members_of(e.message());
  const Member* content = json::find_member(m, "content");
  if (e.role == "user") {
    out.role = "user";
    add_content(out.text, content, kMaxEntryTextBytes, nullptr);
  } else if (e.role == "assistant") {
    std::string calls;
    add_content(out.text, content, kMaxEntryTextBytes, &calls);
    out.role = out.text.empty() && !calls.empty() ? "tool" : "assistant";
    add(out.text, calls, kMaxEntryTextBytes);
  } else if (e.role == "toolResult") {
    out.role = "tool";
    add(out.text, string_member(m, "toolName"), kMaxToolTextBytes);
    add_content(out.text, content, kMaxToolTextBytes, nullptr);
  } else if (e.role == "bashExecution" || e.role == "pythonExecution") {
    out.role = "tool";
    add(out.text, string_member(m, e.role == "bashExecution" ? "command" : "code"), kMaxToolTextBytes);
    add(out.text, string_member(m, "output"), kMaxToolTextBytes);
  } else if (e.role == "custom" && json::is_truthy(json::find_member(m, "display"))) {
    out.role = "user";
    add_content(out.text, content, kMaxEntryTextBytes, nullptr);
  }
  return out;
}

}  // namespace

std::string_view cut_utf8(std::string_view text, size_t max) {
  if (text.size() <= max) return text;
  size_t end = max;
  // Back over continuation bytes (10xxxxxx) to the start of the sequence the cut falls in.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

EntryText entry_text(const model::Entry& e) {
  EntryText out;
  switch (e.type) {
    case EntryType::kMessage: out = message_text(e); break;
    case EntryType::kCustomMessage: {
      auto m = json::members_of(e.line);
      if (!json::is_truthy(json::find_member(m, "display"))) break;
      out.role = "user";
      add_content(out.text, json::find_member(m, "content"), kMaxEntryTextBytes, nullptr);
      break;
    }
    case EntryType::kCompaction:
    case EntryType::kBranchSummary:
      out.role = "summary";
      add(out.text, string_member(json::members_of(e.line), "summary"), kMaxEntryTextBytes);
      break;
    case EntryType::kLabel:
      out.role = "label";
      add(out.text, e.label, kMaxEntryTextBytes);
      break;
    default: break;
  }
  out.text = clean(std::move(out.text));
  // Replacing invalid bytes may have made it longer.
  if (out.text.size() > kMaxEntryTextBytes) out.text.resize(cut_utf8(out.text, kMaxEntryTextBytes).size());
  if (out.text.empty()) out.role = {};
  return out;
}

}  // namespace xs::search
