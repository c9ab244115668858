#include "import/claude/rows.h"

#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "json/limits.h"

namespace xs::import::claude {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

// A string member, or "" when absent; a member of another type is recorded as a problem (a row
// with a wrong-typed field is read as if the field were absent, docs/import-claude.md#reading).
std::string str(const object& o, std::string_view key, Row* row) {
  element e;
  if (o.at_key(key).get(e) != simdjson::SUCCESS) return "";
  if (e.type() == element_type::STRING) return std::string(std::string_view(e));
  if (e.type() != element_type::NULL_VALUE) row->type_problems.push_back(std::string(key) + " is not a string");
  return "";
}

bool flag(const object& o, std::string_view key) {
  element e;
  bool b = false;
  return o.at_key(key).get(e) == simdjson::SUCCESS && e.get(b) == simdjson::SUCCESS && b;
}

std::string first_text(const element& content) {
  if (content.type() == element_type::STRING) return std::string(std::string_view(content));
  simdjson::dom::array blocks;
  if (content.get(blocks) != simdjson::SUCCESS) return "";
  for (element b : blocks) {
    object bo;
    std::string_view type, text;
    if (b.get(bo) != simdjson::SUCCESS || bo["type"].get(type) != simdjson::SUCCESS) continue;
    if (type == "text" && bo["text"].get(text) == simdjson::SUCCESS) return std::string(text);
  }
  return "";
}

void read_message(const object& o, Row* row) {
  object msg;
  element m;
  if (o.at_key("message").get(m) != simdjson::SUCCESS) return;
  if (m.get(msg) != simdjson::SUCCESS) {
    row->type_problems.push_back("message is not an object");
    return;
  }
  row->has_message = true;
  element content;
  bool has_content = msg.at_key("content").get(content) == simdjson::SUCCESS;
  if (row->type == "assistant") {
    row->message_id = str(msg, "id", row);
    row->request_id = str(o, "requestId", row);
  } else if (has_content) {
    row->prompt_text = first_text(content);
  }
  simdjson::dom::array blocks;
  if (!has_content || content.get(blocks) != simdjson::SUCCESS) return;
  for (element b : blocks) {
    object bo;
    std::string_view type, id, name;
    if (b.get(bo) != simdjson::SUCCESS || bo["type"].get(type) != simdjson::SUCCESS) {
      row->other_blocks = true;
      continue;
    }
    if (type == "tool_use" && bo["id"].get(id) == simdjson::SUCCESS) {
      row->tool_use_ids.emplace_back(id);
      row->tool_use_names.emplace_back(bo["name"].get(name) == simdjson::SUCCESS ? name : "");
    }
    if (type != "tool_result") {
      row->other_blocks = true;
      continue;
    }
    ++row->tool_results;
    if (row->tool_result_for.empty() && bo["tool_use_id"].get(id) == simdjson::SUCCESS) {
      row->tool_result_for = std::string(id);
    }
  }
}

bool parse_padded(simdjson::dom::parser& parser, std::string_view text, Row* row, std::string* reason) {
  element doc;
  auto err = parser.parse(text.data(), text.size(), false).get(doc);
  if (err == simdjson::UTF8_ERROR) {
    *reason = "invalid UTF-8";
    return false;
  }
  if (err) {
    *reason = std::string("not JSON (") + simdjson::error_message(err) + ")";
    return false;
  }
  object o;
  if (doc.get(o) != simdjson::SUCCESS) {
    *reason = "not a JSON object";
    return false;
  }
  element type;
  if (o.at_key("type").get(type) != simdjson::SUCCESS || type.type() != element_type::STRING) {
    *reason = "no string \"type\"";
    return false;
  }
  row->text = text;
  row->type = std::string(std::string_view(type));
  row->subtype = str(o, "subtype", row);
  row->uuid = str(o, "uuid", row);
  row->parent_uuid = str(o, "parentUuid", row);
  row->has_parent = !row->parent_uuid.empty();
  row->logical_parent_uuid = str(o, "logicalParentUuid", row);
  row->session_id = str(o, "sessionId", row);
  row->cwd = str(o, "cwd", row);
  row->timestamp = str(o, "timestamp", row);
  row->agent_id = str(o, "agentId", row);
  row->git_branch = str(o, "gitBranch", row);
  row->version = str(o, "version", row);
  row->is_sidechain = flag(o, "isSidechain");
  row->is_meta = flag(o, "isMeta");
  row->is_compact_summary = flag(o, "isCompactSummary");
  if (row->type == "user" || row->type == "assistant") read_message(o, row);
  if (row->type == "summary") {
    row->summary = str(o, "summary", row);
    row->leaf_uuid = str(o, "leafUuid", row);
  }
  if (row->type == "file-history-snapshot") row->message_ref = str(o, "messageId", row);
  if (row->type == "custom-title") row->custom_title = str(o, "customTitle", row);
  if (row->type == "progress") {
    row->parent_tool_use_id = str(o, "parentToolUseID", row);
    object data;
    if (o.at_key("data").get(data) == simdjson::SUCCESS) row->progress_agent_id = str(data, "agentId", row);
  }
  return true;
}

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// 1: a high surrogate escape (\uD800-\uDBFF) at `at`, 2: a low one, 0: neither.
int surrogate_at(std::string_view t, size_t at) {
  if (at + 6 > t.size() || t[at] != '\\' || t[at + 1] != 'u') return 0;
  for (size_t k = 2; k < 6; ++k) {
    if (!is_hex(t[at + k])) return 0;
  }
  unsigned v = std::stoul(std::string(t.substr(at + 2, 4)), nullptr, 16);
  return v >= 0xD800 && v <= 0xDBFF ? 1 : v >= 0xDC00 && v <= 0xDFFF ? 2 : 0;
}

// JSON.stringify writes a lone surrogate (a string cut inside an emoji) as an escape JSON.parse
// accepts and simdjson refuses: a copy with each one replaced by \uFFFD (the same length, so byte
// offsets hold), or "" when the line has none.
std::string without_lone_surrogates(std::string_view t) {
  std::string copy;
  bool in_string = false;
  for (size_t i = 0; i < t.size(); ++i) {
    if (!in_string) {
      in_string = t[i] == '"';
      continue;
    }
    if (t[i] == '"') {
      in_string = false;
    } else if (t[i] == '\\') {
      int half = surrogate_at(t, i);
      if (half == 1 && surrogate_at(t, i + 6) == 2) {
        i += 11;
        continue;
      }
      if (half != 0) {
        if (copy.empty()) copy.assign(t);
        copy.replace(i, 6, "\\ufffd");
      }
      ++i;
    }
  }
  return copy;
}

// What only a transcript row has (a content block or a nested message has none of these).
bool looks_like_row(const Row& r) {
  return !r.uuid.empty() || !r.session_id.empty() || !r.leaf_uuid.empty() || !r.message_ref.empty();
}

// A line holding a row glued after another: an append that followed a write without its newline
// (docs/import-claude.md#reading). The whole row that ends the line is salvaged; what comes
// before it is a row of its own, whole or torn. Each piece counts as a row.
bool salvage(simdjson::dom::parser& parser, std::string_view text, uint64_t line, uint64_t offset, Transcript* out) {
  int tries = 0;
  for (size_t p = text.find("{\"", 1); p != std::string_view::npos && tries < 64; p = text.find("{\"", p + 1)) {
    ++tries;
    Row tail;
    tail.line = line;
    tail.offset = offset + p;
    std::string why;
    if (!parse_padded(parser, text.substr(p), &tail, &why) || !looks_like_row(tail)) continue;
    Row head;
    head.line = line;
    head.offset = offset;
    std::string at = "byte " + std::to_string(offset + p);
    if (parse_padded(parser, text.substr(0, p), &head, &why)) {
      out->rows.push_back(std::move(head));
    } else {
      out->bad.push_back({line, "torn row, glued to the row at " + at});
    }
    out->rows.push_back(std::move(tail));
    out->notes.push_back("line " + std::to_string(line) + ": two rows on one line, the second from " + at);
    return true;
  }
  return false;
}

}  // namespace

