// bm25_sampled: FTS5's bm25 ranking without FTS5's walk of every match of every phrase
// (docs/history.md#ranking). The prompt history and the session index rank with it.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "util/status.h"

namespace xs::sqlite {

// Matches of a phrase counted before its count is estimated instead.
constexpr int64_t kSampledMatches = 1000;

// Registers the FTS5 auxiliary function on connection `db`:
//
//   bm25_sampled(fts_table, lowest_rowid, highest_rowid)
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
// Db::open calls it for every connection; it fails only on a SQLite built without FTS5.
Status register_sampled_bm25(sqlite3* db);

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
};
std::string ranked_search_sql(const RankedSearch& search);

}  // namespace xs::sqlite
