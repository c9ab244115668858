#include "bundle/bundle_reader.h"

#include <algorithm>
#include <chrono>
#include <future>
#include <map>
#include <optional>
#include <system_error>

#include "bundle/archive_io.h"
#include "json/json_string.h"
#include "storage/path.h"

namespace xs::bundle {

namespace {

constexpr size_t kPiece = 1 << 20;
// What tar adds around the members' bytes: a header and padding per member (pax headers
// included), the end-of-archive blocks. Past this, the stream holds what no manifest declared.
constexpr uint64_t kTarOverheadPerMember = 4096;
constexpr uint64_t kTarOverhead = 64 << 10;

std::string quoted(std::string_view name) { return "\"" + json::to_valid_utf8(name) + "\""; }

// An absolute name, a Windows drive or a ".." component: a name that could leave the directory it
// is extracted into, whatever the manifest says.
bool escapes(std::string_view name) {
  if (name.empty() || name.front() == '/' || name.front() == '\\') return true;
  if (name.size() > 1 && name[1] == ':') return true;
  for (size_t start = 0; start <= name.size();) {
    size_t end = name.find_first_of("/\\", start);
    if (end == std::string_view::npos) end = name.size();
    if (name.substr(start, end - start) == "..") return true;
    start = end + 1;
  }
  return false;
}

// Where a member's bytes go while they are read and checked.
class Sink {
 public:
  virtual ~Sink() = default;
  // Where the member's bytes from `offset` on may be decompressed straight into, when the sink
  // keeps the member in memory (put() is then handed that very place); null: into a piece buffer.
  virtual char* place_at(uint64_t offset) {
    (void)offset;
    return nullptr;
  }
  virtual Status put(std::string_view bytes) = 0;
  virtual Status done() { return Status::Ok(); }
};

class StringSink : public Sink {
 public:
  explicit StringSink(std::string* out) : out_(out) {}
  Status put(std::string_view bytes) override {
    out_->append(bytes);
    return Status::Ok();
  }

 private:
  std::string* out_;
};

// A session's bytes, read into one buffer of the declared size (big buffers are backed by huge
// pages, util/big_buffer.h: a 100 MB session costs 50 page faults, not 25,000), and, when `file`
// is given, written on to its staging file with the disk's writing started piece by piece.
class SessionSink : public Sink {
 public:
  // Room for one byte past `declared`: the byte that tells a member is larger than declared.
  SessionSink(storage::PaddedBuffer* out, uint64_t declared, storage::WritableFile* file) : out_(out), file_(file) {
    *out_ = storage::PaddedBuffer(static_cast<size_t>(declared) + 1);
  }
  char* place_at(uint64_t offset) override { return out_->data() + offset; }
  Status put(std::string_view bytes) override {
    char* at = out_->data() + filled_;
    if (bytes.data() != at) std::copy(bytes.begin(), bytes.end(), at);
    filled_ += bytes.size();
    if (!file_) return Status::Ok();
    XS_RETURN_IF_ERROR(file_->append(bytes));
    file_->start_sync();
    return Status::Ok();
  }
  Status done() override {
    out_->truncate(filled_);
    return Status::Ok();
  }

 private:
  storage::PaddedBuffer* out_;
  storage::WritableFile* file_;
  size_t filled_ = 0;
};

class NullSink : public Sink {
 public:
  Status put(std::string_view) override { return Status::Ok(); }
};

// Staged files waiting for their sync: written one after another and synced together, most of
// the syncs find their data on the disk already (the first one's journal commit took it), where
// a sync after each of a hundred blobs waits for the disk a hundred times. At most kBatch open.
class SyncBatch {
 public:
  static constexpr size_t kBatch = 64;
  ~SyncBatch() {
    for (auto& f : files_) f->close();
  }
  Status add(std::unique_ptr<storage::WritableFile> f) {
    f->start_sync();
    files_.push_back(std::move(f));
    return files_.size() < kBatch ? Status::Ok() : sync_all();
  }
  Status sync_all() {
    Status first;
    for (auto& f : files_) {
      Status st = f->sync();
      Status closed = f->close();
      if (first.ok()) first = st.ok() ? closed : st;
    }
    files_.clear();
    return first;
  }

