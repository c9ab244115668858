#include "import/claude/writer.h"

#include <simdjson.h>

#include "format/ids.h"
#include "import/claude/convert.h"
#include "json/json_string.h"
#include "json/limits.h"

namespace xs::import::claude {

std::string row_key(std::string_view file, const Row& r) {
  return r.uuid.empty() ? "l:" + std::string(file) + ":" + std::to_string(r.line) : "u:" + r.uuid;
}

std::map<std::string, std::string> existing_keys(const session::Session& s) {
  std::map<std::string, std::string> keys;
  simdjson::dom::parser parser;
  std::string padded;
  for (const model::Entry& e : s.data().entries) {
    if (e.line.find("\"sourceRows\"") == std::string_view::npos) continue;
    padded.assign(e.line);
    padded.append(json::kPadding, '\0');
    simdjson::dom::array rows;
    if (parser.parse(padded.data(), e.line.size(), false)["sourceRows"].get(rows) != simdjson::SUCCESS) continue;
    for (simdjson::dom::element r : rows) {
      std::string_view uuid, file;
      int64_t line = 0;
      if (r["uuid"].get(uuid) == simdjson::SUCCESS) {
        keys["u:" + std::string(uuid)] = std::string(e.id);
      } else if (r["file"].get(file) == simdjson::SUCCESS && r["line"].get(line) == simdjson::SUCCESS) {
        keys["l:" + std::string(file) + ":" + std::to_string(line)] = std::string(e.id);
      }
    }
  }
  return keys;
}

bool Writer::row_is_old(size_t i) const {
  if (keys_.empty()) return false;  // a first import: no key to make for every row
  const RowRef& r = plan_.rows[i];
  return keys_.count(row_key(r.file, *r.row)) > 0;
}

Status Writer::write() {
  for (size_t e = 0; e < plan_.entries.size(); ++e) {
    const PlannedEntry& pe = plan_.entries[e];
    if (progress_) {
      for (size_t r : pe.rows) progress_->add(plan_.rows[r].row->text.size() + 1);
    }
    const std::string& ts = plan_.rows[pe.rows.front()].row->timestamp;
    if (!ts.empty()) carried_timestamp_ = ts;
    std::vector<size_t> fresh;
    for (size_t r : pe.rows) {
      if (!row_is_old(r)) fresh.push_back(r);
    }
    if (fresh.empty()) {
      const RowRef& first = plan_.rows[pe.rows.front()];
      native_[e] = keys_.at(row_key(first.file, *first.row));
      continue;
    }
    if (!s_) {
      last_written_ = static_cast<int>(e);
      continue;
    }
    std::optional<std::string> parent;  // a refused parent's native id is its own parent's, "" for a root
    if (pe.parent >= 0 && !native_[pe.parent].empty()) parent = native_[pe.parent];
    if (fresh.size() < pe.rows.size()) {
      // A reply (or compaction) an earlier import took in part: the rest follows that entry.
      const RowRef& old = plan_.rows[pe.rows.front()];
      parent = keys_.at(row_key(old.file, *old.row));
    }
    XS_RETURN_IF_ERROR(s_->set_leaf(parent ? std::optional<std::string_view>(*parent) : std::nullopt));
    Status st = s_->append_entry(entry_json(pe, fresh), &native_[e]);
    if (st.code() == Code::kLimit || st.code() == Code::kInvalid) {
      // The session refuses this entry (a line over its limits): its rows are reported, and what
      // hangs off it goes under its parent.
      for (size_t r : fresh) refused_[r] = "not importable: " + st.message();
      native_[e] = parent.value_or("");
      continue;
    }
    XS_RETURN_IF_ERROR(st);
    last_written_ = static_cast<int>(e);
  }
  bool linked = false;
  XS_RETURN_IF_ERROR(write_links(&linked));
  return mark_leaf(linked);
}

void Writer::source_rows(std::string& out, const std::vector<size_t>& rows) const {
  out += ",\"sourceRows\":[";
  for (size_t k = 0; k < rows.size(); ++k) {
    const RowRef& r = plan_.rows[rows[k]];
    out += k ? ",{\"file\":" : "{\"file\":";
    json::append_quoted_lossy(out, r.file);
    out += ",\"line\":" + std::to_string(r.row->line);
    if (!r.row->uuid.empty()) {
      out += ",\"uuid\":";
      json::append_quoted(out, r.row->uuid);
    }
    out += '}';
  }
  out += ']';
}

void Writer::envelope(std::string& out, const PlannedEntry& pe, const Row& first) const {
  if (!pe.wanted_id.empty() && format::is_valid_new_id(pe.wanted_id) && s_->tree().find(pe.wanted_id) == model::kNone) {
    out += ",\"id\":";
    json::append_quoted(out, pe.wanted_id);
  }
  const std::string& ts = first.timestamp.empty() ? carried_timestamp_ : first.timestamp;
  if (!ts.empty()) {
    out += ",\"timestamp\":";
    json::append_quoted(out, ts);
  }
}

std::string Writer::custom_json(const PlannedEntry& pe, const Row& r, const std::vector<size_t>& rows) const {
  std::string out = "{\"type\":\"custom\",\"customType\":";
  json::append_quoted(out, "claude-code/" + r.type + (r.subtype.empty() ? "" : "/" + r.subtype));
  out += ",\"data\":";
  out += r.text;
  envelope(out, pe, r);
  source_rows(out, rows);
  return out + "}";
}

std::string Writer::entry_json(const PlannedEntry& pe, const std::vector<size_t>& fresh) const {
  const Row& first = *plan_.rows[fresh.front()].row;
  std::string out;
  switch (pe.kind) {
    case PlanKind::kAssistant: {
      std::vector<const Row*> rows;
      for (size_t r : fresh) rows.push_back(plan_.rows[r].row);
      out = "{\"type\":\"message\",\"message\":" + assistant_message(rows);
      break;
    }
    case PlanKind::kUser:
    case PlanKind::kToolResult: {
      std::vector<std::string> messages = user_messages(first, plan_.tool_names);
      out = "{\"type\":\"message\",\"message\":" + messages[std::min<size_t>(pe.part, messages.size() - 1)];
      if (first.is_meta) out += ",\"isMeta\":true";
      break;
    }
    case PlanKind::kCompaction: {
      // A summary row that arrived after its boundary was imported cannot join it: kept as custom.
      if (fresh.size() != pe.rows.size()) return custom_json(pe, first, fresh);
      const Row& summary = pe.rows.size() > 1 ? *plan_.rows[pe.rows[1]].row : first;
      out = "{\"type\":\"compaction\",\"summary\":";
      json::append_quoted(out, pe.rows.size() > 1 ? summary_text(summary) : "Conversation compacted");
      out += ",\"firstKeptEntryId\":";
      json::append_quoted(out, pe.first_kept >= 0 ? plan_.entries[pe.first_kept].wanted_id : summary.uuid);
      out += ",\"tokensBefore\":" + std::to_string(pre_tokens(first)) + ",\"details\":{\"boundaryUuid\":";
      json::append_quoted(out, first.uuid);
      out += ",\"summaryUuid\":";
      json::append_quoted(out, pe.rows.size() > 1 ? summary.uuid : "");
      out += '}';
      break;
    }
    case PlanKind::kLabel:
      out = "{\"type\":\"label\",\"targetId\":";
      json::append_quoted(out, native_[pe.target]);
      out += ",\"label\":";
      json::append_quoted(out, first.summary);
      break;
    case PlanKind::kCustom: return custom_json(pe, first, fresh);
  }
  envelope(out, pe, first);
  source_rows(out, fresh);
  return out + "}";
}

Status Writer::write_links(bool* linked) {
  for (const Link& l : links_) {
    auto call = plan_.tool_entry.find(l.tool_use_id);
    if (call == plan_.tool_entry.end() || keys_.count("l:" + l.file + ":0")) continue;
    *linked = true;
    if (!s_) continue;
    if (native_[call->second].empty()) continue;
    XS_RETURN_IF_ERROR(s_->set_leaf(native_[call->second]));
    std::string entry = "{\"type\":\"custom\",\"customType\":\"claude-code/subagent\",\"data\":{\"sessionId\":";
    json::append_quoted(entry, l.session_id);
    entry += ",\"agentId\":";
    json::append_quoted(entry, l.agent_id);
    entry += ",\"toolUseId\":";
    json::append_quoted(entry, l.tool_use_id);
    entry += "}";
    if (!carried_timestamp_.empty()) {
      entry += ",\"timestamp\":";
      json::append_quoted(entry, carried_timestamp_);
    }
    entry += ",\"sourceRows\":[{\"file\":";
    json::append_quoted_lossy(entry, l.file);
    entry += ",\"line\":0}]}";
    std::string id;
    XS_RETURN_IF_ERROR(s_->append_entry(entry, &id));
  }
  return Status::Ok();
}

Status Writer::mark_leaf(bool force) {
  if ((last_written_ < 0 && !force) || plan_.leaf < 0 || (s_ && native_[plan_.leaf].empty())) return Status::Ok();
  for (int e = last_written_; e >= 0 && !force; e = plan_.entries[e].parent) {
    if (e == plan_.leaf) return Status::Ok();
  }
  if (!s_) return Status::Ok();
  XS_RETURN_IF_ERROR(s_->set_leaf(native_[plan_.leaf]));
  std::string entry = "{\"type\":\"custom\",\"customType\":\"claude-code/resume-leaf\",\"data\":{\"leafUuid\":";
  json::append_quoted(entry, plan_.leaf_uuid);
  entry += "}";
  if (!carried_timestamp_.empty()) {
    entry += ",\"timestamp\":";
    json::append_quoted(entry, carried_timestamp_);
  }
  std::string id;
  return s_->append_entry(entry + "}", &id);
}

}  // namespace xs::import::claude
