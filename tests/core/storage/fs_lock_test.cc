// storage/fs.h's waiting lock, Fs::lock(path, timeout), on every seam (posix_fs, memory_fs and the
// fault and power-loss doubles): it waits for a holder that lets go in time, gives up with kLocked
// when the holder keeps it, and queues writers of a read-modify-write so none loses an update.
// Across processes (posix_fs only): it waits for another process, and the kernel frees the lock
// of a holder killed with SIGKILL, even while we wait.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "storage/crash_fs.h"
#include "storage/faulty_fs.h"
#include "storage/fs.h"
#include "test_util.h"

namespace xs::storage {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

int64_t ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration_cast<milliseconds>(b - a).count();
}

class FsLock : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    const std::string& seam = GetParam();
    if (seam == "posix") {
      tmp_ = std::make_unique<test::TempDir>();
      fs_ = make_posix_fs();
      root_ = tmp_->path();
      return;
    }
    if (seam == "memory") fs_ = make_memory_fs();
    if (seam == "faulty") fs_ = std::make_shared<FaultyFs>(make_memory_fs());
    if (seam == "crash") fs_ = std::make_shared<CrashFs>();
    root_ = "/mem/root";
    ASSERT_TRUE(fs_->make_dirs(root_).ok());
  }
  std::string at(const std::string& name) const { return root_ + "/" + name; }

  std::unique_ptr<test::TempDir> tmp_;
  std::shared_ptr<Fs> fs_;
  std::string root_;
};

TEST_P(FsLock, ZeroTimeoutIsTryLock) {
  std::string path = at("x.lock");
  auto held = fs_->lock(path, milliseconds(0));
  ASSERT_TRUE(held.ok()) << held.status().message();
  auto st = fs_->stat(path);
  ASSERT_TRUE(st.ok());
  EXPECT_TRUE(st->is_regular);
  auto again = fs_->lock(path, milliseconds(0));
  EXPECT_EQ(again.status().code(), Code::kLocked);
  EXPECT_EQ(again.status().message(), path + " is held by another writer");
  EXPECT_EQ(fs_->try_lock(path).status().message(), path + " is held by another writer");
  // The two forms take the same lock.
  held->reset();
  auto by_try = fs_->try_lock(path);
  ASSERT_TRUE(by_try.ok());
  EXPECT_EQ(fs_->lock(path, milliseconds(0)).status().code(), Code::kLocked);
}

TEST_P(FsLock, AMissingDirectoryIsNotFoundAtOnce) {
  Clock::time_point start = Clock::now();
  EXPECT_EQ(fs_->lock(at("no/dir/x.lock"), milliseconds(5000)).status().code(), Code::kNotFound);
  EXPECT_LT(ms_between(start, Clock::now()), 2000);
}

TEST_P(FsLock, WaitsForAHolderThatLetsGoInTime) {
  std::string path = at("w.lock");
  auto held = fs_->lock(path, milliseconds(0));
  ASSERT_TRUE(held.ok());
  Clock::time_point released;
  Clock::time_point acquired;
  Status waited;
  std::unique_ptr<FileLock> taken;
  std::thread waiter([&] {
    auto r = fs_->lock(path, milliseconds(30000));
    acquired = Clock::now();
    waited = r.status();
    if (r.ok()) taken = std::move(*r);
  });
  std::this_thread::sleep_for(milliseconds(150));
  released = Clock::now();
  held->reset();
  waiter.join();
  ASSERT_TRUE(waited.ok()) << waited.message();
  EXPECT_GE(acquired, released) << "the waiter took the lock while it was held";
  EXPECT_LT(ms_between(released, acquired), 5000) << "the waiter took long to notice the release";
  // The waiter holds it now.
  EXPECT_EQ(fs_->try_lock(path).status().code(), Code::kLocked);
  taken.reset();
  EXPECT_TRUE(fs_->try_lock(path).ok());
}

TEST_P(FsLock, TimesOutWithLockedWhenTheHolderKeepsIt) {
  std::string path = at("t.lock");
  auto held = fs_->lock(path, milliseconds(0));
  ASSERT_TRUE(held.ok());
  Clock::time_point start = Clock::now();
  auto r = fs_->lock(path, milliseconds(200));
  int64_t elapsed = ms_between(start, Clock::now());
  EXPECT_EQ(r.status().code(), Code::kLocked);
  EXPECT_EQ(r.status().message(), path + " is held by another writer (waited 200 ms)");
  EXPECT_GE(elapsed, 200);
  EXPECT_LT(elapsed, 5000);
  // Giving up left the lock to its holder, and leaves nothing held once the holder lets go.
  EXPECT_EQ(fs_->try_lock(path).status().code(), Code::kLocked);
  held->reset();
  EXPECT_TRUE(fs_->try_lock(path).ok());
}

// The use the waiting lock exists for: writers that read, change and write back one value queue
// behind each other, so no update is lost. The value is read and written in two steps (an atomic
// only so the race detector does not flag the test itself): without the lock, updates would be lost.
TEST_P(FsLock, ReadModifyWriteUnderTheLockLosesNoUpdate) {
  constexpr int kThreads = 4;
  constexpr int kUpdates = 25;
  std::string path = at("rmw.lock");
  std::atomic<int> value{0};
  std::atomic<int> failures{0};
  std::vector<std::thread> writers;
  for (int t = 0; t < kThreads; ++t) {
    writers.emplace_back([&] {
      for (int i = 0; i < kUpdates; ++i) {
        auto l = fs_->lock(path, milliseconds(60000));
        if (!l.ok()) {
          ++failures;
          continue;
        }
        int v = value.load(std::memory_order_relaxed);
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        value.store(v + 1, std::memory_order_relaxed);
      }
    });
  }
  for (std::thread& w : writers) w.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(value.load(), kThreads * kUpdates);
}