 private:
  std::vector<std::unique_ptr<storage::WritableFile>> files_;
};

class FileSink : public Sink {
 public:
  FileSink(std::unique_ptr<storage::WritableFile> f, SyncBatch* batch) : f_(std::move(f)), batch_(batch) {}
  ~FileSink() override {
    if (f_) f_->close();
  }
  Status put(std::string_view bytes) override { return f_->append(bytes); }
  Status done() override { return batch_->add(std::move(f_)); }

 private:
  std::unique_ptr<storage::WritableFile> f_;
  SyncBatch* batch_;
};

// Hashes pieces of a member and hands them to its sink on a second thread, while the reader
// decompresses the next piece: decompression, SHA-256 and the write each take a core's worth of
// a large member (docs/bundles.md#measured). A piece is read into the sink's own place, or into
// one of two buffers taken in turn: the worker's piece is never the one being read.
class PieceWorker {
 public:
  PieceWorker(Sha256& sha, Sink& sink) : sha_(sha), sink_(sink) {}
  // Where to read the next piece (kPiece bytes) when the sink gives no place.
  char* buffer() {
    if (!buffers_[next_]) buffers_[next_].reset(new char[kPiece]);
    return buffers_[next_].get();
  }
  // Waits for the piece before (its status), then starts on this one, which stays untouched until
  // the next take() or wait().
  Status take(std::string_view piece) {
    XS_RETURN_IF_ERROR(wait());
    next_ ^= 1;
    try {
      behind_ = std::async(std::launch::async, [this, piece] { return work(piece); });
    } catch (const std::system_error&) {  // no thread to be had: the work is done here
      return work(piece);
    }
    return Status::Ok();
  }
  Status wait() { return behind_.valid() ? behind_.get() : Status::Ok(); }
  ~PieceWorker() { wait(); }  // the thread uses the hash, the sink and the piece

