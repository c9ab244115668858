// The read side of the prompt history as JSON: search, recent, info (history.h).

#include <algorithm>

#include "history/history.h"
#include "json/js_number.h"
#include "json/json_string.h"

namespace xs::history {
namespace {

// Snippet markers around each match: STX and ETX, which prompts almost never hold and which every
// JSON reader keeps (docs/history.md#search-output). Only the newest ?4 matches are scored (bm25 by
// row): FTS5 walks its doclists in rowid order and stops there, so a word in most prompts costs
// what a rare one does; with at most ?4 matches every one is ranked, as before
// (docs/history.md#ranking). The prompt and snippet are made for the best rows only: a snippet for
// every match before the LIMIT took 30 times longer for a word in most prompts.
std::string search_sql(const char* newest) {
  return std::string("WITH newest AS (") + newest +
         "),\n"
         "top AS (SELECT id, score FROM newest ORDER BY score, id DESC LIMIT ?3)\n"
         "SELECT h.id, h.prompt, h.created_at, h.cwd, top.score,\n"
         "       snippet(history_fts, 0, char(2), char(3), '…', 16)\n"
         "FROM top JOIN history_fts ON history_fts.rowid = top.id JOIN history AS h ON h.id = top.id\n"
         "WHERE history_fts MATCH ?1\n"
         "ORDER BY top.score, top.id DESC";
}

// The statement's text, made once: read_stmt keeps statements by the address of their text.
const char* search_sql(bool in_cwd) {
  // Without a cwd the index alone answers: no lookup in `history` for every match.
  static const std::string kAll = search_sql(
      "SELECT rowid AS id, bm25(history_fts) AS score FROM history_fts\n"
      "WHERE history_fts MATCH ?1 ORDER BY rowid DESC LIMIT ?4");
  // With a cwd, the newest ?4 matches *in that cwd*. CROSS JOIN keeps FTS5 outside, newest first,
  // each match's row looked up by id: the planner otherwise drove the join from the (cwd, id)
  // index and probed FTS5 by rowid for every prompt of the cwd (seconds at a million prompts).
  static const std::string kInCwd = search_sql(
      "SELECT history_fts.rowid AS id, bm25(history_fts) AS score\n"
      "FROM history_fts CROSS JOIN history AS w ON w.id = history_fts.rowid\n"
      "WHERE history_fts MATCH ?1 AND w.cwd = ?2 ORDER BY history_fts.rowid DESC LIMIT ?4");
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
