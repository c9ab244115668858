#include "storage/crash_fs.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <string_view>

#include "storage/path.h"

namespace xs::storage {

namespace {

using Op = CrashFs::Op;

// Mtimes come from a counter, not the clock, so two runs of a workload record the same thing.
constexpr int64_t kEpochMs = 1767225600000;  // 2026-01-01T00:00:00Z
constexpr uint64_t kSector = 512;            // the unit a disk writes whole or not at all

Status missing(const std::string& path) { return Status::NotFound(path + ": no such file or directory"); }

class CrashFile final : public WritableFile {
 public:
  CrashFile(std::shared_ptr<CrashFs> fs, uint64_t ino) : fs_(std::move(fs)), ino_(ino) {}
  ~CrashFile() override {
    if (open_) fs_->file_close(ino_);
  }
  Status append(std::string_view data) override { return open_ ? fs_->file_append(ino_, data) : closed(); }
  Status sync() override { return open_ ? fs_->file_sync(ino_) : closed(); }
  Result<FileInfo> stat() override {
    if (!open_) return closed();
    return fs_->file_stat(ino_);
  }
  Status close() override {
    if (!open_) return closed();
    open_ = false;
    return fs_->file_close(ino_);
  }

 private:
  static Status closed() { return Status(Code::kMisuse, "file is closed"); }
  std::shared_ptr<CrashFs> fs_;
  uint64_t ino_;
  bool open_ = true;
};

class CrashLock final : public FileLock {
 public:
  CrashLock(std::shared_ptr<CrashFs> fs, std::string path) : fs_(std::move(fs)), path_(std::move(path)) {}
  ~CrashLock() override {
    if (armed_) fs_->release_lock(path_);
  }
  void arm() { armed_ = true; }  // from now on, destroying it releases the lock

 private:
  std::shared_ptr<CrashFs> fs_;
  std::string path_;
  bool armed_ = false;
};

bool is_name_op(Op op) {
  return op == Op::kMkdir || op == Op::kCreate || op == Op::kRename || op == Op::kRenameNoReplace ||
         op == Op::kUnlink || op == Op::kLink;
}

// splitmix64: small, fast, and the same sequence everywhere for a seed.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t operator()() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) { return n ? (*this)() % n : 0; }

 private:
  uint64_t state_;
};

// Damage in place of lost bytes: zeros (a hole: the size reached the disk, the data did not) or
// random bytes (whatever the sector held before).
void damage(std::string& out, uint64_t lo, uint64_t hi, Rng& rng) {
  if (rng.below(2)) {
    std::fill(out.begin() + static_cast<std::ptrdiff_t>(lo), out.begin() + static_cast<std::ptrdiff_t>(hi), '\0');
  } else {
    for (uint64_t i = lo; i < hi; ++i) out[i] = static_cast<char>(rng() & 0xFF);
  }
}

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h * 0xFF51AFD7ED558CCDull;
}

}  // namespace

// --- the recording seam ---------------------------------------------------------------------

CrashFs::NoReplaceRename CrashFs::build_default() {
#if defined(XS_GENERIC_POSIX_FS)
  return NoReplaceRename::kLinkThenUnlink;
#else
  return NoReplaceRename::kAtomic;
#endif
}

CrashFs::CrashFs(NoReplaceRename how) : how_(how) { dirs_.insert("/"); }

size_t CrashFs::ops() const {
  std::lock_guard<std::mutex> g(mu_);
  return trace_.size();
}

std::vector<CrashFs::Record> CrashFs::trace() const {
  std::lock_guard<std::mutex> g(mu_);
  return trace_;
}

std::string CrashFs::contents(uint64_t ino) const {
  std::lock_guard<std::mutex> g(mu_);
  auto it = inodes_.find(ino);
  return it == inodes_.end() ? std::string() : it->second.data;
}

void CrashFs::log_locked(Record r) { trace_.push_back(std::move(r)); }

uint64_t CrashFs::new_inode_locked(const std::string& path) {
  uint64_t ino = next_ino_++;
  inodes_[ino].mtime_ms = kEpochMs + static_cast<int64_t>(trace_.size());
  names_[path] = ino;
  log_locked({Op::kCreate, path, {}, ino, 0, 0});
  return ino;
}

