// Short writes and EINTR below the write loop (reliability.md T4): an interrupted or partial
// write() is continued until the whole line is written — never an error by itself, never a false
// OK — and a write that stops for good (disk full, file size limit) is an error that poisons the
// session while everything acknowledged before stays readable.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

#include "reliability_util.h"

namespace xs::test {
namespace {

using session::Session;

std::atomic<int> g_calls{0};

// Every other call is interrupted before writing anything; the others write at most 7 bytes.
long interrupting_write(int fd, const void* buf, unsigned long n) {
  if (g_calls++ % 2 == 0) {
    errno = EINTR;
    return -1;
  }
  return ::write(fd, buf, n < 7 ? n : 7);
}

// Writes half of what it is asked, then reports a full disk.
std::atomic<int> g_budget{0};
long filling_write(int fd, const void* buf, unsigned long n) {
  if (g_budget <= 0) {
    errno = ENOSPC;
    return -1;
  }
  unsigned long k = n / 2 ? n / 2 : 1;
  g_budget -= 1;
  return ::write(fd, buf, k);
}

std::string write_session(std::shared_ptr<storage::Fs> fs, const std::string& path, int entries) {
  auto o = options(true, true);
  o.clock = format::Clock::Fixed(1767225600000, 1000);
  o.id_seed = 99;
  auto s = Session::open(fs, path, o);
  EXPECT_TRUE(s.ok()) << s.status().message();
  for (int i = 0; i < entries; ++i) {
    std::string id;
    Status st = (*s)->append_message(user_message("entry number " + std::to_string(i)), &id);
    EXPECT_TRUE(st.ok()) << st.message();
  }
  EXPECT_TRUE((*s)->close().ok());
  return read_file(path);
}

TEST(ShortWrites, InterruptedAndPartialWritesCompleteTheLine) {
  TempDir a, b;
  g_calls = 0;
  std::string normal = write_session(storage::make_posix_fs(), a.file("s.jsonl"), 20);
  std::string chopped = write_session(storage::make_posix_fs(interrupting_write), b.file("s.jsonl"), 20);
  EXPECT_EQ(chopped, normal);  // byte for byte, although no write() wrote more than 7 bytes
  EXPECT_GT(g_calls.load(), 2 * static_cast<int>(normal.size() / 7));
}

TEST(ShortWrites, AWriteThatStopsIsAnErrorAndPoisons) {
  TempDir dir;
  std::string path = dir.file("s.jsonl");
  write_session(storage::make_posix_fs(), path, 3);
  std::string before = read_file(path);

  g_budget = 2;  // two partial writes, then "disk full"
  auto s = Session::open(storage::make_posix_fs(filling_write), path, options(false, false));
  ASSERT_TRUE(s.ok());
  std::string id;
  Status st = (*s)->append_message(user_message(std::string(200, 'x')), &id);
  EXPECT_EQ(st.code(), Code::kNoSpace) << st.message();
  EXPECT_EQ((*s)->append_message(user_message("later"), &id).code(), Code::kPoisoned);
  EXPECT_EQ((*s)->flush().code(), Code::kPoisoned);
  (*s)->close();

  // The torn fragment is reported; every earlier entry is intact; the next writer repairs the tail.
  auto r = Session::open(storage::make_posix_fs(), path, options(false, false));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->entry_count(), 3u);
  EXPECT_NE((*r)->diagnostics_json().find("\"incomplete_tail\""), std::string::npos);
  ASSERT_TRUE((*r)->append_message(user_message("after repair"), &id).ok());
  ASSERT_TRUE((*r)->close().ok());
  auto check = Session::open(storage::make_posix_fs(), path, read_only());
  ASSERT_TRUE(check.ok());
  EXPECT_EQ((*check)->entry_count(), 4u);
  EXPECT_TRUE((*check)->entry_json(id).ok());
  EXPECT_EQ(read_file(path).compare(0, before.size(), before), 0);
}

// A real kernel short write: RLIMIT_FSIZE cuts a write() short, and the next one fails with EFBIG.
TEST(ShortWrites, FileSizeLimitInAChildProcess) {
  TempDir dir;
  std::string path = dir.file("s.jsonl");
  write_session(storage::make_posix_fs(), path, 3);
  size_t size = read_file(path).size();
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim = {size + 100, size + 100};
    setrlimit(RLIMIT_FSIZE, &lim);
    auto s = Session::open(storage::make_posix_fs(), path, options(false, false));
    if (!s.ok()) _exit(10);
    std::string id;
    Status st = (*s)->append_message(user_message(std::string(5000, 'y')), &id);
    if (st.ok()) _exit(11);  // a false OK
    if (st.code() != Code::kNoSpace) _exit(12);
    if ((*s)->append_message(user_message("small"), &id).code() != Code::kPoisoned) _exit(13);
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  auto r = Session::open(storage::make_posix_fs(), path, read_only());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->entry_count(), 3u);
  EXPECT_EQ(read_file(path).size(), size + 100);  // the short write really happened
}

}  // namespace
}  // namespace xs::test
