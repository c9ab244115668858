#include "discovery/session_info.h"

#include <simdjson.h>

#include <cstring>
#include <limits>
#include <vector>

#include "format/header.h"
#include "format/message_text.h"
#include "format/prompt_text.h"
#include "json/json_string.h"
#include "json/line_scanner.h"
#include "session/session.h"
#include "storage/gzip.h"
#include "views/summary.h"

namespace xs::discovery {

namespace {

// Reads the summary's fields from the whole lines of a prefix of the file (`file_size` bytes in
// all). *cut is set when the header, or something before it, runs past the prefix: the caller
// reads a longer one, so a long header (or garbage before it) leaves no blind spot.
Status summarize_prefix(std::string_view all, uint64_t file_size, const std::string& path, uint64_t max_line_bytes,
                        SessionSummary* s, bool* cut) {
  json::Limits limits;
  limits.max_line_bytes = max_line_bytes;
  json::LineScanner scanner(limits);
  json::LineFacts facts;
  bool have_header = false;
  *cut = false;
  size_t pos = all.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;  // a byte order mark, as pi's trim() drops
  while (pos < all.size()) {
    const char* nl = static_cast<const char*>(std::memchr(all.data() + pos, '\n', all.size() - pos));
    if (!nl && all.size() < file_size) {
      *cut = !have_header;  // only whole lines count: the prefix ends inside this one
      break;
    }
    size_t end = nl ? static_cast<size_t>(nl - all.data()) : all.size();
    std::string_view line = all.substr(pos, end - pos);
    pos = end + 1;
    json::LineVerdict v = scanner.scan(line, &facts);
    if (v == json::LineVerdict::kBlank) continue;
    if (!have_header) {
      if (v == json::LineVerdict::kBad && !scanner.parsed()) continue;  // garbage before the header
      if (v != json::LineVerdict::kObject || !facts.type.is_string() || facts.type.str != "session" ||
          !facts.id.is_string()) {
        return Status(Code::kNoHeader, path + ": not a session file");
      }
      auto h = format::parse_header(line);
      if (!h.ok()) return h.status();
      s->id = h->id;
      s->cwd = h->cwd;
      s->timestamp = h->timestamp;
      s->title = h->title;
      s->parent_session = h->parent_session;
      s->version = h->version;
      have_header = true;
      continue;
    }
    if (v != json::LineVerdict::kObject || !facts.role.is_string() || facts.role.str != "user") continue;
    std::string text = format::message_text(line.substr(facts.message_offset, facts.message_length));
    if (text.empty()) continue;
    if (!s->first_message) s->first_message = text;
    if (!format::is_injected_prompt(text)) {
      s->first_prompt = format::listing_text(text);
      break;
    }
  }
  if (!have_header) return Status(Code::kNoHeader, path + ": no session header in its first line");
  return Status::Ok();
}

}  // namespace

Result<SessionSummary> read_summary(const std::shared_ptr<storage::Fs>& fs, const std::string& path, bool full,
                                    uint64_t max_line_bytes) {
  SessionSummary s;
  s.path = path;
  storage::PaddedBuffer prefix;
  storage::FileInfo info;
  json::Limits limits;
  limits.max_line_bytes = max_line_bytes;
  // An archive is read whole (compressed) once; its prefixes are inflated from that.
  bool archived = storage::is_archive_path(path);
  storage::PaddedBuffer gz;
  if (archived) XS_RETURN_IF_ERROR(fs->read_file(path, storage::kMaxInflatedBytes, &gz, &info));
  for (uint64_t want = kPrefixBytes;; want *= 4) {
    uint64_t file_size = 0;
    if (archived) {
      bool whole = false;
      Status st = storage::gunzip_prefix(gz.view(), want, &prefix, &whole);
      if (!st.ok()) return st.code() == Code::kCorrupt ? Status::Corrupt(path + ": " + st.message()) : st;
      file_size = prefix.size() + (whole ? 0 : 1);  // more follows: the prefix may end inside a line
    } else {
      XS_RETURN_IF_ERROR(fs->read_range(path, 0, want, &prefix, &info));
      file_size = info.size;
    }
    bool cut = false;
    s = SessionSummary();
    s.path = path;
    Status st = summarize_prefix(prefix.view(), file_size, path, max_line_bytes, &s, &cut);
    if (cut && prefix.size() == want && want <= max_line_bytes) continue;
    XS_RETURN_IF_ERROR(st);
    break;
  }
  s.modified_ms = info.mtime_ms;
  s.size = info.size;
  s.archived = archived;
  if (!full) return s;

  session::SessionOptions o;
  o.read_only = true;
  o.limits = limits;
  auto opened = session::Session::open(fs, path, o);
  if (!opened.ok()) return opened.status();
  session::Session& x = **opened;
  s.full = true;
  s.entry_count = x.entry_count();
  s.message_count = x.message_count();
  s.diagnostics = x.diagnostic_count();
  s.title = x.title();
  s.first_message = x.first_user_text();
  s.first_prompt = views::first_prompt(x.data());
  return s;
}

std::string summary_json(const SessionSummary& s) {
  std::string out = "{\"path\":";
  json::append_quoted_lossy(out, s.path);
  out += ",\"id\":";
  json::append_quoted(out, s.id);
  out += ",\"cwd\":";
  json::append_quoted(out, s.cwd);
  out += ",\"timestamp\":";
  json::append_quoted(out, s.timestamp);
  out += ",\"modified\":" + std::to_string(s.modified_ms) + ",\"size\":" + std::to_string(s.size);
  json::append_optional_member(out, "title", s.title);
  json::append_optional_member(out, "parentSession", s.parent_session);
  out += ",\"version\":" + std::to_string(s.version);
  out += std::string(",\"needsMigration\":") + (s.version < format::kCurrentVersion ? "true" : "false");
  out += ",\"corruptCopies\":" + std::to_string(s.corrupt_copies);
  out += std::string(",\"archived\":") + (s.archived ? "true" : "false");
  json::append_optional_member(out, "firstMessage", s.first_message);
  json::append_optional_member(out, "firstPrompt", s.first_prompt);
  if (s.full) {
    out += ",\"messageCount\":" + std::to_string(s.message_count) + ",\"entryCount\":" + std::to_string(s.entry_count) +
           ",\"diagnostics\":" + std::to_string(s.diagnostics);
  }
  out += '}';
  return out;
}

Result<SessionSummary> parse_summary_json(std::string_view text) {
  // One parser per thread: a listing reads back one summary per session, and a parser's first
  // use allocates its buffers.
  thread_local simdjson::dom::parser parser;
  simdjson::padded_string padded(text);
  simdjson::dom::object o;
  if (parser.parse(padded).get(o) != simdjson::SUCCESS) return Status::Corrupt("a kept summary is not a JSON object");
  SessionSummary s;
  bool ok = true;
  auto text_of = [&](const char* key, std::string* to) {
    std::string_view v;
    if (o[key].get(v) != simdjson::SUCCESS) ok = false;
    to->assign(v);
  };
  auto optional_text = [&](const char* key, std::optional<std::string>* to) {
    simdjson::dom::element e;
    if (o[key].get(e) != simdjson::SUCCESS) return void(ok = false);
    if (e.is_null()) return to->reset();
    std::string_view v;
    if (e.get(v) != simdjson::SUCCESS) ok = false;
    *to = std::string(v);
  };
  auto count = [&](const char* key, uint64_t* to) {
    if (o[key].get(*to) != simdjson::SUCCESS) ok = false;
  };
  text_of("path", &s.path);
  text_of("id", &s.id);
  text_of("cwd", &s.cwd);
  text_of("timestamp", &s.timestamp);
  if (o["modified"].get(s.modified_ms) != simdjson::SUCCESS) ok = false;
  count("size", &s.size);
  optional_text("title", &s.title);
  optional_text("parentSession", &s.parent_session);
  int64_t version = 0;
  if (o["version"].get(version) != simdjson::SUCCESS || version < std::numeric_limits<int>::min() ||
      version > std::numeric_limits<int>::max())
    ok = false;
  s.version = static_cast<int>(version);
  count("corruptCopies", &s.corrupt_copies);
  if (o["archived"].get(s.archived) != simdjson::SUCCESS) ok = false;
  optional_text("firstMessage", &s.first_message);
  optional_text("firstPrompt", &s.first_prompt);
  if (o["messageCount"].error() == simdjson::SUCCESS) {
    s.full = true;
    count("messageCount", &s.message_count);
    count("entryCount", &s.entry_count);
    count("diagnostics", &s.diagnostics);
  }
  if (!ok) return Status::Corrupt("a kept summary lacks a member or has one of the wrong type");
  return s;
}

std::string summaries_json(const std::vector<SessionSummary>& list) {
  std::string out = "[";
  for (size_t i = 0; i < list.size(); ++i) {
    if (i) out += ',';
    out += summary_json(list[i]);
  }
  return out + "]";
}

}  // namespace xs::discovery
