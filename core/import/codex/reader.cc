#include "import/codex/reader.h"

#include <simdjson.h>

#include <algorithm>
#include <set>
#include <utility>

#include "json/json_string.h"
#include "json/limits.h"
#include "json/member_scanner.h"

namespace xs::import::codex {

namespace {

constexpr size_t kMaxDepth = 16;  // YYYY/MM/DD is three; a deeper tree is not Codex's
constexpr size_t kPromptChars = 200;

bool is_rollout_name(const std::string& n) {
  return n.size() > 14 && n.compare(0, 8, "rollout-") == 0 && n.compare(n.size() - 6, 6, ".jsonl") == 0;
}

void walk(storage::Fs& fs, const std::string& dir, const std::string& rel, size_t depth,
          std::set<std::pair<uint64_t, uint64_t>>& seen, std::vector<RolloutFile>& out) {
  auto names = fs.list_dir(dir);
  if (!names.ok()) return;
  std::sort(names->begin(), names->end());
  for (const std::string& n : *names) {
    std::string path = dir + "/" + n;
    auto info = fs.stat(path);
    if (!info.ok()) continue;
    std::string r = rel.empty() ? n : rel + "/" + n;
    if (info->is_dir) {
      // A directory reached twice (a link back up the tree) is walked once.
      if (depth < kMaxDepth && seen.insert({info->dev, info->ino}).second) walk(fs, path, r, depth + 1, seen, out);
    } else if (info->is_regular && is_rollout_name(n)) {
      out.push_back({path, r, info->size});
    }
  }
}

std::string string_member(const std::vector<json::Member>& members, std::string_view key) {
  return json::string_value(json::find_member(members, key)).value_or("");
}

// Response items of the older shape (a line that is the item itself, no wrapper).
bool is_response_item_type(std::string_view t) {
  return t == "message" || t == "reasoning" || t == "function_call" || t == "function_call_output" ||
         t == "custom_tool_call" || t == "custom_tool_call_output" || t == "local_shell_call" || t == "web_search_call";
}

void classify(const std::vector<json::Member>& members, bool first, Row& row) {
  row.type = string_member(members, "type");
  row.timestamp = string_member(members, "timestamp");
  const json::Member* payload = json::find_member(members, "payload");
  if (!payload) {
    // The older shape: the first line is the session's meta, each other line a response item.
    if (first && row.type.empty() && json::find_member(members, "id")) {
      row.kind = RowKind::kSessionMeta;
      row.payload = row.text;
    } else if (is_response_item_type(row.type)) {
      row.kind = RowKind::kResponseItem;
      row.payload = row.text;
      row.item = row.type;
      row.role = string_member(members, "role");
    }
    return;
  }
  if (payload->kind != json::Kind::kObject) return;
  row.payload = payload->value;
  if (row.type == "session_meta") {
    row.kind = RowKind::kSessionMeta;
  } else if (row.type == "turn_context") {
    row.kind = RowKind::kTurnContext;
  } else if (row.type == "response_item") {
    row.kind = RowKind::kResponseItem;
  } else if (row.type == "event_msg") {
    row.kind = RowKind::kEventMsg;
  } else if (row.type == "compacted") {
    row.kind = RowKind::kCompacted;
  } else {
    return;
  }
  auto inner = json::members_of(row.payload);
  row.item = string_member(inner, "type");
  row.role = string_member(inner, "role");
}

std::string cut(std::string s, size_t chars) {
  size_t count = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
    if (count++ == chars) return s.substr(0, i) + "…";
  }
  return s;
}

void take_session_facts(Rollout& r, const Row& row) {
  auto m = json::members_of(row.payload);
  if (row.kind == RowKind::kSessionMeta && r.session_id.empty()) {
    r.session_id = string_member(m, "id");
    r.cwd = string_member(m, "cwd");
    r.started = string_member(m, "timestamp");
    r.cli_version = string_member(m, "cli_version");
    r.originator = string_member(m, "originator");
    r.provider = string_member(m, "model_provider");
    r.forked_from = string_member(m, "forked_from_id");
  } else if (row.kind == RowKind::kTurnContext && r.model.empty()) {
    r.model = string_member(m, "model");
    if (r.cwd.empty()) r.cwd = string_member(m, "cwd");
  } else if (row.kind == RowKind::kEventMsg && row.item == "user_message" && r.first_prompt.empty()) {
    r.first_prompt = cut(string_member(m, "message"), kPromptChars);
  }
}

}  // namespace

