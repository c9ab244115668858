// How a session reaches the disk (docs/decisions.md#write-path; guarantees G1-G5 and G9 of
// docs/guarantees.md).
//
//  - Deferred first write: until the first assistant message a new session lives in memory only
//    (the seed's rule, so sessions that never got a reply leave no file); then the whole session
//    is written at once, through a temp file and a no-replace rename, so a transcript never exists
//    without its header. Deferral::kUntilPersist waits for persist() or close() instead.
//  - Appends: one write() per whole line, continued after short writes; `sync` durability adds
//    fdatasync. Before each append the path must still name the file we hold open (a foreign
//    rename-into-place -> kConflict, nothing written); a torn tail gets its '\n' first.
//  - Rewrites (migration, title): atomic and fresh (storage/atomic_file).
//  - One writer per file: an exclusive lock on "<file>.lock" for the writable handle's lifetime.
//  - The first write, sync or rename error is sticky: every later write returns kPoisoned until
//    the session is reopened; nothing is ever retried into a false OK.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/session_data.h"
#include "storage/atomic_file.h"
#include "storage/fs.h"
#include "util/status.h"

namespace xs::session {

enum class Durability { kBuffered, kSync };

// When a new session's file is first written: at once, at the first assistant message (the seed's
// rule), or only when the session is persisted or closed (an importer's new session: one atomic
// write of the whole file instead of a write per entry, docs/decisions.md#deferred-first-write).
enum class Deferral { kNone, kUntilAssistant, kUntilPersist };

// The writer lock of a session file: whoever holds it is the file's only writer (a writable
// handle; archiving, docs/retention.md#archiving).
inline std::string writer_lock_path(const std::string& session_path) { return session_path + ".lock"; }

// Told of a session handle's writes to its file (an append, a rewrite, a repair), after they
// reached it. Called on the writing thread, inside the session's call: it must return at once and
// never call back into the session.
class WriteObserver {
 public:
  virtual ~WriteObserver() = default;
  virtual void written(const std::string& path) = 0;
};

class Persistence {
 public:
  Persistence(std::shared_ptr<storage::Fs> fs, std::string path, Durability durability, Deferral defer)
      : fs_(std::move(fs)), path_(std::move(path)), durability_(durability), defer_(defer) {}
  ~Persistence();

  const std::string& path() const { return path_; }
  void set_observer(std::shared_ptr<WriteObserver> observer) { observer_ = std::move(observer); }
  // Names the file of a new session (before anything is written).
  void set_path(std::string path) { path_ = std::move(path); }
  // Names another file for a session not on disk yet; a writer lock already held (an open by
  // path takes it at once) moves to the new name, so no second writer can take that one.
  Status rename_unwritten(const std::string& to);
  bool persisted() const { return persisted_; }
  const Status& sticky_error() const { return sticky_; }

  // Takes the writer lock (kLocked when another writer holds it).
  Status lock();
  // Gives the lock up and removes its file: for an open that found no session to write.
  void abandon_lock();
  // An existing file was loaded for writing: remember what we read, and whether it ends in '\n'.
  void adopt_existing(const storage::FileInfo& read, bool ends_with_newline);

  // Persists `record` (the session's next entry line with its '\n', written as is in one
  // write()); `assistant_after` says whether the session holds an assistant message once it is
  // added. Deferred sessions stay in memory until then; the first write carries the whole session.
  Status append_record(const model::SessionData& data, std::string_view record, bool assistant_after);
  // True while the file does not end in '\n' (a torn tail): the next append writes one first.
  bool needs_newline() const { return needs_newline_; }
  // Writes that '\n' now (repair), leaving whatever fragment precedes it in place.
  Status terminate_tail();
  // Writes the whole session now if it is not on disk yet (deferral off, or forced).
  Status persist(const model::SessionData& data);
  // With Deferral::kUntilPersist, first writes the whole session if it is not on disk yet. Then
  // syncs what was appended and gives the writer lock up (also after a failure, which it returns).
  Status close(const model::SessionData& data);
  // Atomically replaces the file with the session's lines (after a migration or a title change).
  // A no-op while nothing is on disk. kConflict if someone else changed the file.
  Status rewrite(const model::SessionData& data);
  // Atomically replaces the file on disk with `chunks` (a repair that leaves lines out). kConflict
  // if someone else changed the file. *replaced says the new file is in place, also when the error
  // is the directory sync after the rename (latched like every failed sync); *written then
  // describes it.
  Status replace(const std::vector<std::string_view>& chunks, bool* replaced, storage::FileInfo* written);
  // kPoisoned after an earlier write failure (nothing may be written), else OK.
  Status check_healthy() const;
  // kConflict when the file on disk is not the one we last wrote or read (another process wrote
  // or replaced it): checked before work that only makes sense on that file.
  Status check_unchanged();
  Status flush();
  // Renames the file (never over an existing one) and moves the writer lock with it.
  Status move(const std::string& to);
  // Remembers the first write/sync/rename failure (and returns it): also for the renames the
  // session does beside its file (the artifacts directory of a move).
  Status latch(Status st);

 private:
  Status first_write(const model::SessionData& data, std::string_view extra_line);
  Status ensure_writer();
  Status check_same_file();
  // After `bytes` reached the file: syncs when appends are durable, counts them, tells the observer.
  Status appended(size_t bytes);
  // Never throws: it runs after bytes reached the file, when the session must take the entry
  // whatever happens (session.cc, commit), and a write the index misses is found by its next
  // refresh.
  void tell_observer(const std::string& path) const noexcept {
    if (!observer_) return;
    try {
      observer_->written(path);
    } catch (...) {
    }
  }

  std::shared_ptr<storage::Fs> fs_;
  std::string path_;
  Durability durability_;
  Deferral defer_;
  bool persisted_ = false;
  bool needs_newline_ = false;
  storage::Expected expected_;  // the file as we last wrote or read it
  std::unique_ptr<storage::FileLock> lock_;
  std::unique_ptr<storage::WritableFile> writer_;
  Status sticky_;
  std::shared_ptr<WriteObserver> observer_;
};

}  // namespace xs::session
