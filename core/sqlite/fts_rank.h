// bm25_sampled: FTS5's bm25 ranking without FTS5's walk of every match of every phrase
// (docs/history.md#ranking). The prompt history and the session index rank with it.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sqlite/sqlite_db.h"
#include "util/status.h"

namespace xs::sqlite {

// Matches of a phrase counted before its count is estimated instead.
constexpr int64_t kSampledMatches = 1000;

// Registers the FTS5 auxiliary function on connection `db`:
//
//   bm25_sampled(fts_table, lowest_rowid, highest_rowid [, row_sizes])
//
// is bm25(fts_table) (k1 = 1.2, b = 0.75, every column weighing 1, lower is better) except for
// how it learns in how many rows each phrase of the query occurs, the n of the phrase's IDF. bm25
// walks all of a phrase's matches to count them, once per query: tens of milliseconds for a word
// in most of a million rows. bm25_sampled walks at most kSampledMatches of them, oldest first: a
// phrase with fewer matches has its exact count (and so bm25's exact score); one with more has
// its count estimated from where its kSampledMatches-th match lies between the table's lowest
// and highest rowid (the caller passes those two: `SELECT min(rowid)` / `max(rowid)` of the
// content table), as if the phrase were spread evenly over the rows. Such a phrase is in more
// than kSampledMatches rows, where IDF changes slowly with n: an estimate off by a factor of two
// moves its IDF by log 2, against the IDF of a rare word of 6 or more at a million rows.
// A row's size (its count of tokens) comes from `row_sizes` (a RowSizes bound by bind_row_sizes)
// when one is passed and holds the row's; else from FTS5's own lookup of the row in its
// `%_docsize` table, a microsecond or two for each ranked row.
// Db::open calls it for every connection; it fails only on a SQLite built without FTS5.
Status register_sampled_bm25(sqlite3* db);

// The token count a row of a one-column FTS5 table's `%_docsize` table holds in `sz`: one
// varint as FTS5 writes it (SQLite's: big-endian, 7 bits a byte, the high bit set on all but the
// last). Nullopt for anything else: no blob, more bytes, a count beyond 32 bits.
std::optional<uint32_t> fts5_docsize_tokens(std::optional<std::string_view> sz);

// The sizes of an FTS5 table's rows by row id, read from its `%_docsize` table, for bm25_sampled:
// a byte a row id, so a million prompts take 1 MB (docs/history.md#ranking). A row it does not
// hold is looked up by FTS5 as before.
class RowSizes {
 public:
  // The highest row id held: 64 MiB at most, however another program numbers its rows.
  static constexpr int64_t kMaxRowid = (int64_t{1} << 26) - 1;
  // Keeps `tokens` as row `rowid`'s size. A count of kMaxKept or more, or none, is not kept
  // (bm25_sampled looks it up), nor a row id below 0 or above kMaxRowid (false).
  static constexpr uint32_t kMaxKept = 254;
  bool set(int64_t rowid, std::optional<uint32_t> tokens);
  std::optional<uint32_t> get(int64_t rowid) const {
    if (rowid < 0 || static_cast<uint64_t>(rowid) >= sizes_.size()) return std::nullopt;
    uint8_t kept = sizes_[static_cast<size_t>(rowid)];
    if (kept == 0) return std::nullopt;
    return kept - 1u;
  }
  void clear() { std::vector<uint8_t>().swap(sizes_); }
  size_t bytes() const { return sizes_.size(); }

 private:
  std::vector<uint8_t> sizes_;  // 0: not held; else the count + 1
};

// Binds `sizes` (kept alive and unchanged by the caller until the statement is reset; null for
// none) to parameter `i`, for bm25_sampled's fourth argument.
void bind_row_sizes(Stmt& s, int i, const RowSizes* sizes);

// A search of the FTS5 table `fts`, whose external content is table `content` keyed by `key` (the
// FTS5 rowid). Only the newest ?`window_param` matches that pass `filter` are ranked (by
// bm25_sampled, lower is better, ties newest first): FTS5 walks its doclists in rowid order and
// stops there, so a word in most rows costs what a rare one does (docs/history.md#ranking). The
// best ?`limit_param` of them are returned, with `columns` (reached from the CTE `top`, whose `id`
// is the key, through `joins`), then the score and a snippet: up to 16 tokens, each match between
// char(2) and char(3), cut parts marked '…'. ?1 is the FTS5 query.
struct RankedSearch {
  std::string_view fts, content, key;
  int window_param = 0, limit_param = 0;
  std::string_view columns, joins;
  std::string_view filter_joins;  // joins the filter needs, after "FROM <fts>" ("" for none)
  std::string_view filter;        // "AND ..." on the window's rows ("" for none)
  int sizes_param = 0;            // ?N bound by bind_row_sizes, for bm25_sampled (0 for none)
};
std::string ranked_search_sql(const RankedSearch& search);

}  // namespace xs::sqlite
