// The read side of the prompt history as JSON: search, recent, info (history.h).

#include <algorithm>

#include "history/history.h"
#include "json/js_number.h"
#include "json/json_string.h"
#include "sqlite/fts_rank.h"

namespace xs::history {
namespace {

// The statement's text, made once: read_stmt keeps statements by the address of their text.
// Snippet markers are STX and ETX, which prompts almost never hold and which every JSON reader
// keeps (docs/history.md#search-output). With at most ?4 matches every one is ranked
// (docs/history.md#ranking).
const char* search_sql(bool in_cwd) {
  sqlite::RankedSearch r{"history_fts",
                         "history",
                         "id",
                         4,
                         3,
                         "h.id, h.prompt, h.created_at, h.cwd",
                         "JOIN history AS h ON h.id = top.id"};
  // Without a cwd the index alone answers: no lookup in `history` for every match.
  static const std::string kAll = sqlite::ranked_search_sql(r);
  // With a cwd, the newest ?4 matches *in that cwd*.
  r.filter_joins = "CROSS JOIN history AS w ON w.id = history_fts.rowid";
  r.filter = "AND w.cwd = ?2";
  static const std::string kInCwd = sqlite::ranked_search_sql(r);
  return in_cwd ? kInCwd.c_str() : kAll.c_str();
}

// Two statements, so that the cwd filter can use the (cwd, id) index.
constexpr const char* kRecentSql = "SELECT id, prompt, created_at, cwd FROM history ORDER BY id DESC LIMIT ?1";
constexpr const char* kRecentCwdSql =
    "SELECT id, prompt, created_at, cwd FROM history WHERE cwd = ?2 ORDER BY id DESC LIMIT ?1";

Result<uint32_t> effective_limit(uint32_t limit) {
  if (limit > kMaxLimit)
    return Status::Invalid("limit " + std::to_string(limit) + " is over " + std::to_string(kMaxLimit));
  return limit == 0 ? kDefaultLimit : limit;
}

// The columns id, prompt, created_at, cwd as the members every row shares. Text that another
// writer stored unchecked (a version-0 file) is made valid UTF-8 so the output stays JSON.
void append_row(std::string& out, const Stmt& s) {
  out += "{\"id\":";
  out += std::to_string(s.int64(0));
  out += ",\"prompt\":";
  json::append_quoted_lossy(out, s.text(1));
  out += ",\"createdAt\":";
  out += std::to_string(s.int64(2));
  out += ",\"cwd\":";
  if (s.is_null(3)) {
    out += "null";
  } else {
    json::append_quoted_lossy(out, s.text(3));
  }
}

}  // namespace

Result<std::string> History::search_json(std::string_view query, const SearchOptions& options) {
  Result<uint32_t> limit = effective_limit(options.limit);
  if (!limit.ok()) return limit.status();
  if (query.find('\0') != std::string_view::npos || !json::is_valid_utf8(query)) {
    return Status::Invalid("the query is not valid UTF-8 text");
  }
  std::string fts = options.literal ? literal_query(query) : std::string(query);
  if (fts.find_first_not_of(" \t\r\n") == std::string::npos) return Status::Invalid("the query is empty");
  return read([&]() -> Result<std::string> {
    bool in_cwd = options.cwd && !options.cwd->empty();
    Result<Stmt*> prepared = read_stmt(search_sql(in_cwd));
    if (!prepared.ok()) return prepared.status();
    Stmt* s = *prepared;
    ResetOnExit done(s);
    s->bind(1, fts);
    if (in_cwd) s->bind(2, *options.cwd);
    s->bind(3, int64_t{*limit});
    s->bind(4, int64_t{std::max(options_.ranked_matches, *limit)});
    std::string out = "[";
    int rc;
    while ((rc = s->step()) == SQLITE_ROW) {
      if (out.size() > 1) out += ',';
      append_row(out, *s);
      out += ",\"score\":";
      // The shortest digits that read back as the same double, whatever the process's locale
      // (printf's "%g" writes a decimal comma under some LC_NUMERIC settings).
      json::append_js_number(out, s->real(4));
      out += ",\"snippet\":";
      json::append_quoted_lossy(out, s->text(5));
      out += '}';
    }
    if (rc == SQLITE_DONE) return out + "]";
    Status st = read_db_.error(rc, "search");
    // A query FTS5 cannot parse (or a column filter naming no column) is the caller's mistake.
    if ((rc & 0xff) == SQLITE_ERROR)
      return Status::Invalid("bad history query: " + std::string(sqlite3_errmsg(read_db_.raw())));
    return st;
  });
}

Result<std::string> History::recent_json(std::optional<std::string_view> cwd, uint32_t limit_in) {
  Result<uint32_t> limit = effective_limit(limit_in);
  if (!limit.ok()) return limit.status();
  if (cwd && cwd->empty()) cwd.reset();
  return read([&]() -> Result<std::string> {
    Result<Stmt*> prepared = read_stmt(cwd ? kRecentCwdSql : kRecentSql);
    if (!prepared.ok()) return prepared.status();
    Stmt* s = *prepared;
    ResetOnExit done(s);
    s->bind(1, int64_t{*limit});
    if (cwd) s->bind(2, *cwd);
    std::string out = "[";
    int rc;
    while ((rc = s->step()) == SQLITE_ROW) {
      if (out.size() > 1) out += ',';
      append_row(out, *s);
      out += '}';
    }
    if (rc != SQLITE_DONE) return read_db_.error(rc, "recent");
    return out + "]";
  });
}

Result<std::string> History::info_json() {
  uint64_t pending;
  {
    std::lock_guard<std::mutex> lock(mu_);
    pending = enqueued_ - written_;
  }
  Result<int64_t> count = read([&] { return read_db_.query_int("SELECT count(*) FROM history"); });
  if (!count.ok()) return count.status();
  std::string out = "{\"path\":";
  json::append_quoted_lossy(out, path_);
  out += ",\"schemaVersion\":" + std::to_string(kSchemaVersion);
  out += ",\"count\":" + std::to_string(*count);
  out += ",\"pending\":" + std::to_string(pending);
  out += ",\"synchronous\":";
  out += options_.sync_full ? "\"full\"" : "\"normal\"";
  out += ",\"damaged\":" + sqlite::damaged_json(damaged_);
  return out + "}";
}

}  // namespace xs::history
