// storage/fs.h: the seam's contract, run against both implementations (memory_fs, posix_fs).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "storage/fs.h"
#include "test_util.h"

namespace xs::storage {
namespace {

class FsContract : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "posix") {
      tmp_ = std::make_unique<test::TempDir>();
      fs_ = make_posix_fs();
      root_ = tmp_->path();
    } else {
      fs_ = make_memory_fs();
      root_ = "/mem/root";
      ASSERT_TRUE(fs_->make_dirs(root_).ok());
    }
  }
  std::string at(const std::string& name) const { return root_ + "/" + name; }
  void put(const std::string& name, std::string_view bytes) { test::put_file(*fs_, at(name), bytes); }
  std::string get(const std::string& name) { return test::get_file(*fs_, at(name)); }

  std::unique_ptr<test::TempDir> tmp_;
  std::shared_ptr<Fs> fs_;
  std::string root_;
};

TEST_P(FsContract, ReadFileReturnsBytesPaddingAndInfo) {
  put("f", std::string("ab\0c\n", 5));
  PaddedBuffer b;
  FileInfo fi;
  ASSERT_TRUE(fs_->read_file(at("f"), 1 << 20, &b, &fi).ok());
  EXPECT_EQ(b.view(), std::string("ab\0c\n", 5));
  for (size_t i = 0; i < json::kPadding; ++i) ASSERT_EQ(b.data()[b.size() + i], '\0') << i;
  EXPECT_EQ(fi.size, 5u);
  EXPECT_TRUE(fi.is_regular);
  EXPECT_FALSE(fi.is_dir);
  auto st = fs_->stat(at("f"));
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(st->ino, fi.ino);
  EXPECT_EQ(st->dev, fi.dev);
  // info is optional.
  PaddedBuffer again;
  EXPECT_TRUE(fs_->read_file(at("f"), 5, &again).ok());
}

TEST_P(FsContract, ReadFileErrors) {
  PaddedBuffer b;
  EXPECT_EQ(fs_->read_file(at("missing"), 100, &b).code(), Code::kNotFound);
  EXPECT_EQ(fs_->read_file(at("nodir/x"), 100, &b).code(), Code::kNotFound);
  EXPECT_EQ(fs_->read_file(root_, 100, &b).code(), Code::kInvalid);
  put("big", "0123456789");
  EXPECT_EQ(fs_->read_file(at("big"), 9, &b).code(), Code::kLimit);
  EXPECT_TRUE(fs_->read_file(at("big"), 10, &b).ok());
}

TEST_P(FsContract, EmptyFileReadsAsEmpty) {
  put("empty", "");
  PaddedBuffer b;
  FileInfo fi;
  ASSERT_TRUE(fs_->read_file(at("empty"), 100, &b, &fi).ok());
  EXPECT_EQ(b.size(), 0u);
  EXPECT_EQ(fi.size, 0u);
}

TEST_P(FsContract, CreateNewIsExclusive) {
  auto f = fs_->create_new(at("n"));
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->append("hello").ok());
  ASSERT_TRUE((*f)->sync().ok());
  auto fi = (*f)->stat();
  ASSERT_TRUE(fi.ok());
  EXPECT_EQ(fi->size, 5u);
  ASSERT_TRUE((*f)->close().ok());
  EXPECT_EQ(get("n"), "hello");
  EXPECT_EQ(fs_->create_new(at("n")).status().code(), Code::kExists);
  EXPECT_EQ(get("n"), "hello");
  EXPECT_EQ(fs_->create_new(at("no/such/dir/f")).status().code(), Code::kNotFound);
}

TEST_P(FsContract, OpenAppendWritesAtTheEnd) {
  put("a", "one\n");
  auto f = fs_->open_append(at("a"));
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->append("two\n").ok());
  ASSERT_TRUE((*f)->append("").ok());
  ASSERT_TRUE((*f)->append("three\n").ok());
  auto fi = (*f)->stat();
  ASSERT_TRUE(fi.ok());
  EXPECT_EQ(fi->size, 14u);
  ASSERT_TRUE((*f)->close().ok());
  EXPECT_EQ(get("a"), "one\ntwo\nthree\n");
  EXPECT_EQ(fs_->open_append(at("missing")).status().code(), Code::kNotFound);
}

TEST_P(FsContract, AppendAfterAnotherWriterAppendedGoesToTheEnd) {
  put("a", "x");
  auto f1 = fs_->open_append(at("a"));
  auto f2 = fs_->open_append(at("a"));
  ASSERT_TRUE(f1.ok() && f2.ok());
  ASSERT_TRUE((*f1)->append("1").ok());
  ASSERT_TRUE((*f2)->append("2").ok());
  ASSERT_TRUE((*f1)->append("3").ok());
  EXPECT_EQ(get("a"), "x123");
}

TEST_P(FsContract, WritingAfterCloseFails) {
  auto f = fs_->create_new(at("c"));
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->close().ok());
  EXPECT_FALSE((*f)->append("x").ok());
  EXPECT_FALSE((*f)->sync().ok());
  EXPECT_FALSE((*f)->stat().ok());
  EXPECT_EQ(get("c"), "");
}

TEST_P(FsContract, RenameReplacesAndCarriesTheInode) {
  put("src", "new");
  put("dst", "old");
  auto src = fs_->stat(at("src"));
  auto dst = fs_->stat(at("dst"));
  ASSERT_TRUE(src.ok() && dst.ok());
  EXPECT_NE(src->ino, dst->ino);
  ASSERT_TRUE(fs_->rename(at("src"), at("dst")).ok());
  EXPECT_EQ(get("dst"), "new");
  EXPECT_EQ(fs_->stat(at("src")).status().code(), Code::kNotFound);
  auto moved = fs_->stat(at("dst"));
  ASSERT_TRUE(moved.ok());
  EXPECT_EQ(moved->ino, src->ino);
  EXPECT_EQ(fs_->rename(at("src"), at("dst")).code(), Code::kNotFound);
}

