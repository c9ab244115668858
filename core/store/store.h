// A session store: one root directory and the sessions, blobs and breadcrumbs under it.
//   <root>/sessions/--<cwd, encoded>--/<timestamp>_<id>.jsonl   sessions (format/session_paths.h)
//   <root>/blobs/<sha-256>                                      images moved out of entries (blobs/)
//   <root>/terminal-sessions/<terminal id>                      the session a terminal used last
// The store chooses the file system of the root (the disk, or memory) and holds the policy that
// turns "open this", "continue where I was" or "copy that here" into a session file: where new
// sessions go, how an argument that is not a path is found, which session continue-recent picks.
// Every session it hands out puts large images into its blob store.
//
// Thread-safety: nothing in a Store changes after open(), so any method may run on several threads
// at once. The sessions it returns share its file system and blob store (not the Store itself), and
// each is used by one thread at a time (session/session.h).
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "blobs/blob_store.h"
#include "blobs/blob_upkeep.h"
#include "discovery/finder.h"
#include "discovery/session_info.h"
#include "retention/retention.h"
#include "session/forks.h"
#include "session/session.h"
#include "storage/fs.h"
#include "store/key_store.h"
#include "store/reset_policy.h"
#include "util/status.h"

namespace xs::store {

struct StoreOptions {
  // Keep everything in memory (memory_fs): nothing reaches the disk, and the sessions are gone with
  // the store's last user. The root may then be empty, which names "/memory".
  bool in_memory = false;
  // The file system of an on-disk store, instead of the real one (tests pass fault-injecting
  // seams); null: posix_fs. Not together with in_memory.
  std::shared_ptr<storage::Fs> fs;
  // The dialect new sessions are written in (docs/dialects.md); existing files keep their own.
  format::Dialect default_dialect = format::Dialect::kOmp;
  // The keyed store's document; empty: <root>/sessions.json.
  std::string keys_path;
  // The reset policy of session_for_key when a call names none; nullopt: sessions never expire.
  std::optional<ResetPolicy> reset_policy;
};

// What session_for_key returns: the key's session, open for writing, and why it is that one.
struct KeySession {
  std::unique_ptr<session::Session> session;
  ResetReason reason = ResetReason::kContinued;
};

class Store {
 public:
  // kInvalid for an empty root (outside memory), a root that exists and is not a directory, or
  // in_memory with a file system. A missing root is fine: the first session written makes it.
  static Result<std::shared_ptr<Store>> open(std::string root, StoreOptions options = {});

  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::string& root() const { return root_; }
  const std::shared_ptr<storage::Fs>& fs() const { return fs_; }
  // Every session handle this store opens or creates from now on tells `observer` of its writes,
  // for as long as the observer lives (the session index, docs/search.md#kept-current).
  void add_write_observer(std::weak_ptr<session::WriteObserver> observer);
  // Where the sessions of working directory `cwd` live: <root>/sessions/--<cwd, encoded>--.
  std::string session_dir(std::string_view cwd) const;
  blobs::BlobStore& blobs() { return *blobs_; }
  // The keyed session store (store/key_store.h).
  const KeyStore& keys() const { return keys_; }
  // Listing, resolving and breadcrumbs over this root, with the summary source if one is set.
  discovery::Finder finder() const;
  // Listings (list, continue_recent, archive and prune) take the summaries of unchanged files from
  // `source` while it lives (the session index, docs/search.md#listing); the last one set wins.
  void set_summary_source(std::weak_ptr<discovery::SummarySource> source);

  // --- sessions (each with this store's blob store, whatever options.blobs said) ---

  // A new session of working directory `cwd` (which replaces options.cwd) in cwd's directory.
  // kInvalid when options.read_only.
  Result<std::unique_ptr<session::Session>> create_session(std::string_view cwd, session::SessionOptions options);
  // A session file by path. An argument with no '/' that names no file is a session id, id prefix
  // or file name, resolved across the store (kNotFound, kAmbiguous), unless options ask to create
  // a missing file (create_if_missing): then it is a path like any other.
  Result<std::unique_ptr<session::Session>> open_session(std::string_view path_or_id, session::SessionOptions options);
  // The session to pick up in `cwd`: the one this terminal used last there (its breadcrumb), else
  // the newest live session of `cwd` (never an archive), else a new one (options.cwd = cwd). With a terminal, its
  // breadcrumb then names the session, on a best-effort basis: a breadcrumb that cannot be written only costs the next
  // continue its preference, so it fails nothing. kInvalid when options.read_only.
  Result<std::unique_ptr<session::Session>> continue_recent(std::string_view cwd,
                                                            std::optional<std::string_view> terminal_id,
                                                            session::SessionOptions options);
  // A copy of the session file `source` for working directory `cwd` (which replaces options.cwd),
  // in cwd's directory: session::fork_from.
  Result<std::unique_ptr<session::Session>> fork_from(std::string_view source, std::string_view cwd,
                                                      session::SessionOptions options);
  // session::fork_session and session::create_branched (session/forks.h), with this store's blob
  // store.
  Result<std::unique_ptr<session::Session>> fork_session(const session::Session& from, session::SessionOptions options);
  Result<std::unique_ptr<session::Session>> create_branched(const session::Session& from,
                                                            std::optional<std::string_view> leaf,
                                                            session::SessionOptions options);
  // Session::move_to into the directory of `cwd`.
  Status move_session(session::Session& s, std::string_view cwd);
  // The current session of `key` in the keyed store, at the time of a message (now_ms): the one
  // the record names, or a new one when there is no record, when `policy` (nullopt: the store's
  // default) says it expired, or when `force`d; the record follows under the document's lock
  // (store/key_sessions.cc, docs/reset-policies.md). kInvalid when options.read_only.
  Result<KeySession> session_for_key(std::string_view key, int64_t now_ms, const std::optional<ResetPolicy>& policy,
                                     bool force, session::SessionOptions options);

  // --- finding sessions (discovery::Finder) ---

  Result<std::vector<discovery::SessionSummary>> list(const discovery::ListQuery& query) const;
  Result<std::string> resolve(std::string_view query, std::optional<std::string_view> cwd) const;
  Status write_breadcrumb(std::string_view terminal_id, std::string_view cwd, std::string_view session_path);

  // --- blob upkeep (blobs/blob_upkeep.h) ---

  Result<blobs::BlobListing> list_blobs(bool verify);
  // options.now_ms 0: now, by the system clock.
  Result<blobs::GcReport> collect_garbage(blobs::GcOptions options);

  // --- retention (retention/retention.h, docs/retention.md); options.now_ms 0: now ---

  Result<retention::ArchiveReport> archive(retention::ArchiveOptions options);
  Result<retention::PruneReport> prune(retention::PruneOptions options);

 private:
  Store(std::shared_ptr<storage::Fs> fs, std::string root, const StoreOptions& options);
  // What every session of the store shares: its blob store and its default dialect; and a session
  // given a key (options.key) reports its stats to that key's record (store/key_stats.h).
  session::SessionOptions with_store(session::SessionOptions options) const;

  std::shared_ptr<storage::Fs> fs_;
  std::string root_;
  std::shared_ptr<blobs::BlobStore> blobs_;
  format::Dialect default_dialect_;
  KeyStore keys_;
  std::optional<LoadedPolicy> default_policy_;  // StoreOptions::reset_policy, its zone read at open()
  // What sessions tell of their writes, handed on to every live observer (store.cc).
  std::shared_ptr<session::WriteObserver> observers_;
  mutable std::mutex source_mu_;
  std::weak_ptr<discovery::SummarySource> summary_source_;
};

}  // namespace xs::store
