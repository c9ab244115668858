// The session index's schema and its migrations by PRAGMA user_version (docs/search.md#schema).
#pragma once

#include "sqlite/sqlite_file.h"

namespace xs::search {

// The schema version this library writes and reads; a newer file is refused (kVersion).
inline constexpr int kSchemaVersion = 2;

// What sqlite::open_database needs to open and migrate index.db.
const sqlite::Schema& index_schema();

// The tables from nothing, as version 1 makes them, and version 2's change (rebuild() starts from
// them again).
extern const char* const kCreateTables;
extern const char* const kAddSummaries;
// Drops every table, index and trigger of the schema.
extern const char* const kDropTables;

}  // namespace xs::search
