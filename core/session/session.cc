// Session lifecycle: create, open (lock, load, migrate, recover), commit of appended lines,
// navigation, title, flush and close. The append family lives in session_appends.cc and the
// read-side JSON in session_views.cc.
#include "session/session.h"

#include <algorithm>
#include <optional>

#include "blobs/size_rules.h"
#include "context/context_builder.h"
#include "format/session_paths.h"
#include "format/side_files.h"
#include "json/json_string.h"
#include "model/dialect_detect.h"
#include "model/loader.h"
#include "model/migration.h"
#include "storage/atomic_file.h"
#include "storage/gzip.h"
#include "storage/path.h"
#include "util/room_for_one.h"

namespace xs::session {

using model::Arena;
using model::Diagnostic;
using model::Entry;
using model::entry_from_facts;
using model::kBlobRefNo;
using model::kBlobRefYes;
using model::kBom;
using model::kNone;
using model::Line;
using model::LineKind;
using model::load_file;
using model::load_file_parallel;
using model::load_lines;
using model::migrate;
using model::SessionData;
using model::Tree;

namespace {

json::Limits value_limits(json::Limits l) {
  // A payload value sits one level below the entry object in the line.
  if (l.max_depth > 1) --l.max_depth;
  return l;
}

// What a reload of the tail changes in SessionData, put back unless commit() is called: a reload
// that fails or runs out of memory leaves the handle exactly as it was. Putting back needs no
// allocation (the vectors only shrink to sizes they had, or regain the one element taken out).
class TailReloadRollback {
 public:
  explicit TailReloadRollback(SessionData& d)
      : d_(d),
        lines_(d.lines.size()),
        entries_(d.entries.size()),
        diagnostics_(d.diagnostics.size()),
        buffers_(d.buffers.size()),
        arenas_(d.run_arenas.size()),
        pending_tail_(d.pending_tail),
        ends_with_newline_(d.ends_with_newline) {}
  // The reported fragment, read again as part of the tail: taken out now, put back on failure.
  void take_pending_tail() {
    line_ = d_.lines.back();
    d_.lines.pop_back();
    diagnostic_ = std::move(d_.diagnostics.back());
    d_.diagnostics.pop_back();
  }
  void commit() { done_ = true; }
  ~TailReloadRollback() {
    if (done_) return;
    auto cut = [](auto& v, size_t n) {
      v.erase(v.begin() + static_cast<std::ptrdiff_t>(std::min(n, v.size())), v.end());
    };
    cut(d_.lines, line_ ? lines_ - 1 : lines_);
    cut(d_.diagnostics, diagnostic_ ? diagnostics_ - 1 : diagnostics_);
    if (line_) d_.lines.push_back(*line_);
    if (diagnostic_) d_.diagnostics.push_back(std::move(*diagnostic_));
    cut(d_.entries, entries_);
    cut(d_.buffers, buffers_);
    cut(d_.run_arenas, arenas_);
    d_.pending_tail = pending_tail_;
    d_.ends_with_newline = ends_with_newline_;
  }

