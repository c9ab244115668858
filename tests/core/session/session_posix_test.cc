// Session on the real file system only: permissions, a foreign rename seen through real file
// handles, and a second writer in another process.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "session_fixture.h"

namespace xs::session {
namespace {

using namespace fixture;

// --- POSIX only: permissions and real file handles ------------------------------------------------

TEST(SessionPosix, FilesAre0600AndDirectories0700) {
  test::TempDir tmp;
  auto fs = storage::make_posix_fs();
  std::string dir = tmp.path() + "/agent/sessions/--p--";
  auto r = Session::create(fs, dir, options(false));
  ASSERT_TRUE(r.ok());
  auto& s = *r;
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  ASSERT_OK(s->set_title("t"));
  EXPECT_EQ(test::file_mode(tmp.path() + "/agent"), 0700);
  EXPECT_EQ(test::file_mode(tmp.path() + "/agent/sessions"), 0700);
  EXPECT_EQ(test::file_mode(dir), 0700);
  EXPECT_EQ(test::file_mode(s->path()), 0600);
  EXPECT_EQ(test::file_mode(s->path() + ".lock"), 0600);
  EXPECT_EQ(test::list_dir(dir), (std::vector<std::string>{kFileName, kFileName + ".lock"}));
  // The preserved copy of a headerless file is private too.
  std::string bad = tmp.file("bad.jsonl");
  test::write_file(bad, "secret garbage\n");
  ::chmod(bad.c_str(), 0644);
  auto rec = Session::open(fs, bad, options());
  ASSERT_TRUE(rec.ok());
  EXPECT_EQ(test::file_mode(bad + ".corrupt-2026-02-16T10-20-30-000Z"), 0600);
  EXPECT_EQ(test::file_mode(bad), 0600);
}

TEST(SessionPosix, AppendAfterAForeignRenameWritesNothingAnywhere) {
  test::TempDir tmp;
  auto fs = storage::make_posix_fs();
  auto r = Session::create(fs, tmp.path(), options(false));
  ASSERT_TRUE(r.ok());
  auto& s = *r;
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  std::string path = s->path();
  // Keep a name for our inode so its bytes can be inspected after the foreign rename.
  ASSERT_EQ(::link(path.c_str(), tmp.file("ours").c_str()), 0);
  std::string ours = test::read_file(path);
  test::write_file(tmp.file("theirs.tmp"), "theirs\n");
  ASSERT_EQ(::rename(tmp.file("theirs.tmp").c_str(), path.c_str()), 0);
  EXPECT_EQ(s->append_message(kAssistant, &id).code(), Code::kConflict);
  EXPECT_EQ(test::read_file(path), "theirs\n");
  EXPECT_EQ(test::read_file(tmp.file("ours")), ours);
}

TEST(SessionPosix, SecondWriterInAnotherProcessIsLocked) {
  test::TempDir tmp;
  auto fs = storage::make_posix_fs();
  auto r = Session::create(fs, tmp.path(), options(false));
  ASSERT_TRUE(r.ok());
  std::string path = (*r)->path();
  pid_t pid = ::fork();
  if (pid == 0) {
    auto other = Session::open(storage::make_posix_fs(), path, options());
    ::_exit(other.ok() ? 0 : other.status().code() == Code::kLocked ? 10 : 20);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 10);
}

}  // namespace
}  // namespace xs::session
