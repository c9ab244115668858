// storage/posix_fs: permissions, O_CLOEXEC and cross-process locking on the real file system.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
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

// DECISIONS "Acknowledged = handed to the kernel": a short write or EINTR is continued until
// the line is complete, never an error by itself.
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

}  // namespace
}  // namespace xs::storage
