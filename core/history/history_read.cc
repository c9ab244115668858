// The read side of the prompt history as JSON: search, recent, info (history.h).

#include <algorithm>
#include <optional>

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
enum class CwdFilter { kNone, kLookup, kRowIds };

const char* search_sql(CwdFilter filter) {
  sqlite::RankedSearch r{"history_fts",
                         "history",
                         "id",
                         4,
                         3,
                         "h.id, h.prompt, h.created_at, h.cwd",
                         "JOIN history AS h ON h.id = top.id"};
  r.sizes_param = 5;  // the rows' sizes, once read (docs/history.md#ranking)
  // Without a cwd the index alone answers: no lookup in `history` for every match.
  static const std::string kAll = sqlite::ranked_search_sql(r);
  // With a cwd, the newest ?4 matches *in that cwd*: each match's row looked up, or (a cwd searched
  // before on this handle) a bit test in its row ids, bound to ?2 (docs/history.md#search-in-a-cwd).
  r.filter_joins = "CROSS JOIN history AS w ON w.id = history_fts.rowid";
  r.filter = "AND w.cwd = ?2";
  static const std::string kLookup = sqlite::ranked_search_sql(r);
  r.filter_joins = "";
  r.filter = "AND xs_in_rowid_set(history_fts.rowid, ?2)";
  static const std::string kRowIds = sqlite::ranked_search_sql(r);
  switch (filter) {
    case CwdFilter::kLookup: return kLookup.c_str();
    case CwdFilter::kRowIds: return kRowIds.c_str();
    case CwdFilter::kNone: break;
  }
  return kAll.c_str();
}

constexpr const char* kCwdRowsSql = "SELECT id FROM history WHERE cwd = ?1 AND id > ?2";
// An empty history's newest id is the lowest there is: any row added later is above it.
constexpr const char* kNewestIdSql = "SELECT coalesce(max(id), -9223372036854775808) FROM history";
constexpr const char* kChangesSql = "SELECT n FROM history_changes";
constexpr const char* kSizesSql = "SELECT id, sz FROM history_fts_docsize WHERE id > ?1";
// The most cwds a handle keeps row ids of (each a bit per row of the whole history: 125 KB at a
// million prompts).
constexpr size_t kMaxCwdRows = 16;

// One read transaction around what a search reads, so the kept sizes and cwd row ids and the
// search see the same rows; committed (nothing to write) when done.
class ReadTransaction {
 public:
  explicit ReadTransaction(Db& db) : db_(db), open_(db.exec("BEGIN").ok()) {}
  ~ReadTransaction() {
    if (open_) db_.exec("COMMIT");
  }
  bool open() const { return open_; }

 private:
  Db& db_;
  bool open_;
};

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
    // A one-off search (the CLI's) reads neither the rows' sizes nor a cwd's row ids: it looks
    // up what it ranks. From a handle's second search on, they are read and kept up to date.
    bool again = searched_;
    searched_ = true;
    std::optional<ReadTransaction> transaction;
    const sqlite::RowidSet* rows = nullptr;
    const sqlite::RowSizes* sizes = nullptr;
    if (in_cwd || again) {
      transaction.emplace(read_db_);
      if (!transaction->open()) return read_db_.error(sqlite3_errcode(read_db_.raw()), "begin a search");
      XS_RETURN_IF_ERROR(notice_changes());
    }
    if (again) {
      Result<const sqlite::RowSizes*> got = row_sizes();
      if (!got.ok()) return got.status();
      sizes = *got;
    }
    if (in_cwd) {
      Result<const sqlite::RowidSet*> got = cwd_rows(*options.cwd);
      if (!got.ok()) return got.status();
      rows = *got;
    }
    Result<Stmt*> prepared = read_stmt(search_sql(!in_cwd ? CwdFilter::kNone
                                                  : rows  ? CwdFilter::kRowIds
                                                          : CwdFilter::kLookup));
    if (!prepared.ok()) return prepared.status();
    Stmt* s = *prepared;
    ResetOnExit done(s);
    s->bind(1, fts);
    if (rows) {
      sqlite::bind_rowid_set(*s, 2, rows);
    } else if (in_cwd) {
      s->bind(2, *options.cwd);
    }
    s->bind(3, int64_t{*limit});
    s->bind(4, int64_t{std::max(options_.ranked_matches, *limit)});
    sqlite::bind_row_sizes(*s, 5, sizes);
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

Status History::notice_changes() {
  // A change other than an append (another program's delete or update) may have moved rows
  // between cwds, reused ids or changed a prompt's size: all that is kept is read again.
  Result<int64_t> changes = read_db_.query_int(kChangesSql);
  if (!changes.ok()) return changes.status();
  if (*changes != changes_seen_) {
    cwd_rows_.clear();
    sizes_.clear();
    sizes_upto_ = std::numeric_limits<int64_t>::min();
    changes_seen_ = *changes;
  }
  Result<int64_t> newest = read_db_.query_int(kNewestIdSql);
  if (!newest.ok()) return newest.status();
  newest_ = *newest;
  return Status::Ok();
}

template <class Bind, class Take>
Status History::each_row(const char* sql, Bind bind, Take take, const char* what) {
  Result<Stmt*> prepared = read_stmt(sql);
  if (!prepared.ok()) return prepared.status();
  Stmt* s = *prepared;
  ResetOnExit done(s);
  bind(*s);
  int rc;
  while ((rc = s->step()) == SQLITE_ROW) take(*s);
  return rc == SQLITE_DONE ? Status::Ok() : read_db_.error(rc, what);
}

Result<const sqlite::RowSizes*> History::row_sizes() {
  if (newest_ > sizes_upto_) {
    // Appends since the last read have ids above the newest it saw: only they are read. A row id
    // no RowSizes holds (another program's) is looked up instead, as is a size that is not what
    // FTS5 writes.
    Status st = each_row(
        kSizesSql, [&](Stmt& s) { s.bind(1, sizes_upto_); },
        [&](const Stmt& s) { sizes_.set(s.int64(0), sqlite::fts5_docsize_tokens(s.blob(1))); },
        "read the prompts' sizes");
    if (!st.ok()) {
      sizes_.clear();  // read in part: not to be trusted
      sizes_upto_ = std::numeric_limits<int64_t>::min();
      return st;
    }
    sizes_upto_ = newest_;
  }
  return &sizes_;
}

Result<const sqlite::RowidSet*> History::cwd_rows(const std::string& cwd) {
  auto it = cwd_rows_.find(cwd);
  if (it == cwd_rows_.end()) {
    if (cwd_rows_.size() >= kMaxCwdRows) cwd_rows_.clear();
    cwd_rows_.emplace(cwd, CwdRows{});
    return nullptr;
  }
  CwdRows& c = it->second;
  // Appends since the last read have ids above the newest it saw: only they are read.
  if (!c.read || newest_ > c.upto) {
    // Another program's id below 0 or beyond what a set holds: this cwd's rows are looked up.
    Status st = each_row(
        kCwdRowsSql,
        [&](Stmt& s) {
          s.bind(1, cwd);
          s.bind(2, c.upto);
        },
        [&](const Stmt& s) {
          if (!c.rows.add(s.int64(0))) c.lookups_only = true;
        },
        "read the rows of a cwd");
    if (!st.ok()) {
      cwd_rows_.erase(it);  // read in part: not to be trusted
      return st;
    }
    c.upto = newest_;
    c.read = true;
  }
  if (c.lookups_only) return nullptr;
  return &c.rows;
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
