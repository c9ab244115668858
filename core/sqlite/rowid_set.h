// A set of row ids held in memory, tested from SQL: `xs_in_rowid_set(rowid, ?N)` with the set bound
// to ?N by bind_rowid_set(). What lets an FTS5 walk be filtered by a property of its rows (the
// prompt history's cwd) without looking each match's row up (docs/history.md#search-in-a-cwd):
// a bit test where a lookup cost microseconds.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <vector>

#include "sqlite/sqlite_db.h"
#include "util/status.h"

namespace xs::sqlite {

class RowidSet {
 public:
  // The highest row id a set holds: a bit for each row id up to it is 8 MiB. Another program may
  // give a row any id; a set must not grow to gigabytes for it.
  static constexpr int64_t kMaxRowid = (int64_t{1} << 26) - 1;

  // False, holding nothing new, for a row id below 0 or above kMaxRowid.
  bool add(int64_t rowid) {
    if (rowid < 0 || rowid > kMaxRowid) return false;
    size_t word = static_cast<size_t>(rowid) >> 6;
    if (word >= bits_.size()) bits_.resize(word + 1 + (word >> 3));  // room to grow by an eighth
    bits_[word] |= uint64_t{1} << (rowid & 63);
    return true;
  }
  bool has(int64_t rowid) const {
    if (rowid < 0) return false;
    size_t word = static_cast<size_t>(rowid) >> 6;
    return word < bits_.size() && (bits_[word] >> (rowid & 63) & 1) != 0;
  }
  size_t bytes() const { return bits_.size() * sizeof(uint64_t); }

 private:
  std::vector<uint64_t> bits_;
};

// Registers xs_in_rowid_set(rowid, set) on `db`: 1 when the set holds the rowid, 0 when not, NULL
// for a NULL rowid. A set argument that is not one bound by bind_rowid_set is an SQL error
// (SQLite's pointer passing: no text or blob can pose as one). Db::open calls it.
Status register_rowid_set(sqlite3* db);

// Binds `set` (kept alive by the caller until the statement is reset) to parameter `i`.
void bind_rowid_set(Stmt& s, int i, const RowidSet* set);

}  // namespace xs::sqlite
