// bm25_sampled (fts_rank.h). The scoring is FTS5's bm25 (fts5_aux.c in SQLite, public domain);
// only the count of each phrase's matches differs.
#include "sqlite/fts_rank.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <new>
#include <vector>

#include "sqlite/sqlite_db.h"

namespace xs::sqlite {
namespace {

constexpr const char* kSizesPointer = "xs_row_sizes";
constexpr double kK1 = 1.2;
constexpr double kB = 0.75;

// What every row of one query shares: made at its first row, kept as the query's aux data.
struct QueryData {
  double avg_tokens = 0;
  std::vector<double> idf;   // per phrase
  std::vector<double> freq;  // per phrase, the current row's (scratch)
};

struct MatchCount {
  int64_t n = 0;
  int64_t last_rowid = 0;
};

int count_match(const Fts5ExtensionApi* api, Fts5Context* fts, void* user) {
  auto* c = static_cast<MatchCount*>(user);
  c->last_rowid = api->xRowid(fts);
  return ++c->n >= kSampledMatches ? SQLITE_DONE : SQLITE_OK;
}

// The number of rows holding phrase `phrase`: exact below kSampledMatches, else estimated from the
// rowid span its first kSampledMatches matches cover (fts_rank.h).
int phrase_rows(const Fts5ExtensionApi* api, Fts5Context* fts, int phrase, int64_t rows, int64_t lo, int64_t hi,
                double* out) {
  MatchCount c;
  int rc = api->xQueryPhrase(fts, phrase, &c, count_match);
  if (rc != SQLITE_OK) return rc;
  double n = static_cast<double>(c.n);
  if (c.n >= kSampledMatches && hi > lo && c.last_rowid >= lo) {
    // In doubles: the rowids may be anywhere in int64, and their difference overflow it.
    double span = static_cast<double>(hi) - static_cast<double>(lo) + 1;
    double covered = static_cast<double>(c.last_rowid) - static_cast<double>(lo) + 1;
    n = std::min(static_cast<double>(rows), n * span / covered);
  }
  *out = n;
  return SQLITE_OK;
}

int query_data(const Fts5ExtensionApi* api, Fts5Context* fts, int64_t lo, int64_t hi, QueryData** out) {
  auto* d = static_cast<QueryData*>(api->xGetAuxdata(fts, 0));
  if (d) {
    *out = d;
    return SQLITE_OK;
  }
  sqlite3_int64 rows = 0, tokens = 0;
  int rc = api->xRowCount(fts, &rows);
  if (rc == SQLITE_OK) rc = api->xColumnTotalSize(fts, -1, &tokens);
  if (rc != SQLITE_OK) return rc;
  int phrases = api->xPhraseCount(fts);
  // Called from SQLite's C code: no exception may leave.
  std::unique_ptr<QueryData> made;
  try {
    made = std::make_unique<QueryData>();
    made->idf.assign(static_cast<size_t>(phrases), 0);
    made->freq.assign(static_cast<size_t>(phrases), 0);
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  }
  made->avg_tokens = rows > 0 && tokens > 0 ? static_cast<double>(tokens) / static_cast<double>(rows) : 1;
  for (int i = 0; i < phrases; ++i) {
    double n = 0;
    rc = phrase_rows(api, fts, i, rows, lo, hi, &n);
    if (rc != SQLITE_OK) return rc;
    double idf = std::log((static_cast<double>(rows) - n + 0.5) / (n + 0.5));
    made->idf[static_cast<size_t>(i)] = idf <= 0 ? 1e-6 : idf;  // as bm25: a word in most rows still counts
  }
  d = made.release();
  // xSetAuxdata frees what it is given when it fails too.
  rc = api->xSetAuxdata(fts, d, [](void* p) { delete static_cast<QueryData*>(p); });
  if (rc != SQLITE_OK) return rc;
  *out = d;
  return SQLITE_OK;
}

void sampled_bm25(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (argc != 2 && argc != 3) {
    return sqlite3_result_error(ctx, "bm25_sampled(table, lowest_rowid, highest_rowid [, row_sizes])", -1);
  }
  QueryData* d = nullptr;
  int rc = query_data(api, fts, sqlite3_value_int64(argv[0]), sqlite3_value_int64(argv[1]), &d);
  int hits = 0;
  if (rc == SQLITE_OK) {
    std::fill(d->freq.begin(), d->freq.end(), 0.0);
    rc = api->xInstCount(fts, &hits);
  }
  for (int i = 0; i < hits && rc == SQLITE_OK; ++i) {
    int phrase = 0, column = 0, offset = 0;
    rc = api->xInst(fts, i, &phrase, &column, &offset);
    if (rc == SQLITE_OK) d->freq[static_cast<size_t>(phrase)] += 1;
  }
  double tokens = 0;
  const auto* sizes = argc == 3 ? static_cast<const RowSizes*>(sqlite3_value_pointer(argv[2], kSizesPointer)) : nullptr;
  std::optional<uint32_t> kept = sizes && rc == SQLITE_OK ? sizes->get(api->xRowid(fts)) : std::nullopt;
  if (kept) {
    tokens = *kept;
  } else if (rc == SQLITE_OK) {
    int n = 0;
    rc = api->xColumnSize(fts, -1, &n);
    tokens = n;
  }
  if (rc != SQLITE_OK) return sqlite3_result_error_code(ctx, rc);
  double norm = kK1 * (1 - kB + kB * tokens / d->avg_tokens);
  double score = 0;
  // As bm25 writes it, so that an exact count gives bm25's value to the last bit.
  for (size_t i = 0; i < d->idf.size(); ++i) score += d->idf[i] * ((d->freq[i] * (kK1 + 1.0)) / (d->freq[i] + norm));
  sqlite3_result_double(ctx, -score);
}

}  // namespace

std::optional<uint32_t> fts5_docsize_tokens(std::optional<std::string_view> sz) {
  if (!sz) return std::nullopt;
  uint64_t n = 0;
  for (size_t i = 0; i < sz->size() && i < 5; ++i) {
    auto byte = static_cast<unsigned char>((*sz)[i]);
    n = n << 7 | (byte & 0x7f);
    if (!(byte & 0x80)) {
      if (i + 1 != sz->size() || n > UINT32_MAX) return std::nullopt;
      return static_cast<uint32_t>(n);
    }
  }
  return std::nullopt;
}

bool RowSizes::set(int64_t rowid, std::optional<uint32_t> tokens) {
  if (rowid < 0 || rowid > kMaxRowid) return false;
  auto at = static_cast<size_t>(rowid);
  if (at >= sizes_.size()) {
    if (!tokens || *tokens >= kMaxKept) return true;                     // not held either way
    sizes_.resize(std::max(at + 1, sizes_.size() + sizes_.size() / 8));  // room to grow by an eighth
  }
  sizes_[at] = tokens && *tokens < kMaxKept ? static_cast<uint8_t>(*tokens + 1) : 0;
  return true;
}

void bind_row_sizes(Stmt& s, int i, const RowSizes* sizes) {
  sqlite3_bind_pointer(s.raw(), i, const_cast<RowSizes*>(sizes), kSizesPointer, nullptr);
}

Status register_sampled_bm25(sqlite3* db) {
  // The FTS5 API is reached through a pointer the fts5() SQL function hands out
  // (https://sqlite.org/fts5.html#extending_fts5).
  fts5_api* api = nullptr;
  sqlite3_stmt* s = nullptr;
  int rc = sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &s, nullptr);
  if (rc == SQLITE_OK) {
    sqlite3_bind_pointer(s, 1, &api, "fts5_api_ptr", nullptr);
    rc = sqlite3_step(s) == SQLITE_ROW ? SQLITE_OK : sqlite3_errcode(db);
  }
  sqlite3_finalize(s);
  if (rc != SQLITE_OK || !api) return Status(code_of(rc ? rc : SQLITE_ERROR), "this SQLite has no FTS5");
  rc = api->xCreateFunction(api, "bm25_sampled", nullptr, sampled_bm25, nullptr);
  return rc == SQLITE_OK ? Status::Ok() : Status(code_of(rc), "bm25_sampled could not be registered");
}

