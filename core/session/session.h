// One open transcript: load (with migration), append, navigate, persist, and read back.
//
// A Session is used by one thread at a time (the C API serialises calls per handle). Every
// mutation bumps generation(), which the C API uses to know when a cached output is stale.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "blobs/blob_store.h"
#include "format/clock.h"
#include "format/dialect.h"
#include "format/envelope.h"
#include "format/ids.h"
#include "json/input_json.h"
#include "json/limits.h"
#include "model/session_data.h"
#include "model/tree.h"
#include "session/persistence.h"
#include "stats/session_stats.h"
#include "storage/fs.h"
#include "upkeep/quarantine.h"
#include "upkeep/verify.h"
#include "util/status.h"
#include "views/entries.h"
#include "views/summary.h"
#include "views/usage.h"

namespace xs::session {

struct SessionOptions {
  bool read_only = false;
  bool create_if_missing = false;     // open(): a missing file becomes a new, deferred session
  bool defer_until_assistant = true;  // the seed's default; off writes the header at once
  // A new session is written whole only by persist() or close(), whatever defer_until_assistant
  // says: an importer's new session reaches the disk in one atomic write, and an import that
  // fails half way leaves no file (docs/decisions.md#deferred-first-write).
  bool defer_until_persist = false;
  Durability durability = Durability::kBuffered;
  json::Limits limits;
  std::optional<format::Clock> clock;  // default: the real clock
  uint64_t id_seed = 0;                // 0: random ids
  // Where large images go (and are resolved from); null keeps them inline.
  std::shared_ptr<blobs::BlobStore> blobs;
  // The dialect the session writes (docs/dialects.md#which-dialect-a-session-writes): forced, or
  // nullopt for the file's own (detected), else `default_dialect` (the store's).
  std::optional<format::Dialect> dialect;
  format::Dialect default_dialect = format::Dialect::kOmp;
  // For new sessions (create(), a missing file with create_if_missing, or a fresh header that
  // replaces a file without one); an empty cwd is the process's (pi's rule):
  std::string cwd;
  std::optional<std::string> session_id;  // nullopt: generated
  std::optional<std::string> title;
  std::optional<std::string> parent_session;
  // The keyed-store key this session reports its stats to (docs/session-stats.md#binding-a-session-to-a-key). The
  // store turns it into `stats_sink`; the session itself only talks to the sink.
  std::optional<std::string> key;
  std::shared_ptr<stats::StatsSink> stats_sink;
  // Told of each write of this handle to its file (the store sets it: the session index keeps
  // itself current this way, docs/search.md#kept-current).
  std::shared_ptr<WriteObserver> write_observer;
};

struct CompactionArgs {
  std::string_view summary;
  std::optional<std::string_view> short_summary;
  std::string_view first_kept_entry_id;
  int64_t tokens_before = 0;
  std::optional<std::string_view> details_json;
  std::optional<bool> from_extension;
  std::optional<std::string_view> preserve_data_json;
};

struct CustomMessageArgs {
  std::string_view custom_type;
  std::string_view content_json;  // a JSON string or an array of content blocks
  bool display = true;
  std::optional<std::string_view> details_json;
  std::optional<std::string_view> attribution;
};

struct SessionInitArgs {
  std::string_view system_prompt;
  std::string_view task;
  std::string_view tools_json;  // array of tool names
  std::optional<std::string_view> output_schema_json;
};

enum class RepairMode {
  kKeepLines,   // every line stays; a torn last line gets its newline
  kQuarantine,  // lines that are not JSON move to "<file>.quarantine-<time>.jsonl"
};

class Session {
 public:
  // A new session in directory `dir`, file "<timestamp>_<id>.jsonl" (written at the first
  // assistant message unless deferral is off).
  static Result<std::unique_ptr<Session>> create(std::shared_ptr<storage::Fs> fs, const std::string& dir,
                                                 SessionOptions options);
  // An existing session file. Migrates in memory; a writable open rewrites a migrated file at
  // once and replaces a file without a header by a fresh session after preserving its bytes.
  static Result<std::unique_ptr<Session>> open(std::shared_ptr<storage::Fs> fs, std::string path,
                                               SessionOptions options);
  ~Session();

