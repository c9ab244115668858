// The real file system. Portable POSIX, with the platform calls the guarantees need behind
// #ifdefs, each beside the generic fallback it falls back to: no-replace rename (renameat2 on
// Linux, renamex_np on macOS, else link+unlink) and the flush of a file to media (fdatasync on
// Linux, F_FULLFSYNC on macOS, where fsync only reaches the drive's cache; else fsync).
//
// XS_GENERIC_POSIX_FS (a CMake option, for tests) compiles the generic calls on Linux too, so the
// code a platform without the Linux calls runs (macOS's fallbacks, the BSDs) is the code the
// matrices here test. Only F_FULLFSYNC, renamex_np and st_mtimespec stay Apple's own.
#if defined(__linux__) && !defined(XS_GENERIC_POSIX_FS)
#define XS_FS_LINUX_CALLS 1
#ifndef _GNU_SOURCE
#define _GNU_SOURCE  // renameat2
#endif
#else
#define XS_FS_LINUX_CALLS 0
#endif

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <utility>
#include <vector>

#include "storage/fs.h"
#include "storage/path.h"
#include "util/join_all.h"

#if !XS_FS_LINUX_CALLS && defined(__GNUC__)
// The generic build names none of the Linux-only calls: using one below is a compile error here,
// as it would be on a platform without it.
#pragma GCC poison renameat2 fdatasync sync_file_range fallocate posix_fadvise statx copy_file_range syncfs
#endif

