// The namespace: rename, remove, directories, listing, touch (docs/postgres.md#paths).
#include <cstring>
#include <string>

#include "lines.h"
#include "paths.h"
#include "storage.h"

namespace xspg {

namespace {

const Statement kFileRow{"xs_file_row", "SELECT id FROM files WHERE path = $1 FOR UPDATE"};
const Statement kBlobRow{"xs_blob_row", "SELECT id FROM blobs WHERE path = $1 FOR UPDATE"};
const Statement kDirRow{"xs_dir_row", "SELECT 1 FROM dirs WHERE path = $1"};
const Statement kDropFile{"xs_drop_file", "DELETE FROM files WHERE path = $1"};
const Statement kDropBlob{"xs_drop_blob", "DELETE FROM blobs WHERE path = $1"};
const Statement kMoveFile{"xs_move_file", "UPDATE files SET path = $2, dir = $3, name = $4, kind = $5 WHERE id = $1"};
const Statement kMoveBlob{"xs_move_blob", "UPDATE blobs SET path = $2, dir = $3, name = $4, hash = $5 WHERE id = $1"};
const Statement kFileToBlob{"xs_file_to_blob", R"sql(
INSERT INTO blobs (path, dir, name, hash, bytes, size, mtime_ms)
SELECT $2, $3, $4, $5,
       coalesce((SELECT string_agg(line, '\x'::bytea ORDER BY seq) FROM entries WHERE file_id = $1), '\x'::bytea),
       size, mtime_ms
  FROM files WHERE id = $1)sql"};
const Statement kDropFileId{"xs_drop_file_id", "DELETE FROM files WHERE id = $1"};
const Statement kTakeBlob{"xs_take_blob", "DELETE FROM blobs WHERE id = $1 RETURNING bytes, mtime_ms", true};
const Statement kNewFile{"xs_new_file", R"sql(
INSERT INTO files (path, dir, name, kind, size, mtime_ms) VALUES ($1, $2, $3, $4, 0, $5) RETURNING id)sql"};
const Statement kSetMtime{"xs_set_mtime", "UPDATE files SET mtime_ms = $2 WHERE id = $1"};
const Statement kDocument{"xs_document", R"sql(
SELECT coalesce(string_agg(line, '\x'::bytea ORDER BY seq), '\x'::bytea) FROM entries WHERE file_id = $1)sql",
                          true};
const Statement kClearKeyed{"xs_clear_keyed", "DELETE FROM keyed_sessions WHERE dir = $1"};
const Statement kFillKeyed{"xs_fill_keyed", R"sql(
INSERT INTO keyed_sessions (dir, key, record)
SELECT $1, key, value FROM jsonb_each(convert_from($2::bytea, 'UTF8')::jsonb))sql"};
// A directory and everything under it, moved by rewriting the prefix of every path.
const Statement kMoveDirs{"xs_move_dirs", R"sql(
UPDATE dirs SET path = $2 || substr(path, length($1) + 1),
                parent = CASE WHEN path = $1 THEN $3 ELSE $2 || substr(parent, length($1) + 1) END
 WHERE path = $1 OR starts_with(path, $1 || '/'))sql"};
const Statement kMoveDirFiles{"xs_move_dir_files", R"sql(
UPDATE files SET path = $2 || substr(path, length($1) + 1), dir = $2 || substr(dir, length($1) + 1)
 WHERE starts_with(path, $1 || '/'))sql"};
const Statement kMoveDirBlobs{"xs_move_dir_blobs", R"sql(
UPDATE blobs SET path = $2 || substr(path, length($1) + 1), dir = $2 || substr(dir, length($1) + 1)
 WHERE starts_with(path, $1 || '/'))sql"};
const Statement kMakeDir{"xs_make_dir", R"sql(
WITH taken AS (SELECT 1 FROM files WHERE path = $1 UNION ALL SELECT 1 FROM blobs WHERE path = $1),
     made AS (INSERT INTO dirs (path, parent) SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM taken)
              ON CONFLICT DO NOTHING RETURNING 1)
SELECT (SELECT count(*) FROM taken), (SELECT count(*) FROM made))sql"};
const Statement kList{"xs_list", R"sql(
SELECT 0, '' WHERE $1 IN ('', '/') OR EXISTS (SELECT 1 FROM dirs WHERE path = $1)
UNION ALL SELECT 1, name FROM files WHERE dir = $1
UNION ALL SELECT 1, name FROM blobs WHERE dir = $1
UNION ALL SELECT 2, path FROM dirs WHERE parent = $1
ORDER BY 1)sql"};
const Statement kTouch{"xs_touch", R"sql(
WITH f AS (UPDATE files SET mtime_ms = $2 WHERE path = $1 RETURNING 1),
     b AS (UPDATE blobs SET mtime_ms = $2 WHERE path = $1 RETURNING 1)
SELECT (SELECT count(*) FROM f) + (SELECT count(*) FROM b) + (SELECT count(*) FROM dirs WHERE path = $1))sql"};