FileInfo CrashFs::info_locked(uint64_t ino) const {
  const Inode& n = inodes_.at(ino);
  FileInfo fi;
  fi.dev = 1;
  fi.ino = ino;
  fi.size = n.data.size();
  fi.mtime_ms = n.mtime_ms;
  fi.is_regular = true;
  return fi;
}

Status CrashFs::read_file(const std::string& path, uint64_t max_bytes, PaddedBuffer* out, FileInfo* info) {
  std::lock_guard<std::mutex> g(mu_);
  auto it = names_.find(path);
  if (it == names_.end()) return dirs_.count(path) ? Status::Invalid(path + " is a directory") : missing(path);
  const std::string& d = inodes_.at(it->second).data;
  if (d.size() > max_bytes) return Status::Limit(path + " is larger than " + std::to_string(max_bytes) + " bytes");
  *out = PaddedBuffer::Copy(d);
  if (info) *info = info_locked(it->second);
  return Status::Ok();
}

Result<std::unique_ptr<WritableFile>> CrashFs::open_append(const std::string& path) {
  std::lock_guard<std::mutex> g(mu_);
  auto it = names_.find(path);
  if (it == names_.end()) return missing(path);
  return std::unique_ptr<WritableFile>(new CrashFile(shared_from_this(), it->second));
}

Result<std::unique_ptr<WritableFile>> CrashFs::create_new(const std::string& path) {
  std::lock_guard<std::mutex> g(mu_);
  if (names_.count(path) || dirs_.count(path)) return Status::Exists("create " + path + ": exists");
  if (!dirs_.count(dir_name(path))) return missing(dir_name(path));
  uint64_t ino = new_inode_locked(path);
  return std::unique_ptr<WritableFile>(new CrashFile(shared_from_this(), ino));
}

Status CrashFs::rename_locked(const std::string& from, const std::string& to, bool replace) {
  auto it = names_.find(from);
  if (it == names_.end()) {
    return dirs_.count(from) ? Status::Invalid("renaming directories is not modelled") : missing(from);
  }
  if (!dirs_.count(dir_name(to))) return missing(dir_name(to));
  if (dirs_.count(to)) return Status::Invalid("rename " + from + " -> " + to + ": a directory");
  if (!replace && names_.count(to)) return Status::Exists("rename " + from + " -> " + to + ": exists");
  uint64_t ino = it->second;
  names_.erase(it);
  names_[to] = ino;
  if (!replace && how_ == NoReplaceRename::kLinkThenUnlink) {
    log_locked({Op::kLink, from, to, ino, 0, 0});
    log_locked({Op::kUnlink, from, {}, ino, 0, 0});
  } else {
    log_locked({replace ? Op::kRename : Op::kRenameNoReplace, from, to, ino, 0, 0});
  }
  return Status::Ok();
}

Status CrashFs::rename(const std::string& from, const std::string& to) {
  std::lock_guard<std::mutex> g(mu_);
  return rename_locked(from, to, true);
}

Status CrashFs::rename_noreplace(const std::string& from, const std::string& to) {
  std::lock_guard<std::mutex> g(mu_);
  return rename_locked(from, to, false);
}

Status CrashFs::unlink(const std::string& path) {
  std::lock_guard<std::mutex> g(mu_);
  auto it = names_.find(path);
  if (it == names_.end()) return missing(path);
  uint64_t ino = it->second;
  names_.erase(it);
  log_locked({Op::kUnlink, path, {}, ino, 0, 0});
  return Status::Ok();
}

Status CrashFs::make_dirs(const std::string& path) {
  std::lock_guard<std::mutex> g(mu_);
  std::vector<std::string> made;  // innermost first
  for (std::string p = path; !p.empty() && p != "." && !dirs_.count(p); p = dir_name(p)) {
    if (names_.count(p)) return Status::Invalid(p + " is not a directory");
    made.push_back(p);
  }
  for (auto it = made.rbegin(); it != made.rend(); ++it) {
    dirs_.insert(*it);
    log_locked({Op::kMkdir, *it, {}, 0, 0, 0});
    // The seam's contract (fs.h): make_dirs syncs the parent of each directory it creates.
    log_locked({Op::kSyncDir, dir_name(*it), {}, 0, 0, 0});
  }
  return Status::Ok();
}

