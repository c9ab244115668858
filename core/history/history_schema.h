// The history database's file: opening it (WAL, busy timeout, synchronous), the schema and its
// migrations by PRAGMA user_version, and what happens to a damaged file (docs/history.md#schema,
// docs/history.md#damaged-files).
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "sqlite/sqlite_db.h"
#include "sqlite/sqlite_file.h"
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
inline constexpr int kSchemaVersion = 3;

using sqlite::DamagedNote;
using sqlite::OpenSettings;

// Opens (creating) the history at `path`, migrated to kSchemaVersion: sqlite::open_database with
// the history's schema and a checkpoint every 10,000 WAL pages (docs/history.md).
Status open_database(storage::Fs& fs, const std::string& path, OpenSettings settings, Db* db, DamagedNote* damaged);

// Brings a database at `from` (< kSchemaVersion) to kSchemaVersion inside the caller's write
// transaction. Version 0 is an empty file or the unversioned table `history(id, prompt,
// created_at, cwd)` without an index: the index and its triggers are added and filled. Version 1
// -> 2 makes the index again with prefix indexes of 4 and 5 characters.
Status migrate(Db& db, int from);

}  // namespace xs::history