namespace xs::storage {

namespace {

Status errno_status(const char* op, const std::string& path, int err) {
  std::string msg = std::string(op) + " " + path + ": " + std::strerror(err);
  switch (err) {
    case ENOENT:
    case ENOTDIR: return Status(Code::kNotFound, msg);
    case EEXIST: return Status(Code::kExists, msg);
    case ENOSPC:
    case EDQUOT:
    case EFBIG: return Status(Code::kNoSpace, msg);
    case EWOULDBLOCK: return Status(Code::kLocked, msg);
    case ENOMEM: return Status(Code::kNoMem, msg);
    default: return Status(Code::kIo, msg);
  }
}

FileInfo info_from(const struct stat& st) {
  FileInfo fi;
  fi.dev = static_cast<uint64_t>(st.st_dev);
  fi.ino = static_cast<uint64_t>(st.st_ino);
  fi.size = static_cast<uint64_t>(st.st_size);
#if defined(__APPLE__)
  fi.mtime_ms = static_cast<int64_t>(st.st_mtimespec.tv_sec) * 1000 + st.st_mtimespec.tv_nsec / 1000000;
#else
  fi.mtime_ms = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
#endif
  fi.is_dir = S_ISDIR(st.st_mode);
  fi.is_regular = S_ISREG(st.st_mode);
  fi.links = static_cast<uint64_t>(st.st_nlink);
  return fi;
}

constexpr uint64_t kParallelReadBytes = 16u << 20;

struct ReadShare {
  size_t from = 0, to = 0;  // byte range of the buffer this share fills
  size_t got = 0;
  int error = 0;
};

void read_share(int fd, char* buf, uint64_t offset, ReadShare* s) {
  while (s->from + s->got < s->to) {
    ssize_t n =
        ::pread(fd, buf + s->from + s->got, s->to - s->from - s->got, static_cast<off_t>(offset + s->from + s->got));
    if (n < 0) {
      if (errno == EINTR) continue;
      s->error = errno;
      return;
    }
    if (n == 0) return;  // the file ended early
    s->got += static_cast<size_t>(n);
  }
}

int open_retry(const char* path, int flags, mode_t mode) {
  int fd;
  do {
    fd = ::open(path, flags | O_CLOEXEC, mode);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

long real_write(int fd, const void* buf, unsigned long n) { return ::write(fd, buf, n); }

// Makes a file's data durable. fdatasync skips what a later read does not need (the mtime); the
// generic call is fsync.
#if XS_FS_LINUX_CALLS
constexpr const char* kSyncCall = "fdatasync";
int sync_data(int fd) { return ::fdatasync(fd); }
#else
constexpr const char* kSyncCall = "fsync";
int sync_data(int fd) { return ::fsync(fd); }
#endif

bool same_file(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// A no-replace rename from POSIX calls alone, for platforms and file systems without an atomic
// one. A file: link(2) makes the new name, failing with EEXIST when it is taken, then the old name
// is unlinked. These are two steps: a crash between them leaves the file under both names, each
// whole (crash_fs.h models that state for the matrices). A directory, which link cannot take, is
// renamed onto an empty directory made for it: mkdir refuses a taken name the same way, and a
// crash between the two leaves only that empty directory.
Status rename_without_replacing(const std::string& from, const std::string& to) {
  if (::link(from.c_str(), to.c_str()) == 0) {
    if (::unlink(from.c_str()) == 0) return Status::Ok();
    int e = errno;
    struct stat old_name, new_name;
    bool old_there = ::lstat(from.c_str(), &old_name) == 0;
    if (!old_there && errno == ENOENT) return Status::Ok();  // gone after all: moved
    // Failed half-way: take the new name back, so that a failure means nothing moved (a session
    // under two names would have two lock files, so room for two writers). It is removed only
    // while it still names our file. Nothing here allocates before that.
    bool undone =
        old_there && ::lstat(to.c_str(), &new_name) == 0 && same_file(old_name, new_name) && ::unlink(to.c_str()) == 0;
    Status st = errno_status("unlink", from, e);
    return undone ? st : st.With(from + " -> " + to + " stopped half-way: the file was left under both names");
  }
  int e = errno;
  struct stat st;
  if (e == EEXIST || ::lstat(from.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return errno_status("link", from + " -> " + to, e);
  }
  if (::mkdir(to.c_str(), 0700) != 0) return errno_status("mkdir", to, errno);
  if (::rename(from.c_str(), to.c_str()) == 0) return Status::Ok();
  e = errno;
  ::rmdir(to.c_str());  // ours and empty (rmdir removes nothing else)
  return errno_status("rename", from + " -> " + to, e);
}

// Owns a descriptor until it is released to its keeper: running out of memory between the open
// and the hand-over (the keeper's allocation, a buffer) must not leak it (docs/guarantees.md#g11).
class UniqueFd {
 public:
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }
  // Closes now; the errno of a failed close is left for the caller.
  int close() { return ::close(release()); }

 private:
  int fd_;
};

class PosixFile final : public WritableFile {
 public:
  PosixFile(int fd, std::string path, WriteFn write_fn) : fd_(fd), path_(std::move(path)), write_(write_fn) {}
  ~PosixFile() override {
    if (fd_ >= 0) ::close(fd_);
  }

  Status append(std::string_view data) override {
    const char* p = data.data();
    size_t left = data.size();
    while (left > 0) {
      long n = write_(fd_, p, left);
      if (n < 0) {
        if (errno == EINTR) continue;
        return errno_status("write", path_, errno);
      }
      if (n == 0) return Status::Io("write " + path_ + ": wrote 0 bytes");
      p += n;
      left -= static_cast<size_t>(n);
    }
    return Status::Ok();
  }

  Status sync() override {
#if defined(__APPLE__)
    if (::fcntl(fd_, F_FULLFSYNC) == 0) return Status::Ok();
      // File systems without F_FULLFSYNC (network ones) get the generic call below.
#endif
    if (sync_data(fd_) == 0) return Status::Ok();
    return errno_status(kSyncCall, path_, errno);
  }

  void start_sync() override {
#if XS_FS_LINUX_CALLS
    // Every dirty page of the file not yet being written; a failure shows in the next fdatasync.
    if (fd_ >= 0) ::sync_file_range(fd_, 0, 0, SYNC_FILE_RANGE_WRITE);
#endif
  }

  Result<FileInfo> stat() override {
    struct stat st;
    if (::fstat(fd_, &st) != 0) return errno_status("fstat", path_, errno);
    return info_from(st);
  }

  Status close() override {
    int fd = fd_;
    fd_ = -1;
    // No retry on EINTR: on Linux the descriptor is already gone (retrying could close another).
    if (fd >= 0 && ::close(fd) != 0 && errno != EINTR) return errno_status("close", path_, errno);
    return Status::Ok();
  }

 private:
  int fd_;
  std::string path_;
  WriteFn write_;
};

class PosixLock final : public FileLock {
 public:
  explicit PosixLock(int fd) : fd_(fd) {}
  ~PosixLock() override { ::close(fd_); }  // closing the descriptor releases the flock

 private:
  int fd_;
};

class PosixFs final : public Fs {
 public:
  explicit PosixFs(WriteFn write_fn) : write_(write_fn ? write_fn : real_write) {}

  Status read_file(const std::string& path, uint64_t max_bytes, PaddedBuffer* out, FileInfo* info) override {
    return read(path, 0, UINT64_MAX, max_bytes, out, info);
  }

  Result<std::unique_ptr<WritableFile>> open_append(const std::string& path) override {
    UniqueFd fd(open_retry(path.c_str(), O_WRONLY | O_APPEND, 0));
    if (fd.get() < 0) return errno_status("open", path, errno);
    std::unique_ptr<WritableFile> file(new PosixFile(fd.get(), path, write_));
    fd.release();
    return file;
  }

  Result<std::unique_ptr<WritableFile>> create_new(const std::string& path) override {
    UniqueFd fd(open_retry(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600));
    if (fd.get() < 0) return errno_status("create", path, errno);
    std::unique_ptr<WritableFile> file(new PosixFile(fd.get(), path, write_));
    fd.release();
    return file;
  }

  Status rename(const std::string& from, const std::string& to) override {
    if (::rename(from.c_str(), to.c_str()) != 0) return errno_status("rename", from + " -> " + to, errno);
    return Status::Ok();
  }

  Status rename_noreplace(const std::string& from, const std::string& to) override {
#if XS_FS_LINUX_CALLS
    if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return Status::Ok();
    // Kernels before 3.15 and file systems without the flag: the generic way.
    if (errno != EINVAL && errno != ENOSYS) return errno_status("rename", from + " -> " + to, errno);
#elif defined(__APPLE__)
    if (::renamex_np(from.c_str(), to.c_str(), RENAME_EXCL) == 0) return Status::Ok();
    // File systems without RENAME_EXCL: the generic way.
    if (errno != ENOTSUP) return errno_status("rename", from + " -> " + to, errno);
#endif
    return rename_without_replacing(from, to);
  }

  Status unlink(const std::string& path) override {
    if (::unlink(path.c_str()) != 0) return errno_status("unlink", path, errno);
    return Status::Ok();
  }

  Status make_dirs(const std::string& path) override {
    if (path.empty()) return Status::Ok();
    struct stat st;
    if (::stat(path.c_str(), &st) == 0) {
      return S_ISDIR(st.st_mode) ? Status::Ok() : Status::Invalid(path + " is not a directory");
    }
    std::string parent = dir_name(path);
    if (parent != path && parent != "." && parent != "/") XS_RETURN_IF_ERROR(make_dirs(parent));
    if (::mkdir(path.c_str(), 0700) != 0) {
      return errno == EEXIST ? Status::Ok() : errno_status("mkdir", path, errno);
    }
    // The new directory's name lives in its parent: without this sync a power loss can take the
    // directory, and every synced file in it, away (the ALICE pattern).
    return sync_dir(parent.empty() ? "." : parent);
  }

  Status sync_dir(const std::string& path) override {
    int fd = open_retry(path.c_str(), O_RDONLY | O_DIRECTORY, 0);
    if (fd < 0) return errno_status("open", path, errno);
    int rc = ::fsync(fd);
    int e = errno;
    ::close(fd);
    // Some file systems cannot sync a directory; that is not a failure of ours to report.
    if (rc != 0 && e != EINVAL && e != EBADF) return errno_status("fsync", path, e);
    return Status::Ok();
  }

  Status touch(const std::string& path) override {
    if (::utimensat(AT_FDCWD, path.c_str(), nullptr, 0) != 0) return errno_status("utimensat", path, errno);
    return Status::Ok();
  }

  Status read_range(const std::string& path, uint64_t offset, uint64_t max, PaddedBuffer* out,
                    FileInfo* info) override {
    return read(path, offset, max, UINT64_MAX, out, info);
  }

  Result<FileInfo> stat(const std::string& path) override {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return errno_status("stat", path, errno);
    return info_from(st);
  }

  Result<std::vector<std::string>> list_dir(const std::string& path) override {
    std::unique_ptr<DIR, int (*)(DIR*)> d(::opendir(path.c_str()), ::closedir);  // closed if a name throws
    if (!d) return errno_status("opendir", path, errno);
    std::vector<std::string> names;
    while (struct dirent* e = ::readdir(d.get())) {
      if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
      names.emplace_back(e->d_name);
    }
    return names;
  }

  // Reads up to `max` bytes from `offset`; a file larger than `limit` is refused. The FileInfo
  // describes the descriptor that was read (for a whole file, its size is what was read).
  Status read(const std::string& path, uint64_t offset, uint64_t max, uint64_t limit, PaddedBuffer* out,
              FileInfo* info) {
    UniqueFd fd(open_retry(path.c_str(), O_RDONLY, 0));
    if (fd.get() < 0) return errno_status("open", path, errno);
    struct stat st;
    if (::fstat(fd.get(), &st) != 0) return errno_status("fstat", path, errno);
    if (S_ISDIR(st.st_mode)) return Status::Invalid(path + " is a directory");
    uint64_t size = static_cast<uint64_t>(st.st_size);
    if (size > limit) return Status::Limit(path + " is larger than " + std::to_string(limit) + " bytes");
    // What fstat promised; a writer appending meanwhile is picked up by a later reload.
    uint64_t want = offset >= size ? 0 : std::min<uint64_t>(max, size - offset);
    PaddedBuffer buf(want);
    // A fresh buffer costs a page fault per 4 KiB as the copy first touches it, which for a large
    // file takes longer than the copy; shares read by several threads take those faults at once.
    size_t shares =
        want < kParallelReadBytes ? 1 : std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()), 8);
    std::vector<ReadShare> parts(shares);
    for (size_t i = 0; i < shares; ++i) {
      parts[i].from = want * i / shares;
      parts[i].to = want * (i + 1) / shares;
    }
    std::vector<std::thread> helpers;
    {
      JoinAll join{helpers};
      for (size_t i = 1; i < shares; ++i) helpers.emplace_back(read_share, fd.get(), buf.data(), offset, &parts[i]);
      read_share(fd.get(), buf.data(), offset, &parts[0]);
    }
    fd.close();
    size_t got = 0;
    for (const ReadShare& p : parts) {
      if (p.error) return errno_status("read", path, p.error);
      if (p.got < p.to - p.from) {  // truncated meanwhile: keep what is contiguous
        got += p.got;
        break;
      }
      got += p.got;
    }
    buf.truncate(got);
    *out = std::move(buf);
    if (info) {
      *info = info_from(st);
      if (max == UINT64_MAX && offset == 0) info->size = got;  // a whole file: exactly what we read
    }
    return Status::Ok();
  }

  Result<std::unique_ptr<FileLock>> try_lock(const std::string& path) override {
    return lock(path, std::chrono::milliseconds(0));
  }

  // Waiting is flock(LOCK_NB) tried again after short sleeps until the deadline, not a blocking
  // flock: only a signal (alarm, pthread_kill) can cut a blocking flock short, and a library must
  // not take over a process's signals or timers. The sleeps grow from 1 ms to 2 ms (never past
  // the deadline). Waiters are not queued: under constant contention any one may win, so a waiter
  // must look often; with 16 ms pauses, one of four processes updating a keyed store in a tight
  // loop went 10 s without a turn (tests/reliability/key_store_processes_test.cc). A long wait
  // costs a system call every 2 ms.
  Result<std::unique_ptr<FileLock>> lock(const std::string& path, std::chrono::milliseconds timeout) override {
    using Clock = std::chrono::steady_clock;
    constexpr Clock::duration kLongestPause = std::chrono::milliseconds(2);
    UniqueFd fd(open_retry(path.c_str(), O_RDWR | O_CREAT, 0600));
    if (fd.get() < 0) return errno_status("open", path, errno);
    const Clock::time_point deadline = Clock::now() + timeout;
    Clock::duration pause = std::chrono::milliseconds(1);
    for (;;) {
      int rc;
      do {
        rc = ::flock(fd.get(), LOCK_EX | LOCK_NB);
      } while (rc != 0 && errno == EINTR);
      if (rc == 0) break;
      int e = errno;
      if (e != EWOULDBLOCK) {
        fd.close();
        return errno_status("flock", path, e);
      }
      Clock::time_point now = Clock::now();
      if (now >= deadline) {
        fd.close();
        return held_by_another(path, timeout);
      }
      std::this_thread::sleep_for(std::min(pause, deadline - now));
      pause = std::min(pause * 2, kLongestPause);
    }
    std::unique_ptr<FileLock> held(new PosixLock(fd.get()));
    fd.release();
    return held;
  }

 private:
  WriteFn write_;
};

}  // namespace

std::shared_ptr<Fs> make_posix_fs(WriteFn write_fn) { return std::make_shared<PosixFs>(write_fn); }

PosixFsCalls posix_fs_calls() {
#if XS_FS_LINUX_CALLS
  return {"renameat2", "fdatasync"};
#elif defined(__APPLE__)
  return {"renamex_np, else link+unlink", "F_FULLFSYNC, else fsync"};
#else
  return {"link+unlink", "fsync"};
#endif
}

std::string current_directory() {
  std::string buf(4096, '\0');
  while (::getcwd(buf.data(), buf.size()) == nullptr) {
    if (errno != ERANGE || buf.size() > (1u << 20)) return "/";
    buf.resize(buf.size() * 2);
  }
  buf.resize(std::strlen(buf.c_str()));
  return buf;
}

}  // namespace xs::storage