Status CrashFs::sync_dir(const std::string& path) {
  std::lock_guard<std::mutex> g(mu_);
  if (!dirs_.count(path)) return missing(path);
  log_locked({Op::kSyncDir, path, {}, 0, 0, 0});
  return Status::Ok();
}

Result<FileInfo> CrashFs::stat(const std::string& path) {
  std::lock_guard<std::mutex> g(mu_);
  if (auto it = names_.find(path); it != names_.end()) return info_locked(it->second);
  if (!dirs_.count(path)) return missing(path);
  FileInfo fi;
  fi.dev = 1;
  fi.is_dir = true;
  return fi;
}

Status CrashFs::touch(const std::string& path) {
  std::lock_guard<std::mutex> g(mu_);
  auto it = names_.find(path);
  if (it == names_.end()) return missing(path);
  inodes_.at(it->second).mtime_ms = kEpochMs + static_cast<int64_t>(trace_.size());
  log_locked({Op::kTouch, path, {}, it->second, 0, 0});
  return Status::Ok();
}

Status CrashFs::read_range(const std::string& path, uint64_t offset, uint64_t max, PaddedBuffer* out, FileInfo* info) {
  std::lock_guard<std::mutex> g(mu_);
  auto it = names_.find(path);
  if (it == names_.end()) return missing(path);
  std::string_view d = inodes_.at(it->second).data;
  *out = PaddedBuffer::Copy(offset >= d.size() ? std::string_view() : d.substr(offset, max));
  if (info) *info = info_locked(it->second);
  return Status::Ok();
}

Result<std::vector<std::string>> CrashFs::list_dir(const std::string& path) {
  std::lock_guard<std::mutex> g(mu_);
  if (!dirs_.count(path)) return missing(path);
  std::vector<std::string> names;
  for (const auto& [p, ino] : names_) {
    if (dir_name(p) == path) names.push_back(base_name(p));
  }
  for (const std::string& d : dirs_) {
    if (d != path && dir_name(d) == path) names.push_back(base_name(d));
  }
  return names;
}

Result<std::unique_ptr<FileLock>> CrashFs::try_lock(const std::string& path) {
  return lock(path, std::chrono::milliseconds(0));
}

// As memory_fs: the holders are threads of this process, and a release wakes the waiters. Waiting
// reaches no disk, so it records nothing.
Result<std::unique_ptr<FileLock>> CrashFs::lock(const std::string& path, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::unique_lock<std::mutex> g(mu_);
  if (!dirs_.count(dir_name(path))) return missing(dir_name(path));
  if (dirs_.count(path)) return Status::Invalid(path + " is a directory");
  while (locks_.count(path)) {
    if (lock_released_.wait_until(g, deadline) == std::cv_status::timeout && locks_.count(path)) {
      return held_by_another(path, timeout);
    }
  }
  // What allocates comes before the lock is marked held, so running out of memory leaves it free.
  if (!names_.count(path)) new_inode_locked(path);  // open(O_CREAT): a name like any other
  std::unique_ptr<CrashLock> held(new CrashLock(shared_from_this(), path));
  locks_.insert(path);
  held->arm();
  return std::unique_ptr<FileLock>(std::move(held));
}

Status CrashFs::file_append(uint64_t ino, std::string_view data) {
  std::lock_guard<std::mutex> g(mu_);
  Inode& n = inodes_.at(ino);
  uint64_t offset = n.data.size();
  n.data.append(data);
  n.mtime_ms = kEpochMs + static_cast<int64_t>(trace_.size());
  log_locked({Op::kAppend, {}, {}, ino, offset, data.size()});
  return Status::Ok();
}

Status CrashFs::file_sync(uint64_t ino) {
  std::lock_guard<std::mutex> g(mu_);
  log_locked({Op::kSync, {}, {}, ino, 0, 0});
  return Status::Ok();
}

Status CrashFs::file_close(uint64_t ino) {
  std::lock_guard<std::mutex> g(mu_);
  log_locked({Op::kClose, {}, {}, ino, 0, 0});
  return Status::Ok();
}

