// Reading a session file into index rows (session_read.h).
#include "search/session_read.h"

#include <cstring>

#include "format/clock.h"
#include "format/message_text.h"
#include "format/prompt_text.h"
#include "json/line_scanner.h"
#include "json/member_scanner.h"
#include "model/dialect_detect.h"
#include "model/loader.h"
#include "search/entry_text.h"
#include "session/session.h"
#include "storage/gzip.h"
#include "views/usage.h"

namespace xs::search {
namespace {

using format::EntryType;

// Which agent's store a session was imported from, by what the importers leave in entries
// (docs/import.md): Claude Code's and Codex's rows carry "sourceRows" (Codex's name rollout-*
// files, docs/import-codex.md), myagents' kept rows a customType of its own.
std::optional<std::string> source_agent_of(const model::Entry& e) {
  if (e.line.find("\"sourceRows\"") != std::string_view::npos) {
    auto members = json::members_of(e.line);  // `rows` points into it
    const json::Member* rows = json::find_member(members, "sourceRows");
    if (!rows) return std::nullopt;
    std::vector<json::Member> items;  // the array's elements
    bool is_object = true;
    std::optional<std::string> file;
    if (json::scan_members(rows->value, json::internal_limits(), &items, &is_object).ok() && !is_object &&
        !items.empty()) {
      file = json::string_value(json::find_member(json::members_of(items[0].value), "file"));
    }
    std::string_view name = file ? std::string_view(*file) : std::string_view();
    name = name.substr(name.rfind('/') == std::string_view::npos ? 0 : name.rfind('/') + 1);
    return std::string(name.compare(0, 8, "rollout-") == 0 ? "codex" : "claude");
  }
  if (e.type == EntryType::kCustom && e.line.find("\"myagents/") != std::string_view::npos) {
    auto type = json::string_value(json::find_member(json::members_of(e.line), "customType"));
    if (type && type->compare(0, 9, "myagents/") == 0) return std::string("myagents");
  }
  return std::nullopt;
}

// Adds what entry `e` contributes to the session's row, and makes its entry row.
EntryRow tally(const model::Entry& e, SessionRow* row) {
  EntryRow out;
  out.entry_id.assign(e.id);
  if (e.has_parent_id && !e.parent_id.empty()) out.parent_id.emplace(e.parent_id);
  out.kind = format::entry_type_name(e.type);
  out.ts = format::parse_iso_ms(e.timestamp);
  EntryText text = entry_text(e);
  out.role = text.role;
  out.text = std::move(text.text);

  ++row->entries;
  if (out.ts && (!row->updated || *out.ts > *row->updated)) row->updated = out.ts;
  if (!row->source_agent) row->source_agent = source_agent_of(e);
  if (e.type != EntryType::kMessage) return out;
  ++row->messages;
  if (e.role == "assistant") {
    views::MessageUsage u = views::usage_of(json::members_of(e.message()));
    row->input_tokens += static_cast<int64_t>(u.input);
    row->output_tokens += static_cast<int64_t>(u.output);
    row->cost += u.cost;
  } else if (e.role == "user" && !row->first_prompt) {
    std::string t = format::message_text(e.message());
    if (!t.empty() && !format::is_injected_prompt(t)) row->first_prompt = format::listing_text(t);
  }
  return out;
}

}  // namespace

Result<SessionRead> read_whole(const std::shared_ptr<storage::Fs>& fs, const std::string& path,
                               const storage::FileInfo& stat) {
  session::SessionOptions o;
  o.read_only = true;
  auto opened = session::Session::open(fs, path, o);
  if (!opened.ok()) return opened.status();
  const session::Session& s = **opened;
  const model::SessionData& data = s.data();
  SessionRead out;
  SessionRow& row = out.row;
  row.path = path;
  row.id = data.header.id;
  row.cwd = data.header.cwd;
  row.parent_session = data.header.parent_session;
  row.created = format::parse_iso_ms(data.header.timestamp);
  row.archived = s.archived();
  row.file = stat;
  // Up to the end of the last whole line: a line still being written is read again, whole, by
  // the refresh after it is finished. An archive is only ever read whole.
  size_t count = data.entries.size();
  if (row.archived) {
    row.indexed_bytes = stat.size;
  } else if (!data.lines.empty()) {
    const model::Line& last = data.lines.back();
    if (data.ends_with_newline) {
      row.indexed_bytes = last.offset + last.bytes.size() + 1;
    } else {
      row.indexed_bytes = last.offset;
      if (last.entry != model::kNone) count = last.entry;
    }
  }
  out.entries.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    out.entries.push_back(tally(data.entries[i], &row));
    out.text_bytes += out.entries.back().text.size();
  }
  // The leaf is the last entry indexed (the tree's, unless a line is still being written).
  uint32_t leaf = count == data.entries.size() ? s.tree().leaf() : static_cast<uint32_t>(count) - 1;
  if (count > 0 && leaf != model::kNone) {
    row.leaf_id.emplace(data.entries[leaf].id);
    for (uint32_t i : s.tree().path_to(leaf)) out.entries[i].on_path = true;
  }
  row.title = s.title();
  row.dialect.emplace(format::dialect_name(s.dialect()));
  return out;
}

Result<std::optional<SessionRead>> read_tail(storage::Fs& fs, const SessionRow& old, const storage::FileInfo& stat) {
  if (old.archived || stat.dev != old.file.dev || stat.ino != old.file.ino || stat.size < old.indexed_bytes) {
    return std::optional<SessionRead>();
  }
  storage::PaddedBuffer tail;
  storage::FileInfo read;
  XS_RETURN_IF_ERROR(fs.read_range(old.path, old.indexed_bytes, stat.size - old.indexed_bytes, &tail, &read));
  if (read.dev != old.file.dev || read.ino != old.file.ino) return std::optional<SessionRead>();
  SessionRead out;
  out.whole = false;
  out.row = old;
  out.row.file = stat;
  std::string_view all = tail.view();
  json::LineScanner scanner{json::Limits()};
  json::LineFacts facts;
  model::Arena arena;
  size_t pos = 0;
  for (;;) {
    const char* nl = static_cast<const char*>(std::memchr(all.data() + pos, '\n', all.size() - pos));
    if (!nl) break;  // a line still being written: read again once it ends
    size_t end = static_cast<size_t>(nl - all.data());
    std::string_view line = all.substr(pos, end - pos);
    pos = end + 1;
    json::LineVerdict v = scanner.scan(line, &facts);
    if (v != json::LineVerdict::kObject) continue;  // blank or damaged: the loader skips it too
    if (!facts.type.is_string() || !facts.id.is_string()) return std::optional<SessionRead>();
    model::Entry e = model::entry_from_facts(facts, line, arena);
    if (e.type == EntryType::kSessionInfo || facts.type.str == "session") return std::optional<SessionRead>();
    if (model::may_carry_mark(e.type)) {
      if (auto d = model::mark_of(e.type, json::members_of(e.line))) out.row.dialect.emplace(format::dialect_name(*d));
    }
    out.entries.push_back(tally(e, &out.row));
    out.text_bytes += out.entries.back().text.size();
    out.row.leaf_id = out.entries.back().entry_id;
  }
  out.row.indexed_bytes = old.indexed_bytes + pos;
  return std::optional<SessionRead>(std::move(out));
}

}  // namespace xs::search
