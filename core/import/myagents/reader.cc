#include "import/myagents/reader.h"

#include <algorithm>
#include <map>

#include "json/js_number.h"
#include "json/json_string.h"
#include "json/member_scanner.h"

namespace xs::import::myagents {

namespace {

constexpr std::string_view kIndexName = "sessions.json";

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

uint64_t line_of(std::string_view doc, const char* at) { return 1 + std::count(doc.data(), at, '\n'); }

// A string field: the value, nullopt when absent or null, and a note when it has another type.
std::optional<std::string> text_field(const std::vector<json::Member>& m, std::string_view key,
                                      const std::string& where, std::vector<std::string>& notes) {
  const json::Member* f = json::find_member(m, key);
  if (!f || f->kind == json::Kind::kNull) return std::nullopt;
  if (f->kind != json::Kind::kString) {
    notes.push_back(where + ": " + std::string(key) + " is not a string; left out");
    return std::nullopt;
  }
  return json::string_value(f);
}

std::optional<double> number_field(const std::vector<json::Member>& m, std::string_view key, const std::string& where,
                                   std::vector<std::string>& notes) {
  const json::Member* f = json::find_member(m, key);
  if (!f || f->kind == json::Kind::kNull) return std::nullopt;
  if (f->kind != json::Kind::kNumber) {
    notes.push_back(where + ": stats." + std::string(key) + " is not a number; left out");
    return std::nullopt;
  }
  return number_value(f);
}

void read_entry(Listing& listing, std::string_view doc, const json::Member& element, uint64_t position) {
  uint64_t line = line_of(doc, element.value.data());
  std::string where = "sessions.json entry " + std::to_string(position);
  auto refuse = [&](const std::string& why) {
    listing.problems.push_back({listing.index_path, line, where + ": " + why});
  };
  if (element.kind != json::Kind::kObject) return refuse("not a JSON object");
  std::vector<json::Member> m = json::members_of(element.value);
  const json::Member* id_m = json::find_member(m, "id");
  if (!id_m || id_m->kind != json::Kind::kString) return refuse("no string id");
  std::string id = json::string_value(id_m).value_or("");
  if (!is_valid_session_id(id)) return refuse("id \"" + json::to_valid_utf8(id) + "\" is not a MyAgents session id");
  for (const IndexEntry& e : listing.entries) {
    if (e.id == id) return refuse("id " + id + " is listed twice (the first entry is used)");
  }
  IndexEntry e;
  e.id = id;
  e.metadata = std::string(element.value);
  e.line = line;
  where += " (" + id + ")";
  e.agent_dir = text_field(m, "agentDir", where, listing.notes);
  e.title = text_field(m, "title", where, listing.notes);
  e.created_at = text_field(m, "createdAt", where, listing.notes);
  e.last_active_at = text_field(m, "lastActiveAt", where, listing.notes);
  if (const json::Member* stats = json::find_member(m, "stats"); stats && stats->kind != json::Kind::kNull) {
    if (stats->kind != json::Kind::kObject) {
      listing.notes.push_back(where + ": stats is not an object; left out");
    } else {
      std::vector<json::Member> s = json::members_of(stats->value);
      e.message_count = number_field(s, "messageCount", where, listing.notes);
      e.input_tokens = number_field(s, "totalInputTokens", where, listing.notes);
      e.output_tokens = number_field(s, "totalOutputTokens", where, listing.notes);
      e.cache_read_tokens = number_field(s, "totalCacheReadTokens", where, listing.notes);
      e.cache_creation_tokens = number_field(s, "totalCacheCreationTokens", where, listing.notes);
    }
  }
  listing.entries.push_back(std::move(e));
}

void read_index(storage::Fs& fs, Listing& listing, const ReadOptions& options) {
  const std::string lock = listing.root + "/sessions.lock";
  listing.index_lock = wait_for_foreign_lock(fs, lock, options.lock_wait, options.stale_after, options.now_ms);
  if (listing.index_lock.state != ForeignLock::kFree) {
    std::string note = describe(listing.index_lock, "sessions.lock/");
    // MyAgents may rewrite the index in place while it holds the lock: what we read then is
    // either whole (and used) or not JSON (and reported below).
    if (listing.index_lock.state == ForeignLock::kHeld) note += "; sessions.json read while it is held";
    listing.notes.push_back(note);
  }
  storage::PaddedBuffer doc;
  Status st = read_source_document(fs, listing.index_path, &doc);
  auto whole = [&](const std::string& why) {
    std::string reason = why;
    if (listing.index_lock.state == ForeignLock::kHeld)
      reason += " (sessions.lock/ was held: another process may be writing it)";
    listing.problems.push_back({listing.index_path, 0, reason});
  };
  if (!st.ok()) return whole("index not read: " + st.message());
  std::vector<json::Member> elements;
  bool is_object = true;
  st = json::scan_members(doc.view(), json::internal_limits(), &elements, &is_object);
  if (!st.ok()) return whole("index is not JSON: " + st.message());
  if (is_object) return whole("index is not a JSON array (of session metadata)");
  for (size_t i = 0; i < elements.size(); ++i) {
    ++listing.index_rows;
    read_entry(listing, doc.view(), elements[i], i + 1);
  }
}

}  // namespace

bool is_valid_session_id(std::string_view id) {
  if (id.empty() || id.size() >= 100) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
  });
}