 private:
  // Never throws: an exception would leave the thread through wait(), called by the destructor.
  Status work(std::string_view bytes) {
    try {
      sha_.update(bytes);
      return sink_.put(bytes);
    } catch (const std::bad_alloc&) {
      return Status(Code::kNoMem, "out of memory while reading the bundle");
    }
  }
  Sha256& sha_;
  Sink& sink_;
  std::unique_ptr<char[]> buffers_[2];
  int next_ = 0;
  std::future<Status> behind_;
};

// One member's bytes into `sink`, held to the manifest's size and digest.
Status take_member(ArchiveReader& r, const ArchiveReader::Header& h, const MemberInfo& declared, Sink& sink) {
  std::string too_large =
      "member " + quoted(h.name) + " is larger than the manifest says (" + std::to_string(declared.size) + " bytes)";
  if (h.size > declared.size) return Status::Corrupt(too_large);
  Sha256 sha;
  uint64_t got = 0;
  // A member of one piece or less is done here: a thread would cost more than it saves.
  std::optional<PieceWorker> worker;
  if (declared.size > kPiece) worker.emplace(sha, sink);
  for (;;) {
    // Never more than one byte past the declared size: enough to know it is larger.
    size_t room = static_cast<size_t>(std::min<uint64_t>(kPiece, declared.size + 1 - got));
    char* into = sink.place_at(got);
    if (!into && worker) into = worker->buffer();
    auto piece = into ? r.read_into(into, room) : r.read(room);
    if (!piece.ok()) return piece.status();
    if (piece->empty()) break;
    got += piece->size();
    if (got > declared.size) return Status::Corrupt(too_large);
    if (worker) {
      XS_RETURN_IF_ERROR(worker->take(*piece));
    } else {
      sha.update(*piece);
      XS_RETURN_IF_ERROR(sink.put(*piece));
    }
  }
  if (worker) XS_RETURN_IF_ERROR(worker->wait());
  if (got != declared.size) {
    return Status::Corrupt("member " + quoted(h.name) + " holds " + std::to_string(got) + " bytes; the manifest says " +
                           std::to_string(declared.size));
  }
  if (sha.hex() != declared.sha256) {
    return Status::Corrupt("member " + quoted(h.name) + " does not match its SHA-256 in the manifest");
  }
  return sink.done();
}

// A new staging file: its path in *path, open for writing.
Result<std::unique_ptr<storage::WritableFile>> stage(Staging& staging, storage::Fs& fs, std::string* path) {
  auto staged = staging.next_path();
  if (!staged.ok()) return staged.status();
  *path = std::move(*staged);
  return fs.create_new(*path);
}

Result<Manifest> take_manifest(ArchiveReader& r) {
  ArchiveReader::Header h;
  auto more = r.next(&h);
  if (!more.ok()) return more.status();
  if (!*more) return Status::Corrupt("the bundle is empty: it has no manifest.json");
  if (h.name != kManifestName) {
    return Status::Corrupt("the bundle's first member is " + quoted(h.name) + ", not manifest.json");
  }
  if (!h.regular) return Status::Corrupt("manifest.json is " + h.kind);
  std::string text;
  for (;;) {
    auto piece = r.read(kPiece);
    if (!piece.ok()) return piece.status();
    if (piece->empty()) break;
    text += *piece;
    if (text.size() > kMaxManifestBytes) {
      return Status::Corrupt("manifest.json is larger than " + std::to_string(kMaxManifestBytes >> 20) + " MiB");
    }
  }
  return parse_manifest(text);
}

constexpr std::string_view kStagingPrefix = ".xs-bundle-";
constexpr std::string_view kLockSuffix = ".lock";
// A lock file younger than this may belong to an import between creating it and locking it.
constexpr int64_t kLockGraceMs = 60 * 1000;
// How long an import waits for its own new lock file (a sweep may hold it for a moment).
constexpr std::chrono::milliseconds kOwnLockWait{2000};

// The <random> of a staging file or lock name, or empty.
std::string_view staging_token(std::string_view name) {
  if (name.compare(0, kStagingPrefix.size(), kStagingPrefix) != 0) return {};
  name.remove_prefix(kStagingPrefix.size());
  size_t end = name.find_first_of("-.");
  if (end == 0 || end == std::string_view::npos) return {};
  std::string_view rest = name.substr(end);
  bool lock = rest == kLockSuffix;
  bool file = rest.size() > 1 && rest[0] == '-' && rest.find_first_not_of("0123456789", 1) == std::string_view::npos;
  return lock || file ? name.substr(0, end) : std::string_view();
}

int64_t wall_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::string lock_name(std::string_view token) {
  return std::string(kStagingPrefix) + std::string(token) + std::string(kLockSuffix);
}

}  // namespace

size_t sweep_staging(storage::Fs& fs, const std::string& root) {
  auto names = fs.list_dir(root);
  if (!names.ok()) return 0;
  std::map<std::string, std::vector<std::string>> by_token;  // token -> its staging files
  for (const std::string& n : *names) {
    std::string_view token = staging_token(n);
    if (token.empty()) continue;
    auto& files = by_token[std::string(token)];
    if (n != lock_name(token)) files.push_back(n);
  }
  size_t removed = 0;
  for (const auto& [token, files] : by_token) {
    std::string lock_path = storage::join_path(root, lock_name(token));
    // An import makes its lock file before its first staging file and removes it after its last,
    // so files without a lock file are a finished import's leftovers: nothing to lock (locking
    // would create the file).
    std::unique_ptr<storage::FileLock> held;
    if (fs.stat(lock_path).ok()) {
      auto taken = fs.try_lock(lock_path);
      if (!taken.ok()) continue;  // a running import's (or a lock we cannot take: left alone)
      held = std::move(*taken);
    }
    for (const std::string& f : files) {
      if (fs.unlink(storage::join_path(root, f)).ok()) ++removed;
    }
    if (!held) continue;
    auto info = fs.stat(lock_path);
    if (info.ok() && info->mtime_ms + kLockGraceMs < wall_ms()) fs.unlink(lock_path);
  }
  return removed;
}

Staging::Staging(std::shared_ptr<storage::Fs> fs, std::string root)
    : fs_(std::move(fs)), root_(std::move(root)), token_(random_suffix()) {
  sweep_staging(*fs_, root_);
}

Staging::~Staging() {
  for (const std::string& p : paths_) {
    try {
      fs_->unlink(p);
    } catch (...) {  // out of memory: a leftover staging file, swept by the next import
    }
  }
  if (!lock_) return;
  // The lock file goes while it is still held, so no sweep takes it for a crashed import's.
  try {
    fs_->unlink(storage::join_path(root_, lock_name(token_)));
  } catch (...) {  // out of memory: an unlocked lock file, swept by the next import
  }
}

Result<std::string> Staging::next_path() {
  if (!lock_) {
    XS_RETURN_IF_ERROR(fs_->make_dirs(root_));
    auto lock = fs_->lock(storage::join_path(root_, lock_name(token_)), kOwnLockWait);
    if (!lock.ok()) return lock.status().With("cannot lock the import's staging files");
    lock_ = std::move(*lock);
  }
  paths_.push_back(storage::join_path(root_, std::string(kStagingPrefix) + token_ + "-" + std::to_string(n_++)));
  return paths_.back();
}

void Staging::release(const std::string& path) { paths_.erase(std::find(paths_.begin(), paths_.end(), path)); }

Result<Received> read_bundle(const std::shared_ptr<storage::Fs>& bundle_fs, const std::string& bundle_path,
                             Staging* staging, storage::Fs* store_fs) {
  auto reader = ArchiveReader::open(bundle_fs, bundle_path);
  if (!reader.ok()) return reader.status();
  ArchiveReader& r = **reader;
  Received got;
  auto manifest = take_manifest(r);
  if (!manifest.ok()) return manifest.status();
  got.manifest = std::move(*manifest);
  const std::vector<MemberInfo>& members = got.manifest.members;
  std::unordered_map<std::string, size_t> index;
  uint64_t bound = kTarOverhead + kMaxManifestBytes;
  for (size_t i = 0; i < members.size(); ++i) {
    index[members[i].path] = i;
    bound += members[i].size + kTarOverheadPerMember;
  }
  std::vector<bool> seen(members.size());
  SyncBatch batch;
  ArchiveReader::Header h;
  for (;;) {
    auto more = r.next(&h);
    if (!more.ok()) return more.status();
    if (!*more) break;
    if (escapes(h.name)) return Status::Corrupt("member " + quoted(h.name) + " has an absolute or \"..\" path");
    if (!h.regular) return Status::Corrupt("member " + quoted(h.name) + " is " + h.kind + ", not a regular file");
    auto it = index.find(h.name);
    if (it == index.end()) return Status::Corrupt("member " + quoted(h.name) + " is not in the manifest");
    if (seen[it->second]) return Status::Corrupt("member " + quoted(h.name) + " appears twice");
    seen[it->second] = true;
    const MemberInfo& declared = members[it->second];
    std::unique_ptr<Sink> sink;
    if (declared.path.compare(0, 6, "blobs/") == 0) {
      StagedBlob blob{declared.sha256, declared.size, {}};
      if (staging) {
        auto f = stage(*staging, *store_fs, &blob.staged);
        if (!f.ok()) return f.status().With("cannot stage blob " + declared.sha256);
        sink = std::make_unique<FileSink>(std::move(*f), &batch);
      } else {
        sink = std::make_unique<NullSink>();
      }
      got.blobs.push_back(std::move(blob));
    } else if (declared.path == kKeysName) {
      got.keys.reserve(declared.size);
      sink = std::make_unique<StringSink>(&got.keys);
    } else {
      ReceivedSession& session = got.sessions[declared.path];
      if (staging) {
        auto f = stage(*staging, *store_fs, &session.staged);
        if (!f.ok()) return f.status().With("cannot stage session " + declared.path);
        session.file = std::move(*f);
      }
      sink = std::make_unique<SessionSink>(&session.bytes, declared.size, session.file.get());
    }
    XS_RETURN_IF_ERROR(take_member(r, h, declared, *sink));
    if (r.stream_bytes() > bound) return Status::Corrupt("the bundle inflates past what its manifest declares");
  }
  for (size_t i = 0; i < members.size(); ++i) {
    if (!seen[i]) return Status::Corrupt("member " + quoted(members[i].path) + " is missing from the bundle");
  }
  XS_RETURN_IF_ERROR(batch.sync_all().With("cannot stage the bundle's blobs"));
  return got;
}

}  // namespace xs::bundle
