#include "store/store.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <vector>

#include "format/session_paths.h"
#include "storage/gzip.h"
#include "storage/path.h"
#include "store/key_stats.h"

namespace xs::store {

namespace {

// The observers of a store's writes. Sessions share this list with the store (they do not hold the
// store), so a session that outlives its store still tells the observers that live.
class WriteObservers final : public session::WriteObserver {
 public:
  void add(std::weak_ptr<session::WriteObserver> o) {
    std::lock_guard<std::mutex> lock(mu_);
    list_.erase(std::remove_if(list_.begin(), list_.end(), [](const auto& w) { return w.expired(); }), list_.end());
    list_.push_back(std::move(o));
  }
  void written(const std::string& path) override {
    std::vector<std::shared_ptr<session::WriteObserver>> live;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (const auto& w : list_) {
        if (auto o = w.lock()) live.push_back(std::move(o));
      }
    }
    for (const auto& o : live) o->written(path);
  }

 private:
  std::mutex mu_;
  std::vector<std::weak_ptr<session::WriteObserver>> list_;
};

std::optional<std::string> owned(std::optional<std::string_view> s) {
  return s ? std::optional<std::string>(std::string(*s)) : std::nullopt;
}

int64_t system_now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

Result<std::shared_ptr<Store>> Store::open(std::string root, StoreOptions options) {
  std::shared_ptr<storage::Fs> fs;
  if (options.in_memory) {
    if (options.fs) return Status::Invalid("a store in memory has its own file system");
    fs = storage::make_memory_fs();
    if (root.empty()) root = "/memory";
  } else {
    if (root.empty()) return Status::Invalid("root is empty");
    fs = options.fs ? std::move(options.fs) : storage::make_posix_fs();
    auto info = fs->stat(root);
    if (info.ok() && !info->is_dir) return Status::Invalid(root + " is not a directory");
  }
  std::optional<LoadedPolicy> policy;
  if (options.reset_policy) {
    auto loaded = load_policy(*storage::make_posix_fs(), *options.reset_policy);  // the host's zone database
    if (!loaded.ok()) return loaded.status().With("the store's reset policy");
    policy = std::move(*loaded);
  }
  auto store = std::shared_ptr<Store>(new Store(std::move(fs), std::move(root), options));
  store->default_policy_ = std::move(policy);
  return store;
}

Store::Store(std::shared_ptr<storage::Fs> fs, std::string root, const StoreOptions& options)
    : fs_(std::move(fs)),
      root_(std::move(root)),
      blobs_(std::make_shared<blobs::BlobStore>(fs_, root_)),
      default_dialect_(options.default_dialect),
      keys_(fs_, options.keys_path.empty() ? storage::join_path(root_, "sessions.json") : options.keys_path),
      observers_(std::make_shared<WriteObservers>()) {}

void Store::add_write_observer(std::weak_ptr<session::WriteObserver> observer) {
  static_cast<WriteObservers&>(*observers_).add(std::move(observer));
}

void Store::set_summary_source(std::weak_ptr<discovery::SummarySource> source) {
  std::lock_guard<std::mutex> hold(source_mu_);
  summary_source_ = std::move(source);
}

discovery::Finder Store::finder() const {
  std::lock_guard<std::mutex> hold(source_mu_);
  return discovery::Finder(fs_, root_, summary_source_.lock());
}

std::string Store::session_dir(std::string_view cwd) const { return format::session_dir(root_, cwd); }

session::SessionOptions Store::with_store(session::SessionOptions options) const {
  options.blobs = blobs_;
  if (!options.write_observer) options.write_observer = observers_;
  options.default_dialect = default_dialect_;
  if (options.key && !options.stats_sink) {
    options.stats_sink = std::make_shared<KeyStatsSink>(fs_, keys_.path(), *options.key);
  }
  return options;
}

Result<std::unique_ptr<session::Session>> Store::create_session(std::string_view cwd, session::SessionOptions options) {
  if (options.read_only) return Status::Invalid("a new session cannot be read-only");
  options.cwd = std::string(cwd);
  return session::Session::create(fs_, session_dir(cwd), with_store(std::move(options)));
}

Result<std::unique_ptr<session::Session>> Store::open_session(std::string_view path_or_id,
                                                              session::SessionOptions options) {
  std::string path(path_or_id);
  if (path.find('/') == std::string::npos && !fs_->stat(path).ok() && !options.create_if_missing) {
    auto found = finder().resolve(path, std::nullopt);
    if (!found.ok()) return found.status();
    path = std::move(*found);
  }
  return session::Session::open(fs_, std::move(path), with_store(std::move(options)));
}

Result<std::unique_ptr<session::Session>> Store::continue_recent(std::string_view cwd,
                                                                 std::optional<std::string_view> terminal_id,
                                                                 session::SessionOptions options) {
  if (options.read_only) return Status::Invalid("continue-recent opens for writing");
  options = with_store(std::move(options));
  std::string cwd_text(cwd);
  std::optional<std::string> terminal = owned(terminal_id);
  std::optional<std::string> path;
  if (terminal) path = finder().breadcrumb(*terminal, cwd_text);
  if (path && storage::is_archive_path(*path)) path.reset();  // archives open read-only
  if (!path) {
    discovery::ListQuery newest_first;
    newest_first.cwd = cwd_text;
    newest_first.limit = 1;
    newest_first.archived = false;
    auto newest = finder().list(newest_first);
    if (!newest.ok()) return newest.status();
    if (!newest->empty()) path = newest->front().path;
  }
  Result<std::unique_ptr<session::Session>> s = Status::Internal("unset");
  if (path) {
    s = session::Session::open(fs_, *path, std::move(options));
  } else {
    options.cwd = cwd_text;
    s = session::Session::create(fs_, session_dir(cwd), std::move(options));
  }
  if (s.ok() && terminal) {
    Status ignored = finder().write_breadcrumb(*terminal, cwd_text, (*s)->path());
    (void)ignored;  // best effort (see the header)
  }
  return s;
}

Result<std::unique_ptr<session::Session>> Store::fork_from(std::string_view source, std::string_view cwd,
                                                           session::SessionOptions options) {
  options.cwd = std::string(cwd);
  return session::fork_from(fs_, std::string(source), session_dir(cwd), with_store(std::move(options)));
}

Result<std::unique_ptr<session::Session>> Store::fork_session(const session::Session& from,
                                                              session::SessionOptions options) {
  return session::fork_session(from, with_store(std::move(options)));
}

Result<std::unique_ptr<session::Session>> Store::create_branched(const session::Session& from,
                                                                 std::optional<std::string_view> leaf,
                                                                 session::SessionOptions options) {
  return session::create_branched(from, leaf, with_store(std::move(options)));
}

Status Store::move_session(session::Session& s, std::string_view cwd) {
  return s.move_to(session_dir(cwd), std::string(cwd));
}

Result<std::vector<discovery::SessionSummary>> Store::list(const discovery::ListQuery& query) const {
  return finder().list(query);
}

Result<std::string> Store::resolve(std::string_view query, std::optional<std::string_view> cwd) const {
  return finder().resolve(std::string(query), owned(cwd));
}

Status Store::write_breadcrumb(std::string_view terminal_id, std::string_view cwd, std::string_view session_path) {
  return finder().write_breadcrumb(std::string(terminal_id), std::string(cwd), std::string(session_path));
}

Result<blobs::BlobListing> Store::list_blobs(bool verify) { return blobs::list_blobs(*fs_, *blobs_, verify); }

Result<blobs::GcReport> Store::collect_garbage(blobs::GcOptions options) {
  if (options.now_ms == 0) options.now_ms = system_now_ms();
  return blobs::collect_garbage(*fs_, *blobs_, root_, options);
}

Result<retention::ArchiveReport> Store::archive(retention::ArchiveOptions options) {
  if (options.now_ms == 0) options.now_ms = system_now_ms();
  return retention::archive(fs_, finder(), options);
}

Result<retention::PruneReport> Store::prune(retention::PruneOptions options) {
  if (options.now_ms == 0) options.now_ms = system_now_ms();
  return retention::prune(fs_, finder(), options);
}

}  // namespace xs::store