constexpr const char* kKeyedDocument = "sessions.json";

// 1 row: the id; 0 rows: none; -1: the statement failed (*r holds why).
int64_t row_id(Conn& c, const Statement& st, const std::string& path, Result* r) {
  *r = c.run(st, {Param::text(path)});
  if (!r->ok()) return -1;
  return r->rows() == 0 ? 0 : r->int64(0, 0);
}

bool dir_exists(Conn& c, const std::string& path, Result* r) {
  if (implicit_dir(path)) return true;
  *r = c.run(kDirRow, {Param::text(path)});
  return r->ok() && r->rows() == 1;
}

// The keyed store's records as rows, from the document now at file `id`, inside the rename's
// transaction; a document that is not an object, or that jsonb refuses (a \u0000), leaves the
// old rows (a savepoint keeps the rename itself).
xs_status refresh_keyed(Conn& c, int64_t id, const std::string& dir, const char* path) {
  std::string id_text = std::to_string(id);
  Result doc = c.run(kDocument, {Param::text(id_text)});
  if (!doc.ok()) return fail(doc, "rename", path);
  std::string_view bytes = doc.bytes(0, 0);
  if (!is_json_object(bytes)) return XS_OK;
  std::string error;
  if (!c.command("SAVEPOINT keyed", &error)) return fail_text(XS_EIO, "rename", path, error);
  Result cleared = c.run(kClearKeyed, {Param::text(dir)});
  Result filled = cleared.ok() ? c.run(kFillKeyed, {Param::text(dir), Param::bytes(bytes)}) : Result();
  const char* end = cleared.ok() && filled.ok() ? "RELEASE SAVEPOINT keyed" : "ROLLBACK TO SAVEPOINT keyed";
  if (!c.command(end, &error)) return fail_text(XS_EIO, "rename", path, error);
  return XS_OK;
}

xs_status rename_dir(Conn& c, const PathParts& a, const PathParts& b, const char* from) {
  if (b.path.compare(0, a.path.size() + 1, a.path + "/") == 0) {
    return fail_text(XS_EINVAL, "rename", from, "a directory into itself");
  }
  Result r = c.run(kMoveDirs, {Param::text(a.path), Param::text(b.path), Param::text(b.dir)});
  if (r.ok()) r = c.run(kMoveDirFiles, {Param::text(a.path), Param::text(b.path)});
  if (r.ok()) r = c.run(kMoveDirBlobs, {Param::text(a.path), Param::text(b.path)});
  return r.ok() ? XS_OK : fail(r, "rename", from);
}

