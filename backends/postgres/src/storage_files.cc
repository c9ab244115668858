// Reading, stat and writing of files and blobs (docs/postgres.md#paths, the table of functions).
#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "lines.h"
#include "paths.h"
#include "storage.h"

namespace xspg {

namespace {

// A file's row and the entries overlapping [offset, offset + max), a blob's slice, or a
// directory: one statement, so the size and the bytes come from one snapshot. Unordered: each
// line goes to its place by its end_offset, and an ORDER BY made the server sort (on disk, past
// work_mem) every line of a whole-file read (docs/postgres.md#speed).
const Statement kRead{"xs_read", R"sql(
SELECT 1, f.id, f.size, f.mtime_ms, e.seq, e.line, e.end_offset
  FROM files f LEFT JOIN entries e ON e.file_id = f.id AND e.end_offset > $2::bigint
   AND e.end_offset - octet_length(e.line) < $2::bigint + $3::bigint
  WHERE f.path = $1
UNION ALL
SELECT 2, b.id, b.size, b.mtime_ms, 0,
       substring(b.bytes FROM least($2::bigint, 2147483646)::int + 1 FOR least($3::bigint, 2147483647)::int), 0
  FROM blobs b WHERE b.path = $1
UNION ALL
SELECT 3, 0, 0, 0, 0, NULL, 0 FROM dirs d WHERE d.path = $1)sql",
                      true};
const Statement kStat{"xs_stat", R"sql(
SELECT 1, id, size, mtime_ms FROM files WHERE path = $1
UNION ALL SELECT 2, id, size, mtime_ms FROM blobs WHERE path = $1
UNION ALL SELECT 3, 0, 0, 0 FROM dirs WHERE path = $1)sql"};
// A new row only where its directory exists and no directory has its name (as open(O_EXCL)).
const Statement kCreateFile{"xs_create_file", R"sql(
INSERT INTO files (path, dir, name, kind, size, mtime_ms)
SELECT $1, $2, $3, $4, 0, $5
 WHERE ($2 IN ('', '/') OR EXISTS (SELECT 1 FROM dirs WHERE path = $2))
   AND NOT EXISTS (SELECT 1 FROM dirs WHERE path = $1)
RETURNING id)sql"};
const Statement kCreateBlob{"xs_create_blob", R"sql(
INSERT INTO blobs (path, dir, name, hash, bytes, size, mtime_ms)
SELECT $1, $2, $3, $4, '\x'::bytea, 0, $5
 WHERE ($2 IN ('', '/') OR EXISTS (SELECT 1 FROM dirs WHERE path = $2))
   AND NOT EXISTS (SELECT 1 FROM dirs WHERE path = $1)
RETURNING id)sql"};
const Statement kIsDir{"xs_is_dir", "SELECT 1 FROM dirs WHERE path = $1"};
const Statement kFileState{"xs_file_state", R"sql(
SELECT id, size, mtime_ms, partial_tail, kind = 'session',
       coalesce((SELECT max(seq) + 1 FROM entries WHERE file_id = files.id), 0)
  FROM files WHERE CASE WHEN $2::bool THEN id = $1::bigint ELSE path = $3 END)sql"};
const Statement kBlobState{"xs_blob_state", "SELECT id, size, mtime_ms FROM blobs WHERE path = $1"};
// The common append: one complete line, its row and the file's size in one statement, so one
// round trip and one transaction (acknowledged = committed).
const Statement kAppendOne{"xs_append_one", R"sql(
WITH e AS (INSERT INTO entries (file_id, seq, line, end_offset, entry_id, parent_id)
           VALUES ($1, $2, $3, $4, $5, $6))
UPDATE files SET size = $4, mtime_ms = $7, updated = now(), partial_tail = false WHERE id = $1)sql"};
// The same, only while the path still names the file at the size the engine expects
// (xs_storage.write_if): the check is the UPDATE's WHERE, and the row is inserted only if it
// matched, so a conflict writes nothing.
const Statement kAppendOneIf{"xs_append_one_if", R"sql(
WITH f AS (UPDATE files SET size = $4::bigint, mtime_ms = $7::bigint, updated = now(), partial_tail = false
            WHERE id = $1::bigint AND path = $8::text AND size = $9::bigint RETURNING id)
INSERT INTO entries (file_id, seq, line, end_offset, entry_id, parent_id)
SELECT id, $2::bigint, $3::bytea, $4::bigint, $5::text, $6::text FROM f)sql"};
// The file a path names, held until the transaction ends (the slow write_if).
const Statement kFileAtPath{"xs_file_at_path", "SELECT id, size FROM files WHERE path = $1 FOR UPDATE"};
const Statement kExtendTail{"xs_extend_tail", R"sql(
UPDATE entries SET line = line || $3, end_offset = end_offset + octet_length($3)
 WHERE file_id = $1 AND seq = $2 RETURNING line)sql",
                            true};
