#include "session/persistence.h"

#include <new>
#include <vector>

#include "storage/path.h"

namespace xs::session {

using model::kBom;
using model::Line;
using model::SessionData;

namespace {

// Every line of the session, each followed by '\n', as chunks for one sequential write.
std::vector<std::string_view> file_chunks(const SessionData& data, std::string_view extra_line) {
  static constexpr std::string_view kNewline = "\n";
  std::vector<std::string_view> chunks;
  chunks.reserve(2 * data.lines.size() + 3);
  if (data.bom) chunks.push_back(kBom);
  for (const Line& l : data.lines) {
    chunks.push_back(l.bytes);
    chunks.push_back(kNewline);
  }
  if (!extra_line.empty()) {
    chunks.push_back(extra_line);
    chunks.push_back(kNewline);
  }
  return chunks;
}

bool is_write_failure(Code c) { return c != Code::kConflict && c != Code::kLocked; }

}  // namespace

Persistence::~Persistence() {
  if (writer_) writer_->close();
}

Status Persistence::latch(Status st) {
  if (!st.ok() && sticky_.ok() && is_write_failure(st.code())) sticky_ = st;
  return st;
}

Status Persistence::lock() {
  if (lock_) return Status::Ok();
  auto l = fs_->try_lock(writer_lock_path(path_));
  if (!l.ok()) {
    if (l.status().code() == Code::kLocked) {
      return Status(Code::kLocked, path_ + " is open for writing by another handle or process");
    }
    return l.status();
  }
  lock_ = std::move(*l);
  return Status::Ok();
}

Status Persistence::rename_unwritten(const std::string& to) {
  if (lock_) {
    XS_RETURN_IF_ERROR(fs_->make_dirs(storage::dir_name(to)));
    auto l = fs_->try_lock(writer_lock_path(to));
    if (!l.ok()) {
      if (l.status().code() == Code::kLocked)
        return Status(Code::kLocked, to + " is open for writing by another handle or process");
      return l.status();
    }
    fs_->unlink(writer_lock_path(path_));  // while still holding it
    lock_ = std::move(*l);
  }
  path_ = to;
  return Status::Ok();
}

void Persistence::abandon_lock() {
  if (!lock_) return;
  fs_->unlink(writer_lock_path(path_));  // while still holding it, so no other writer is using it
  lock_.reset();
}

void Persistence::adopt_existing(const storage::FileInfo& read, bool ends_with_newline) {
  persisted_ = true;
  expected_ = storage::Expected::Of(read);
  needs_newline_ = !ends_with_newline && read.size > 0;
}

Status Persistence::first_write(const SessionData& data, std::string_view extra_line) {
  XS_RETURN_IF_ERROR(latch(fs_->make_dirs(storage::dir_name(path_))));
  XS_RETURN_IF_ERROR(lock());
  storage::FileInfo written;
  Status st = storage::atomic_replace(*fs_, path_, file_chunks(data, extra_line), storage::Expected::None(), &written);
  if (!st.ok()) return latch(st);
  persisted_ = true;
  expected_ = storage::Expected::Of(written);
  needs_newline_ = false;
  tell_observer(path_);
  return Status::Ok();
}

Status Persistence::persist(const SessionData& data) {
  XS_RETURN_IF_ERROR(check_healthy());
  if (persisted_) return Status::Ok();
  return first_write(data, {});
}

Status Persistence::check_same_file() {
  auto now = fs_->stat(path_);
  // A stat that failed for another reason than a missing file (an I/O error, a storage whose
  // server is gone) says nothing about another writer: report it as it is.
  if (!now.ok() && now.status().code() != Code::kNotFound) return now.status();
  if (!now.ok() || now->dev != expected_.dev || now->ino != expected_.ino) {
    return Status(Code::kConflict, path_ + " was replaced or removed by another process; not appending");
  }
  if (now->size != expected_.size && now->size > 0) {
    // Another process wrote to the file without our lock (an older agent, a killed one): if it left
    // a torn line, our record must not be glued to it (docs/guarantees.md#g4), so look at the last byte it wrote.
    storage::PaddedBuffer last;
    XS_RETURN_IF_ERROR(fs_->read_range(path_, now->size - 1, 1, &last));
    if (last.view() != "\n") needs_newline_ = true;
  }
  return Status::Ok();
}

Status Persistence::ensure_writer() {
  if (writer_) return Status::Ok();
  auto w = fs_->open_append(path_);
  if (!w.ok()) {
    if (w.status().code() == Code::kNotFound) {
      return Status(Code::kConflict, path_ + " was removed by another process");
    }
    return w.status();
  }
  auto fi = (*w)->stat();
  if (!fi.ok()) return fi.status();
  if (fi->dev != expected_.dev || fi->ino != expected_.ino) {
    return Status(Code::kConflict, path_ + " was replaced by another process since it was read");
  }
  writer_ = std::move(*w);
  return Status::Ok();
}

Status Persistence::append_record(const SessionData& data, std::string_view record, bool assistant_after) {
  XS_RETURN_IF_ERROR(check_healthy());
  if (record.empty() || record.back() != '\n') return Status::Internal("an entry record must end with a newline");
  if (!persisted_) {
    if (defer_ == Deferral::kUntilPersist || (defer_ == Deferral::kUntilAssistant && !assistant_after)) {
      return Status::Ok();
    }
    return first_write(data, record.substr(0, record.size() - 1));
  }
  XS_RETURN_IF_ERROR(ensure_writer());
  if (writer_->has_append_if() && !needs_newline_) {
    // One step where the storage can check and write together (docs/storage.md#one-step-appends): a
    // conflict wrote nothing, and the checks below find out what changed.
    Status st = writer_->append_if(path_, expected_.size, record);
    if (st.ok()) return appended(record.size());
    if (st.code() != Code::kConflict) return latch(std::move(st));
  }
  XS_RETURN_IF_ERROR(check_same_file());
  std::string after_torn;  // only after a torn tail: never glue a new line onto its fragment
  if (needs_newline_) record = after_torn.append("\n").append(record);
  XS_RETURN_IF_ERROR(latch(writer_->append(record)));
  needs_newline_ = false;
  return appended(record.size());
}

Status Persistence::appended(size_t bytes) {
  if (durability_ == Durability::kSync) XS_RETURN_IF_ERROR(latch(writer_->sync()));
  expected_.size += bytes;
  tell_observer(path_);
  return Status::Ok();
}

Status Persistence::terminate_tail() {
  XS_RETURN_IF_ERROR(check_healthy());
  if (!persisted_ || !needs_newline_) return Status::Ok();
  XS_RETURN_IF_ERROR(ensure_writer());
  XS_RETURN_IF_ERROR(check_same_file());
  XS_RETURN_IF_ERROR(latch(writer_->append("\n")));
  // A repair is asked for explicitly and rarely: make it durable whatever the append mode.
  XS_RETURN_IF_ERROR(latch(writer_->sync()));
  needs_newline_ = false;
  expected_.size += 1;
  tell_observer(path_);
  return Status::Ok();
}

Status Persistence::check_healthy() const {
  if (!sticky_.ok()) return Status(Code::kPoisoned, "an earlier write failed: " + sticky_.message());
  return Status::Ok();
}

Status Persistence::check_unchanged() {
  auto now = fs_->stat(path_);
  if (!now.ok() && now.status().code() != Code::kNotFound) return now.status();
  if (!now.ok() || now->dev != expected_.dev || now->ino != expected_.ino || now->size != expected_.size) {
    return Status(Code::kConflict, path_ + " was changed by another process since it was read; reopen it");
  }
  return Status::Ok();
}

Status Persistence::rewrite(const SessionData& data) {
  XS_RETURN_IF_ERROR(check_healthy());
  if (!persisted_) return Status::Ok();
  bool replaced = false;
  storage::FileInfo written;
  return replace(file_chunks(data, {}), &replaced, &written);
}

Status Persistence::replace(const std::vector<std::string_view>& chunks, bool* replaced, storage::FileInfo* written) {
  *replaced = false;
  XS_RETURN_IF_ERROR(check_healthy());
  XS_RETURN_IF_ERROR(lock());
  bool lookup_failed = false;
  Status st = storage::atomic_replace(*fs_, path_, chunks, expected_, written, &lookup_failed, replaced);
  if (*replaced) {
    // The old descriptor points at the replaced inode; the next append opens the new file.
    if (writer_) {
      writer_->close();
      writer_.reset();
    }
    expected_ = storage::Expected::Of(*written);
    needs_newline_ = false;
    tell_observer(path_);
  }
  if (!st.ok()) return lookup_failed ? st : latch(st);
  return Status::Ok();
}

Status Persistence::flush() {
  XS_RETURN_IF_ERROR(check_healthy());
  if (!writer_) return Status::Ok();  // nothing appended since the last atomic (synced) write
  return latch(writer_->sync());
}

Status Persistence::move(const std::string& to) {
  // Every string is made before the rename: once the file has moved, the handle must follow it
  // without an allocation that could fail and leave it pointing at the old name.
  std::string new_path = to, to_lock = writer_lock_path(to), from_lock = writer_lock_path(path_);
  std::string to_dir = storage::dir_name(to), from_dir = storage::dir_name(path_);
  auto new_lock = fs_->try_lock(to_lock);
  if (!new_lock.ok()) return new_lock.status();
  Status st = fs_->rename_noreplace(path_, to);
  if (!st.ok()) {
    new_lock->reset();
    fs_->unlink(to_lock);
    // A name already taken is a refusal, not a failure of the file system; anything else is
    // latched like every other failed rename.
    if (st.code() == Code::kExists) return Status(Code::kExists, to + " already exists");
    return latch(st);
  }
  // The file is at `to` now whatever the directory syncs say: follow it, then report them.
  try {
    fs_->unlink(from_lock);          // names nothing any more; dropped while still holding it
  } catch (const std::bad_alloc&) {  // only its error text could not be made: the result is ignored
  }
  lock_ = std::move(*new_lock);
  path_.swap(new_path);
  tell_observer(new_path);  // the old name: gone
  tell_observer(path_);
  XS_RETURN_IF_ERROR(latch(fs_->sync_dir(to_dir)));
  return latch(fs_->sync_dir(from_dir));
}

Status Persistence::close(const SessionData& data) {
  Status st = defer_ == Deferral::kUntilPersist ? persist(data) : Status::Ok();
  if (st.ok()) st = flush();
  if (writer_) {
    Status c = writer_->close();
    writer_.reset();
    if (st.ok()) st = latch(c);
  }
  lock_.reset();
  return st;
}

}  // namespace xs::session
