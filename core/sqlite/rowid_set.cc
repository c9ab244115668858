#include "sqlite/rowid_set.h"

namespace xs::sqlite {
namespace {

constexpr const char* kPointerType = "xs_rowid_set";

void in_rowid_set(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  (void)argc;
  const auto* set = static_cast<const RowidSet*>(sqlite3_value_pointer(argv[1], kPointerType));
  if (!set) {
    sqlite3_result_error(ctx, "xs_in_rowid_set: the second argument is not a row id set", -1);
    return;
  }
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;  // NULL
  sqlite3_result_int(ctx, set->has(sqlite3_value_int64(argv[0])) ? 1 : 0);
}

}  // namespace

Status register_rowid_set(sqlite3* db) {
  // SQLITE_DIRECTONLY: not from triggers or views a database file could bring along.
  int rc = sqlite3_create_function_v2(db, "xs_in_rowid_set", 2, SQLITE_UTF8 | SQLITE_DIRECTONLY, nullptr, in_rowid_set,
                                      nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) return Status::Internal(std::string("cannot register xs_in_rowid_set: ") + sqlite3_errstr(rc));
  return Status::Ok();
}

void bind_rowid_set(Stmt& s, int i, const RowidSet* set) {
  sqlite3_bind_pointer(s.raw(), i, const_cast<RowidSet*>(set), kPointerType, nullptr);
}

}  // namespace xs::sqlite