bool parse_row(std::string_view text, Row* row, std::string* reason) {
  simdjson::dom::parser parser;
  std::string padded(text);
  padded.append(json::kPadding, '\0');
  bool ok = parse_padded(parser, std::string_view(padded.data(), text.size()), row, reason);
  row->text = {};  // the copy dies here; read_transcript's rows view the file's buffer
  return ok;
}

Status read_transcript(storage::Fs& fs, const std::string& path, Transcript* out) {
  out->path = path;
  XS_RETURN_IF_ERROR(fs.read_file(path, kMaxTranscriptBytes, &out->bytes, &out->info));
  std::string_view all = out->bytes.view();
  // Room for a row a line: a Row is large, and growing the vector moves every row read so far.
  // Never more Rows than the file has bytes' worth of: a file of blank lines reserves no more
  // than its own size (and untouched, only address space).
  size_t lines = 1;
  for (const char* p = all.data(); (p = static_cast<const char*>(memchr(p, '\n', all.data() + all.size() - p)));) {
    ++lines;
    ++p;
  }
  out->rows.reserve(std::min(lines, all.size() / sizeof(Row) + 1));
  simdjson::dom::parser parser;
  uint64_t start = 0, line = 0;
  if (all.substr(0, 3) == "\xEF\xBB\xBF") start = 3;  // a byte-order mark belongs to no row
  while (start < all.size()) {
    size_t nl = all.find('\n', start);
    size_t end = nl == std::string_view::npos ? all.size() : nl;
    std::string_view text = all.substr(start, end - start);
    ++line;
    if (text.find_first_not_of(" \t\r") != std::string_view::npos) {  // blank lines are not rows
      Row row;
      row.line = line;
      row.offset = start;
      std::string reason;
      if (text.size() > json::Limits().max_line_bytes) {
        out->bad.push_back({line, "line longer than " + std::to_string(json::Limits().max_line_bytes) + " bytes"});
      } else if (parse_padded(parser, text, &row, &reason)) {
        out->rows.push_back(std::move(row));
      } else if (std::string copy = without_lone_surrogates(text); !copy.empty()) {
        copy.append(json::kPadding, '\0');
        out->repaired.push_back(std::move(copy));
        std::string_view fixed(out->repaired.back().data(), text.size());
        if (parse_padded(parser, fixed, &row, &reason)) {
          out->rows.push_back(std::move(row));
          out->notes.push_back("line " + std::to_string(line) + ": lone surrogate escapes read as U+FFFD");
        } else {
          out->bad.push_back({line, std::move(reason)});
        }
      } else if (!salvage(parser, text, line, start, out)) {
        out->bad.push_back({line, std::move(reason)});
      }
    }
    start = end + 1;
  }
  return Status::Ok();
}

}  // namespace xs::import::claude