  // What session/forks.h builds a copy from: the new file's header and entry lines (each without
  // its '\n'), the clock and id sequence that made them (the new handle continues both, so under a
  // fixed test clock its first append gets neither the header's timestamp nor a used id), and
  // whether to write it now or at the first assistant message (pi's branched session).
  struct NewFile {
    format::Header header;
    std::vector<std::string_view> lines;
    format::Clock clock;
    format::IdGenerator ids;
    format::Dialect dialect = format::Dialect::kOmp;  // the copied session's, unless options force one
    bool write_now = true;
  };
  // A new session made of `file`, written to `dir`/<timestamp>_<id>.jsonl atomically (at once, or
  // deferred as write_now says) and returned open for writing.
  static Result<std::unique_ptr<Session>> create_from(std::shared_ptr<storage::Fs> fs, const std::string& dir,
                                                      SessionOptions options, NewFile file);

  // Takes the writer lock of a new session's file before anything is written (a deferred session
  // otherwise takes it at its first write), so that another handle opening that path meanwhile gets
  // kLocked instead of a second fresh session of the same file (store/key_sessions.cc).
  Status claim_file();
  // Binds an open session to the stats sink of a key after the open (docs/session-stats.md#binding-a-session-to-a-key):
  // what options.key does at the open, for a session the store opened while holding the keyed
  // store's lock, which the sink's first write would otherwise wait for (store/key_sessions.cc).
  void bind_stats_sink(std::string key, std::shared_ptr<stats::StatsSink> sink);

  // --- in place ---
  // moveTo(cwd): the file (and its artifacts directory "<file without .jsonl>/", if any) moves into
  // `dir`, the header's cwd becomes `cwd`; rolled back if any step fails.
  Status move_to(const std::string& dir, const std::string& cwd);

  // --- writing: each appends one entry as a child of the leaf and moves the leaf to it ---
  Status append_entry(std::string_view entry_json, std::string* id_out);
  Status append_message(std::string_view message_json, std::string* id_out);
  Status append_thinking_level(std::optional<std::string_view> level, std::string* id_out);
  Status append_model_change(std::string_view model, std::optional<std::string_view> role, std::string* id_out);
  Status append_compaction(const CompactionArgs& args, std::string* id_out);
  Status append_custom(std::string_view custom_type, std::optional<std::string_view> data_json, std::string* id_out);
  Status append_custom_message(const CustomMessageArgs& args, std::string* id_out);
  Status append_label(std::string_view target_id, std::optional<std::string_view> label, std::string* id_out);
  Status append_ttsr_injection(std::string_view rules_json, std::string* id_out);
  Status append_session_init(const SessionInitArgs& args, std::string* id_out);
  Status append_mode_change(std::string_view mode, std::optional<std::string_view> data_json, std::string* id_out);
  // pi's title entry {name: trimmed}; kDialect in the omp dialect (its title is in the header).
  Status append_session_info(std::string_view name, std::string* id_out);
  Status branch_with_summary(std::optional<std::string_view> from_id, std::string_view summary,
                             std::optional<std::string_view> details_json, std::optional<bool> from_extension,
                             std::string* id_out);

  // --- navigation (the leaf is not persisted) ---
  // Moves the leaf to entry `id` (kNotFound for an unknown id); nullopt sets it to none, so the
  // next append starts a new root.
  Status set_leaf(std::optional<std::string_view> id);

  // omp: the header's title, rewritten atomically; pi: a session_info entry (nullopt: name "").
  Status set_title(std::optional<std::string_view> title);
  // Read-only handles: picks up what another process appended since the last load, reading only
  // the new bytes (a UI watching a session an agent writes). A file that was replaced or shrank is
  // loaded again whole. A last line still being written is reported as an incomplete tail and read
  // again next time; a reader never repairs anything. *added: how many entries are new.
  Status reload(int64_t* added);
  Status persist();
  Status flush();
  Status close();