std::string ranked_search_sql(const RankedSearch& r) {
  std::string fts(r.fts), content(r.content), key(r.key);
  // CROSS JOIN keeps FTS5 outside, newest first, each match's rows looked up by key: left to the
  // planner, a filter's index drove the join and FTS5 was probed by rowid for every row it
  // passed (seconds at a million rows).
  std::string sql = "WITH newest AS (SELECT " + fts + ".rowid AS id, bm25_sampled(" + fts + ", (SELECT min(" + key +
                    ") FROM " + content + "), (SELECT max(" + key + ") FROM " + content + ")" +
                    (r.sizes_param ? ", ?" + std::to_string(r.sizes_param) : "") + ") AS score\n" + "FROM " + fts +
                    " " + std::string(r.filter_joins) + "\n" + "WHERE " + fts + " MATCH ?1 " + std::string(r.filter) +
                    "\n" + "ORDER BY " + fts + ".rowid DESC LIMIT ?" + std::to_string(r.window_param) + "),\n";
  sql += "top AS MATERIALIZED (SELECT id, score FROM newest ORDER BY score, id DESC LIMIT ?" +
         std::to_string(r.limit_param) + ")\n";
  // Columns and snippets for the best rows only, made by one walk of the matches between the
  // lowest and the highest of them: a MATCH per row, as the planner would do, seeks each phrase
  // in every segment of the index again (4 of a search's 9 ms at a million rows). The IN lets
  // only the best rows reach the join: SQLite scans `top` for every row that does, and with a
  // filter the best rows may span far more matches than the window (a common word in a cwd of a
  // twentieth of a million prompts: 8,500 rows, 14 ms without it, 5 ms with it).
  sql += "SELECT " + std::string(r.columns) + ", top.score, snippet(" + fts + ", 0, char(2), char(3), '…', 16)\n";
  sql += "FROM " + fts + " CROSS JOIN top ON top.id = " + fts + ".rowid " + std::string(r.joins) + "\n";
  sql += "WHERE " + fts + " MATCH ?1 AND +" + fts + ".rowid IN (SELECT id FROM top) AND " + fts +
         ".rowid >= (SELECT min(id) FROM top) AND " + fts + ".rowid <= (SELECT max(id) FROM top)\n";
  return sql + "ORDER BY top.score, top.id DESC";
}

}  // namespace xs::sqlite