const Statement kSetIds{"xs_set_ids",
                        "UPDATE entries SET entry_id = $3, parent_id = $4 WHERE file_id = $1 AND seq = $2"};
const Statement kUpdateFile{"xs_update_file", R"sql(
UPDATE files SET size = $2, mtime_ms = $3, updated = now(), partial_tail = $4,
       session_id = CASE WHEN $5::bool THEN $6 ELSE session_id END,
       cwd = CASE WHEN $5::bool THEN $7 ELSE cwd END,
       header = CASE WHEN $5::bool THEN $8::bytea ELSE header END
 WHERE id = $1)sql"};
const Statement kAppendBlob{"xs_append_blob", R"sql(
UPDATE blobs SET bytes = bytes || $2, size = size + octet_length($2), mtime_ms = $3 WHERE id = $1)sql"};
const Statement kHeaderLine{"xs_header_line", "SELECT line FROM entries WHERE file_id = $1 AND seq = 0", true};
const Statement kSessionColumns{"xs_session_columns", R"sql(
UPDATE files SET session_id = $2, cwd = $3, header = $4::bytea WHERE id = $1)sql"};

Param opt(const std::optional<std::string>& s) { return s ? Param::text(*s) : Param::null(); }

void fill_info(xs_storage_info* info, int64_t dev, int64_t id, int64_t size, int64_t mtime) {
  std::memset(info, 0, sizeof *info);
  info->dev = static_cast<uint64_t>(dev);
  info->ino = static_cast<uint64_t>(id);
  info->size = static_cast<uint64_t>(size);
  info->mtime_ms = mtime;
  info->links = 1;
  info->kind = dev == static_cast<int64_t>(kDevDir) ? XS_STORAGE_DIR : XS_STORAGE_FILE;
}

xs_status load_state(Conn& c, OpenFile& f, const char* op) {
  if (f.blob) {
    Result r = c.run(kBlobState, {Param::text(f.path)});
    if (!r.ok()) return fail(r, op, f.path.c_str());
    if (r.rows() == 0) return fail_text(XS_ENOTFOUND, op, f.path.c_str(), "no such blob");
    f.id = r.int64(0, 0);
    f.size = static_cast<uint64_t>(r.int64(0, 1));
    f.mtime_ms = r.int64(0, 2);
  } else {
    std::string id = std::to_string(f.id);
    Result r = c.run(kFileState, {Param::text(id), Param::text(f.id != 0 ? "t" : "f"), Param::text(f.path)});
    if (!r.ok()) return fail(r, op, f.path.c_str());
    if (r.rows() == 0) return fail_text(XS_ENOTFOUND, op, f.path.c_str(), "no such file");
    f.id = r.int64(0, 0);
    f.size = static_cast<uint64_t>(r.int64(0, 1));
    f.mtime_ms = r.int64(0, 2);
    f.partial = r.int64(0, 3) != 0;
    f.session_kind = r.int64(0, 4) != 0;
    f.next_seq = r.int64(0, 5);
  }
  f.stale = false;
  return XS_OK;
}

struct Row {
  int64_t seq;
  std::string_view line;
  uint64_t end;
  LineFields fields;
};

