// The `sessions` row as the index's statements read it (internal to search/).
#pragma once

#include "search/session_read.h"
#include "sqlite/sqlite_db.h"

namespace xs::search {

// The columns of `sessions`, rowid first, in the order row_of() reads them.
#define XS_SESSION_COLUMNS                                                                                 \
  "path, id, cwd, title, first_prompt, created, updated, entries, messages, input_tokens, output_tokens, " \
  "cost, dialect, source_agent, parent_session, archived, file_size, file_mtime_ms, file_dev, file_ino, "  \
  "indexed_bytes, leaf_id, summary"

// A row of "SELECT rowid, " XS_SESSION_COLUMNS.
SessionRow row_of(const sqlite::Stmt& s);

}  // namespace xs::search
