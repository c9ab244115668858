// storage/atomic_file: temp + fsync + freshness check + rename, so after any crash the path holds
// the complete old or the complete new file (docs/guarantees.md#g5).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <memory>
#include <string>

#include "storage/atomic_file.h"
#include "storage/faulty_fs.h"
#include "test_util.h"

namespace xs::storage {
namespace {

class AtomicFile : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "posix") {
      tmp_ = std::make_unique<test::TempDir>();
      inner_ = make_posix_fs();
      dir_ = tmp_->path();
    } else {
      inner_ = make_memory_fs();
      dir_ = "/store/sessions";
      ASSERT_TRUE(inner_->make_dirs(dir_).ok());
    }
    fs_ = std::make_shared<storage::FaultyFs>(inner_);
    path_ = dir_ + "/s.jsonl";
  }
  std::vector<std::string> names() { return test::fs_list(*fs_, dir_); }
  std::string content() { return test::get_file(*fs_, path_); }
  Expected current() {
    auto st = fs_->stat(path_);
    return st.ok() ? Expected::Of(*st) : Expected::None();
  }

  std::unique_ptr<test::TempDir> tmp_;
  std::shared_ptr<Fs> inner_;
  std::shared_ptr<storage::FaultyFs> fs_;
  std::string dir_, path_;
};

TEST_P(AtomicFile, CreatesANewFileFromChunks) {
  FileInfo written;
  ASSERT_TRUE(atomic_replace(*fs_, path_, {"line1", "\n", "", "line2\n"}, Expected::None(), &written).ok());
  EXPECT_EQ(content(), "line1\nline2\n");
  EXPECT_EQ(names(), std::vector<std::string>{"s.jsonl"});
  auto st = fs_->stat(path_);
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(written.ino, st->ino);
  EXPECT_EQ(written.size, 12u);
  EXPECT_EQ(static_cast<int>(fs_->count(storage::FsOp::kSync)), 1);
}

TEST_P(AtomicFile, NewFileNeverReplacesAnExistingOne) {
  test::put_file(*fs_, path_, "someone else's");
  Status st = atomic_replace(*fs_, path_, {"mine\n"}, Expected::None());
  EXPECT_EQ(st.code(), Code::kConflict);
  EXPECT_EQ(content(), "someone else's");
  EXPECT_EQ(names(), std::vector<std::string>{"s.jsonl"});
}

TEST_P(AtomicFile, ReplacesWhatWeSawWithAFreshFile) {
  test::put_file(*fs_, path_, "old\n");
  Expected seen = current();
  FileInfo written;
  ASSERT_TRUE(atomic_replace(*fs_, path_, {"new\n"}, seen, &written).ok());
  EXPECT_EQ(content(), "new\n");
  EXPECT_NE(written.ino, seen.ino);
  auto now = fs_->stat(path_);
  ASSERT_TRUE(now.ok());
  EXPECT_EQ(now->ino, written.ino);
  EXPECT_EQ(names(), std::vector<std::string>{"s.jsonl"});
}

TEST_P(AtomicFile, ForeignAppendIsAConflictAndKeepsTheirBytes) {
  test::put_file(*fs_, path_, "old\n");
  Expected seen = current();
  test::append_file(*fs_, path_, "foreign\n");
  EXPECT_EQ(atomic_replace(*fs_, path_, {"new\n"}, seen).code(), Code::kConflict);
  EXPECT_EQ(content(), "old\nforeign\n");
  EXPECT_EQ(names(), std::vector<std::string>{"s.jsonl"});
}

TEST_P(AtomicFile, ForeignReplacementIsAConflict) {
  test::put_file(*fs_, path_, "old\n");
  Expected seen = current();
  // Another tool writes a new file (same size) and renames it into place.
  test::put_file(*fs_, dir_ + "/foreign.tmp", "new\n");
  ASSERT_TRUE(fs_->rename(dir_ + "/foreign.tmp", path_).ok());
  EXPECT_EQ(atomic_replace(*fs_, path_, {"mine\n"}, seen).code(), Code::kConflict);
  EXPECT_EQ(content(), "new\n");
  EXPECT_EQ(names(), std::vector<std::string>{"s.jsonl"});
}