// Several rows in one INSERT (at most 1000: 5001 parameters, under the protocol's 65535).
xs_status insert_rows(Conn& c, int64_t file_id, const std::vector<Row>& rows, const char* path) {
  std::string id = std::to_string(file_id);
  for (size_t start = 0; start < rows.size(); start += 1000) {
    size_t end = std::min(rows.size(), start + 1000);
    std::string sql = "INSERT INTO entries (file_id, seq, line, end_offset, entry_id, parent_id) VALUES ";
    std::vector<std::string> numbers;
    numbers.reserve(2 * (end - start));
    std::vector<Param> params{Param::text(id)};
    for (size_t i = start; i < end; ++i) {
      int n = static_cast<int>(params.size());
      sql += (i == start ? "" : ", ");
      sql += "($1::bigint, $" + std::to_string(n + 1) + "::bigint, $" + std::to_string(n + 2) + "::bytea, $" +
             std::to_string(n + 3) + "::bigint, $" + std::to_string(n + 4) + "::text, $" + std::to_string(n + 5) +
             "::text)";
      numbers.push_back(std::to_string(rows[i].seq));
      numbers.push_back(std::to_string(rows[i].end));
      params.push_back(Param::text(numbers[numbers.size() - 2]));
      params.push_back(Param::bytes(rows[i].line));
      params.push_back(Param::text(numbers.back()));
      params.push_back(opt(rows[i].fields.id));
      params.push_back(opt(rows[i].fields.parent_id));
    }
    Result r = c.run_sql(sql, params);
    if (!r.ok()) return fail(r, "write", path);
  }
  return XS_OK;
}

}  // namespace

bool one_statement_append(const OpenFile& f, std::string_view data) {
  // A session's first line also fills the session columns: that takes the transaction path.
  return !f.partial && !data.empty() && data.find('\n') == data.size() - 1 && !(f.next_seq == 0 && f.session_kind);
}

xs_status append_lines(Conn& c, OpenFile& f, std::string_view data, bool fast_ok) {
  const char* path = f.path.c_str();
  int64_t mtime = now_ms();
  size_t first_nl = data.find('\n');
  if (fast_ok && one_statement_append(f, data)) {
    LineFields fields = line_fields(data);
    std::string seq = std::to_string(f.next_seq), end = std::to_string(f.size + data.size()),
                ms = std::to_string(mtime), id = std::to_string(f.id);
    Result r = c.run(kAppendOne, {Param::text(id), Param::text(seq), Param::bytes(data), Param::text(end),
                                  opt(fields.id), opt(fields.parent_id), Param::text(ms)});
    if (!r.ok()) return fail(r, "write", path);
    if (r.affected() != 1) return fail_text(XS_ENOTFOUND, "write", path, "the file is gone");
    f.next_seq += 1;
    f.size += data.size();
    f.mtime_ms = mtime;
    return XS_OK;
  }
  std::string id = std::to_string(f.id);
  std::optional<std::string> header;  // seq 0 of a session file, once it is a complete header line
  uint64_t size = f.size;
  int64_t next_seq = f.next_seq;
  bool partial = f.partial;
  if (partial) {
    size_t cut = first_nl == std::string_view::npos ? data.size() : first_nl + 1;
    std::string seq = std::to_string(next_seq - 1);
    Result r = c.run(kExtendTail, {Param::text(id), Param::text(seq), Param::bytes(data.substr(0, cut))});
    if (!r.ok()) return fail(r, "write", path);
    if (r.rows() != 1) return fail_text(XS_EIO, "write", path, "the partial last line is gone");
    partial = data[cut - 1] != '\n';
    if (!partial) {
      LineFields fields = line_fields(r.bytes(0, 0));
      if (fields.id || fields.parent_id) {
        Result set = c.run(kSetIds, {Param::text(id), Param::text(seq), opt(fields.id), opt(fields.parent_id)});
        if (!set.ok()) return fail(set, "write", path);
      }
      if (next_seq == 1 && f.session_kind && fields.session_header) header = std::string(r.bytes(0, 0));
    }
    size += cut;
    data.remove_prefix(cut);
  }
  std::vector<Row> rows;
  while (!data.empty()) {
    size_t nl = data.find('\n');
    size_t len = nl == std::string_view::npos ? data.size() : nl + 1;
    Row row{next_seq++, data.substr(0, len), size + len, {}};
    if (nl != std::string_view::npos) row.fields = line_fields(row.line);
    if (row.seq == 0 && f.session_kind && row.fields.session_header) header = std::string(row.line);
    partial = nl == std::string_view::npos;
    size += len;
    data.remove_prefix(len);
    rows.push_back(std::move(row));
  }
  xs_status rc = insert_rows(c, f.id, rows, path);
  if (rc != XS_OK) return rc;
  LineFields parsed = header ? line_fields(*header) : LineFields{};  // the header's "id" is the session's
  std::string size_text = std::to_string(size), ms = std::to_string(mtime);
  Result r = c.run(kUpdateFile, {Param::text(id), Param::text(size_text), Param::text(ms),
                                 Param::text(partial ? "t" : "f"), Param::text(header ? "t" : "f"), opt(parsed.id),
                                 opt(parsed.cwd), header ? Param::bytes(*header) : Param::null()});
  if (!r.ok()) return fail(r, "write", path);
  if (r.affected() != 1) return fail_text(XS_ENOTFOUND, "write", path, "the file is gone");
  f.size = size;
  f.next_seq = next_seq;
  f.partial = partial;
  f.mtime_ms = mtime;
  return XS_OK;
}