TEST_P(FsContract, RenameNoReplaceRefusesAnExistingTarget) {
  put("src", "new");
  put("dst", "old");
  EXPECT_EQ(fs_->rename_noreplace(at("src"), at("dst")).code(), Code::kExists);
  EXPECT_EQ(get("src"), "new");
  EXPECT_EQ(get("dst"), "old");
  ASSERT_TRUE(fs_->rename_noreplace(at("src"), at("fresh")).ok());
  EXPECT_EQ(get("fresh"), "new");
  EXPECT_EQ(fs_->stat(at("src")).status().code(), Code::kNotFound);
  EXPECT_EQ(fs_->rename_noreplace(at("src"), at("other")).code(), Code::kNotFound);
}

// An open append handle keeps writing to the file it opened, even after another file was
// renamed over its path (POSIX semantics the conflict check relies on).
TEST_P(FsContract, AppendHandleFollowsTheInodeNotThePath) {
  put("log", "mine\n");
  auto f = fs_->open_append(at("log"));
  ASSERT_TRUE(f.ok());
  auto before = (*f)->stat();
  ASSERT_TRUE(before.ok());
  put("foreign.tmp", "theirs\n");
  ASSERT_TRUE(fs_->rename(at("foreign.tmp"), at("log")).ok());
  ASSERT_TRUE((*f)->append("more\n").ok());
  EXPECT_EQ(get("log"), "theirs\n");
  auto after = (*f)->stat();
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->ino, before->ino);
  EXPECT_EQ(after->size, 10u);
  auto now = fs_->stat(at("log"));
  ASSERT_TRUE(now.ok());
  EXPECT_NE(now->ino, before->ino);
}

TEST_P(FsContract, Unlink) {
  put("u", "x");
  ASSERT_TRUE(fs_->unlink(at("u")).ok());
  EXPECT_EQ(fs_->stat(at("u")).status().code(), Code::kNotFound);
  EXPECT_EQ(fs_->unlink(at("u")).code(), Code::kNotFound);
}

TEST_P(FsContract, MakeDirsCreatesParentsAndIsIdempotent) {
  ASSERT_TRUE(fs_->make_dirs(at("a/b/c")).ok());
  ASSERT_TRUE(fs_->make_dirs(at("a/b/c")).ok());
  auto st = fs_->stat(at("a/b"));
  ASSERT_TRUE(st.ok());
  EXPECT_TRUE(st->is_dir);
  EXPECT_FALSE(st->is_regular);
  put("file", "x");
  EXPECT_EQ(fs_->make_dirs(at("file")).code(), Code::kInvalid);
  EXPECT_FALSE(fs_->make_dirs(at("file/sub")).ok());
  ASSERT_TRUE(fs_->create_new(at("a/b/c/f")).ok());
}

TEST_P(FsContract, SyncDir) {
  EXPECT_TRUE(fs_->sync_dir(root_).ok());
  EXPECT_EQ(fs_->sync_dir(at("nope")).code(), Code::kNotFound);
}

TEST_P(FsContract, StatReportsKindAndSize) {
  put("s", "12345");
  auto st = fs_->stat(at("s"));
  ASSERT_TRUE(st.ok());
  EXPECT_TRUE(st->is_regular);
  EXPECT_EQ(st->size, 5u);
  EXPECT_GT(st->mtime_ms, 0);
  auto d = fs_->stat(root_);
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->is_dir);
  EXPECT_EQ(fs_->stat(at("missing")).status().code(), Code::kNotFound);
}

TEST_P(FsContract, ListDirNamesFilesAndDirectories) {
  put("b.jsonl", "");
  put(".hidden", "");
  ASSERT_TRUE(fs_->make_dirs(at("sub/deeper")).ok());
  put("sub/inner", "");
  EXPECT_EQ(test::fs_list(*fs_, root_), (std::vector<std::string>{".hidden", "b.jsonl", "sub"}));
  EXPECT_EQ(test::fs_list(*fs_, at("sub")), (std::vector<std::string>{"deeper", "inner"}));
  EXPECT_EQ(fs_->list_dir(at("missing")).status().code(), Code::kNotFound);
}

TEST_P(FsContract, TryLockIsExclusiveUntilReleased) {
  auto l1 = fs_->try_lock(at("x.lock"));
  ASSERT_TRUE(l1.ok()) << l1.status().message();
  auto st = fs_->stat(at("x.lock"));
  ASSERT_TRUE(st.ok());
  EXPECT_TRUE(st->is_regular);
  EXPECT_EQ(fs_->try_lock(at("x.lock")).status().code(), Code::kLocked);
  auto other = fs_->try_lock(at("y.lock"));
  EXPECT_TRUE(other.ok());
  l1->reset();
  auto l2 = fs_->try_lock(at("x.lock"));
  EXPECT_TRUE(l2.ok());
  EXPECT_EQ(fs_->try_lock(at("no/dir/x.lock")).status().code(), Code::kNotFound);
}

TEST_P(FsContract, LockFileContentIsLeftAlone) {
  put("z.lock", "someone's bytes");
  auto l = fs_->try_lock(at("z.lock"));
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(get("z.lock"), "someone's bytes");
}

INSTANTIATE_TEST_SUITE_P(Both, FsContract, ::testing::Values("memory", "posix"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace xs::storage
