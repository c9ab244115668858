// What an import did with every row of every source file (docs/import.md#the-report): every row
// read is imported as a message, kept as a `custom` entry, found already imported (a re-import),
// or skipped with its file, line and reason. Nothing is dropped without a line in the report.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace xs::import {

// A row that was not imported, and why ("not JSON", "no uuid", ...). `line` counts from 1; 0 when
// the reason is about the file as a whole (unreadable, binary, an index that is not an object).
struct SkippedRow {
  std::string file;
  uint64_t line = 0;
  std::string reason;
};

// One source transcript and the native session it went to (or would go to, in a dry run).
struct ImportedSession {
  std::string source_file;
  std::string session_id;    // the native session's id
  std::string session_file;  // the native session's file; empty in a dry run of a new session
  bool created = false;      // a new native session (false: an earlier import was continued)
  uint64_t rows_read = 0;
  uint64_t imported = 0;          // became message entries (or merged into one)
  uint64_t kept_as_custom = 0;    // kept verbatim as `custom` entries
  uint64_t already_imported = 0;  // a re-import found them (their source ids are in the session)
  uint64_t skipped = 0;           // each has a SkippedRow
};

struct ImportReport {
  std::string source_kind;  // "claude", "myagents", "gateway"
  std::string source_root;
  bool dry_run = false;
  std::vector<ImportedSession> sessions;
  std::vector<SkippedRow> skipped;
  // Findings about the store rather than a row: an index entry whose file is gone, a file the
  // index lacks, a legacy file left beside its migrated copy, a dangling parent re-attached.
  std::vector<std::string> notes;

  // Sums over sessions.
  uint64_t rows_read() const;
  uint64_t imported() const;
  uint64_t kept_as_custom() const;
  uint64_t already_imported() const;
  uint64_t skipped_rows() const;

  // {"source","root","dryRun","rowsRead","imported","keptAsCustom","alreadyImported","skipped",
  //  "sessions":[{"sourceFile","sessionId","sessionFile","created","rowsRead","imported",
  //  "keptAsCustom","alreadyImported","skipped"}],"skippedRows":[{"file","line","reason"}],
  //  "notes":[...]}: the JSON xs_import returns (docs/import.md#the-report).
  std::string to_json() const;
};

}  // namespace xs::import