INSTANTIATE_TEST_SUITE_P(Seams, FsLock, ::testing::Values("posix", "memory", "faulty", "crash"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// --- the doubles' bookkeeping -------------------------------------------------------------------

TEST(FaultyFsLock, IsCountedAsItsOwnOpAndFailsOnCommand) {
  auto fs = std::make_shared<FaultyFs>(make_memory_fs());
  ASSERT_TRUE(fs->make_dirs("/d").ok());
  fs->fail(FsOp::kLock, Code::kIo);
  EXPECT_EQ(fs->lock("/d/x.lock", milliseconds(1000)).status().code(), Code::kIo);
  EXPECT_EQ(fs->held_locks(), 0);
  EXPECT_EQ(fs->stat("/d/x.lock").status().code(), Code::kNotFound) << "a failed lock made its file";
  EXPECT_TRUE(fs->try_lock("/d/y.lock").ok()) << "a fault of lock is not one of try_lock";
  fs->clear(FsOp::kLock);
  {
    auto l = fs->lock("/d/x.lock", milliseconds(1000));
    ASSERT_TRUE(l.ok());
    EXPECT_EQ(fs->held_locks(), 1);
  }
  EXPECT_EQ(fs->held_locks(), 0);
  EXPECT_EQ(fs->count(FsOp::kLock), 2u);
  EXPECT_EQ(fs->count(FsOp::kTryLock), 1u);
  EXPECT_STREQ(fs_op_name(FsOp::kLock), "lock");
}

TEST(CrashFsLock, RecordsItsFileOnceAndWaitingRecordsNothing) {
  auto fs = std::make_shared<CrashFs>();
  ASSERT_TRUE(fs->make_dirs("/d").ok());
  size_t before = fs->ops();
  auto held = fs->lock("/d/x.lock", milliseconds(0));
  ASSERT_TRUE(held.ok());
  ASSERT_EQ(fs->ops(), before + 1);
  EXPECT_EQ(fs->trace().back().op, CrashFs::Op::kCreate);
  EXPECT_EQ(fs->trace().back().path, "/d/x.lock");
  EXPECT_EQ(fs->lock("/d/x.lock", milliseconds(50)).status().code(), Code::kLocked);
  EXPECT_EQ(fs->ops(), before + 1);
}

// --- across processes (posix_fs) ----------------------------------------------------------------

class PosixFsLock : public ::testing::Test {
 protected:
  // A child process that takes the lock, says so on a pipe, then holds it for `hold_ms` (-1: until
  // killed) and exits without unlocking (the kernel drops a dead process's locks).
  pid_t spawn_holder(const std::string& path, int hold_ms) {
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    pid_t pid = ::fork();
    if (pid == 0) {
      ::close(fds[0]);
      auto l = make_posix_fs()->lock(path, milliseconds(0));
      char ok = l.ok() ? 'y' : 'n';
      if (::write(fds[1], &ok, 1) != 1) ::_exit(3);
      if (!l.ok()) ::_exit(2);
      if (hold_ms < 0) {
        for (;;) ::pause();
      }
      ::usleep(static_cast<useconds_t>(hold_ms) * 1000);
      ::_exit(0);
    }
    ::close(fds[1]);
    char got = 0;
    EXPECT_EQ(::read(fds[0], &got, 1), 1);
    ::close(fds[0]);
    EXPECT_EQ(got, 'y') << "the child could not take the lock";
    return pid;
  }
  // waitpid's status of a child.
  static int reap(pid_t pid) {
    int status = 0;
    EXPECT_EQ(::waitpid(pid, &status, 0), pid);
    return status;
  }

  test::TempDir tmp_;
  std::shared_ptr<Fs> fs_ = make_posix_fs();
};

TEST_F(PosixFsLock, WaitsForAnotherProcessToLetGo) {
  std::string path = tmp_.file("p.lock");
  pid_t child = spawn_holder(path, 300);
  EXPECT_EQ(fs_->try_lock(path).status().code(), Code::kLocked);
  Clock::time_point start = Clock::now();
  auto l = fs_->lock(path, milliseconds(30000));
  int64_t waited = ms_between(start, Clock::now());
  ASSERT_TRUE(l.ok()) << l.status().message();
  EXPECT_LT(waited, 20000);
  int status = reap(child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST_F(PosixFsLock, TimesOutWhileAnotherProcessHoldsAndTheKernelFreesItOnKill9) {
  std::string path = tmp_.file("k.lock");
  pid_t child = spawn_holder(path, -1);
  auto timed_out = fs_->lock(path, milliseconds(200));
  EXPECT_EQ(timed_out.status().code(), Code::kLocked);
  EXPECT_EQ(timed_out.status().message(), path + " is held by another writer (waited 200 ms)");
  // Kill the holder while we wait: the kernel drops its lock and the wait ends long before its deadline.
  std::thread killer([&] {
    std::this_thread::sleep_for(milliseconds(200));
    ::kill(child, SIGKILL);
  });
  Clock::time_point start = Clock::now();
  auto l = fs_->lock(path, milliseconds(60000));
  int64_t waited = ms_between(start, Clock::now());
  killer.join();
  ASSERT_TRUE(l.ok()) << l.status().message();
  EXPECT_LT(waited, 30000);
  int status = reap(child);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
}

}  // namespace
}  // namespace xs::storage
