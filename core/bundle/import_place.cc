#include "bundle/import_place.h"

#include <set>

#include "bundle/archive_io.h"
#include "storage/atomic_file.h"
#include "storage/path.h"

namespace xs::bundle {

Placement::Placement(std::shared_ptr<store::Store> store, Staging* staging, bool dry_run)
    : store_(std::move(store)), staging_(staging), dry_run_(dry_run) {}

Placement::~Placement() {
  if (done_) return;
  for (auto it = made_.rbegin(); it != made_.rend(); ++it) {
    try {
      store_->fs()->unlink(*it);
    } catch (...) {  // out of memory: the file stays, whole (it was verified)
    }
  }
}

Status Placement::run(const std::vector<StagedBlob>& blobs, const std::vector<PlacedSession>& sessions,
                      const std::vector<store::KeyRecord>& keys, ImportReport* report) {
  storage::Fs& fs = *store_->fs();
  if (!dry_run_ && !blobs.empty()) XS_RETURN_IF_ERROR(fs.make_dirs(store_->blobs().dir()));
  for (const StagedBlob& b : blobs) {
    auto action = place_blob(b);
    if (!action.ok()) return action.status().With("cannot import blob " + b.hash);
    report->blobs.emplace_back(b.hash, *action);
  }
  if (!dry_run_ && !blobs.empty()) XS_RETURN_IF_ERROR(fs.sync_dir(store_->blobs().dir()));
  std::set<std::string> dirs;
  for (const PlacedSession& s : sessions) {
    if (s.action == "present" || dry_run_) continue;
    XS_RETURN_IF_ERROR(place_session(s).With("cannot import session " + s.id));
    dirs.insert(storage::dir_name(s.path));
  }
  for (const std::string& d : dirs) XS_RETURN_IF_ERROR(fs.sync_dir(d));
  XS_RETURN_IF_ERROR(place_keys(keys, report));
  done_ = true;
  return Status::Ok();
}

Result<std::string> Placement::place_blob(const StagedBlob& b) {
  storage::Fs& fs = *store_->fs();
  std::string target = store_->blobs().path_of(b.hash);
  if (dry_run_) {
    auto there = fs.stat(target);
    return std::string(there.ok() && store_->blobs().check(b.hash).ok() ? "present" : "imported");
  }
  Status moved = fs.rename_noreplace(b.staged, target);
  if (moved.ok()) {
    staging_->release(b.staged);
    made_.push_back(target);
    return std::string("imported");
  }
  if (moved.code() != Code::kExists) return moved;
  if (store_->blobs().check(b.hash).ok()) return std::string("present");  // the staged copy goes with the staging
  // A damaged blob of that name: the verified copy replaces it.
  XS_RETURN_IF_ERROR(fs.rename(b.staged, target));
  staging_->release(b.staged);
  return std::string("imported");
}

Status Placement::place_session(const PlacedSession& s) {
  storage::Fs& fs = *store_->fs();
  XS_RETURN_IF_ERROR(fs.make_dirs(storage::dir_name(s.path)));
  if (s.staged && s.staged->file) {
    // The carried bytes, staged while the bundle was read: synced and renamed into place. Where
    // the rename cannot be (another file system under sessions/), they are written below.
    std::unique_ptr<storage::WritableFile> file = std::move(s.staged->file);
    XS_RETURN_IF_ERROR(file->sync());
    XS_RETURN_IF_ERROR(file->close());
    Status moved = fs.rename_noreplace(s.staged->staged, s.path);
    if (moved.code() == Code::kExists) {
      return Status::Exists(s.path + " appeared while the bundle was imported: import again");
    }
    if (moved.ok()) {
      staging_->release(s.staged->staged);
      made_.push_back(s.path);
      return Status::Ok();
    }
  }
  std::string temp = storage::temp_prefix(s.path) + random_suffix();
  auto out = fs.create_new(temp);
  if (!out.ok()) return out.status();
  storage::RemoveUnlessKept guard(fs, temp);
  XS_RETURN_IF_ERROR((*out)->append(s.bytes));
  XS_RETURN_IF_ERROR((*out)->sync());
  std::unique_ptr<storage::WritableFile> file = std::move(*out);
  XS_RETURN_IF_ERROR(file->close());
  Status moved = fs.rename_noreplace(temp, s.path);
  if (moved.code() == Code::kExists) {
    return Status::Exists(s.path + " appeared while the bundle was imported: import again");
  }
  XS_RETURN_IF_ERROR(moved);
  guard.keep();
  made_.push_back(s.path);
  return Status::Ok();
}

Status Placement::place_keys(const std::vector<store::KeyRecord>& keys, ImportReport* report) {
  const store::KeyStore& ks = store_->keys();
  std::vector<std::string> to_add;
  size_t first = report->keys.size();
  for (const store::KeyRecord& k : keys) {
    auto current = ks.get(k.key);
    if (!current.ok() && current.status().code() != Code::kNotFound) return current.status();
    const char* action = !current.ok() ? "imported" : *current == k.record ? "present" : "kept";
    report->keys.emplace_back(k.key, action);
    if (!current.ok()) to_add.push_back(k.key);
  }
  if (dry_run_ || to_add.empty()) return Status::Ok();
  // Decided again under the document's lock: a record another writer added meanwhile is kept.
  std::vector<Status> results;
  Status updated = ks.update_many(
      to_add,
      [&](std::string_view key, std::optional<std::string_view> current) -> Result<std::optional<std::string>> {
        for (size_t i = 0; i < keys.size(); ++i) {
          if (keys[i].key != key) continue;
          if (!current) return std::optional<std::string>(keys[i].record);
          report->keys[first + i].second = *current == keys[i].record ? "present" : "kept";
          return std::optional<std::string>(std::string(*current));
        }
        return std::optional<std::string>();
      },
      &results);
  XS_RETURN_IF_ERROR(updated.With("cannot import key records"));
  for (size_t i = 0; i < results.size(); ++i) XS_RETURN_IF_ERROR(results[i].With("cannot import key " + to_add[i]));
  return Status::Ok();
}

}  // namespace xs::bundle
