// Opening, migrating and preserving the history database (history_schema.h).
#include "history/history_schema.h"

namespace xs::history {
namespace {

// Version 0 -> 1: the table (kept as it is when a version-0 file has it), a per-cwd index for
// recent(cwd), the external-content FTS5 index over the prompt and the triggers that keep it in
// step with the table. 'rebuild' fills the index from rows a version-0 file already holds.
constexpr const char* kToV1 = R"sql(
CREATE TABLE IF NOT EXISTS history(
  id INTEGER PRIMARY KEY,
  prompt TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  cwd TEXT);
CREATE INDEX IF NOT EXISTS history_cwd_id ON history(cwd, id);
CREATE VIRTUAL TABLE IF NOT EXISTS history_fts USING fts5(
  prompt, content='history', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3');
CREATE TRIGGER IF NOT EXISTS history_ai AFTER INSERT ON history BEGIN
  INSERT INTO history_fts(rowid, prompt) VALUES (new.id, new.prompt);
END;
CREATE TRIGGER IF NOT EXISTS history_ad AFTER DELETE ON history BEGIN
  INSERT INTO history_fts(history_fts, rowid, prompt) VALUES ('delete', old.id, old.prompt);
END;
CREATE TRIGGER IF NOT EXISTS history_au AFTER UPDATE ON history BEGIN
  INSERT INTO history_fts(history_fts, rowid, prompt) VALUES ('delete', old.id, old.prompt);
  INSERT INTO history_fts(rowid, prompt) VALUES (new.id, new.prompt);
END;
INSERT INTO history_fts(history_fts) VALUES ('rebuild');
)sql";

// Version 1 -> 2: prefix indexes of 4 and 5 characters as well. Without one, FTS5 merges the
// doclists of every term a prefix covers for each query, and again for each snippet's row: a
// 4-character prefix took 1.8 s at a million prompts, 23 ms with the index (bench/README.md).
// FTS5 cannot change the option of a table, so it is made again and filled from the rows; the
// triggers belong to `history` and stay.
constexpr const char* kToV2 = R"sql(
DROP TABLE history_fts;
CREATE VIRTUAL TABLE history_fts USING fts5(
  prompt, content='history', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3 4 5');
INSERT INTO history_fts(history_fts) VALUES ('rebuild');
)sql";

// Version 2 -> 3: a count of the changes to `history` other than appends (a delete, an update,
// an insert below the newest id: another program's, the engine makes none), which a handle's
// in-memory row ids of a cwd are checked against before each search (docs/history.md#search-in-a-cwd).
// Triggers belong to the file, so they count whatever program makes the change.
constexpr const char* kToV3 = R"sql(
CREATE TABLE IF NOT EXISTS history_changes(n INTEGER NOT NULL);
INSERT INTO history_changes SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM history_changes);
CREATE TRIGGER IF NOT EXISTS history_changes_ai AFTER INSERT ON history
  WHEN new.id < (SELECT max(id) FROM history) BEGIN
  UPDATE history_changes SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS history_changes_ad AFTER DELETE ON history BEGIN
  UPDATE history_changes SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS history_changes_au AFTER UPDATE ON history BEGIN
  UPDATE history_changes SET n = n + 1;
END;
)sql";

// steps[v] migrates version v to v + 1.
constexpr const char* kSteps[kSchemaVersion] = {kToV1, kToV2, kToV3};

const sqlite::Schema kSchema{"the history database", kSchemaVersion, kSteps};

}  // namespace

Status migrate(Db& db, int from) { return sqlite::migrate(db, kSchema, from); }

Status open_database(storage::Fs& fs, const std::string& path, OpenSettings settings, Db* db, DamagedNote* damaged) {
  // A checkpoint every 10,000 pages (40 MB of WAL) instead of SQLite's 1,000: each one syncs the
  // WAL and the database, and at 1,000 a steady stream of adds checkpointed after nearly every
  // batch (adds ran at 0.77x a bare insert loop; bench/README.md).
  settings.wal_autocheckpoint = 10000;
  return sqlite::open_database(fs, path, kSchema, settings, db, damaged);
}

}  // namespace xs::history