xs_status refresh_session_columns(Conn& c, int64_t id, std::string_view name, const char* path) {
  std::string id_text = std::to_string(id);
  std::optional<std::string> session_id, cwd, header;
  if (std::strcmp(file_kind(name), "session") == 0) {
    Result r = c.run(kHeaderLine, {Param::text(id_text)});
    if (!r.ok()) return fail(r, "rename", path);
    if (r.rows() == 1) {
      std::string_view line = r.bytes(0, 0);
      LineFields fields = line.empty() || line.back() != '\n' ? LineFields{} : line_fields(line);
      if (fields.session_header) {
        session_id = fields.id;
        cwd = fields.cwd;
        header = std::string(line);
      }
    }
  }
  Result r = c.run(kSessionColumns,
                   {Param::text(id_text), opt(session_id), opt(cwd), header ? Param::bytes(*header) : Param::null()});
  return r.ok() ? XS_OK : fail(r, "rename", path);
}

xs_status pg_read(void* user, const char* path, uint64_t offset, uint64_t max, xs_storage_buffer* out, uint64_t* got,
                  xs_storage_info* info) {
  constexpr uint64_t kBig = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (offset > kBig) offset = kBig;
  if (max > kBig - offset) max = kBig - offset;  // offset + max stays a bigint
  Lease c(instance(user).pool);
  xs_status rc = c.acquire("read", path);
  if (rc != XS_OK) return rc;
  std::string off = std::to_string(offset), count = std::to_string(max);
  Result r = c->run(kRead, {Param::text(path), Param::text(off), Param::text(count)});
  if (!r.ok()) return fail(r, "read", path);
  if (r.rows() == 0) {
    if (implicit_dir(split_path(path).path)) return fail_text(XS_EINVAL, "read", path, "a directory");
    return fail_text(XS_ENOTFOUND, "read", path, "no such file");
  }
  // A path names one kind of row; were it ever two, the file wins, then the blob (their order).
  int64_t dev = r.int64(0, 0);
  int first = 0;
  for (int i = 1; i < r.rows(); ++i) {
    if (r.int64(i, 0) < dev) {
      dev = r.int64(i, 0);
      first = i;
    }
  }
  if (dev == static_cast<int64_t>(kDevDir)) return fail_text(XS_EINVAL, "read", path, "a directory");
  uint64_t size = static_cast<uint64_t>(r.int64(first, 2));
  uint64_t want = offset >= size ? 0 : std::min(max, size - offset);
  char* to = static_cast<char*>(out->alloc(out, want));
  if (to == nullptr) return fail_text(XS_ENOMEM, "read", path, "the engine took no buffer");
  uint64_t done = 0;
  if (dev == static_cast<int64_t>(kDevBlob)) {
    std::string_view b = r.null(first, 5) ? std::string_view() : r.bytes(first, 5);
    done = std::min<uint64_t>(want, b.size());
    std::memcpy(to, b.data(), done);
  } else {
    // Each line's part inside [offset, offset + want) goes to its place; lines never overlap, so
    // the slice is whole exactly when those parts add up to `want`.
    for (int i = 0; i < r.rows(); ++i) {
      if (r.int64(i, 0) != dev || r.null(i, 5)) continue;
      std::string_view line = r.bytes(i, 5);
      uint64_t end = static_cast<uint64_t>(r.int64(i, 6));
      uint64_t start = end - line.size();
      uint64_t from = std::max(start, offset), until = std::min(end, offset + want);
      if (from >= until) continue;
      std::memcpy(to + (from - offset), line.data() + (from - start), until - from);
      done += until - from;
    }
    if (done != want) return fail_text(XS_EIO, "read", path, "its lines leave a gap in the bytes asked for");
  }
  *got = done;
  fill_info(info, dev, r.int64(first, 1), static_cast<int64_t>(size), r.int64(first, 3));
  return XS_OK;
}

