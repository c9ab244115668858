// The history database's file: opening it (WAL, busy timeout, synchronous), the schema and its
// migrations by PRAGMA user_version, and what happens to a damaged file (docs/history.md#schema,
// docs/history.md#damaged-files).
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "sqlite/sqlite_db.h"
#include "storage/fs.h"
#include "util/status.h"

namespace xs::history {

// The SQLite wrapper moved to its own layer (core/sqlite/), shared with the session index; the
// history (and its tests) keep naming it as before.
using sqlite::code_of;
using sqlite::Db;
using sqlite::is_busy;
using sqlite::retry_busy;
using sqlite::Stmt;

// The schema version this library writes and reads. Older files are migrated step by step at
// open; a newer one is refused (kVersion): a later xsession wrote it.
inline constexpr int kSchemaVersion = 2;

struct OpenSettings {
  std::chrono::milliseconds busy_timeout{5000};
  bool sync_full = false;  // synchronous=FULL instead of NORMAL (docs/history.md#flush-close-and-durability)
};

// What opening found wrong with the file, when it had to start a fresh one.
struct DamagedNote {
  std::string preserved_path;  // the damaged file, renamed: <path>.damaged-<UTC stamp>
  std::string reason;          // SQLite's message, or quick_check's first line
};

// Opens (creating) the database at `path`, migrated to kSchemaVersion, on connection *db. A file
// SQLite cannot read as a database, or whose quick_check fails, is renamed aside through `fs`
// (with its -wal and -shm) and a fresh database started in its place; *damaged then says where
// it went (empty otherwise). Busy errors are retried for settings.busy_timeout.
Status open_database(storage::Fs& fs, const std::string& path, const OpenSettings& settings, Db* db,
                     DamagedNote* damaged);

// Brings a database at `from` (< kSchemaVersion) to kSchemaVersion inside the caller's write
// transaction. Version 0 is an empty file or the unversioned table `history(id, prompt,
// created_at, cwd)` without an index: the index and its triggers are added and filled. Version 1
// -> 2 makes the index again with prefix indexes of 4 and 5 characters.
Status migrate(Db& db, int from);

}  // namespace xs::history