 private:
  SessionData& d_;
  size_t lines_, entries_, diagnostics_, buffers_, arenas_;
  bool pending_tail_, ends_with_newline_;
  std::optional<Line> line_;
  std::optional<Diagnostic> diagnostic_;
  bool done_ = false;
};

Deferral deferral_of(const SessionOptions& o) {
  if (o.defer_until_persist) return Deferral::kUntilPersist;
  return o.defer_until_assistant ? Deferral::kUntilAssistant : Deferral::kNone;
}

}  // namespace

Session::Session(std::shared_ptr<storage::Fs> fs, std::string path, SessionOptions options)
    : fs_(fs),
      options_(std::move(options)),
      clock_(options_.clock.value_or(format::Clock::Real())),
      ids_(options_.id_seed),
      persistence_(fs, std::move(path), options_.durability, deferral_of(options_)),
      entry_input_(options_.limits),
      value_input_(value_limits(options_.limits)) {
  persistence_.set_observer(options_.write_observer);
}

Session::~Session() = default;

Status Session::start_fresh() {
  dialect_ = options_.dialect.value_or(options_.default_dialect);
  bool pi = dialect_ == format::Dialect::kPi;
  format::Header h;
  h.version = format::kCurrentVersion;
  int64_t now = clock_.now_ms();
  if (options_.session_id) {
    if (!format::is_valid_new_id(*options_.session_id)) {
      return Status::Invalid("session id must be 1-64 characters of [A-Za-z0-9_-]");
    }
    h.id = *options_.session_id;
  } else {
    h.id = pi ? ids_.uuid_v7(now) : ids_.session_id();
  }
  h.timestamp = format::iso_from_ms(now);
  // Never an empty cwd: a session is found by it (pi takes process.cwd() when none is given).
  h.cwd = options_.cwd.empty() ? storage::current_directory() : options_.cwd;
  if (!pi) h.title = options_.title;  // pi's title is an entry (add_initial_title)
  h.parent_session = options_.parent_session;
  for (const std::string* text :
       {&h.cwd, h.title ? &*h.title : nullptr, h.parent_session ? &*h.parent_session : nullptr}) {
    if (text && !json::is_valid_utf8(*text)) return Status::Invalid("cwd, title and parentSession must be UTF-8");
  }
  std::string_view line = data_.arena.store(format::build_header_line(h), json::kPadding);
  data_.header = std::move(h);
  data_.lines.push_back({line, 0, LineKind::kHeader, true, kNone});
  data_.header_line = 0;
  file_size_ = line.size() + 1;
  return Status::Ok();
}

Status Session::add_initial_title() {
  if (dialect_ != format::Dialect::kPi || !options_.title) return Status::Ok();
  return append_session_info(*options_.title, nullptr);
}

Status Session::check_dialect(format::Dialect needed, std::string_view what) const {
  if (dialect_ == needed) return Status::Ok();
  return Status::WrongDialect(std::string(what) + " has no form in the " + std::string(format::dialect_name(dialect_)) +
                              " dialect of this session (docs/dialects.md)");
}

Result<std::unique_ptr<Session>> Session::create(std::shared_ptr<storage::Fs> fs, const std::string& dir,
                                                 SessionOptions options) {
  options.read_only = false;
  XS_RETURN_IF_ERROR(check_binding(options));
  std::unique_ptr<Session> s(new Session(std::move(fs), std::string(), std::move(options)));
  XS_RETURN_IF_ERROR(s->start_fresh());
  const format::Header& h = s->data_.header;
  s->persistence_.set_path(storage::join_path(dir, format::session_file_name(h.timestamp, h.id)));
  s->tree_.build();
  XS_RETURN_IF_ERROR(s->add_initial_title());
  if (deferral_of(s->options_) == Deferral::kNone) XS_RETURN_IF_ERROR(s->persistence_.persist(s->data_));
  s->bind_stats();
  return s;
}

Status Session::claim_file() {
  XS_RETURN_IF_ERROR(fs_->make_dirs(storage::dir_name(path())));
  return persistence_.lock();
}

Result<std::unique_ptr<Session>> Session::create_from(std::shared_ptr<storage::Fs> fs, const std::string& dir,
                                                      SessionOptions options, NewFile file) {
  options.read_only = false;
  XS_RETURN_IF_ERROR(check_binding(options));
  std::string text = format::build_header_line(file.header) + "\n";
  for (std::string_view l : file.lines) text.append(l).push_back('\n');
  std::string path = storage::join_path(dir, format::session_file_name(file.header.timestamp, file.header.id));
  std::unique_ptr<Session> s(new Session(fs, path, std::move(options)));
  s->clock_ = file.clock;
  s->ids_ = file.ids;
  s->dialect_ = s->options_.dialect.value_or(file.dialect);
  uint64_t size = text.size();
  XS_RETURN_IF_ERROR(load_file(storage::PaddedBuffer::Copy(text), s->options_.limits, &s->data_));
  s->file_size_ = size;
  s->tree_.build();
  if (file.write_now || deferral_of(s->options_) == Deferral::kNone) {
    XS_RETURN_IF_ERROR(s->persistence_.persist(s->data_));
  }
  s->bind_stats();
  return s;
}

Result<std::unique_ptr<Session>> Session::open(std::shared_ptr<storage::Fs> fs, std::string path,
                                               SessionOptions options) {
  XS_RETURN_IF_ERROR(check_binding(options));
  std::unique_ptr<Session> s(new Session(fs, path, std::move(options)));
  if (storage::is_archive_path(path)) {
    // An archive opens read-only whatever was asked (docs/retention.md#reading-an-archive): no lock,
    // no migration rewrite, and every write is kReadOnly.
    s->archived_ = true;
    s->options_.read_only = true;
    XS_RETURN_IF_ERROR(s->load_archive());
    return s;
  }
  const SessionOptions& o = s->options_;
  if (!o.read_only) {
    Status locked = s->persistence_.lock();
    if (locked.code() == Code::kNotFound && o.create_if_missing) {
      XS_RETURN_IF_ERROR(fs->make_dirs(storage::dir_name(path)));
      locked = s->persistence_.lock();
    }
    if (locked.code() == Code::kNotFound) return Status::NotFound(path + ": no such session file");
    XS_RETURN_IF_ERROR(locked);
    storage::remove_stale_temps(*fs, path);
  }
  storage::FileInfo read;
  auto parallel = load_file_parallel(*fs, path, o.limits, &s->data_, &read);
  if (parallel.ok() && *parallel) {
    XS_RETURN_IF_ERROR(s->finish_load(read));
    s->bind_stats();
    return s;
  }
  s->data_ = SessionData();
  storage::PaddedBuffer bytes;
  Status st = fs->read_file(path, UINT64_MAX, &bytes, &read);
  if (st.code() == Code::kNotFound && o.create_if_missing && !o.read_only) {
    XS_RETURN_IF_ERROR(s->start_fresh());
    s->tree_.build();
    XS_RETURN_IF_ERROR(s->add_initial_title());
    if (deferral_of(o) == Deferral::kNone) XS_RETURN_IF_ERROR(s->persistence_.persist(s->data_));
    s->bind_stats();
    return s;
  }
  if (st.code() == Code::kNotFound) {
    s->persistence_.abandon_lock();  // leave no lock file beside a session that does not exist
    return Status::NotFound(path + ": no such session file");
  }
  XS_RETURN_IF_ERROR(st);
  XS_RETURN_IF_ERROR(s->load(std::move(bytes), read));
  s->bind_stats();
  return s;
}

Status Session::load_archive() {
  storage::PaddedBuffer bytes;
  storage::FileInfo read;
  Status st = storage::read_gzip_file(*fs_, path(), storage::kMaxInflatedBytes, &bytes, &read);
  if (st.code() == Code::kNotFound) return Status::NotFound(path() + ": no such session file");
  XS_RETURN_IF_ERROR(st);
  XS_RETURN_IF_ERROR(load(std::move(bytes), read));
  archive_bytes_ = read.size;
  return Status::Ok();
}

Status Session::load(storage::PaddedBuffer bytes, const storage::FileInfo& read) {
  Status st = load_file(std::move(bytes), options_.limits, &data_);
  if (st.code() == Code::kNoHeader) {
    storage::PaddedBuffer original = std::move(data_.buffers.front());
    if (options_.read_only) return Status(Code::kNoHeader, path() + ": no session header (" + st.message() + ")");
    data_ = SessionData();
    return recover_headerless(original, read);
  }
  XS_RETURN_IF_ERROR(st);
  return finish_load(read);
}

void Session::recount_file_size() {
  file_size_ = data_.bom ? kBom.size() : 0;
  for (const Line& l : data_.lines) file_size_ += l.bytes.size() + 1;
}

Status Session::finish_load(const storage::FileInfo& read) {
  // A session file under two names is what a move to another directory leaves when it stops
  // half-way on a file system without an atomic no-replace rename (link, then unlink: see
  // storage/fs.h), or a hard link someone made. Each name has its own lock file, so two writers
  // could append to it at once: no writer until a person removes the other name (verify reports it).
  if (!options_.read_only && read.links > 1) {
    return Status(Code::kConflict, path() + " has " + std::to_string(read.links) +
                                       " names (hard links; an interrupted move leaves two): not writing to "
                                       "it until the other name is removed");
  }
  // Read-only handles adopt too (so info reports the file as on disk); they never write.
  persistence_.adopt_existing(read, data_.ends_with_newline);
  file_size_ = read.size + (data_.ends_with_newline ? 0 : 1);
  note_read(read);
  bool migrated = false;
  file_version_ = data_.header.version;
  if (!ids_before_migration_) ids_before_migration_ = ids_;  // see reload_whole
  // The dialect is read from the lines as the file has them (a v1 file's marks survive migration).
  dialect_ = options_.dialect.value_or(model::detect_dialect(data_).value_or(options_.default_dialect));
  XS_RETURN_IF_ERROR(migrate(&data_, ids_, &migrated));
  migrated_in_memory_ = migrated;
  if (migrated && !options_.read_only) {
    XS_RETURN_IF_ERROR(persistence_.rewrite(data_));
    recount_file_size();
    rewritten_on_open_ = true;
  }
  tree_.build();
  return Status::Ok();
}

void Session::note_read(const storage::FileInfo& read) {
  read_dev_ = read.dev;
  read_ino_ = read.ino;
  read_links_ = read.links;
  consumed_ = read.size;
  if (data_.pending_tail && !data_.lines.empty()) consumed_ = data_.lines.back().offset;
}

Status Session::reload(int64_t* added) {
  *added = 0;
  if (!options_.read_only) {
    return Status(Code::kMisuse, "reload is for read-only handles: a writable handle is the file's only writer");
  }
  auto info = fs_->stat(path());
  if (!info.ok()) return info.status();
  size_t before = data_.entries.size();
  bool same_file = info->dev == read_dev_ && info->ino == read_ino_;
  if (archived_) {  // archives are written whole, never appended to: same file, same archive
    return same_file && info->size == archive_bytes_ ? Status::Ok() : reload_whole(before, added);
  }
  // Unchanged: nothing to do (and an old file is not migrated again, which would be wasted work).
  if (same_file && info->size == consumed_) return Status::Ok();
  if (!same_file || info->size < consumed_ || migrated_in_memory_) return reload_whole(before, added);
  // The last line we took in was whole but had no '\n' yet. The newline that follows belongs to it
  // (not to a new, empty line, which would shift every later line number); anything else means
  // that line grew after we accepted it, so the whole file is read again.
  bool unterminated = !data_.ends_with_newline && !data_.pending_tail && !data_.lines.empty();
  storage::PaddedBuffer tail;
  storage::FileInfo read;
  XS_RETURN_IF_ERROR(fs_->read_range(path(), consumed_, info->size - consumed_, &tail, &read));
  if (read.dev != read_dev_ || read.ino != read_ino_) return reload(added);  // replaced meanwhile
  std::string_view view = tail.view();
  uint64_t base = consumed_;
  if (unterminated) {
    if (view.empty() || view.front() != '\n') return reload_whole(before, added);
    view.remove_prefix(1);
    ++base;
  }
  TailReloadRollback rollback(data_);
  if (unterminated) data_.ends_with_newline = true;
  // The fragment we reported last time is read again as part of the tail.
  if (data_.pending_tail) rollback.take_pending_tail();
  data_.buffers.push_back(std::move(tail));
  XS_RETURN_IF_ERROR(load_lines(view, base, options_.limits, &data_));
  Tree fresh(&data_);  // built aside, so a tree that runs out of memory half-way is never ours
  fresh.build();
  rollback.commit();
  tree_ = std::move(fresh);
  consumed_ = base + view.size();
  if (data_.pending_tail) consumed_ = data_.lines.back().offset;
  ++generation_;
  counts_.reset();
  *added = static_cast<int64_t>(data_.entries.size() - before);
  return Status::Ok();
}

// Replaced (a rewrite), shrunk, grown inside its last line, or migrated in memory: the whole file
// is loaded again. An old file is migrated again with the id generator as it was before the first
// migration, so the entries already handed out keep their ids.
Status Session::reload_whole(size_t before, int64_t* added) {
  // The load fills the handle's own fields, so keep what they held: a reload that fails (the file
  // unreadable for a moment) leaves the handle exactly as it was, never empty.
  // The old tree is kept too: its views point into old_data's buffers and arenas, which move back
  // unchanged, so restoring it needs no allocation (a rebuild could run out of memory again).
  SessionData old_data = std::move(data_);
  Tree old_tree = std::move(tree_);
  std::vector<Diagnostic> old_problems = std::move(blob_problems_);
  format::IdGenerator old_ids = ids_;
  uint64_t old_dev = read_dev_, old_ino = read_ino_, old_consumed = consumed_, old_size = file_size_;
  bool old_migrated = migrated_in_memory_;
  int old_version = file_version_;
  auto restore = [&] {
    data_ = std::move(old_data);
    tree_ = std::move(old_tree);
    blob_problems_ = std::move(old_problems);
    ids_ = old_ids;
    read_dev_ = old_dev, read_ino_ = old_ino, consumed_ = old_consumed, file_size_ = old_size;
    migrated_in_memory_ = old_migrated;
    file_version_ = old_version;
  };
  Status st;
  try {
    st = load_whole();
  } catch (...) {  // out of memory: the handle as it was, then the error to the caller
    restore();
    throw;
  }
  if (!st.ok()) {
    restore();
    return st;
  }
  ++generation_;
  counts_.reset();
  *added = static_cast<int64_t>(data_.entries.size()) - static_cast<int64_t>(before);
  return Status::Ok();
}

Status Session::load_whole() {
  data_ = SessionData();
  blob_problems_.clear();
  if (ids_before_migration_) ids_ = *ids_before_migration_;
  if (archived_) return load_archive();
  storage::FileInfo read;
  auto parallel = load_file_parallel(*fs_, path(), options_.limits, &data_, &read);
  if (parallel.ok() && *parallel) return finish_load(read);
  data_ = SessionData();
  storage::PaddedBuffer bytes;
  XS_RETURN_IF_ERROR(fs_->read_file(path(), UINT64_MAX, &bytes, &read));
  return load(std::move(bytes), read);
}

// docs/decisions.md#1-no-silent-data-loss-on-a-bad-file: the reference truncates a file whose header
// it cannot find. We first keep its bytes beside it, then start the fresh session in its place.
Status Session::recover_headerless(const storage::PaddedBuffer& original, const storage::FileInfo& read) {
  std::string preserved;
  if (original.size() > 0) {
    std::string stem = path() + std::string(format::kCorruptInfix) + format::file_stamp(clock_.now_ms());
    Status st = storage::write_new_file(*fs_, stem, "", {original.view()}, &preserved);
    if (st.code() == Code::kExists) return Status(Code::kExists, "could not name a copy of " + path());
    XS_RETURN_IF_ERROR(st.With("preserving " + path()));
  }
  XS_RETURN_IF_ERROR(start_fresh());
  persistence_.adopt_existing(read, true);
  XS_RETURN_IF_ERROR(persistence_.rewrite(data_));
  if (!preserved.empty()) {
    data_.diagnostics.push_back({0, 0, original.size(), "corrupt_file_preserved",
                                 "the file had no session header; its bytes were kept as " + preserved});
  }
  tree_.build();
  return add_initial_title();
}

Status Session::check_writable() const {
  if (archived_) return Status::ReadOnly(path() + " is an archived session (read-only; docs/retention.md)");
  if (options_.read_only) return Status::ReadOnly(path() + " is open read-only");
  return Status::Ok();
}

std::string Session::next_timestamp_token() {
  std::string t;
  json::append_quoted(t, format::iso_from_ms(clock_.now_ms()));
  return t;
}

Status Session::commit(std::string line, Entry e, std::string* id_out) {
  XS_RETURN_IF_ERROR(check_writable());
  // Size rules first (truncation, blobs): the blobs are stored before the line that names them.
  // pi has neither (docs/dialects.md): in its dialect every line stays whole, as pi writes it.
  auto sized = dialect_ == format::Dialect::kPi ? Result<blobs::SizeRulesOutcome>(blobs::SizeRulesOutcome{})
                                                : blobs::apply_size_rules(line, options_.blobs.get());
  if (!sized.ok()) return sized.status();
  // In pi's dialect the line was not looked at: whether it holds a ref is learned when read, as
  // for a loaded line, so a live session and the same session reopened read the same.
  if (dialect_ != format::Dialect::kPi) e.blob_ref = sized->has_blob_ref ? kBlobRefYes : kBlobRefNo;
  if (sized->rewritten) {
    // The rules moved bytes around: derive the entry's facts from the new line, as a load would.
    line = std::move(*sized->rewritten);
    json::LineScanner scanner(json::internal_limits());
    json::LineFacts facts;
    std::string padded = line + std::string(json::kPadding, '\0');
    if (scanner.scan(std::string_view(padded.data(), line.size()), &facts) != json::LineVerdict::kObject) {
      return Status::Internal("size rules produced an invalid line: " + scanner.reason());
    }
    Arena scratch;
    Entry rescanned = entry_from_facts(facts, line, scratch);
    e.message_offset = rescanned.message_offset;
    e.message_length = rescanned.message_length;
  }
  if (line.size() > options_.limits.max_line_bytes) {
    return Status::Limit("the entry would be a line of " + std::to_string(line.size()) + " bytes, over the limit of " +
                         std::to_string(options_.limits.max_line_bytes));
  }
  bool assistant_after = tree_.has_assistant() || e.is_assistant();
  line.push_back('\n');  // build_entry_line reserved room for it: the record is written as is

  // Everything that can run out of memory happens before the record is written (and may throw
  // bad_alloc, leaving the session as it was: xsession.h's "a failed append leaves the session as
  // it was"); after the write nothing allocates, so an entry on disk is always in the session too.
  Arena& a = data_.arena;
  e.line = a.store(std::string_view(line).substr(0, line.size() - 1), json::kPadding);
  for (std::string_view* f : {&e.id, &e.timestamp, &e.role, &e.provider, &e.model, &e.target_id, &e.label}) {
    *f = a.store(*f);
  }
  if (id_out) id_out->assign(e.id);
  room_for_one(data_.lines);
  room_for_one(data_.entries);
  tree_.reserve_for(e);
  XS_RETURN_IF_ERROR(persistence_.append_record(data_, line, assistant_after));

  uint32_t leaf = tree_.leaf();
  e.has_parent_id = leaf != kNone;
  e.parent_id = leaf != kNone ? data_.entries[leaf].id : std::string_view();
  e.parent = leaf;
  e.line_no = static_cast<uint32_t>(data_.lines.size());
  uint32_t index = static_cast<uint32_t>(data_.entries.size());
  data_.lines.push_back({e.line, file_size_, LineKind::kEntry, true, index});
  file_size_ += e.line.size() + 1;
  data_.entries.push_back(e);
  tree_.add(index);
  ++generation_;
  note_appended(data_.entries.back());
  return Status::Ok();
}

Status Session::set_leaf(std::optional<std::string_view> id) {
  uint32_t i = kNone;
  if (id) {
    i = tree_.find(*id);
    if (i == kNone) return Status::NotFound("entry " + std::string(*id) + " not found");
  }
  tree_.set_leaf(i);
  ++generation_;
  if (options_.stats_sink) record_behind_ = true;  // the path's contextTokens may differ
  return Status::Ok();
}

Status Session::set_title(std::optional<std::string_view> title) {
  XS_RETURN_IF_ERROR(check_writable());
  if (dialect_ == format::Dialect::kPi) return append_session_info(title.value_or(""), nullptr);
  if (title && !json::is_valid_utf8(*title)) return Status::Invalid("title must be UTF-8");
  std::optional<std::string> t = title ? std::optional<std::string>(std::string(*title)) : std::nullopt;
  auto edited = format::set_header_title(data_.header_bytes(), t);
  if (!edited.ok()) return edited.status();
  Line& header = data_.lines[data_.header_line];
  std::string_view before = header.bytes;
  header.bytes = data_.arena.store(*edited, json::kPadding);
  Status st = persistence_.rewrite(data_);
  if (!st.ok()) {
    header.bytes = before;  // the file still has the old header; so does the session
    return st;
  }
  data_.header.title = std::move(t);
  recount_file_size();
  ++generation_;
  return Status::Ok();
}

Status Session::persist() {
  XS_RETURN_IF_ERROR(check_writable());
  return persistence_.persist(data_);
}

Status Session::flush() {
  if (options_.read_only) return Status::Ok();
  XS_RETURN_IF_ERROR(persistence_.flush());
  return settle_stats();  // the transcript first: a record never counts what the file lacks
}

Status Session::close() {
  if (options_.read_only) return Status::Ok();
  Status st = persistence_.close(data_);
  Status record = settle_stats();
  return st.ok() ? record : st;
}

Result<std::string> Session::context(std::optional<std::string_view> leaf_id) const {
  uint32_t leaf = tree_.leaf();
  if (leaf_id) {
    leaf = tree_.find(*leaf_id);
    if (leaf == kNone) return Status::NotFound("entry " + std::string(*leaf_id) + " not found");
  }
  bool pi_model = dialect_ == format::Dialect::kPi;
  if (!options_.blobs) return context::build_context(data_, tree_, leaf, {}, pi_model);
  return context::build_context(
      data_, tree_, leaf, [this](std::string_view json) { return views::resolve_refs(source(), json); }, pi_model);
}

std::optional<std::string_view> Session::leaf_id() const {
  if (tree_.leaf() == kNone) return std::nullopt;
  return data_.entries[tree_.leaf()].id;
}

}  // namespace xs::session