Result<FileInfo> CrashFs::file_stat(uint64_t ino) {
  std::lock_guard<std::mutex> g(mu_);
  return info_locked(ino);
}

void CrashFs::release_lock(const std::string& path) {
  {
    std::lock_guard<std::mutex> g(mu_);
    locks_.erase(path);
  }
  lock_released_.notify_all();
}

// --- crash states -----------------------------------------------------------------------------

uint64_t CrashState::hash() const {
  std::hash<std::string_view> h;
  uint64_t out = 0x243F6A8885A308D3ull;
  for (const std::string& d : dirs) out = mix(out, h(d));
  out = mix(out, files.size());
  for (const auto& [path, bytes] : files) {
    out = mix(out, h(path));
    out = mix(out, bytes.size());
    out = mix(out, h(bytes));
  }
  return out;
}

Status CrashState::install(Fs& fs) const {
  for (const std::string& d : dirs) XS_RETURN_IF_ERROR(fs.make_dirs(d));
  for (const auto& [path, bytes] : files) {
    auto f = fs.create_new(path);
    if (!f.ok()) return f.status();
    XS_RETURN_IF_ERROR((*f)->append(bytes));
    XS_RETURN_IF_ERROR((*f)->close());
  }
  return Status::Ok();
}

CrashStates::CrashStates(const CrashFs& fs) : trace_(fs.trace()) {
  std::map<std::string, size_t> last_on_name;
  deps_.resize(trace_.size());
  dirs_changed_.resize(trace_.size());
  for (size_t i = 0; i < trace_.size(); ++i) {
    const CrashFs::Record& r = trace_[i];
    if (r.op == Op::kCreate && !contents_.count(r.ino)) contents_[r.ino] = fs.contents(r.ino);
    if (!is_name_op(r.op)) continue;
    std::vector<std::string> names{r.path};
    if (r.op == Op::kRename || r.op == Op::kRenameNoReplace || r.op == Op::kLink) names.push_back(r.to);
    for (const std::string& n : names) {
      auto it = last_on_name.find(n);
      if (it != last_on_name.end()) deps_[i].push_back(it->second);
      last_on_name[n] = i;
      // A link leaves its source's directory as it was: only the new name's needs a sync.
      if (r.op == Op::kLink && n == r.path) continue;
      std::string d = dir_name(n);
      if (std::find(dirs_changed_[i].begin(), dirs_changed_[i].end(), d) == dirs_changed_[i].end()) {
        dirs_changed_[i].push_back(d);
      }
    }
  }
}

CrashState CrashStates::durable(size_t k) const { return build(k, Mode::kDurable, 0); }
CrashState CrashStates::complete(size_t k) const { return build(k, Mode::kComplete, 0); }
CrashState CrashStates::sample(size_t k, uint64_t seed) const { return build(k, Mode::kSampled, seed); }

