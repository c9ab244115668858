// The session index's schema (index_schema.h).
#include "search/index_schema.h"

namespace xs::search {

// `sessions`: one row per session file; `entries`: one per entry (those without text too: the
// on_path walk follows parent ids through them). entries_fts is an external-content FTS5 index
// over entries.text, kept in step by the triggers in the same transaction as the rows (only rows
// with text are in it). Tokenizer and prefix indexes as the prompt history's schema 2: without a
// prefix index FTS5 merges the doclist of every term a prefix covers, for each query and again for
// each snippet (docs/history.md#schema).
const char* const kCreateTables = R"sql(
CREATE TABLE sessions(
  rowid INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  id TEXT NOT NULL,
  cwd TEXT NOT NULL,
  title TEXT,
  first_prompt TEXT,
  created INTEGER,
  updated INTEGER,
  entries INTEGER NOT NULL,
  messages INTEGER NOT NULL,
  input_tokens INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  cost REAL NOT NULL,
  dialect TEXT,
  source_agent TEXT,
  parent_session TEXT,
  archived INTEGER NOT NULL,
  file_size INTEGER NOT NULL,
  file_mtime_ms INTEGER NOT NULL,
  file_dev INTEGER NOT NULL,
  file_ino INTEGER NOT NULL,
  indexed_bytes INTEGER NOT NULL,
  leaf_id TEXT);
CREATE INDEX sessions_newest ON sessions(file_mtime_ms, created);
CREATE INDEX sessions_cwd_newest ON sessions(cwd, file_mtime_ms, created);
CREATE INDEX sessions_id ON sessions(id);
CREATE TABLE entries(
  rowid INTEGER PRIMARY KEY,
  session_rowid INTEGER NOT NULL,
  entry_id TEXT NOT NULL,
  parent_id TEXT,
  role TEXT,
  kind TEXT,
  ts INTEGER,
  on_path INTEGER NOT NULL,
  text TEXT NOT NULL);
CREATE INDEX entries_session ON entries(session_rowid, entry_id);
CREATE VIRTUAL TABLE entries_fts USING fts5(
  text, content='entries', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2', prefix='2 3 4 5');
CREATE TRIGGER entries_ai AFTER INSERT ON entries WHEN new.text != '' BEGIN
  INSERT INTO entries_fts(rowid, text) VALUES (new.rowid, new.text);
END;
CREATE TRIGGER entries_ad AFTER DELETE ON entries WHEN old.text != '' BEGIN
  INSERT INTO entries_fts(entries_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
END;
CREATE TRIGGER entries_au AFTER UPDATE OF text ON entries BEGIN
  INSERT INTO entries_fts(entries_fts, rowid, text) SELECT 'delete', old.rowid, old.text WHERE old.text != '';
  INSERT INTO entries_fts(rowid, text) SELECT new.rowid, new.text WHERE new.text != '';
END;
)sql";

// Version 2: each row keeps the listing's summary of its file (discovery::summary_json, not full),
// read when the row was, so that a listing of unchanged files reads none of them
// (docs/search.md#listing). NULL where it could not be read at the row's state.
const char* const kAddSummaries = R"sql(
ALTER TABLE sessions ADD COLUMN summary TEXT;
)sql";

const char* const kDropTables = R"sql(
DROP TABLE IF EXISTS entries_fts;
DROP TABLE IF EXISTS entries;
DROP TABLE IF EXISTS sessions;
)sql";

namespace {
// steps[v] migrates version v to v + 1. Version 0 is an empty file.
const char* const kSteps[kSchemaVersion] = {kCreateTables, kAddSummaries};
}  // namespace

const sqlite::Schema& index_schema() {
  static const sqlite::Schema schema{"the session index", kSchemaVersion, kSteps};
  return schema;
}

}  // namespace xs::search
