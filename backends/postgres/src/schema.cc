#include "schema.h"

#include "xsession_postgres.h"

namespace xspg {

namespace {

// Step N makes version N from version N-1. Never edited once released: a change is a new step.
const char* const kMigrations[] = {
    // 1: the namespace of paths. Files' bytes are their lines (entries) so that an append is one
    // INSERT and a reload reads only the rows after the offset it has.
    R"sql(
CREATE TABLE dirs (
  path text PRIMARY KEY,
  parent text NOT NULL
);
CREATE INDEX dirs_parent ON dirs (parent);
CREATE TABLE files (
  id bigserial PRIMARY KEY,
  path text UNIQUE NOT NULL,
  dir text NOT NULL,
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('session', 'archive', 'file')),
  session_id text,
  cwd text,
  header bytea,
  created timestamptz NOT NULL DEFAULT now(),
  updated timestamptz,
  archived bool GENERATED ALWAYS AS (kind = 'archive') STORED,
  size bigint NOT NULL,
  mtime_ms bigint NOT NULL,
  partial_tail bool NOT NULL DEFAULT false
);
CREATE INDEX files_dir ON files (dir);
CREATE INDEX files_session_id ON files (session_id) WHERE session_id IS NOT NULL;
CREATE TABLE entries (
  file_id bigint NOT NULL REFERENCES files (id) ON DELETE CASCADE,
  seq bigint NOT NULL,
  line bytea NOT NULL,
  end_offset bigint NOT NULL,
  entry_id text,
  parent_id text,
  PRIMARY KEY (file_id, seq)
);
CREATE TABLE blobs (
  id bigserial PRIMARY KEY,
  path text UNIQUE NOT NULL,
  dir text NOT NULL,
  name text NOT NULL,
  hash text,
  bytes bytea NOT NULL,
  size bigint NOT NULL,
  mtime_ms bigint NOT NULL
);
CREATE INDEX blobs_dir ON blobs (dir);
)sql",
    // 2: what SQL readers query instead of parsing files: the sessions, and the keyed store's
    // records (filled when its document is replaced).
    R"sql(
CREATE VIEW sessions AS
  SELECT id, session_id, path, cwd, header, created, updated, archived
  FROM files WHERE kind IN ('session', 'archive');
CREATE TABLE keyed_sessions (
  dir text NOT NULL,
  key text NOT NULL,
  record jsonb NOT NULL,
  PRIMARY KEY (dir, key)
);
)sql",
};
constexpr int kLatest = sizeof kMigrations / sizeof kMigrations[0];
static_assert(kLatest == XS_POSTGRES_SCHEMA_VERSION, "the header's version is the last migration's");

}  // namespace

bool valid_schema_name(const std::string& name) {
  if (name.empty() || name.size() > 63 || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

xs_status migrate(Conn& conn, const std::string& schema, std::string* error) {
  if (!conn.command("BEGIN", error)) return XS_EIO;
  // Every step runs in this one transaction: a failed step leaves the schema as it was.
  auto abort = [&](xs_status code) {
    conn.command("ROLLBACK", nullptr);
    return code;
  };
  std::string key = "xsession-migrate:" + schema;
  Result r =
      conn.run_sql("SELECT pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended($1, 0))", {Param::text(key)});
  if (!r.ok()) return *error = r.message(), abort(XS_EIO);
  if (!conn.command(("CREATE SCHEMA IF NOT EXISTS " + schema).c_str(), error) ||
      !conn.command("CREATE TABLE IF NOT EXISTS schema_version (version int NOT NULL)", error)) {
    return abort(XS_EIO);
  }
  r = conn.run_sql("SELECT coalesce(max(version), 0) FROM schema_version", {});
  if (!r.ok()) return *error = r.message(), abort(XS_EIO);
  int64_t version = r.int64(0, 0);
  if (version > kLatest) {
    *error = "schema " + schema + " is at version " + std::to_string(version) + ", this library knows up to " +
             std::to_string(kLatest);
    return abort(XS_EVERSION);
  }
  for (int64_t step = version; step < kLatest; ++step) {
    if (!conn.command(kMigrations[step], error)) {
      *error = "migration to version " + std::to_string(step + 1) + ": " + *error;
      return abort(XS_EIO);
    }
  }
  if (version < kLatest) {
    std::string set =
        "DELETE FROM schema_version; INSERT INTO schema_version (version) VALUES (" + std::to_string(kLatest) + ")";
    if (!conn.command(set.c_str(), error)) return abort(XS_EIO);
  }
  if (!conn.command("COMMIT", error)) return abort(XS_EIO);
  return XS_OK;
}

}  // namespace xspg