xs_status pg_stat(void* user, const char* path, xs_storage_info* info) {
  if (implicit_dir(split_path(path).path)) {
    fill_info(info, kDevDir, 0, 0, 0);
    return XS_OK;
  }
  Lease c(instance(user).pool);
  xs_status rc = c.acquire("stat", path);
  if (rc != XS_OK) return rc;
  Result r = c->run(kStat, {Param::text(path)});
  if (!r.ok()) return fail(r, "stat", path);
  if (r.rows() == 0) return fail_text(XS_ENOTFOUND, "stat", path, "no such file or directory");
  fill_info(info, r.int64(0, 0), r.int64(0, 1), r.int64(0, 2), r.int64(0, 3));
  return XS_OK;
}

xs_status pg_open(void* user, const char* path, uint32_t flags, void** file) {
  if (flags != XS_STORAGE_APPEND && flags != XS_STORAGE_CREATE) {
    return fail_text(XS_EINVAL, "open", path, "unknown open flags");
  }
  PathParts p = split_path(path);
  if (p.name.empty()) return fail_text(XS_EINVAL, "open", path, "a directory");
  auto f = std::make_unique<OpenFile>();
  f->blob = is_blob_path(p);
  f->path = p.path;
  Lease c(instance(user).pool);
  xs_status rc = c.acquire("open", path);
  if (rc != XS_OK) return rc;
  if (flags == XS_STORAGE_APPEND) {
    rc = load_state(*c, *f, "open");
    if (rc == XS_ENOTFOUND) {
      Result d = c->run(kIsDir, {Param::text(p.path)});
      if (d.ok() && d.rows() == 1) return fail_text(XS_EINVAL, "open", path, "a directory");
    }
    if (rc != XS_OK) return rc;
  } else {
    f->mtime_ms = now_ms();
    std::string ms = std::to_string(f->mtime_ms);
    std::string hash = f->blob && is_hash(p.name) ? p.name : std::string();
    Result r = f->blob ? c->run(kCreateBlob, {Param::text(p.path), Param::text(p.dir), Param::text(p.name),
                                              hash.empty() ? Param::null() : Param::text(hash), Param::text(ms)})
                       : c->run(kCreateFile, {Param::text(p.path), Param::text(p.dir), Param::text(p.name),
                                              Param::text(file_kind(p.name)), Param::text(ms)});
    if (!r.ok()) {
      if (r.sqlstate() == "23505") return fail_text(XS_EEXISTS, "open", path, "the file exists");
      return fail(r, "open", path);
    }
    if (r.rows() == 0) {
      Result d = c->run(kIsDir, {Param::text(p.path)});
      if (d.ok() && d.rows() == 1) return fail_text(XS_EEXISTS, "open", path, "a directory of that name exists");
      return fail_text(XS_ENOTFOUND, "open", path, "no such directory: " + p.dir);
    }
    f->id = r.int64(0, 0);
    f->session_kind = !f->blob && std::strcmp(file_kind(p.name), "session") == 0;
  }
  *file = f.release();
  return XS_OK;
}

