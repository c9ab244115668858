// One writer per session file (DECISIONS 'Write path'): a second writable open is refused with
// kLocked, in another process as in this one, while readers are always allowed; the lock dies
// with its holder. A foreign process that does not take the lock cannot make us overwrite it:
// after it renames a new file into place our append fails with kConflict and writes nothing;
// after it appends, our appends land after its bytes but our next rewrite fails with kConflict.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "reliability_util.h"

namespace xs::test {
namespace {

using session::Session;

std::string make_session(const std::string& path) {
  auto s = Session::open(storage::make_posix_fs(), path, options(true, true));
  EXPECT_TRUE(s.ok());
  std::string id;
  EXPECT_TRUE((*s)->append_message(user_message("first"), &id).ok());
  EXPECT_TRUE((*s)->close().ok());
  return id;
}

TEST(Writers, SecondWriterInAnotherProcessIsLocked) {
  TempDir dir;
  std::string path = dir.file("s.jsonl");
  make_session(path);
  int to_child[2], to_parent[2];
  ASSERT_EQ(pipe(to_child), 0);
  ASSERT_EQ(pipe(to_parent), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto s = Session::open(storage::make_posix_fs(), path, options(false, false));
    char c = s.ok() ? 'y' : 'n';
    if (write(to_parent[1], &c, 1) != 1) _exit(2);
    if (read(to_child[0], &c, 1) != 1) _exit(3);  // hold the lock until told
    _exit(0);
  }
  char c = 0;
  ASSERT_EQ(read(to_parent[0], &c, 1), 1);
  ASSERT_EQ(c, 'y');
  auto second = Session::open(storage::make_posix_fs(), path, options(false, false));
  EXPECT_EQ(second.status().code(), Code::kLocked);
  auto reader = Session::open(storage::make_posix_fs(), path, read_only());
  EXPECT_TRUE(reader.ok());
  // The lock dies with its holder: no stale lock after a kill.
  kill(child, SIGKILL);
  int status;
  waitpid(child, &status, 0);
  auto after = Session::open(storage::make_posix_fs(), path, options(false, false));
  EXPECT_TRUE(after.ok()) << after.status().message();
  close(to_child[0]);
  close(to_child[1]);
  close(to_parent[0]);
  close(to_parent[1]);
}

TEST(Writers, SecondWriterInThisProcessIsLocked) {
  TempDir dir;
  std::string path = dir.file("s.jsonl");
  make_session(path);
  auto fs = storage::make_posix_fs();
  auto first = Session::open(fs, path, options(false, false));
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(Session::open(fs, path, options(false, false)).status().code(), Code::kLocked);
  EXPECT_EQ(Session::open(storage::make_posix_fs(), path, options(false, false)).status().code(), Code::kLocked);
  ASSERT_TRUE((*first)->close().ok());
  EXPECT_TRUE(Session::open(fs, path, options(false, false)).ok());
}

TEST(Writers, ForeignRenameIntoPlaceIsAConflictForTheNextAppend) {
  TempDir dir;
  std::string path = dir.file("s.jsonl");
  make_session(path);
  auto s = Session::open(storage::make_posix_fs(), path, options(false, false));
  ASSERT_TRUE(s.ok());
  std::string id;
  ASSERT_TRUE((*s)->append_message(user_message("ours"), &id).ok());
  // A foreign tool (no lock) rewrites the file by renaming a new one over it.
  std::string theirs = "{\"type\":\"session\",\"version\":3,\"id\":\"foreign\",\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"cwd\":\"/x\"}\n";
  write_file(dir.file("foreign.tmp"), theirs);
  ASSERT_EQ(std::rename(dir.file("foreign.tmp").c_str(), path.c_str()), 0);
  Status st = (*s)->append_message(user_message("lost?"), &id);
  EXPECT_EQ(st.code(), Code::kConflict) << st.message();
  EXPECT_EQ(read_file(path), theirs);  // nothing written into their file, nothing erased
  EXPECT_EQ((*s)->set_title(std::string_view("t")).code(), Code::kConflict);
  EXPECT_EQ(read_file(path), theirs);
}

TEST(Writers, ForeignAppendMakesTheNextRewriteAConflict) {
  TempDir dir;
  std::string path = dir.file("s.jsonl");
  make_session(path);
  auto s = Session::open(storage::make_posix_fs(), path, options(false, false));
  ASSERT_TRUE(s.ok());
  std::string foreign_line =
      "{\"type\":\"custom\",\"customType\":\"foreign\",\"id\":\"f1\",\"parentId\":null,\"timestamp\":\"2026-01-01T00:00:00.000Z\"}\n";
  std::string before = read_file(path);
  write_file(path, before + foreign_line);  // same inode: an append by someone without the lock
  std::string id;
  ASSERT_TRUE((*s)->append_message(user_message("ours, after theirs"), &id).ok());
  std::string now = read_file(path);
  EXPECT_EQ(now.compare(0, before.size() + foreign_line.size(), before + foreign_line), 0);
  EXPECT_EQ((*s)->set_title(std::string_view("t")).code(), Code::kConflict);
  EXPECT_EQ(read_file(path), now);  // the rewrite did not replace their bytes
}

// DECISIONS 'Temp files': only a writable, locked open removes leftovers, and only ours (omp's
// ".<name>.<snowflake>.tmp" may belong to a live omp process).
TEST(Writers, OnlyAWritableOpenRemovesOurLeftoverTempFiles) {
  TempDir dir;
  std::string path = dir.file("s.jsonl");
  make_session(path);
  std::string ours = dir.file(".s.jsonl.xs-tmp-0123abcd"), omps = dir.file(".s.jsonl.1234567890.tmp");
  write_file(ours, "half a rewrite");
  write_file(omps, "someone else's");
  ASSERT_TRUE(Session::open(storage::make_posix_fs(), path, read_only()).ok());
  EXPECT_TRUE(std::ifstream(ours).good());
  auto w = Session::open(storage::make_posix_fs(), path, options(false, false));
  ASSERT_TRUE(w.ok());
  EXPECT_FALSE(std::ifstream(ours).good());
  EXPECT_TRUE(std::ifstream(omps).good());
}

// Agents fork tools constantly: no descriptor of ours (the log, the lock) may leak into a child.
TEST(Writers, EveryDescriptorIsCloseOnExec) {
  TempDir dir;
  std::string path = dir.file("s.jsonl");
  make_session(path);
  auto s = Session::open(storage::make_posix_fs(), path, options(false, false));
  ASSERT_TRUE(s.ok());
  std::string id;
  ASSERT_TRUE((*s)->append_message(user_message("opens the log for appending"), &id).ok());
  int ours = 0;
  for (int fd = 0; fd < 1024; ++fd) {
    char link[64], target[4096];
    std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n <= 0) continue;
    target[n] = '\0';
    if (std::string(target).rfind(dir.path(), 0) != 0) continue;
    ++ours;
    EXPECT_TRUE(fcntl(fd, F_GETFD) & FD_CLOEXEC) << target << " is inherited by children";
  }
  EXPECT_EQ(ours, 2);  // the session log and its lock file
}

}  // namespace
}  // namespace xs::test