Result<std::vector<RolloutFile>> find_rollouts(storage::Fs& fs, const std::string& root) {
  auto info = fs.stat(root);
  if (!info.ok()) return info.status();
  if (!info->is_dir) return Status::NotFound(root + " is not a directory");
  std::set<std::pair<uint64_t, uint64_t>> seen{{info->dev, info->ino}};
  std::vector<RolloutFile> out;
  walk(fs, root, "", 0, seen, out);
  return out;
}

Status read_rollout(storage::Fs& fs, const RolloutFile& file, Rollout* out) {
  out->file = file;
  XS_RETURN_IF_ERROR(read_source_rows(fs, file.path, &out->source));
  simdjson::dom::parser parser;
  std::string padded;
  for (const SourceRow& s : out->source.rows) {
    std::string reason;
    auto members = object_members(s.text, &reason);
    if (!members) {
      out->bad.push_back(s);
      out->bad_reasons.push_back(reason);
      continue;
    }
    Row row;
    row.line = s.line;
    row.terminated = s.terminated;
    row.text = s.text;
    // simdjson, which the conversions read payloads with, refuses a lone surrogate escape that
    // JSON.parse takes: such a row is kept verbatim rather than converted without its text.
    padded.assign(s.text);
    padded.append(json::kPadding, '\0');
    simdjson::dom::element parsed;
    if (parser.parse(padded.data(), s.text.size(), false).get(parsed) == simdjson::SUCCESS) {
      classify(*members, out->rows.empty(), row);
    }
    take_session_facts(*out, row);
    out->rows.push_back(std::move(row));
  }
  return Status::Ok();
}

Result<std::string> list_json(storage::Fs& fs, const std::string& root) {
  auto files = find_rollouts(fs, root);
  if (!files.ok()) return files.status();
  std::string out = "{\"source\":\"codex\",\"root\":";
  json::append_quoted_lossy(out, root);
  out += ",\"sessions\":[";
  std::vector<SkippedRow> problems;
  bool first = true;
  for (const RolloutFile& f : *files) {
    Rollout r;
    Status st = read_rollout(fs, f, &r);
    if (!st.ok()) {
      problems.push_back({f.rel, 0, "not read: " + st.message()});
      continue;
    }
    for (size_t i = 0; i < r.bad.size(); ++i) problems.push_back({f.rel, r.bad[i].line, r.bad_reasons[i]});
    out += first ? "{\"file\":" : ",{\"file\":";
    first = false;
    json::append_quoted_lossy(out, f.rel);
    for (auto [name, value] : {std::pair<const char*, const std::string*>{"sessionId", &r.session_id},
                               {"cwd", &r.cwd},
                               {"started", &r.started},
                               {"cliVersion", &r.cli_version},
                               {"originator", &r.originator},
                               {"model", &r.model},
                               {"firstPrompt", &r.first_prompt}}) {
      out += ",\"";
      out += name;
      out += "\":";
      json::append_quoted_lossy(out, *value);
    }
    out += ",\"rows\":" + std::to_string(r.source.rows.size()) + ",\"badRows\":" + std::to_string(r.bad.size()) +
           ",\"size\":" + std::to_string(r.source.info.size) + ",\"mtime\":" + std::to_string(r.source.info.mtime_ms) +
           "}";
  }
  out += ']';
  append_problems_and_notes(out, problems, {});
  return out + "}";
}

}  // namespace xs::import::codex
