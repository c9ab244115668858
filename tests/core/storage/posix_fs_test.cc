// storage/posix_fs: permissions, O_CLOEXEC, cross-process locking and the no-replace rename on the
// real file system, in the build's configuration (the Linux calls, or the generic POSIX ones with
// XS_GENERIC_POSIX_FS: scripts/test-portable-fs).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "storage/fs.h"
#include "test_util.h"

namespace xs::storage {
namespace {

// The descriptor flags of every open fd of this process that refers to `path`.
std::vector<int> fd_flags_for(const std::string& path) {
  std::vector<int> flags;
  std::error_code ec;
  std::string want = std::filesystem::canonical(path, ec).string();
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/fd", ec)) {
    char buf[PATH_MAX];
    ssize_t n = ::readlink(e.path().c_str(), buf, sizeof buf - 1);
    if (n <= 0) continue;
    buf[n] = 0;
    if (want == buf) flags.push_back(::fcntl(std::atoi(e.path().filename().c_str()), F_GETFD));
  }
  return flags;
}

class PosixFs : public ::testing::Test {
 protected:
  test::TempDir tmp_;
  std::shared_ptr<Fs> fs_ = make_posix_fs();
};

TEST_F(PosixFs, NewFilesAre0600AndDirectories0700) {
  mode_t old = ::umask(0);  // even with a permissive umask
  auto f = fs_->create_new(tmp_.file("secret"));
  Status dirs = fs_->make_dirs(tmp_.file("a/b/c"));
  auto lock = fs_->try_lock(tmp_.file("x.lock"));
  ::umask(old);
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE(dirs.ok());
  ASSERT_TRUE(lock.ok());
  EXPECT_EQ(test::file_mode(tmp_.file("secret")), 0600);
  EXPECT_EQ(test::file_mode(tmp_.file("a")), 0700);
  EXPECT_EQ(test::file_mode(tmp_.file("a/b")), 0700);
  EXPECT_EQ(test::file_mode(tmp_.file("a/b/c")), 0700);
  EXPECT_EQ(test::file_mode(tmp_.file("x.lock")), 0600);
}

TEST_F(PosixFs, EveryDescriptorIsCloseOnExec) {
  test::write_file(tmp_.file("log"), "x");
  auto append = fs_->open_append(tmp_.file("log"));
  auto created = fs_->create_new(tmp_.file("new"));
  auto lock = fs_->try_lock(tmp_.file("log.lock"));
  ASSERT_TRUE(append.ok() && created.ok() && lock.ok());
  for (const char* name : {"log", "new", "log.lock"}) {
    auto flags = fd_flags_for(tmp_.file(name));
    ASSERT_EQ(flags.size(), 1u) << name;
    EXPECT_TRUE(flags[0] & FD_CLOEXEC) << name;
  }
}

TEST_F(PosixFs, ReadFileClosesItsDescriptor) {
  test::write_file(tmp_.file("r"), "abc");
  PaddedBuffer b;
  ASSERT_TRUE(fs_->read_file(tmp_.file("r"), 100, &b).ok());
  EXPECT_TRUE(fd_flags_for(tmp_.file("r")).empty());
  EXPECT_EQ(fs_->read_file(tmp_.file("r"), 2, &b).code(), Code::kLimit);
  EXPECT_TRUE(fd_flags_for(tmp_.file("r")).empty());
}

TEST_F(PosixFs, LockIsExclusiveAcrossProcessesAndDiesWithItsHolder) {
  std::string path = tmp_.file("s.lock");
  auto held = fs_->try_lock(path);
  ASSERT_TRUE(held.ok());
  auto child_try = [&]() -> int {
    pid_t pid = ::fork();
    if (pid == 0) {
      auto r = make_posix_fs()->try_lock(path);
      ::_exit(r.ok() ? 0 : r.status().code() == Code::kLocked ? 10 : 20);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  EXPECT_EQ(child_try(), 10);
  held->reset();
  EXPECT_EQ(child_try(), 0);
  // A holder that dies without unlocking leaves nothing stale.
  pid_t pid = ::fork();
  if (pid == 0) {
    auto r = make_posix_fs()->try_lock(path);
    if (!r.ok()) ::_exit(1);
    ::_exit(0);  // no destructor runs: the kernel drops the lock
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  EXPECT_TRUE(fs_->try_lock(path).ok());
}

TEST_F(PosixFs, TwoLocksInOneProcessConflict) {
  auto a = fs_->try_lock(tmp_.file("same.lock"));
  ASSERT_TRUE(a.ok());
  auto second_fs = make_posix_fs();
  EXPECT_EQ(second_fs->try_lock(tmp_.file("same.lock")).status().code(), Code::kLocked);
}

// A write(2) stand-in driven by a script: each call takes the next step (a byte count to pass
// through, -EINTR, or another -errno); past the script every call writes everything.
std::vector<long> g_script;
size_t g_step = 0;
int g_calls = 0;
long scripted_write(int fd, const void* buf, unsigned long n) {
  ++g_calls;
  long step = g_step < g_script.size() ? g_script[g_step++] : static_cast<long>(n);
  if (step < 0) {
    errno = static_cast<int>(-step);
    return -1;
  }
  long todo = std::min<long>(step, static_cast<long>(n));
  return ::write(fd, buf, static_cast<size_t>(todo));
}

void script(std::vector<long> steps) {
  g_script = std::move(steps);
  g_step = 0;
  g_calls = 0;
}

// An append is acknowledged once handed to the kernel: a short write or EINTR is continued until
// the line is complete, never an error by itself
// (docs/decisions.md#acknowledged-means-handed-to-the-kernel).
TEST_F(PosixFs, ShortWritesAndEintrAreContinued) {
  auto fs = make_posix_fs(&scripted_write);
  test::write_file(tmp_.file("log"), "");
  auto f = fs->open_append(tmp_.file("log"));
  ASSERT_TRUE(f.ok());
  script({3, -EINTR, 1, -EINTR, -EINTR, 4});
  ASSERT_TRUE((*f)->append("0123456789abcdef\n").ok());
  EXPECT_EQ(test::read_file(tmp_.file("log")), "0123456789abcdef\n");
  EXPECT_EQ(g_calls, 7);
}

TEST_F(PosixFs, WriteErrorsAreReportedWithTheirCode) {
  auto fs = make_posix_fs(&scripted_write);
  test::write_file(tmp_.file("log"), "");
  auto f = fs->open_append(tmp_.file("log"));
  ASSERT_TRUE(f.ok());
  script({2, -ENOSPC});
  EXPECT_EQ((*f)->append("abcdef").code(), Code::kNoSpace);
  EXPECT_EQ(test::read_file(tmp_.file("log")), "ab");
  script({-EIO});
  EXPECT_EQ((*f)->append("x").code(), Code::kIo);
  script({0});
  EXPECT_EQ((*f)->append("x").code(), Code::kIo);  // a write that makes no progress
  script({-EDQUOT});
  EXPECT_EQ((*f)->append("x").code(), Code::kNoSpace);
  script({});
  EXPECT_TRUE((*f)->append("yz").ok());
  EXPECT_EQ(test::read_file(tmp_.file("log")), "abyz");
}

TEST_F(PosixFs, ErrnoMapping) {
  EXPECT_EQ(fs_->stat(tmp_.file("missing")).status().code(), Code::kNotFound);
  test::write_file(tmp_.file("plain"), "x");
  // ENOTDIR counts as not found.
  EXPECT_EQ(fs_->stat(tmp_.file("plain/child")).status().code(), Code::kNotFound);
  EXPECT_EQ(fs_->create_new(tmp_.file("plain")).status().code(), Code::kExists);
}

TEST_F(PosixFs, ListDirOnAFileFails) {
  test::write_file(tmp_.file("f"), "x");
  EXPECT_FALSE(fs_->list_dir(tmp_.file("f")).ok());
}

// --- the no-replace rename -------------------------------------------------------------------

struct stat stat_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st;
}

bool starts_with(const std::string& s, const char* prefix) { return s.compare(0, std::strlen(prefix), prefix) == 0; }

// A build configured with XS_GENERIC_POSIX_FS really compiled the generic calls (and the default
// build the Linux ones): the names it reports, and the call that refuses a taken name, which the
// error message names.
TEST_F(PosixFs, BuildTakesTheConfiguredPath) {
  PosixFsCalls calls = posix_fs_calls();
  test::write_file(tmp_.file("src"), "new");
  test::write_file(tmp_.file("dst"), "old");
  Status st = fs_->rename_noreplace(tmp_.file("src"), tmp_.file("dst"));
  EXPECT_EQ(st.code(), Code::kExists);
#if defined(XS_GENERIC_POSIX_FS)
  EXPECT_STREQ(calls.rename_noreplace, "link+unlink");
  EXPECT_STREQ(calls.sync, "fsync");
  EXPECT_TRUE(starts_with(st.message(), "link ")) << st.message();
#else
  EXPECT_STREQ(calls.rename_noreplace, "renameat2");
  EXPECT_STREQ(calls.sync, "fdatasync");
  EXPECT_TRUE(starts_with(st.message(), "rename ")) << st.message();
#endif
  EXPECT_EQ(test::read_file(tmp_.file("src")), "new");
  EXPECT_EQ(test::read_file(tmp_.file("dst")), "old");
  EXPECT_EQ(stat_of(tmp_.file("src")).st_nlink, 1u);
  auto f = fs_->open_append(tmp_.file("src"));
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE((*f)->sync().ok());
}

// A moved file keeps its inode and is left with one name: the link+unlink pair leaves no second
// name behind when both steps succeed.
TEST_F(PosixFs, NoReplaceRenameMovesTheFileAcrossDirectories) {
  ASSERT_TRUE(fs_->make_dirs(tmp_.file("a")).ok());
  ASSERT_TRUE(fs_->make_dirs(tmp_.file("b")).ok());
  test::write_file(tmp_.file("a/f"), "bytes");
  ino_t ino = stat_of(tmp_.file("a/f")).st_ino;
  ASSERT_TRUE(fs_->rename_noreplace(tmp_.file("a/f"), tmp_.file("b/f")).ok());
  EXPECT_FALSE(test::file_exists(tmp_.file("a/f")));
  EXPECT_EQ(test::read_file(tmp_.file("b/f")), "bytes");
  EXPECT_EQ(stat_of(tmp_.file("b/f")).st_ino, ino);
  EXPECT_EQ(stat_of(tmp_.file("b/f")).st_nlink, 1u);
}

// A session's artifacts directory moves with it through the same call. link(2) cannot take a
// directory; the generic path renames it onto an empty directory it made, which refuses a taken
// name as link does.
TEST_F(PosixFs, NoReplaceRenameMovesADirectoryAndRefusesATakenName) {
  ASSERT_TRUE(fs_->make_dirs(tmp_.file("art/sub")).ok());
  test::write_file(tmp_.file("art/sub/x"), "X");
  ASSERT_TRUE(fs_->make_dirs(tmp_.file("taken")).ok());
  test::write_file(tmp_.file("file"), "F");
  EXPECT_EQ(fs_->rename_noreplace(tmp_.file("art"), tmp_.file("taken")).code(), Code::kExists);
  EXPECT_EQ(fs_->rename_noreplace(tmp_.file("art"), tmp_.file("file")).code(), Code::kExists);
  EXPECT_EQ(test::list_dir(tmp_.file("taken")), std::vector<std::string>{});
  EXPECT_EQ(test::read_file(tmp_.file("file")), "F");
  EXPECT_EQ(test::read_file(tmp_.file("art/sub/x")), "X");
  ino_t ino = stat_of(tmp_.file("art")).st_ino;
  ASSERT_TRUE(fs_->rename_noreplace(tmp_.file("art"), tmp_.file("moved")).ok());
  EXPECT_FALSE(test::file_exists(tmp_.file("art")));
  EXPECT_EQ(test::read_file(tmp_.file("moved/sub/x")), "X");
  EXPECT_EQ(stat_of(tmp_.file("moved")).st_ino, ino);
  EXPECT_EQ(test::list_dir(tmp_.path()), (std::vector<std::string>{"file", "moved", "taken"}));
  EXPECT_EQ(fs_->rename_noreplace(tmp_.file("art"), tmp_.file("again")).code(), Code::kNotFound);
}

// The append-only attribute (chattr +a) on a directory: names can be added to it, none removed.
// The one way to make unlink(2) fail for root, who passes every permission check.
class AppendOnlyDir {
 public:
  explicit AppendOnlyDir(std::string dir) : dir_(std::move(dir)) { error_ = set(true); }
  ~AppendOnlyDir() {
    if (error_ == 0) set(false);
  }
  // 0, or the errno that kept the attribute from being set.
  int error() const { return error_; }

 private:
  int set(bool on) {
    int fd = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return errno;
    int flags = 0, err = 0;
    if (::ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0) err = errno;
    flags = on ? flags | FS_APPEND_FL : flags & ~FS_APPEND_FL;
    if (err == 0 && ::ioctl(fd, FS_IOC_SETFLAGS, &flags) != 0) err = errno;
    ::close(fd);
    return err;
  }
  std::string dir_;
  int error_ = 0;
};

// Only the old name cannot go (its directory is append-only): the rename fails and nothing moved.
// renameat2 refuses at once; link+unlink links, fails to unlink, and takes the new name back.
TEST_F(PosixFs, NoReplaceRenameThatCannotDropTheOldNameMovesNothing) {
  ASSERT_TRUE(fs_->make_dirs(tmp_.file("from")).ok());
  ASSERT_TRUE(fs_->make_dirs(tmp_.file("to")).ok());
  test::write_file(tmp_.file("from/f"), "bytes");
  Status st;
  {
    AppendOnlyDir frozen(tmp_.file("from"));
    ASSERT_EQ(frozen.error(), 0) << "chattr +a " << tmp_.file("from") << ": " << std::strerror(frozen.error())
                                 << " (needs root and a file system with the attribute: ext4, tmpfs, xfs)";
    st = fs_->rename_noreplace(tmp_.file("from/f"), tmp_.file("to/f"));
  }
  EXPECT_EQ(st.code(), Code::kIo) << st.message();
#if defined(XS_GENERIC_POSIX_FS)
  EXPECT_TRUE(starts_with(st.message(), "unlink ")) << st.message();
#endif
  EXPECT_EQ(st.message().find("both names"), std::string::npos) << st.message();
  EXPECT_EQ(test::read_file(tmp_.file("from/f")), "bytes");
  EXPECT_EQ(stat_of(tmp_.file("from/f")).st_nlink, 1u);
  EXPECT_EQ(test::list_dir(tmp_.file("to")), std::vector<std::string>{});
}

// Neither name can go (both directories append-only): the generic path is stuck half-way, with the
// file under both names, and says so; renameat2 refuses and moves nothing.
TEST_F(PosixFs, NoReplaceRenameStuckHalfWaySaysTheFileHasBothNames) {
  ASSERT_TRUE(fs_->make_dirs(tmp_.file("from")).ok());
  ASSERT_TRUE(fs_->make_dirs(tmp_.file("to")).ok());
  test::write_file(tmp_.file("from/f"), "bytes");
  Status st;
  int linked = 0;
  {
    AppendOnlyDir from(tmp_.file("from")), to(tmp_.file("to"));
    ASSERT_EQ(from.error() | to.error(), 0) << "chattr +a: " << std::strerror(from.error() | to.error());
    st = fs_->rename_noreplace(tmp_.file("from/f"), tmp_.file("to/f"));
    linked = test::file_exists(tmp_.file("to/f"));
  }
  EXPECT_EQ(st.code(), Code::kIo) << st.message();
  EXPECT_EQ(test::read_file(tmp_.file("from/f")), "bytes");
#if defined(XS_GENERIC_POSIX_FS)
  EXPECT_NE(st.message().find("was left under both names"), std::string::npos) << st.message();
  ASSERT_EQ(linked, 1);
  EXPECT_EQ(stat_of(tmp_.file("to/f")).st_ino, stat_of(tmp_.file("from/f")).st_ino);
  EXPECT_EQ(stat_of(tmp_.file("from/f")).st_nlink, 2u);
#else
  EXPECT_EQ(st.message().find("both names"), std::string::npos) << st.message();
  EXPECT_EQ(linked, 0);
  EXPECT_EQ(stat_of(tmp_.file("from/f")).st_nlink, 1u);
#endif
}

}  // namespace
}  // namespace xs::storage
