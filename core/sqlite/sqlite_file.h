// A database file of the engine's own (the prompt history, the session index): opening it (WAL, busy timeout,
// synchronous), migrating it by PRAGMA user_version, and what happens to a damaged file: it is
// renamed aside and a fresh one started, never trusted (docs/search.md#the-file).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "sqlite/sqlite_db.h"
#include "storage/fs.h"
#include "util/status.h"

namespace xs::sqlite {

// What a database is: its name in messages and its migrations. steps[v] takes version v to
// v + 1; version 0 is an empty file.
struct Schema {
  std::string_view name;  // "the session index"
  int version = 0;
  const char* const* steps = nullptr;
};

struct OpenSettings {
  std::chrono::milliseconds busy_timeout{5000};
  bool sync_full = false;           // synchronous=FULL instead of NORMAL
  uint32_t wal_autocheckpoint = 0;  // pages of WAL between checkpoints; 0: SQLite's (1,000)
};

// What opening found wrong with the file, when it had to start a fresh one.
struct DamagedNote {
  std::string preserved_path;  // the damaged file, renamed: <path>.damaged-<UTC stamp>[-n]
  std::string reason;          // SQLite's message, or quick_check's first line
};
// The note as the "damaged" member of an info JSON: null when nothing was kept aside, else
// {"path","reason"}.
std::string damaged_json(const DamagedNote& note);

// Opens (creating) the database at `path` on *db, migrated to schema.version. A file that is not
// a SQLite database, or whose quick_check fails, is renamed aside through `fs` (with its -wal and
// -shm) and a fresh database started; *damaged says where it went (empty otherwise). A newer
// version is kVersion. Busy errors are retried for settings.busy_timeout.
Status open_database(storage::Fs& fs, const std::string& path, const Schema& schema, const OpenSettings& settings,
                     Db* db, DamagedNote* damaged);

// Brings the database from version `from` to schema.version inside the caller's transaction.
Status migrate(Db& db, const Schema& schema, int from);

}  // namespace xs::sqlite