Result<Listing> list(storage::Fs& fs, const std::string& root, const ReadOptions& options) {
  Listing listing;
  listing.root = root;
  listing.index_path = root + "/" + std::string(kIndexName);
  const std::string dir = root + "/sessions";
  listing.has_index = fs.stat(listing.index_path).ok();
  auto names = fs.list_dir(dir);
  if (!listing.has_index && !names.ok()) {
    return Status::NotFound(root + ": not a MyAgents store (no sessions.json, no sessions/)");
  }
  if (listing.has_index) {
    read_index(fs, listing, options);
  } else {
    listing.notes.push_back("no sessions.json: the sessions are listed without metadata");
  }
  std::map<std::string, SessionFiles> by_id;
  if (names.ok()) {
    std::sort(names->begin(), names->end());
    for (const std::string& name : *names) {
      bool jsonl = ends_with(name, ".jsonl");
      bool legacy = ends_with(name, ".json");
      if (!jsonl && !legacy) {
        if (ends_with(name, ".jsonl.gz"))
          listing.notes.push_back("sessions/" + name + ": a compressed archive, not read");
        continue;
      }
      std::string id = name.substr(0, name.size() - (jsonl ? 6 : 5));
      if (!is_valid_session_id(id)) {
        listing.notes.push_back("sessions/" + json::to_valid_utf8(name) + ": not a MyAgents session id; not read");
        continue;
      }
      SessionFiles& s = by_id[id];
      s.id = id;
      (jsonl ? s.jsonl : s.legacy) = dir + "/" + name;
    }
  }
  for (size_t i = 0; i < listing.entries.size(); ++i) {
    SessionFiles& s = by_id[listing.entries[i].id];
    s.id = listing.entries[i].id;
    s.entry = i;
  }
  for (auto& [id, s] : by_id) {
    if (s.jsonl && s.legacy) {
      listing.notes.push_back("sessions/" + id + ".json: a legacy copy beside sessions/" + id +
                              ".jsonl (an interrupted migration); the JSONL is read, the legacy file left in place");
    }
    if (!s.jsonl && !s.legacy) listing.notes.push_back("index entry " + id + " has no messages file");
    if (!s.entry && listing.has_index) listing.notes.push_back("sessions/" + id + " is not in sessions.json");
    listing.sessions.push_back(std::move(s));
  }
  return listing;
}

std::string listing_json(const Listing& listing) {
  static constexpr const char* kLockStates[] = {"free", "released", "stale", "held"};
  std::string out = "{\"source\":\"myagents\"";
  append_text_member(out, "root", listing.root);
  append_text_member(out, "index", listing.has_index ? std::optional<std::string>(listing.index_path) : std::nullopt);
  out += ",\"indexLock\":\"";
  out += kLockStates[static_cast<int>(listing.index_lock.state)];
  out += "\",\"indexRows\":" + std::to_string(listing.index_rows) + ",\"sessions\":[";
  for (size_t i = 0; i < listing.sessions.size(); ++i) {
    const SessionFiles& s = listing.sessions[i];
    const IndexEntry* e = s.entry ? &listing.entries[*s.entry] : nullptr;
    out += i ? ",{\"id\":" : "{\"id\":";
    json::append_quoted_lossy(out, s.id);
    append_text_member(out, "messagesFile", s.messages_file());
    append_text_member(out, "legacyFile", s.legacy);
    out += s.jsonl && s.legacy ? ",\"legacyBeside\":true" : ",\"legacyBeside\":false";
    out += e ? ",\"inIndex\":true,\"line\":" + std::to_string(e->line) : std::string(",\"inIndex\":false,\"line\":0");
    static const std::optional<std::string> kNone;
    append_text_member(out, "title", e ? e->title : kNone);
    append_text_member(out, "agentDir", e ? e->agent_dir : kNone);
    append_text_member(out, "createdAt", e ? e->created_at : kNone);
    append_text_member(out, "lastActiveAt", e ? e->last_active_at : kNone);
    out += ",\"stats\":";
    if (!e) {
      out += "null}";
      continue;
    }
    std::string stats;
    auto number = [&](const char* name, const std::optional<double>& v) {
      if (!v) return;
      stats += stats.empty() ? "{\"" : ",\"";
      stats += name;
      stats += "\":";
      json::append_js_number(stats, *v);
    };
    number("messageCount", e->message_count);
    number("totalInputTokens", e->input_tokens);
    number("totalOutputTokens", e->output_tokens);
    number("totalCacheReadTokens", e->cache_read_tokens);
    number("totalCacheCreationTokens", e->cache_creation_tokens);
    out += stats.empty() ? "null}" : stats + "}}";
  }
  out += ']';
  append_problems_and_notes(out, listing.problems, listing.notes);
  return out + "}";
}

Status read_messages(storage::Fs& fs, const SessionFiles& session, Messages* out) {
  const std::optional<std::string>& file = session.messages_file();
  if (!file) return Status::NotFound("session " + session.id + " has no messages file");
  out->file = *file;
  out->legacy = !session.jsonl;
  if (!out->legacy) return read_source_rows(fs, *file, &out->source);
  XS_RETURN_IF_ERROR(read_source_document(fs, *file, &out->source.bytes, &out->source.info));
  std::vector<json::Member> top;
  bool is_object = false;
  Status st = json::scan_members(out->source.bytes.view(), json::internal_limits(), &top, &is_object);
  if (!st.ok()) return Status::Invalid(*file + ": not JSON: " + st.message());
  std::string_view array = out->source.bytes.view();
  if (is_object) {
    const json::Member* messages = json::find_member(top, "messages");
    if (!messages || messages->kind != json::Kind::kArray) {
      return Status::Invalid(*file + ": a legacy session without a messages array");
    }
    array = messages->value;
  }
  std::vector<json::Member> elements;
  XS_RETURN_IF_ERROR(json::scan_members(array, json::internal_limits(), &elements, &is_object));
  for (size_t i = 0; i < elements.size(); ++i) out->source.rows.push_back({i + 1, elements[i].value, true});
  return Status::Ok();
}

}  // namespace xs::import::myagents