  // --- reading (views/, upkeep/verify.h: free functions over data() and tree()) ---
  Result<std::string> context(std::optional<std::string_view> leaf_id) const;
  std::string_view header() const { return data_.header_bytes(); }
  // Entries come as stored (blob refs in place) unless `resolve_blobs` asks for their content.
  std::string entries_json(bool resolve_blobs = false) const { return views::entries_json(source(), resolve_blobs); }
  Result<std::string> entry_json(std::string_view id, bool resolve_blobs = false) const {
    return views::entry_json(source(), id, resolve_blobs);
  }
  Result<std::string> path_json(std::optional<std::string_view> id, bool resolve_blobs = false) const {
    return views::path_json(source(), id, resolve_blobs);
  }
  Result<std::string> children_json(std::string_view id, bool resolve_blobs = false) const {
    return views::children_json(source(), id, resolve_blobs);
  }
  std::string tree_json(bool resolve_blobs = false) const { return views::tree_json(source(), resolve_blobs); }
  std::string labels_json() const { return views::labels_json(tree_); }
  std::string diagnostics_json() const { return views::diagnostics_json(data_, tree_, blob_problems_); }
  std::string info_json() const {
    return views::info_json(data_, tree_,
                            {path(), persisted(), options_.read_only, archived_, diagnostic_count(), dialect_});
  }
  std::string usage_json() const { return views::usage_json(data_); }
  // The session's counters (stats/session_stats.h), counted from the loaded entries the first time
  // they are asked for (or at open, when bound to a key), then kept current by every append.
  stats::SessionStats stats() const;
  std::string stats_json() const { return stats::stats_json(stats()); }
  std::optional<std::string_view> leaf_id() const;
  std::optional<std::string> title() const { return views::title(data_); }

  // --- upkeep ---
  std::string verify_json() const {
    return upkeep::verify_json(data_, tree_, options_.blobs.get(),
                               {path(), read_links_, file_version_, migrated_in_memory_ && !rewritten_on_open_});
  }
  // Fixes what can be fixed without losing a byte (a writable handle), and returns, as JSON, what
  // was done, including what this handle's open already did (a migration rewrite, a header-less
  // file preserved). kKeepLines writes the final newline a torn or unterminated last line lacks.
  // kQuarantine moves the lines whose bytes are not JSON (upkeep/quarantine.h) into a new file
  // beside the session, durably, and then rewrites the session without them atomically; nothing
  // else changes (with nothing to move it does what kKeepLines does). The problems left (verify)
  // need a person.
  Result<std::string> repair(RepairMode mode = RepairMode::kKeepLines);

  // The loaded session, for the read side (views/, context/, upkeep/).
  const model::SessionData& data() const { return data_; }
  const model::Tree& tree() const { return tree_; }
  const std::shared_ptr<storage::Fs>& fs() const { return fs_; }
  uint64_t generation() const { return generation_; }
  const std::string& path() const { return persistence_.path(); }
  const format::Header& header_info() const { return data_.header; }
  bool read_only() const { return options_.read_only; }
  // Loaded from an archive ("<file>.jsonl.gz", docs/retention.md#reading-an-archive): read-only.
  bool archived() const { return archived_; }
  format::Dialect dialect() const { return dialect_; }
  bool persisted() const { return persistence_.persisted(); }
  size_t entry_count() const { return data_.entries.size(); }
  size_t message_count() const { return views::message_count(data_); }
  size_t diagnostic_count() const {
    return data_.diagnostics.size() + tree_.diagnostics().size() + blob_problems_.size();
  }
  std::optional<std::string> first_user_text() const { return views::first_user_text(data_); }

 private:
  Session(std::shared_ptr<storage::Fs> fs, std::string path, SessionOptions options);