xs_status blob_to_file(Conn& c, int64_t blob_id, const PathParts& b, const char* to) {
  std::string id = std::to_string(blob_id);
  Result taken = c.run(kTakeBlob, {Param::text(id)});
  if (!taken.ok()) return fail(taken, "rename", to);
  std::string ms = std::to_string(taken.int64(0, 1));
  Result made = c.run(kNewFile, {Param::text(b.path), Param::text(b.dir), Param::text(b.name),
                                 Param::text(file_kind(b.name)), Param::text(ms)});
  if (!made.ok()) return fail(made, "rename", to);
  OpenFile f;
  f.id = made.int64(0, 0);
  f.path = b.path;
  f.session_kind = std::strcmp(file_kind(b.name), "session") == 0;
  xs_status rc = taken.bytes(0, 0).empty() ? XS_OK : append_lines(c, f, taken.bytes(0, 0), false);
  if (rc != XS_OK) return rc;
  std::string new_id = std::to_string(f.id);
  Result kept = c.run(kSetMtime, {Param::text(new_id), Param::text(ms)});  // a rename keeps the mtime
  return kept.ok() ? XS_OK : fail(kept, "rename", to);
}

xs_status rename_in(Conn& c, const char* from, const char* to, uint32_t flags) {
  PathParts a = split_path(from), b = split_path(to);
  bool from_blob = is_blob_path(a), to_blob = is_blob_path(b);
  Result r;
  int64_t id = row_id(c, from_blob ? kBlobRow : kFileRow, a.path, &r);
  if (id < 0) return fail(r, "rename", from);
  bool from_dir = id == 0 && dir_exists(c, a.path, &r);
  if (id == 0 && !from_dir)
    return r.ok() ? fail_text(XS_ENOTFOUND, "rename", from, "no such file") : fail(r, "rename", from);
  if (!dir_exists(c, b.dir, &r)) {
    return r.ok() ? fail_text(XS_ENOTFOUND, "rename", to, "no such directory: " + b.dir) : fail(r, "rename", to);
  }
  bool to_dir = dir_exists(c, b.path, &r);
  if (!r.ok()) return fail(r, "rename", to);
  int64_t to_id = row_id(c, to_blob ? kBlobRow : kFileRow, b.path, &r);
  if (to_id < 0) return fail(r, "rename", to);
  if (to_dir && !from_dir) return fail_text(XS_EINVAL, "rename", to, "a directory");
  if ((to_dir || to_id != 0) && (flags & XS_STORAGE_NOREPLACE)) return fail_text(XS_EEXISTS, "rename", to, "exists");
  if (a.path == b.path) return XS_OK;
  if (from_dir) {
    if (to_dir || to_id != 0) return fail_text(XS_EEXISTS, "rename", to, "exists");
    return rename_dir(c, a, b, from);
  }
  Result dropped = c.run(to_blob ? kDropBlob : kDropFile, {Param::text(b.path)});
  if (!dropped.ok()) return fail(dropped, "rename", to);
  std::string id_text = std::to_string(id);
  std::string hash = is_hash(b.name) ? b.name : std::string();
  Param hash_param = hash.empty() ? Param::null() : Param::text(hash);
  if (from_blob && to_blob) {
    r = c.run(kMoveBlob,
              {Param::text(id_text), Param::text(b.path), Param::text(b.dir), Param::text(b.name), hash_param});
  } else if (!from_blob && !to_blob) {
    r = c.run(kMoveFile, {Param::text(id_text), Param::text(b.path), Param::text(b.dir), Param::text(b.name),
                          Param::text(file_kind(b.name))});
    if (r.ok()) {
      xs_status rc = refresh_session_columns(c, id, b.name, to);
      if (rc != XS_OK) return rc;
    }
  } else if (to_blob) {
    r = c.run(kFileToBlob,
              {Param::text(id_text), Param::text(b.path), Param::text(b.dir), Param::text(b.name), hash_param});
    if (r.ok()) r = c.run(kDropFileId, {Param::text(id_text)});
  } else {
    xs_status rc = blob_to_file(c, id, b, to);
    if (rc != XS_OK) return rc;
    r = c.run(kFileRow, {Param::text(b.path)});
    if (r.ok()) id = r.int64(0, 0);
  }
  if (!r.ok()) return fail(r, "rename", to);
  if (!to_blob && b.name == kKeyedDocument) return refresh_keyed(c, id, b.dir, to);
  return XS_OK;
}

}  // namespace