CrashState CrashStates::build(size_t k, Mode mode, uint64_t seed) const {
  k = std::min(k, trace_.size());
  Rng rng(mix(seed, k));

  // Names: which operations persisted. Durable ones always; the others by the mode, then every
  // operation a persisted one needs (the earlier ones on its names).
  std::map<std::string, size_t> last_sync;  // directory -> index of its last sync_dir before k
  for (size_t i = 0; i < k; ++i) {
    if (trace_[i].op == Op::kSyncDir) last_sync[trace_[i].path] = i;
  }
  // Sampled states drop every unsynced name operation, keep every one, or decide one by one.
  uint64_t policy = mode == Mode::kSampled ? rng.below(4) : 0;
  std::vector<char> keep(k, 0);
  for (size_t i = 0; i < k; ++i) {
    if (!is_name_op(trace_[i].op)) continue;
    bool durable = true;
    for (const std::string& d : dirs_changed_[i]) {
      auto it = last_sync.find(d);
      if (it == last_sync.end() || it->second < i) durable = false;
    }
    bool kept = mode == Mode::kComplete || (mode == Mode::kSampled && (policy == 1 || (policy >= 2 && rng.below(2))));
    keep[i] = durable || kept;
  }
  for (size_t i = k; i-- > 0;) {
    if (!keep[i]) continue;
    for (size_t d : deps_[i]) keep[d] = 1;
  }
  std::map<std::string, uint64_t> names;
  std::set<std::string> dirs{"/"};
  for (size_t i = 0; i < k; ++i) {
    if (!keep[i]) continue;
    const CrashFs::Record& r = trace_[i];
    switch (r.op) {
      case Op::kMkdir: dirs.insert(r.path); break;
      case Op::kCreate: names[r.path] = r.ino; break;
      case Op::kRename:
      case Op::kRenameNoReplace:
        if (auto it = names.find(r.path); it != names.end() && it->second == r.ino) names.erase(it);
        names[r.to] = r.ino;
        break;
      case Op::kLink: names[r.to] = r.ino; break;
      case Op::kUnlink:
        if (auto it = names.find(r.path); it != names.end() && it->second == r.ino) names.erase(it);
        break;
      default: break;
    }
  }

  // Data: per file, its durable length, its length at the crash, and the appends in between.
  struct Span {
    uint64_t lo, hi;
  };
  std::map<uint64_t, uint64_t> durable_len, len;
  std::map<uint64_t, std::vector<Span>> unsynced;
  for (size_t i = 0; i < k; ++i) {
    const CrashFs::Record& r = trace_[i];
    if (r.op == Op::kAppend) {
      unsynced[r.ino].push_back({r.offset, r.offset + r.size});
      len[r.ino] = r.offset + r.size;
    } else if (r.op == Op::kSync) {
      durable_len[r.ino] = len[r.ino];
      unsynced[r.ino].clear();
    }
  }

  CrashState state;
  std::function<bool(const std::string&)> reachable = [&](const std::string& d) {
    if (d == "/") return true;
    return dirs.count(d) && reachable(dir_name(d));
  };
  for (const std::string& d : dirs) {
    if (reachable(d)) state.dirs.insert(d);
  }
  // Damaged data in sampled states: either only cuts (every byte that survives is right), or cuts
  // plus zeros and garbage.
  bool clean = mode == Mode::kSampled && rng.below(3) == 0;
  // A file under two names (a link) has one set of bytes: the first name's, copied.
  std::map<uint64_t, const std::string*> made;
  for (const auto& [path, ino] : names) {
    if (!state.dirs.count(dir_name(path))) continue;
    if (auto it = made.find(ino); it != made.end()) {
      state.files[path] = *it->second;
      continue;
    }
    std::string& bytes = state.files[path];
    made[ino] = &bytes;
    const std::string& all = contents_.at(ino);
    uint64_t d = durable_len[ino], c = len[ino];
    if (mode != Mode::kSampled || d == c) {
      bytes = all.substr(0, mode == Mode::kDurable ? d : c);
      continue;
    }
    const std::vector<Span>& spans = unsynced[ino];
    uint64_t keep_len;
    switch (rng.below(6)) {
      case 0: keep_len = d; break;
      case 1: keep_len = c; break;
      case 2: keep_len = spans[rng.below(spans.size())].hi; break;
      default: keep_len = d + rng.below(c - d + 1); break;
    }
    std::string out = all.substr(0, keep_len);
    for (const Span& s : spans) {
      uint64_t lo = s.lo, hi = std::min(s.hi, keep_len);
      if (clean || lo >= hi) continue;
      switch (rng.below(6)) {
        case 0:
        case 1: break;  // intact
        case 2:
        case 3: damage(out, lo, hi, rng); break;
        case 4: {
          // Torn: intact up to a sector boundary, damaged from there.
          uint64_t first = lo / kSector + 1, last = (hi - 1) / kSector;
          uint64_t from = last >= first && rng.below(4) ? (first + rng.below(last - first + 1)) * kSector : lo;
          damage(out, from, hi, rng);
          break;
        }
        default:
          // Written back sector by sector, in any order: each sector of the append on its own.
          for (uint64_t b = lo; b < hi;) {
            uint64_t e = std::min(hi, (b / kSector + 1) * kSector);
            if (rng.below(2)) damage(out, b, e, rng);
            b = e;
          }
          break;
      }
    }
    bytes = std::move(out);
  }
  return state;
}

}  // namespace xs::storage
