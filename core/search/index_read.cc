// The read side of the session index as JSON: search, list, reports (session_index.h).
#include <algorithm>
#include <utility>

#include "json/js_number.h"
#include "json/json_string.h"
#include "search/index_schema.h"
#include "search/session_index.h"
#include "sqlite/fts_query.h"
#include "sqlite/fts_rank.h"

namespace xs::search {
namespace {

using sqlite::Stmt;

// The statement's text, made once: read_stmt keeps statements by the address of their text. Only
// the newest ?7 matches that pass the filters are ranked, as in the prompt history
// (docs/search.md#ranking).
const char* search_sql(bool filtered) {
  sqlite::RankedSearch r{"entries_fts",
                         "entries",
                         "rowid",
                         7,
                         6,
                         "e.entry_id, e.role, e.on_path, e.ts, s.id, s.title, s.path, s.cwd",
                         "JOIN entries AS e ON e.rowid = top.id JOIN sessions AS s ON s.rowid = e.session_rowid"};
  // Without a filter the index alone answers: no row looked up for every match.
  static const std::string kAll = sqlite::ranked_search_sql(r);
  r.filter_joins =
      "CROSS JOIN entries AS w ON w.rowid = entries_fts.rowid CROSS JOIN sessions AS f ON f.rowid = w.session_rowid";
  r.filter =
      "AND (?2 IS NULL OR f.cwd = ?2) AND (?3 IS NULL OR w.role = ?3) AND (?4 IS NULL OR w.ts >= ?4) "
      "AND (?5 IS NULL OR f.id = ?5)";
  static const std::string kFiltered = sqlite::ranked_search_sql(r);
  return filtered ? kFiltered.c_str() : kAll.c_str();
}

// What a listing shows, in the order list_json writes it: not the kept listing summary (only the
// store's own listings read it, and it is most of a row's bytes).
#define XS_LIST_COLUMNS                                                                                 \
  "path, id, cwd, title, first_prompt, created, updated, file_mtime_ms, file_size, entries, messages, " \
  "input_tokens, output_tokens, cost, dialect, source_agent, parent_session, archived, leaf_id"
constexpr const char* kListSql =
    "SELECT " XS_LIST_COLUMNS " FROM sessions ORDER BY file_mtime_ms DESC, created DESC, rowid DESC LIMIT ?1";
constexpr const char* kListCwdSql = "SELECT " XS_LIST_COLUMNS
                                    " FROM sessions WHERE cwd = ?2 "
                                    "ORDER BY file_mtime_ms DESC, created DESC, rowid DESC LIMIT ?1";

Result<uint32_t> effective_limit(uint32_t limit) {
  if (limit > kMaxLimit)
    return Status::Invalid("limit " + std::to_string(limit) + " is over " + std::to_string(kMaxLimit));
  return limit == 0 ? kDefaultLimit : limit;
}

void member(std::string& out, const char* key, std::string_view value) {
  out += ",\"";
  out += key;
  out += "\":";
  json::append_quoted_lossy(out, value);
}
void member(std::string& out, const char* key, std::optional<int64_t> value) {
  out += ",\"";
  out += key;
  out += "\":";
  out += value ? std::to_string(*value) : "null";
}
void text_or_null(std::string& out, const char* key, const Stmt& s, int col) {
  if (!s.is_null(col)) return member(out, key, s.text(col));
  out += ",\"";
  out += key;
  out += "\":null";
}
void int_or_null(std::string& out, const char* key, const Stmt& s, int col) {
  member(out, key, s.is_null(col) ? std::nullopt : std::optional<int64_t>(s.int64(col)));
}

void append_paths(std::string& out, const char* key, const std::vector<std::string>& paths) {
  out += ",\"";
  out += key;
  out += "\":[";
  for (size_t i = 0; i < paths.size(); ++i) {
    if (i) out += ',';
    json::append_quoted_lossy(out, paths[i]);
  }
  out += ']';
}

bool is_role(std::string_view r) {
  return r == "user" || r == "assistant" || r == "tool" || r == "summary" || r == "label";
}

}  // namespace

Result<sqlite::Stmt*> SessionIndex::read_stmt(const char* sql) {
  auto it = read_stmts_.find(sql);
  if (it != read_stmts_.end()) return &it->second;
  Result<Stmt> s = read_db_.prepare(sql);
  if (!s.ok()) return s.status();
  return &read_stmts_.emplace(sql, std::move(*s)).first->second;
}

Result<std::string> SessionIndex::search_json(std::string_view query, const SearchOptions& options) {
  Result<uint32_t> limit = effective_limit(options.limit);
  if (!limit.ok()) return limit.status();
  if (query.find('\0') != std::string_view::npos || !json::is_valid_utf8(query)) {
    return Status::Invalid("the query is not valid UTF-8 text");
  }
  if (options.role && !is_role(*options.role)) {
    return Status::Invalid("role \"" + json::to_valid_utf8(*options.role) +
                           "\" is none of user, assistant, tool, summary, label");
  }
  std::string fts = options.literal ? sqlite::literal_query(query) : std::string(query);
  if (fts.find_first_not_of(" \t\r\n") == std::string::npos) return Status::Invalid("the query is empty");
  bool filtered = (options.cwd && !options.cwd->empty()) || options.role || options.since_ms || options.session_id;
  return read([&]() -> Result<std::string> {
    Result<Stmt*> prepared = read_stmt(search_sql(filtered));
    if (!prepared.ok()) return prepared.status();
    Stmt* s = *prepared;
    sqlite::ResetOnExit done(s);
    s->bind(1, fts);
    if (filtered) {
      if (options.cwd && !options.cwd->empty()) s->bind(2, std::string_view(*options.cwd));
      if (options.role) s->bind(3, std::string_view(*options.role));
      if (options.since_ms) s->bind(4, *options.since_ms);
      if (options.session_id) s->bind(5, std::string_view(*options.session_id));
    }
    s->bind(6, int64_t{*limit});
    s->bind(7, int64_t{std::max(options_.ranked_matches, *limit)});
    std::string out = "[";
    int rc;
    while ((rc = s->step()) == SQLITE_ROW) {
      if (out.size() > 1) out += ',';
      out += "{\"sessionId\":";
      json::append_quoted_lossy(out, s->text(4));
      text_or_null(out, "sessionTitle", *s, 5);
      member(out, "sessionPath", s->text(6));
      member(out, "cwd", s->text(7));
      member(out, "entryId", s->text(0));
      text_or_null(out, "role", *s, 1);
      out += std::string(",\"onPath\":") + (s->int64(2) ? "true" : "false");
      member(out, "timestamp", s->is_null(3) ? std::nullopt : std::optional<int64_t>(s->int64(3)));
      out += ",\"score\":";
      json::append_js_number(out, s->real(8));
      member(out, "snippet", s->text(9));
      out += '}';
    }
    if (rc == SQLITE_DONE) return out + "]";
    // A query FTS5 cannot parse (or a column filter naming no column) is the caller's mistake.
    if ((rc & 0xff) == SQLITE_ERROR)
      return Status::Invalid("bad search query: " + std::string(sqlite3_errmsg(read_db_.raw())));
    return read_db_.error(rc, "search");
  });
}

Result<std::string> SessionIndex::list_json(std::optional<std::string_view> cwd, uint32_t limit_in) {
  Result<uint32_t> limit = effective_limit(limit_in);
  if (!limit.ok()) return limit.status();
  if (cwd && cwd->empty()) cwd.reset();
  return read([&]() -> Result<std::string> {
    Result<Stmt*> prepared = read_stmt(cwd ? kListCwdSql : kListSql);
    if (!prepared.ok()) return prepared.status();
    Stmt* s = *prepared;
    sqlite::ResetOnExit done(s);
    s->bind(1, int64_t{*limit});
    if (cwd) s->bind(2, *cwd);
    std::string out = "[";
    int rc;
    while ((rc = s->step()) == SQLITE_ROW) {
      out += out.size() > 1 ? ",{\"path\":" : "{\"path\":";
      json::append_quoted_lossy(out, s->text(0));
      member(out, "id", s->text(1));
      member(out, "cwd", s->text(2));
      text_or_null(out, "title", *s, 3);
      text_or_null(out, "firstPrompt", *s, 4);
      int_or_null(out, "created", *s, 5);
      int_or_null(out, "updated", *s, 6);
      const char* counts[] = {"modified", "size", "entries", "messages", "inputTokens", "outputTokens"};
      for (int i = 0; i < 6; ++i) member(out, counts[i], std::optional<int64_t>(s->int64(7 + i)));
      out += ",\"cost\":";
      json::append_js_number(out, s->real(13));
      text_or_null(out, "dialect", *s, 14);
      text_or_null(out, "sourceAgent", *s, 15);
      text_or_null(out, "parentSession", *s, 16);
      out += s->int64(17) ? ",\"archived\":true" : ",\"archived\":false";
      text_or_null(out, "leafId", *s, 18);
      out += '}';
    }
    if (rc != SQLITE_DONE) return read_db_.error(rc, "list");
    return out + "]";
  });
}

Result<std::unordered_map<std::string, discovery::KeptSummary>> SessionIndex::kept_summaries() {
  using Kept = std::unordered_map<std::string, discovery::KeptSummary>;
  return read([&]() -> Result<Kept> {
    auto s = read_stmt(
        "SELECT path, file_size, file_mtime_ms, file_dev, file_ino, summary FROM sessions WHERE summary IS NOT NULL");
    if (!s.ok()) return s.status();
    Stmt* q = *s;
    Kept kept;
    int rc;
    while ((rc = q->step()) == SQLITE_ROW) {
      auto summary = discovery::parse_summary_json(q->text(5));
      if (!summary.ok()) continue;  // that file is read, as if it were not kept
      discovery::KeptSummary k{{}, std::move(*summary)};
      k.file.size = static_cast<uint64_t>(q->int64(1));
      k.file.mtime_ms = q->int64(2);
      k.file.dev = static_cast<uint64_t>(q->int64(3));
      k.file.ino = static_cast<uint64_t>(q->int64(4));
      kept.emplace(std::string(q->text(0)), std::move(k));
    }
    q->reset();
    if (rc != SQLITE_DONE) return read_db_.error(rc, "read the kept summaries");
    return kept;
  });
}

Result<std::string> SessionIndex::info_json() {
  Result<std::pair<int64_t, int64_t>> rows = read([&]() -> Result<std::pair<int64_t, int64_t>> {
    Result<int64_t> sessions = read_db_.query_int("SELECT count(*) FROM sessions");
    if (!sessions.ok()) return sessions.status();
    Result<int64_t> entries = read_db_.query_int("SELECT count(*) FROM entries");
    if (!entries.ok()) return entries.status();
    return std::make_pair(*sessions, *entries);
  });
  if (!rows.ok()) return rows.status();
  std::string out = "{\"path\":";
  json::append_quoted_lossy(out, path_);
  out += ",\"schemaVersion\":" + std::to_string(kSchemaVersion);
  out += ",\"sessions\":" + std::to_string(rows->first);
  out += ",\"entries\":" + std::to_string(rows->second);
  out += ",\"damaged\":" + sqlite::damaged_json(damaged_);
  return out + "}";
}

std::string report_json(const RefreshReport& r) {
  std::string out = "{\"files\":" + std::to_string(r.files);
  out += ",\"unchanged\":" + std::to_string(r.unchanged);
  out += ",\"appended\":" + std::to_string(r.appended);
  out += ",\"reindexed\":" + std::to_string(r.reindexed);
  out += ",\"added\":" + std::to_string(r.added);
  out += ",\"removed\":" + std::to_string(r.removed);
  out += ",\"unreadable\":" + std::to_string(r.unreadable);
  out += ",\"raced\":" + std::to_string(r.raced);
  out += ",\"entries\":" + std::to_string(r.entries);
  return out + "}";
}

std::string report_json(const VerifyReport& r) {
  std::string out = std::string("{\"ok\":") + (r.ok() ? "true" : "false");
  out += ",\"files\":" + std::to_string(r.files);
  out += ",\"indexed\":" + std::to_string(r.indexed);
  append_paths(out, "missing", r.missing);
  append_paths(out, "extra", r.extra);
  append_paths(out, "stale", r.stale);
  return out + "}";
}

}  // namespace xs::search
