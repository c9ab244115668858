#include "model/migration.h"

#include <cmath>
#include <unordered_set>

#include "json/json_string.h"
#include "json/line_scanner.h"
#include "json/member_scanner.h"
#include "json/object_edit.h"
#include "model/loader.h"

namespace xs::model {

namespace {

std::string json_string(std::string_view s) {
  std::string out;
  json::append_quoted(out, s);
  return out;
}

// Stores an edited line and re-derives its entry from the new bytes.
Status replace_entry_line(SessionData* data, json::LineScanner& scanner, uint32_t entry_index,
                          const std::string& text) {
  std::string_view stored = data->arena.store(text, json::kPadding);
  json::LineFacts facts;
  if (scanner.scan(stored, &facts) != json::LineVerdict::kObject) {
    return Status::Internal("migration produced an invalid line: " + scanner.reason());
  }
  Entry& e = data->entries[entry_index];
  uint32_t line_no = e.line_no;
  e = entry_from_facts(facts, stored, data->arena);
  e.line_no = line_no;
  data->lines[line_no].bytes = stored;
  return Status::Ok();
}

// firstKeptEntryIndex -> the id of the entry it names, when that entry already has its new id.
std::string_view kept_target(const SessionData& data, const std::vector<uint32_t>& parsed_lines,
                             const json::Member& index_member, uint32_t current_entry) {
  double idx = std::strtod(std::string(index_member.value).c_str(), nullptr);
  if (idx < 1 || idx != std::floor(idx) || idx >= static_cast<double>(parsed_lines.size())) return {};
  const Line& target = data.lines[parsed_lines[static_cast<size_t>(idx)]];
  if (target.kind != LineKind::kEntry || target.entry >= current_entry) return {};
  return data.entries[target.entry].id;
}

Status migrate_v1(SessionData* data, format::IdGenerator& ids, json::LineScanner& scanner) {
  // The reference indexes the array of parsed values that starts with the header.
  std::vector<uint32_t> parsed_lines;
  for (uint32_t k = data->header_line; k < data->lines.size(); ++k) {
    if (data->lines[k].parsed) parsed_lines.push_back(k);
  }
  std::unordered_set<std::string> taken;
  std::string previous;  // id of the previous entry; empty for the first
  std::vector<json::Member> members;
  for (uint32_t i = 0; i < data->entries.size(); ++i) {
    std::string id = ids.entry_id([&](std::string_view c) { return taken.count(std::string(c)) > 0; });
    taken.insert(id);
    std::string text(data->entries[i].line);
    auto r = json::set_member(text, "id", json_string(id));
    if (r.ok()) r = json::set_member(*r, "parentId", previous.empty() ? "null" : json_string(previous));
    if (!r.ok()) return r.status();
    text = std::move(*r);
    if (data->entries[i].type == format::EntryType::kCompaction) {
      bool is_object = false;
      XS_RETURN_IF_ERROR(json::scan_members(text, json::internal_limits(), &members, &is_object));
      const json::Member* idx = json::find_member(members, "firstKeptEntryIndex");
      if (idx && idx->kind == json::Kind::kNumber) {
        std::string_view target = kept_target(*data, parsed_lines, *idx, i);
        if (!target.empty()) {
          r = json::set_member(text, "firstKeptEntryId", json_string(target));
          if (!r.ok()) return r.status();
          text = std::move(*r);
        }
        r = json::remove_member(text, "firstKeptEntryIndex");
        if (!r.ok()) return r.status();
        text = std::move(*r);
      }
    }
    XS_RETURN_IF_ERROR(replace_entry_line(data, scanner, i, text));
    previous = id;
  }
  return Status::Ok();
}

Status migrate_v2(SessionData* data, json::LineScanner& scanner) {
  for (uint32_t i = 0; i < data->entries.size(); ++i) {
    const Entry& e = data->entries[i];
    if (e.type != format::EntryType::kMessage || e.role != "hookMessage") continue;
    auto msg = json::set_member(e.message(), "role", "\"custom\"");
    if (!msg.ok()) return msg.status();
    std::string text(e.line.substr(0, e.message_offset));
    text += *msg;
    text += e.line.substr(e.message_offset + e.message_length);
    XS_RETURN_IF_ERROR(replace_entry_line(data, scanner, i, text));
  }
  return Status::Ok();
}

}  // namespace

Status migrate(SessionData* data, format::IdGenerator& ids, bool* changed) {
  *changed = false;
  if (data->header.version >= format::kCurrentVersion) return Status::Ok();
  // Migrated lines grow a little, so they are rescanned with the ceilings, not the open limits.
  json::LineScanner scanner(json::internal_limits());
  if (data->header.version < 2) XS_RETURN_IF_ERROR(migrate_v1(data, ids, scanner));
  XS_RETURN_IF_ERROR(migrate_v2(data, scanner));
  auto header = json::set_member(data->header_bytes(), "version", std::to_string(format::kCurrentVersion));
  if (!header.ok()) return header.status();
  data->lines[data->header_line].bytes = data->arena.store(*header, json::kPadding);
  data->header.version = format::kCurrentVersion;
  *changed = true;
  return Status::Ok();
}

}  // namespace xs::model