  Status load(storage::PaddedBuffer bytes, const storage::FileInfo& read);
  // After the lines are in: adopt the file, migrate (rewriting when writable), index the tree.
  Status finish_load(const storage::FileInfo& read);
  // After a rewrite: the file is the byte-order mark (if any) and the lines, each with its '\n'.
  void recount_file_size();
  void note_read(const storage::FileInfo& read);
  Status start_fresh();
  // pi keeps a new session's title in its first entry (start_fresh() leaves it out of the header).
  Status add_initial_title();
  // kDialect for what the session's dialect has no form for (docs/dialects.md).
  Status check_dialect(format::Dialect needed, std::string_view what) const;
  Status reload_whole(size_t before, int64_t* added);
  Status load_whole();
  // An archive, inflated whole in memory (bounded by storage::kMaxInflatedBytes), then loaded as
  // the file it was.
  Status load_archive();
  Status recover_headerless(const storage::PaddedBuffer& original, const storage::FileInfo& read);
  Status check_writable() const;
  // What repair reports that the handle's open did (a migration rewrite, a preserved copy).
  std::vector<model::Diagnostic> done_by_open() const;
  // repair(kQuarantine) once it found lines to move (session_repair.cc).
  Result<std::string> repair_by_quarantine(std::vector<model::Diagnostic> done,
                                           const std::vector<upkeep::QuarantinedLine>& moved);
  std::string next_timestamp_token();
  Result<std::string> new_entry_id(std::optional<std::string_view> requested);
  Status prepare_value(std::string_view text, std::string* out, json::Kind* kind, const char* what);
  // Appends a built line whose facts are known: persistence first, then the model, so a failed
  // write leaves the session exactly as it was.
  Status commit(std::string line, model::Entry facts, std::string* id_out);
  Status append_typed(format::EntryType type, const format::Payload& payload, std::string* id_out,
                      model::Entry facts = model::Entry());
  // --- stats (session_stats.cc) ---
  const stats::Counts& counts() const;
  // A bound session: nothing but a valid binding of a writable handle is accepted.
  static Status check_binding(const SessionOptions& options);
  // After create or open: a bound session whose record lacks its stats writes them once.
  void bind_stats();
  // After commit(): the counts take the entry; a bound session writes its record after an
  // assistant message (the end of a turn).
  void note_appended(const model::Entry& e);
  // Writes the bound record now; a failure is kept in record_error_ and returned.
  Status publish_stats();
  // flush() and close(): the record, if it is behind the session.
  Status settle_stats();
  // What the views read; blob problems met while resolving are remembered for the diagnostics.
  views::Source source() const { return {data_, tree_, options_.blobs.get(), &blob_problems_}; }

  std::shared_ptr<storage::Fs> fs_;
  SessionOptions options_;
  format::Clock clock_;
  format::IdGenerator ids_;
  format::Dialect dialect_ = format::Dialect::kOmp;
  // The generator as it was before the first load migrated anything: a reload that migrates the
  // same old file again hands out the same ids.
  std::optional<format::IdGenerator> ids_before_migration_;
  model::SessionData data_;
  model::Tree tree_{&data_};
  Persistence persistence_;
  json::InputJson entry_input_;  // whole entries (xs_append)
  json::InputJson value_input_;  // payload values, one level deeper in the line
  uint64_t file_size_ = 0;       // where the next line starts in the file
  // What a reload starts from: the file we read (identity) and the bytes fully taken in.
  uint64_t read_dev_ = 0, read_ino_ = 0, consumed_ = 0;
  uint64_t read_links_ = 1;  // names the file had when read (more than one: see finish_load)
  bool migrated_in_memory_ = false;
  bool archived_ = false;
  uint64_t archive_bytes_ = 0;      // the archive's size when read: a reload compares it, not offsets
  bool rewritten_on_open_ = false;  // a writable open migrated the file and rewrote it
  int file_version_ = 0;            // the header's version as read, before migration
  uint64_t generation_ = 0;
  // Missing or damaged blobs met while reading (read-side problems never poison the session).
  mutable std::vector<model::Diagnostic> blob_problems_;
  mutable std::optional<stats::Counts> counts_;  // counted on first use, then kept by appends
  bool record_behind_ = false;                   // the bound record lacks something the session has
  bool key_claimed_ = false;                     // the bound record has named this session since the open
  Status record_error_;                          // the last failed record write (docs/session-stats.md#failures)
};

}  // namespace xs::session
