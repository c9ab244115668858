// Opening, migrating and preserving a database file (sqlite_file.h).
#include "sqlite/sqlite_file.h"

#include <ctime>

#include "json/json_string.h"
#include "storage/path.h"

namespace xs::sqlite {
namespace {

std::string utc_stamp() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

// Renames the damaged file and its side files to <path>.damaged-<stamp>[-n], never over a file.
Result<std::string> preserve_damaged(storage::Fs& fs, const std::string& path) {
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

// A file whose first 16 bytes are not SQLite's header is moved before SQLite opens it: SQLite
// would delete a -wal beside it when its connection closes, and that file is part of the evidence.
Result<bool> not_sqlite(storage::Fs& fs, const std::string& path) {
  static constexpr std::string_view kMagic("SQLite format 3\0", 16);
  storage::PaddedBuffer head;
  Status st = fs.read_range(path, 0, kMagic.size(), &head);
  if (st.code() == Code::kNotFound) return false;
  XS_RETURN_IF_ERROR(st);
  std::string_view got(head.data(), head.size());
  return !got.empty() && got != kMagic;
}

// Reads the file as a database: a damaged one gives kCorrupt, whatever SQLite called it.
Status quick_check(Db& db) {
  Result<int64_t> tables = db.query_int("SELECT count(*) FROM sqlite_schema");
  if (!tables.ok()) return tables.status();
  Result<std::string> check = db.query_text("PRAGMA quick_check(1)");
  if (!check.ok()) return check.status();
  if (*check != "ok") return Status::Corrupt("quick_check: " + *check);
  return Status::Ok();
}

Status prepare_file(Db& db, const Schema& schema, const OpenSettings& settings) {
  XS_RETURN_IF_ERROR(retry_busy(settings.busy_timeout, [&] { return quick_check(db); }));
  XS_RETURN_IF_ERROR(retry_busy(settings.busy_timeout, [&]() -> Status {
    Result<std::string> mode = db.query_text("PRAGMA journal_mode=WAL");
    if (!mode.ok()) return mode.status();
    if (*mode != "wal")
      return Status::Io(std::string(schema.name) + " cannot use WAL mode (journal_mode " + *mode + ")");
    return Status::Ok();
  }));
  XS_RETURN_IF_ERROR(db.exec(settings.sync_full ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL"));
  if (settings.wal_autocheckpoint) {
    XS_RETURN_IF_ERROR(db.exec(("PRAGMA wal_autocheckpoint=" + std::to_string(settings.wal_autocheckpoint)).c_str()));
  }
  return retry_busy(settings.busy_timeout, [&]() -> Status {
    Result<int64_t> version = db.query_int("PRAGMA user_version");
    if (!version.ok()) return version.status();
    if (*version == schema.version) return Status::Ok();
    XS_RETURN_IF_ERROR(db.exec("BEGIN IMMEDIATE"));
    // Another process may have migrated between the read above and our write lock.
    version = db.query_int("PRAGMA user_version");
    Status st = version.ok() ? migrate(db, schema, static_cast<int>(*version)) : version.status();
    st = st.ok() ? db.exec("COMMIT") : st;
    if (!st.ok()) db.exec("ROLLBACK");
    return st;
  });
}

}  // namespace

Status migrate(Db& db, const Schema& schema, int from) {
  std::string name(schema.name);
  if (from > schema.version) {
    return Status(Code::kVersion, name + " has schema version " + std::to_string(from) + "; this library knows up to " +
                                      std::to_string(schema.version));
  }
  if (from < 0) return Status::Corrupt(name + " has schema version " + std::to_string(from));
  for (int v = from; v < schema.version; ++v) {
    XS_RETURN_IF_ERROR(db.exec(schema.steps[v]).With("migrate " + name + " to version " + std::to_string(v + 1)));
  }
  return db.exec(("PRAGMA user_version=" + std::to_string(schema.version)).c_str());
}

Status open_database(storage::Fs& fs, const std::string& path, const Schema& schema, const OpenSettings& settings,
                     Db* db, DamagedNote* damaged) {
  *damaged = {};
  XS_RETURN_IF_ERROR(fs.make_dirs(storage::dir_name(path)));
  for (int attempt = 0;; ++attempt) {
    Result<bool> foreign = not_sqlite(fs, path);
    if (!foreign.ok()) return foreign.status();
    Status st;
    if (*foreign && attempt == 0) {
      st = Status::Corrupt("not a SQLite database (the file's first 16 bytes are not its header)");
    } else {
      XS_RETURN_IF_ERROR(db->open(path, true, settings.busy_timeout));
      st = prepare_file(*db, schema, settings);
    }
    if (st.code() != Code::kCorrupt || attempt > 0) {
      if (!st.ok()) db->close();
      return st;
    }
    db->close();
    Result<std::string> kept = preserve_damaged(fs, path);
    if (!kept.ok()) return kept.status();
    damaged->preserved_path = *kept;
    damaged->reason = st.message();
  }
}

std::string damaged_json(const DamagedNote& note) {
  if (note.preserved_path.empty()) return "null";
  std::string out = "{\"path\":";
  json::append_quoted_lossy(out, note.preserved_path);
  out += ",\"reason\":";
  json::append_quoted_lossy(out, note.reason);
  return out + "}";
}

}  // namespace xs::sqlite