xs_status pg_write(void* user, void* file, const void* data, size_t len) {
  OpenFile& f = *static_cast<OpenFile*>(file);
  if (len == 0) return XS_OK;
  std::string_view bytes(static_cast<const char*>(data), len);
  Lease c(instance(user).pool);
  xs_status rc = c.acquire("write", f.path.c_str());
  if (rc != XS_OK) return rc;
  if (f.stale && (rc = load_state(*c, f, "write")) != XS_OK) return rc;
  if (f.blob) {
    std::string id = std::to_string(f.id), ms = std::to_string(now_ms());
    Result r = c->run(kAppendBlob, {Param::text(id), Param::bytes(bytes), Param::text(ms)});
    if (!r.ok()) return f.stale = true, fail(r, "write", f.path.c_str());
    if (r.affected() != 1) return fail_text(XS_ENOTFOUND, "write", f.path.c_str(), "the blob is gone");
    f.size += len;
    f.mtime_ms = std::stoll(ms);
    return XS_OK;
  }
  if (one_statement_append(f, bytes)) {
    rc = append_lines(*c, f, bytes, true);
    if (rc != XS_OK) f.stale = true;
    return rc;
  }
  Transaction tx(*c);
  if ((rc = tx.begin("write", f.path.c_str())) != XS_OK) return f.stale = true, rc;
  OpenFile before = f;
  rc = append_lines(*c, f, bytes, false);
  if (rc == XS_OK) rc = tx.commit("write", f.path.c_str());
  if (rc != XS_OK) {
    f = before;
    f.stale = true;  // the commit's fate may be unknown: ask the server next time
  }
  return rc;
}

xs_status pg_write_if(void* user, void* file, const char* path, uint64_t expected_size, const void* data, size_t len) {
  OpenFile& f = *static_cast<OpenFile*>(file);
  std::string_view bytes(static_cast<const char*>(data), len);
  auto conflict = [&] {
    f.stale = true;  // someone else wrote: what we know of the file is old
    return fail_text(XS_ECONFLICT, "write", path, "the file was replaced or grew since it was last read");
  };
  Lease c(instance(user).pool);
  xs_status rc = c.acquire("write", path);
  if (rc != XS_OK) return rc;
  if (!f.blob && !f.stale && f.size == expected_size && one_statement_append(f, bytes)) {
    // The common append: one statement, one round trip.
    LineFields fields = line_fields(bytes);
    int64_t mtime = now_ms();
    std::string id = std::to_string(f.id), seq = std::to_string(f.next_seq),
                end = std::to_string(f.size + bytes.size()), ms = std::to_string(mtime),
                expected = std::to_string(expected_size);
    Result r =
        c->run(kAppendOneIf, {Param::text(id), Param::text(seq), Param::bytes(bytes), Param::text(end), opt(fields.id),
                              opt(fields.parent_id), Param::text(ms), Param::text(path), Param::text(expected)});
    if (!r.ok()) return f.stale = true, fail(r, "write", path);
    if (r.affected() != 1) return conflict();
    f.next_seq += 1;
    f.size += bytes.size();
    f.mtime_ms = mtime;
    return XS_OK;
  }
  // Anything else (a blob, a partial last line, several lines): the check and the write in one
  // transaction, the file's row locked by the check.
  Transaction tx(*c);
  if ((rc = tx.begin("write", path)) != XS_OK) return f.stale = true, rc;
  Result at = c->run(kFileAtPath, {Param::text(path)});
  if (!at.ok()) return f.stale = true, fail(at, "write", path);
  if (f.blob || at.rows() != 1 || at.int64(0, 0) != f.id || static_cast<uint64_t>(at.int64(0, 1)) != expected_size) {
    return conflict();
  }
  OpenFile before = f;
  if (f.stale) rc = load_state(*c, f, "write");
  if (rc == XS_OK && len > 0) rc = append_lines(*c, f, bytes, false);
  if (rc == XS_OK) rc = tx.commit("write", path);
  if (rc != XS_OK) {
    f = before;
    f.stale = true;
  }
  return rc;
}

xs_status pg_sync(void*, void*) { return XS_OK; }  // every write returned after its COMMIT

xs_status pg_fstat(void*, void* file, xs_storage_info* info) {
  const OpenFile& f = *static_cast<OpenFile*>(file);
  fill_info(info, f.blob ? kDevBlob : kDevFile, f.id, static_cast<int64_t>(f.size), f.mtime_ms);
  return XS_OK;
}

xs_status pg_close(void*, void* file) {
  delete static_cast<OpenFile*>(file);
  return XS_OK;
}

}  // namespace xspg
