// The session index's lifecycle and its write side: rebuild, refresh, verify (session_index.h).
#include "search/session_index.h"

#include <algorithm>
#include <set>

#include "format/session_paths.h"
#include "format/side_files.h"
#include "search/index_listing.h"
#include "search/index_rows.h"
#include "search/index_schema.h"
#include "search/index_updater.h"
#include "storage/gzip.h"
#include "storage/path.h"

namespace xs::search {
namespace {

using sqlite::Stmt;

constexpr const char* kSelectRows = "SELECT rowid, " XS_SESSION_COLUMNS " FROM sessions";
constexpr const char* kSelectRow = "SELECT rowid, " XS_SESSION_COLUMNS " FROM sessions WHERE path = ?1";
constexpr const char* kSelectStat =
    "SELECT rowid, file_size, file_mtime_ms, file_dev, file_ino, indexed_bytes FROM sessions WHERE path = ?1";
constexpr const char* kPutSession = "INSERT OR REPLACE INTO sessions(rowid, " XS_SESSION_COLUMNS
                                    ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
                                    "?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24)";
constexpr const char* kPutEntry =
    "INSERT INTO entries(session_rowid, entry_id, parent_id, role, kind, ts, on_path, text) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
constexpr const char* kDeleteEntries = "DELETE FROM entries WHERE session_rowid = ?1";
constexpr const char* kDeleteSession = "DELETE FROM sessions WHERE rowid = ?1";
// Only while the row still describes the file as read (another refresh may have moved it on).
constexpr const char* kSetSummary =
    "UPDATE sessions SET summary = ?2 WHERE rowid = ?1 AND file_size = ?3 AND file_mtime_ms = ?4";
// The current path after new entries: from the leaf up through the stored parent ids (UNION stops
// at a cycle), and only the rows whose flag changes are written.
constexpr const char* kMarkPath =
    "WITH RECURSIVE path(id) AS (\n"
    "  SELECT ?2\n"
    "  UNION\n"
    "  SELECT e.parent_id FROM entries AS e JOIN path ON e.session_rowid = ?1 AND e.entry_id = path.id\n"
    "  WHERE e.parent_id IS NOT NULL)\n"
    "UPDATE entries SET on_path = (entry_id IN path) WHERE session_rowid = ?1 AND on_path != (entry_id IN path)";

std::optional<std::string> opt_text(const Stmt& s, int col) {
  if (s.is_null(col)) return std::nullopt;
  return std::string(s.text(col));
}
std::optional<int64_t> opt_int(const Stmt& s, int col) {
  if (s.is_null(col)) return std::nullopt;
  return s.int64(col);
}
void bind(Stmt* s, int i, const std::optional<std::string>& v) {
  if (v) {
    s->bind(i, std::string_view(*v));
  } else {
    s->bind_null(i);
  }
}
void bind(Stmt* s, int i, std::optional<int64_t> v) {
  if (v) {
    s->bind(i, *v);
  } else {
    s->bind_null(i);
  }
}

bool same_file(const storage::FileInfo& a, const storage::FileInfo& b) {
  return a.size == b.size && a.mtime_ms == b.mtime_ms && a.dev == b.dev && a.ino == b.ino;
}

Status step_done(sqlite::Db& db, Stmt* s, const char* what) {
  int rc = s->step();
  s->reset();
  return rc == SQLITE_DONE ? Status::Ok() : db.error(rc, what);
}

// Runs `body` in one write transaction, again from the start while it reports kLocked.
Status in_transaction(sqlite::Db& db, std::chrono::milliseconds timeout, const std::function<Status()>& body) {
  return sqlite::retry_busy(timeout, [&]() -> Status {
    XS_RETURN_IF_ERROR(db.exec("BEGIN IMMEDIATE"));
    Status st = body();
    if (st.ok()) st = db.exec("COMMIT");
    if (!st.ok()) db.exec("ROLLBACK");
    return st;
  });
}

// Adds what one batch or pass wrote to `to` (files and unchanged are counted once, by the first
// pass; raced is set by update at the end).
void add_written(RefreshReport* to, const RefreshReport& from) {
  to->appended += from.appended;
  to->reindexed += from.reindexed;
  to->added += from.added;
  to->removed += from.removed;
  to->unreadable += from.unreadable;
  to->entries += from.entries;
}

}  // namespace

SessionRow row_of(const Stmt& s) {
  SessionRow r;
  r.rowid = s.int64(0);
  r.path = s.text(1);
  r.id = s.text(2);
  r.cwd = s.text(3);
  r.title = opt_text(s, 4);
  r.first_prompt = opt_text(s, 5);
  r.created = opt_int(s, 6);
  r.updated = opt_int(s, 7);
  r.entries = s.int64(8);
  r.messages = s.int64(9);
  r.input_tokens = s.int64(10);
  r.output_tokens = s.int64(11);
  r.cost = s.real(12);
  r.dialect = opt_text(s, 13);
  r.source_agent = opt_text(s, 14);
  r.parent_session = opt_text(s, 15);
  r.archived = s.int64(16) != 0;
  r.file.size = static_cast<uint64_t>(s.int64(17));
  r.file.mtime_ms = s.int64(18);
  r.file.dev = static_cast<uint64_t>(s.int64(19));
  r.file.ino = static_cast<uint64_t>(s.int64(20));
  r.indexed_bytes = static_cast<uint64_t>(s.int64(21));
  r.leaf_id = opt_text(s, 22);
  r.summary = opt_text(s, 23);
  return r;
}

std::vector<std::string> session_files(storage::Fs& fs, const std::string& root) {
  std::vector<std::string> out;
  std::string base = format::sessions_root(root);
  auto dirs = fs.list_dir(base);
  if (!dirs.ok()) return out;
  for (const std::string& d : *dirs) {
    std::string dir = storage::join_path(base, d);
    auto names = fs.list_dir(dir);
    if (!names.ok()) continue;  // not a directory, or gone
    std::set<std::string> live;
    for (const std::string& n : *names) {
      if (n.empty() || n[0] == '.' || format::is_quarantine_file_name(n)) continue;
      if (n.size() > 6 && n.compare(n.size() - 6, 6, ".jsonl") == 0) live.insert(n);
    }
    for (const std::string& n : *names) {
      bool archive = !n.empty() && n[0] != '.' && storage::is_archive_path(n) && !live.count(n.substr(0, n.size() - 3));
      if (archive || live.count(n)) out.push_back(storage::join_path(dir, n));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<std::unique_ptr<SessionIndex>> SessionIndex::open(std::shared_ptr<store::Store> store, IndexOptions options) {
  if (!store) return Status::Invalid("no store");
  std::string path = options.path.empty() ? storage::join_path(store->root(), "index.db") : options.path;
  std::unique_ptr<SessionIndex> x(new SessionIndex(std::move(store), std::move(path), options));
  // The index lives on the disk even when the sessions come through another seam; its directory and
  // a damaged file's move go through the real file system (SQLite writes the rest itself).
  std::shared_ptr<storage::Fs> disk = storage::make_posix_fs();
  sqlite::OpenSettings settings{options.busy_timeout, false};
  XS_RETURN_IF_ERROR(sqlite::open_database(*disk, x->path_, index_schema(), settings, &x->write_db_, &x->damaged_));
  XS_RETURN_IF_ERROR(x->read_db_.open(x->path_, false, options.busy_timeout));
  x->kept_ = std::make_shared<KeptSummaries>(x.get());
  x->store_->set_summary_source(x->kept_);
  if (options.follow_writes) {
    x->updater_ = std::make_shared<IndexUpdater>(x.get());
    x->store_->add_write_observer(x->updater_);
  }
  return x;
}

Result<std::unique_ptr<SessionIndex>> SessionIndex::open_existing(std::shared_ptr<store::Store> store) {
  if (!store) return Status::Invalid("no store");
  if (!storage::make_posix_fs()->stat(storage::join_path(store->root(), "index.db")).ok()) {
    return std::unique_ptr<SessionIndex>();
  }
  return SessionIndex::open(std::move(store));
}

SessionIndex::~SessionIndex() {
  if (updater_) updater_->stop();
  if (kept_) kept_->detach();
}

Status SessionIndex::flush() { return updater_ ? updater_->flush() : Status::Ok(); }

Result<sqlite::Stmt*> SessionIndex::write_stmt(const char* sql) {
  auto it = write_stmts_.find(sql);
  if (it != write_stmts_.end()) return &it->second;
  Result<Stmt> s = write_db_.prepare(sql);
  if (!s.ok()) return s.status();
  return &write_stmts_.emplace(sql, std::move(*s)).first->second;
}

Result<std::map<std::string, SessionRow>> SessionIndex::load_rows(sqlite::Db& db, const std::set<std::string>* only) {
  Result<Stmt> s = db.prepare(only ? kSelectRow : kSelectRows);
  if (!s.ok()) return s.status();
  std::map<std::string, SessionRow> rows;
  auto read_rows = [&]() -> Status {
    int rc;
    while ((rc = s->step()) == SQLITE_ROW) {
      SessionRow r = row_of(*s);
      std::string key = r.path;
      rows.emplace(std::move(key), std::move(r));
    }
    s->reset();
    return rc == SQLITE_DONE ? Status::Ok() : db.error(rc, "read the sessions");
  };
  if (!only) {
    XS_RETURN_IF_ERROR(read_rows());
    return rows;
  }
  for (const std::string& path : *only) {
    s->bind(1, std::string_view(path));
    XS_RETURN_IF_ERROR(read_rows());
  }
  return rows;
}

Result<RefreshReport> SessionIndex::rebuild() { return update(true, nullptr); }
Result<RefreshReport> SessionIndex::refresh() { return update(false, nullptr); }
Result<RefreshReport> SessionIndex::refresh_files(const std::set<std::string>& paths) { return update(false, &paths); }

Result<RefreshReport> SessionIndex::update(bool from_nothing, const std::set<std::string>* only) {
  std::lock_guard<std::mutex> lock(write_mu_);
  if (from_nothing) {
    write_stmts_.clear();  // their tables are dropped
    Status fresh = in_transaction(write_db_, options_.busy_timeout, [&]() -> Status {
      XS_RETURN_IF_ERROR(write_db_.exec(kDropTables));
      XS_RETURN_IF_ERROR(write_db_.exec(kCreateTables));
      return write_db_.exec(kAddSummaries);
    });
    XS_RETURN_IF_ERROR(fresh);
  }
  RefreshReport report;
  std::set<std::string> raced;
  XS_RETURN_IF_ERROR(update_pass(only, &report, &raced));
  // Another writer (a process's refresh, or an index following its own appends) wrote one of
  // these sessions between this pass's read of its row and its write, so this pass left it. That
  // writer may have read less of the file than this pass did: read those sessions again, so that
  // an entry written before the refresh began is in the index when it returns.
  for (int pass = 1; pass < kRacedPasses && !raced.empty(); ++pass) {
    std::set<std::string> paths = std::move(raced);
    raced.clear();
    RefreshReport again;
    XS_RETURN_IF_ERROR(update_pass(&paths, &again, &raced));
    add_written(&report, again);
  }
  report.raced = raced.size();
  return report;
}

Status SessionIndex::update_pass(const std::set<std::string>* only, RefreshReport* out, std::set<std::string>* raced) {
  std::map<std::string, SessionRow> rows;
  XS_RETURN_IF_ERROR(sqlite::retry_busy(options_.busy_timeout, [&]() -> Status {
    auto loaded = load_rows(write_db_, only);
    if (loaded.ok()) rows = std::move(*loaded);
    return loaded.status();
  }));

  storage::Fs& fs = *store_->fs();
  RefreshReport& report = *out;
  std::vector<Work> work, no_summary;
  std::set<std::string> present;
  std::vector<std::string> listed =
      only ? std::vector<std::string>(only->begin(), only->end()) : session_files(fs, store_->root());
  for (std::string& path : listed) {
    auto stat = fs.stat(path);
    if (!stat.ok()) continue;  // gone since the listing
    ++report.files;
    present.insert(path);
    auto it = rows.find(path);
    const SessionRow* old = it == rows.end() ? nullptr : &it->second;
    if (old && same_file(old->file, *stat)) {
      ++report.unchanged;
      if (!old->summary) no_summary.push_back(Work{std::move(path), *stat, old});  // a version 1 row
      continue;
    }
    work.push_back(Work{std::move(path), *stat, old});
  }
  // Oldest first: a search ranks the newest matches by rowid (docs/search.md#ranking).
  std::sort(work.begin(), work.end(), [](const Work& a, const Work& b) {
    return a.stat.mtime_ms != b.stat.mtime_ms ? a.stat.mtime_ms < b.stat.mtime_ms : a.path < b.path;
  });

  std::vector<int64_t> gone;
  for (const auto& [path, row] : rows) {
    if (!present.count(path)) gone.push_back(row.rowid);
  }
  report.removed = gone.size();

  std::vector<SessionRead> batch;
  uint64_t batch_bytes = 0;
  for (const Work& w : work) {
    std::optional<SessionRead> read;
    Status st;
    if (w.old && w.stat.size > w.old->file.size) {
      auto tail = read_tail(fs, *w.old, w.stat);
      if (tail.ok()) {
        read = std::move(*tail);
      } else {
        st = tail.status();
      }
    }
    if (!read && st.ok()) {
      auto whole = read_whole(store_->fs(), w.path, w.stat);
      if (whole.ok()) {
        read = std::move(*whole);
        read->row.rowid = w.old ? w.old->rowid : 0;
      } else {
        st = whole.status();
      }
    }
    if (!read) {
      // Not a session any more (or not yet one): the index lists only what can be read.
      if (st.code() != Code::kNotFound) ++report.unreadable;
      if (w.old) gone.push_back(w.old->rowid);
      continue;
    }
    read->row.summary = summary_after_tail(*read, w.old, w.stat);
    if (!read->row.summary) read->row.summary = listing_summary(store_->fs(), w.path, w.stat);
    batch_bytes += read->text_bytes;
    batch.push_back(std::move(*read));
    if (batch.size() >= kMaxBatchSessions || batch_bytes >= kMaxBatchTextBytes) {
      XS_RETURN_IF_ERROR(write_batch(batch, rows, &report, raced));
      batch.clear();
      batch_bytes = 0;
    }
  }
  if (!batch.empty()) XS_RETURN_IF_ERROR(write_batch(batch, rows, &report, raced));
  if (!gone.empty()) XS_RETURN_IF_ERROR(remove_rows(gone));
  if (!no_summary.empty()) XS_RETURN_IF_ERROR(fill_summaries(no_summary));
  return Status::Ok();
}

Status SessionIndex::fill_summaries(const std::vector<Work>& rows) {
  std::vector<std::pair<const Work*, std::string>> found;
  for (const Work& w : rows) {
    if (auto summary = listing_summary(store_->fs(), w.path, w.stat)) found.emplace_back(&w, std::move(*summary));
  }
  if (found.empty()) return Status::Ok();
  return in_transaction(write_db_, options_.busy_timeout, [&]() -> Status {
    Result<Stmt*> set = write_stmt(kSetSummary);
    if (!set.ok()) return set.status();
    for (const auto& [w, summary] : found) {
      (*set)->bind(1, w->old->rowid);
      (*set)->bind(2, std::string_view(summary));
      (*set)->bind(3, static_cast<int64_t>(w->stat.size));
      (*set)->bind(4, w->stat.mtime_ms);
      XS_RETURN_IF_ERROR(step_done(write_db_, *set, "keep a session's summary"));
    }
    return Status::Ok();
  });
}

Status SessionIndex::write_batch(std::vector<SessionRead>& batch, const std::map<std::string, SessionRow>& rows,
                                 RefreshReport* report, std::set<std::string>* raced) {
  RefreshReport counted;
  std::set<std::string> raced_here;
  Status st = in_transaction(write_db_, options_.busy_timeout, [&]() -> Status {
    counted = RefreshReport();  // a retried transaction counts afresh
    raced_here.clear();
    for (SessionRead& s : batch) {
      auto it = rows.find(s.row.path);
      XS_RETURN_IF_ERROR(write_session(s, it == rows.end() ? nullptr : &it->second, &counted, &raced_here));
    }
    return Status::Ok();
  });
  XS_RETURN_IF_ERROR(st);
  add_written(report, counted);
  raced->insert(raced_here.begin(), raced_here.end());
  return Status::Ok();
}

Status SessionIndex::write_session(SessionRead& s, const SessionRow* old, RefreshReport* report,
                                   std::set<std::string>* raced) {
  // What the row is now must be what this read started from: another process's refresh may have
  // written the same file meanwhile, and its rows are not to be doubled.
  Result<Stmt*> check = write_stmt(kSelectStat);
  if (!check.ok()) return check.status();
  Stmt* c = *check;
  c->bind(1, std::string_view(s.row.path));
  int rc = c->step();
  bool same;
  if (rc == SQLITE_ROW) {
    same = old && c->int64(0) == old->rowid && static_cast<uint64_t>(c->int64(1)) == old->file.size &&
           c->int64(2) == old->file.mtime_ms && static_cast<uint64_t>(c->int64(3)) == old->file.dev &&
           static_cast<uint64_t>(c->int64(4)) == old->file.ino &&
           static_cast<uint64_t>(c->int64(5)) == old->indexed_bytes;
  } else if (rc == SQLITE_DONE) {
    same = !old;
  } else {
    Status st = write_db_.error(rc, "read a session's row");
    c->reset();
    return st;
  }
  c->reset();
  if (!same) {
    raced->insert(s.row.path);
    return Status::Ok();
  }

  const SessionRow& r = s.row;
  if (old && s.whole) {
    Result<Stmt*> del = write_stmt(kDeleteEntries);
    if (!del.ok()) return del.status();
    (*del)->bind(1, old->rowid);
    XS_RETURN_IF_ERROR(step_done(write_db_, *del, "delete a session's entries"));
  }
  Result<Stmt*> put = write_stmt(kPutSession);
  if (!put.ok()) return put.status();
  Stmt* p = *put;
  bind(p, 1, old ? std::optional<int64_t>(old->rowid) : std::nullopt);
  p->bind(2, std::string_view(r.path));
  p->bind(3, std::string_view(r.id));
  p->bind(4, std::string_view(r.cwd));
  bind(p, 5, r.title);
  bind(p, 6, r.first_prompt);
  bind(p, 7, r.created);
  bind(p, 8, r.updated);
  p->bind(9, r.entries);
  p->bind(10, r.messages);
  p->bind(11, r.input_tokens);
  p->bind(12, r.output_tokens);
  sqlite3_bind_double(p->raw(), 13, r.cost);
  bind(p, 14, r.dialect);
  bind(p, 15, r.source_agent);
  bind(p, 16, r.parent_session);
  p->bind(17, int64_t{r.archived});
  p->bind(18, static_cast<int64_t>(r.file.size));
  p->bind(19, r.file.mtime_ms);
  p->bind(20, static_cast<int64_t>(r.file.dev));
  p->bind(21, static_cast<int64_t>(r.file.ino));
  p->bind(22, static_cast<int64_t>(r.indexed_bytes));
  bind(p, 23, r.leaf_id);
  bind(p, 24, r.summary);
  XS_RETURN_IF_ERROR(step_done(write_db_, p, "write a session's row"));
  int64_t rowid = old ? old->rowid : write_db_.last_insert_rowid();

  Result<Stmt*> put_entry = write_stmt(kPutEntry);
  if (!put_entry.ok()) return put_entry.status();
  Stmt* e = *put_entry;
  for (const EntryRow& row : s.entries) {
    e->bind(1, rowid);
    e->bind(2, std::string_view(row.entry_id));
    bind(e, 3, row.parent_id);
    if (row.role.empty()) {
      e->bind_null(4);
    } else {
      e->bind(4, row.role);
    }
    if (row.kind.empty()) {
      e->bind_null(5);
    } else {
      e->bind(5, row.kind);
    }
    bind(e, 6, row.ts);
    e->bind(7, int64_t{row.on_path});
    e->bind(8, std::string_view(row.text));
    XS_RETURN_IF_ERROR(step_done(write_db_, e, "write an entry's row"));
  }
  if (!s.whole && !s.entries.empty() && r.leaf_id) {
    Result<Stmt*> mark = write_stmt(kMarkPath);
    if (!mark.ok()) return mark.status();
    (*mark)->bind(1, rowid);
    (*mark)->bind(2, std::string_view(*r.leaf_id));
    XS_RETURN_IF_ERROR(step_done(write_db_, *mark, "mark the current path"));
  }
  ++(s.whole ? (old ? report->reindexed : report->added) : report->appended);
  report->entries += s.entries.size();
  return Status::Ok();
}

Status SessionIndex::remove_rows(const std::vector<int64_t>& rowids) {
  return in_transaction(write_db_, options_.busy_timeout, [&]() -> Status {
    for (int64_t rowid : rowids) {
      for (const char* sql : {kDeleteEntries, kDeleteSession}) {
        Result<Stmt*> s = write_stmt(sql);
        if (!s.ok()) return s.status();
        (*s)->bind(1, rowid);
        XS_RETURN_IF_ERROR(step_done(write_db_, *s, "remove a session's rows"));
      }
    }
    return Status::Ok();
  });
}

Result<VerifyReport> SessionIndex::verify() {
  auto rows = read([&] { return load_rows(read_db_, nullptr); });
  if (!rows.ok()) return rows.status();
  storage::Fs& fs = *store_->fs();
  VerifyReport report;
  report.indexed = rows->size();
  std::set<std::string> present;
  for (const std::string& path : session_files(fs, store_->root())) {
    auto stat = fs.stat(path);
    if (!stat.ok()) continue;
    ++report.files;
    present.insert(path);
    auto it = rows->find(path);
    if (it == rows->end()) {
      report.missing.push_back(path);
    } else if (!same_file(it->second.file, *stat)) {
      report.stale.push_back(path);
    }
  }
  for (const auto& [path, row] : *rows) {
    if (!present.count(path)) report.extra.push_back(path);
  }
  return report;
}

}  // namespace xs::search