TEST_P(AtomicFile, RemovedFileIsAConflict) {
  test::put_file(*fs_, path_, "old\n");
  Expected seen = current();
  ASSERT_TRUE(fs_->unlink(path_).ok());
  EXPECT_EQ(atomic_replace(*fs_, path_, {"mine\n"}, seen).code(), Code::kConflict);
  EXPECT_EQ(fs_->stat(path_).status().code(), Code::kNotFound);
  EXPECT_TRUE(names().empty());
}

TEST_P(AtomicFile, FailedSyncLeavesTheOldFileAndNoTemp) {
  test::put_file(*fs_, path_, "old\n");
  Expected seen = current();
  fs_->fail(storage::FsOp::kSync);
  Status st = atomic_replace(*fs_, path_, {"new\n"}, seen);
  EXPECT_EQ(st.code(), Code::kIo);
  EXPECT_EQ(content(), "old\n");
  EXPECT_EQ(names(), std::vector<std::string>{"s.jsonl"});
}

TEST_P(AtomicFile, FailedWriteLeavesTheOldFileAndNoTemp) {
  test::put_file(*fs_, path_, "old\n");
  Expected seen = current();
  fs_->fail(storage::FsOp::kAppend, Code::kIo, /*torn=*/true);
  EXPECT_EQ(atomic_replace(*fs_, path_, {"new content\n"}, seen).code(), Code::kIo);
  EXPECT_EQ(content(), "old\n");
  EXPECT_EQ(names(), std::vector<std::string>{"s.jsonl"});
}

TEST_P(AtomicFile, FailedRenameLeavesTheOldFileAndNoTemp) {
  test::put_file(*fs_, path_, "old\n");
  Expected seen = current();
  fs_->fail(storage::FsOp::kRename);
  fs_->fail(storage::FsOp::kRenameNoReplace);
  EXPECT_EQ(atomic_replace(*fs_, path_, {"new\n"}, seen).code(), Code::kIo);
  EXPECT_EQ(content(), "old\n");
  EXPECT_EQ(names(), std::vector<std::string>{"s.jsonl"});
}

TEST_P(AtomicFile, FailedCreateReportsTheError) {
  fs_->fail(storage::FsOp::kCreateNew, Code::kNoSpace);
  EXPECT_EQ(atomic_replace(*fs_, path_, {"x\n"}, Expected::None()).code(), Code::kNoSpace);
  EXPECT_TRUE(names().empty());
}

TEST_P(AtomicFile, TempFilesAreNamedAfterTheTarget) {
  EXPECT_EQ(temp_prefix("/d/s.jsonl"), "/d/.s.jsonl.xs-tmp-");
  EXPECT_EQ(temp_prefix("s.jsonl"), "./.s.jsonl.xs-tmp-");
  EXPECT_EQ(temp_prefix(path_), dir_ + "/.s.jsonl.xs-tmp-");
}

TEST_P(AtomicFile, RemoveStaleTempsRemovesOnlyOursForThatFile) {
  test::put_file(*fs_, path_, "session\n");
  for (const char* name : {".s.jsonl.xs-tmp-dead", ".s.jsonl.xs-tmp-", ".s.jsonl.1234567.tmp", ".t.jsonl.xs-tmp-beef",
                           "s.jsonl.xs-tmp-x", "s.jsonl.lock"}) {
    test::put_file(*fs_, dir_ + "/" + name, "x");
  }
  remove_stale_temps(*fs_, path_);
  EXPECT_EQ(names(), (std::vector<std::string>{".s.jsonl.1234567.tmp", ".t.jsonl.xs-tmp-beef", "s.jsonl",
                                               "s.jsonl.lock", "s.jsonl.xs-tmp-x"}));
  EXPECT_EQ(content(), "session\n");
}

INSTANTIATE_TEST_SUITE_P(Both, AtomicFile, ::testing::Values("memory", "posix"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

TEST(AtomicFilePosix, ReplacementIs0600) {
  test::TempDir tmp;
  auto fs = make_posix_fs();
  std::string path = tmp.file("s.jsonl");
  test::write_file(path, "old\n");
  ::chmod(path.c_str(), 0644);
  auto st = fs->stat(path);
  ASSERT_TRUE(st.ok());
  ASSERT_TRUE(atomic_replace(*fs, path, {"new\n"}, Expected::Of(*st)).ok());
  EXPECT_EQ(test::file_mode(path), 0600);
  EXPECT_EQ(test::read_file(path), "new\n");
}

}  // namespace
}  // namespace xs::storage