xs_status pg_rename(void* user, const char* from, const char* to, uint32_t flags) {
  Lease c(instance(user).pool);
  xs_status rc = c.acquire("rename", from);
  if (rc != XS_OK) return rc;
  Transaction tx(*c);
  if ((rc = tx.begin("rename", from)) != XS_OK) return rc;
  if ((rc = rename_in(*c, from, to, flags)) != XS_OK) return rc;
  return tx.commit("rename", to);
}

xs_status pg_remove(void* user, const char* path) {
  PathParts p = split_path(path);
  if (p.name.empty()) return fail_text(XS_EINVAL, "remove", path, "a directory");
  Lease c(instance(user).pool);
  xs_status rc = c.acquire("remove", path);
  if (rc != XS_OK) return rc;
  Result r = c->run(is_blob_path(p) ? kDropBlob : kDropFile, {Param::text(p.path)});
  if (!r.ok()) return fail(r, "remove", path);
  if (r.affected() == 0) {
    if (dir_exists(*c, p.path, &r)) return fail_text(XS_EINVAL, "remove", path, "a directory");
    return r.ok() ? fail_text(XS_ENOTFOUND, "remove", path, "no such file") : fail(r, "remove", path);
  }
  if (p.name == kKeyedDocument) {  // the records go with their document
    Result cleared = c->run(kClearKeyed, {Param::text(p.dir)});
    if (!cleared.ok()) return fail(cleared, "remove", path);
  }
  return XS_OK;
}

xs_status pg_make_dirs(void* user, const char* path) {
  PathParts p = split_path(path);
  if (implicit_dir(p.path)) return XS_OK;
  Lease c(instance(user).pool);
  xs_status rc = c.acquire("make_dirs", path);
  if (rc != XS_OK) return rc;
  Result r;
  if (dir_exists(*c, p.path, &r)) return XS_OK;
  if (!r.ok()) return fail(r, "make_dirs", path);
  // Outermost first, each committed on its own: a parent made before a failure is a parent still.
  for (const std::string& prefix : dir_prefixes(p.path)) {
    std::string parent = split_path(prefix).dir;
    r = c->run(kMakeDir, {Param::text(prefix), Param::text(parent)});
    if (!r.ok()) return fail(r, "make_dirs", path);
    if (r.int64(0, 0) != 0) return fail_text(XS_EINVAL, "make_dirs", path, "a file is in the way: " + prefix);
  }
  return XS_OK;
}

xs_status pg_sync_dir(void*, const char*) { return XS_OK; }  // a committed rename is durable

xs_status pg_list(void* user, const char* path, xs_status (*name)(void*, const char*, size_t), void* ctx) {
  std::string dir = split_path(path).path;
  Lease c(instance(user).pool);
  xs_status rc = c.acquire("list", path);
  if (rc != XS_OK) return rc;
  Result r = c->run(kList, {Param::text(dir)});
  if (!r.ok()) return fail(r, "list", path);
  if (r.rows() == 0 || r.int64(0, 0) != 0) return fail_text(XS_ENOTFOUND, "list", path, "no such directory");
  for (int i = 1; i < r.rows(); ++i) {
    std::string_view n = r.bytes(i, 1);
    if (r.int64(i, 0) == 2) n = n.substr(n.rfind('/') + 1);
    std::string copy(n);  // NUL-terminated for the callback
    if ((rc = name(ctx, copy.c_str(), copy.size())) != XS_OK) return rc;
  }
  return XS_OK;
}

xs_status pg_touch(void* user, const char* path) {
  std::string p = split_path(path).path;
  if (implicit_dir(p)) return XS_OK;
  Lease c(instance(user).pool);
  xs_status rc = c.acquire("touch", path);
  if (rc != XS_OK) return rc;
  std::string ms = std::to_string(now_ms());
  Result r = c->run(kTouch, {Param::text(p), Param::text(ms)});
  if (!r.ok()) return fail(r, "touch", path);
  if (r.int64(0, 0) == 0) return fail_text(XS_ENOTFOUND, "touch", path, "no such file");
  return XS_OK;
}

}  // namespace xspg
