// Opening, migrating and preserving the history database (history_schema.h).
#include "history/history_schema.h"

#include <ctime>

#include "storage/path.h"

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

// steps[v] migrates version v to v + 1.
constexpr const char* kSteps[kSchemaVersion] = {kToV1, kToV2};

std::string utc_stamp() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

// Renames the damaged file and its side files to <path>.damaged-<stamp>[-n], never over a file.
Result<std::string> preserve(storage::Fs& fs, const std::string& path) {
  std::string base = path + ".damaged-" + utc_stamp();
  std::string target = base;
  for (int n = 1;; ++n) {
    Status st = fs.rename_noreplace(path, target);
    if (st.ok()) break;
    if (st.code() == Code::kNotFound) return std::string();  // another process moved it first
    if (st.code() != Code::kExists || n > 100) return st.With("preserve damaged " + path);
    target = base + "-" + std::to_string(n);
  }
  for (const char* side : {"-wal", "-shm"}) {
    Status st = fs.rename(path + side, target + side);
    if (!st.ok() && st.code() != Code::kNotFound) return st.With("preserve damaged " + path + side);
  }
  XS_RETURN_IF_ERROR(fs.sync_dir(storage::dir_name(path)));
  return target;
}

// A file that is not SQLite's at all, told by its header before SQLite opens it: SQLite would
// delete a -wal beside it when its connection closes, and that file belongs to the evidence.
Result<bool> foreign_header(storage::Fs& fs, const std::string& path) {
  static constexpr std::string_view kMagic("SQLite format 3\0", 16);
  storage::PaddedBuffer head;
  Status st = fs.read_range(path, 0, kMagic.size(), &head);
  if (st.code() == Code::kNotFound) return false;
  XS_RETURN_IF_ERROR(st);
  std::string_view got(head.data(), head.size());
  return !got.empty() && got != kMagic;
}

// Reads the file as a database: a damaged one gives kCorrupt, whatever SQLite called it.
Status check_readable(Db& db) {
  Result<int64_t> tables = db.query_int("SELECT count(*) FROM sqlite_schema");
  if (!tables.ok()) return tables.status();
  Result<std::string> check = db.query_text("PRAGMA quick_check(1)");
  if (!check.ok()) return check.status();
  if (*check != "ok") return Status::Corrupt("quick_check: " + *check);
  return Status::Ok();
}

Status set_up(Db& db, const OpenSettings& settings) {
  XS_RETURN_IF_ERROR(retry_busy(settings.busy_timeout, [&] { return check_readable(db); }));
  XS_RETURN_IF_ERROR(retry_busy(settings.busy_timeout, [&]() -> Status {
    Result<std::string> mode = db.query_text("PRAGMA journal_mode=WAL");
    if (!mode.ok()) return mode.status();
    if (*mode != "wal") return Status::Io("the history database cannot use WAL mode (journal_mode " + *mode + ")");
    return Status::Ok();
  }));
  XS_RETURN_IF_ERROR(db.exec(settings.sync_full ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL"));
  // A checkpoint every 10,000 pages (40 MB of WAL) instead of SQLite's 1,000: each one syncs the
  // WAL and the database, and at 1,000 a steady stream of adds checkpointed after nearly every
  // batch (adds ran at 0.77x a bare insert loop; bench/README.md).
  XS_RETURN_IF_ERROR(db.exec("PRAGMA wal_autocheckpoint=10000"));
  return retry_busy(settings.busy_timeout, [&]() -> Status {
    Result<int64_t> version = db.query_int("PRAGMA user_version");
    if (!version.ok()) return version.status();
    if (*version == kSchemaVersion) return Status::Ok();
    XS_RETURN_IF_ERROR(db.exec("BEGIN IMMEDIATE"));
    // Another process may have migrated between the read above and our write lock.
    version = db.query_int("PRAGMA user_version");
    Status st = version.ok() ? migrate(db, static_cast<int>(*version)) : version.status();
    st = st.ok() ? db.exec("COMMIT") : st;
    if (!st.ok()) db.exec("ROLLBACK");
    return st;
  });
}

}  // namespace

Status migrate(Db& db, int from) {
  if (from > kSchemaVersion) {
    return Status(Code::kVersion, "the history database has schema version " + std::to_string(from) +
                                      "; this library knows up to " + std::to_string(kSchemaVersion));
  }
  if (from < 0) return Status::Corrupt("the history database has schema version " + std::to_string(from));
  for (int v = from; v < kSchemaVersion; ++v) {
    XS_RETURN_IF_ERROR(db.exec(kSteps[v]).With("migrate the history database to version " + std::to_string(v + 1)));
  }
  return db.exec(("PRAGMA user_version=" + std::to_string(kSchemaVersion)).c_str());
}

Status open_database(storage::Fs& fs, const std::string& path, const OpenSettings& settings, Db* db,
                     DamagedNote* damaged) {
  *damaged = {};
  XS_RETURN_IF_ERROR(fs.make_dirs(storage::dir_name(path)));
  for (int attempt = 0;; ++attempt) {
    Result<bool> foreign = foreign_header(fs, path);
    if (!foreign.ok()) return foreign.status();
    Status st;
    if (*foreign && attempt == 0) {
      st = Status::Corrupt("not a SQLite database (the file's first 16 bytes are not its header)");
    } else {
      XS_RETURN_IF_ERROR(db->open(path, true, settings.busy_timeout));
      st = set_up(*db, settings);
    }
    if (st.code() != Code::kCorrupt || attempt > 0) {
      if (!st.ok()) db->close();
      return st;
    }
    db->close();
    Result<std::string> kept = preserve(fs, path);
    if (!kept.ok()) return kept.status();
    damaged->preserved_path = *kept;
    damaged->reason = st.message();
  }
}

}  // namespace xs::history
