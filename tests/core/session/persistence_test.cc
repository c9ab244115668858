// session/persistence: deferred first write, appends with newline repair, atomic rewrites,
// conflict detection, one writer, sticky errors (docs/decisions.md#write-path, G1-G9 in
// docs/guarantees.md#the-guarantees).
// Run against memory_fs and posix_fs in a temp dir.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "session/persistence.h"
#include "storage/faulty_fs.h"
#include "test_util.h"

namespace xs::session {
namespace {

const std::string kHeader = R"({"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"})";
const std::string kL1 = R"({"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user"}})";
const std::string kL2 = R"({"type":"message","id":"b","parentId":"a","timestamp":"t","message":{"role":"assistant"}})";
const std::string kL3 = R"({"type":"custom","customType":"x","id":"c","parentId":"b","timestamp":"t"})";

class PersistenceTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "posix") {
      tmp_ = std::make_unique<test::TempDir>();
      base_ = storage::make_posix_fs();
      dir_ = tmp_->path() + "/sessions/--w--";
    } else {
      base_ = storage::make_memory_fs();
      dir_ = "/store/sessions/--w--";
    }
    fs_ = std::make_shared<storage::FaultyFs>(base_);
    path_ = dir_ + "/s.jsonl";
    data_ = test::load(kHeader + "\n");
    ASSERT_TRUE(data_->status.ok());
  }

  std::unique_ptr<Persistence> make(bool defer = true, Durability d = Durability::kBuffered) {
    return make_with(defer ? Deferral::kUntilAssistant : Deferral::kNone, d);
  }
  std::unique_ptr<Persistence> make_with(Deferral defer, Durability d = Durability::kBuffered) {
    return std::make_unique<Persistence>(fs_, path_, d, defer);
  }
  // What the session does after a successful append_record: the line becomes part of the data.
  void push(const std::string& line) {
    std::string_view stored = data_->data.arena.store(line, json::kPadding);
    data_->data.lines.push_back({stored, 0, model::LineKind::kEntry, true, model::kNone});
  }
  Status append(Persistence& p, const std::string& line, bool assistant_after) {
    Status st = p.append_record(data_->data, line + "\n", assistant_after);
    if (st.ok()) push(line);
    return st;
  }
  std::string content() { return test::get_file(*base_, path_); }
  bool exists() { return base_->stat(path_).ok(); }
  std::vector<std::string> names() { return test::fs_list(*base_, dir_); }
  // A foreign process writing a new file and renaming it over ours.
  void foreign_replace(const std::string& bytes) {
    test::put_file(*base_, dir_ + "/foreign.tmp", bytes);
    ASSERT_TRUE(base_->rename(dir_ + "/foreign.tmp", path_).ok());
  }

  std::unique_ptr<test::TempDir> tmp_;
  std::shared_ptr<storage::Fs> base_;
  std::shared_ptr<storage::FaultyFs> fs_;
  std::string dir_, path_;
  std::unique_ptr<test::Loaded> data_;
};

TEST_P(PersistenceTest, DeferredUntilTheFirstAssistantThenEverythingAtOnce) {
  auto p = make();
  ASSERT_TRUE(append(*p, kL1, false).ok());
  EXPECT_FALSE(p->persisted());
  EXPECT_FALSE(exists());
  EXPECT_EQ(static_cast<int>(fs_->count(storage::FsOp::kCreateNew)), 0);
  ASSERT_TRUE(append(*p, kL2, true).ok());
  EXPECT_TRUE(p->persisted());
  EXPECT_EQ(content(), kHeader + "\n" + kL1 + "\n" + kL2 + "\n");
  ASSERT_TRUE(append(*p, kL3, true).ok());
  EXPECT_EQ(content(), kHeader + "\n" + kL1 + "\n" + kL2 + "\n" + kL3 + "\n");
  // The directory was created and only the session file and its lock live there.
  EXPECT_EQ(names(), (std::vector<std::string>{"s.jsonl", "s.jsonl.lock"}));
}

TEST_P(PersistenceTest, DeferredUntilPersistWritesTheWholeFileOnceWhenClosed) {
  auto p = make_with(Deferral::kUntilPersist);
  ASSERT_TRUE(append(*p, kL1, false).ok());
  ASSERT_TRUE(append(*p, kL2, true).ok());  // an assistant message does not write it
  ASSERT_TRUE(append(*p, kL3, true).ok());
  EXPECT_FALSE(p->persisted());
  EXPECT_FALSE(exists());
  EXPECT_EQ(static_cast<int>(fs_->count(storage::FsOp::kAppend)), 0);
  ASSERT_TRUE(p->close(data_->data).ok());
  EXPECT_EQ(content(), kHeader + "\n" + kL1 + "\n" + kL2 + "\n" + kL3 + "\n");
  // One atomic write (a temp file renamed into place), never an append to the session file.
  EXPECT_EQ(static_cast<int>(fs_->count(storage::FsOp::kCreateNew)), 1);
  EXPECT_EQ(static_cast<int>(fs_->count(storage::FsOp::kOpenAppend)), 0);
  auto other = make_with(Deferral::kUntilPersist);  // the writer lock was given up
  EXPECT_TRUE(other->lock().ok());
}

TEST_P(PersistenceTest, DeferredUntilPersistWritesWhenPersistedThenAppends) {
  auto p = make_with(Deferral::kUntilPersist);
  ASSERT_TRUE(append(*p, kL1, true).ok());
  EXPECT_FALSE(exists());
  ASSERT_TRUE(p->persist(data_->data).ok());
  EXPECT_EQ(content(), kHeader + "\n" + kL1 + "\n");
  ASSERT_TRUE(append(*p, kL2, false).ok());  // on disk: appended at once
  EXPECT_EQ(content(), kHeader + "\n" + kL1 + "\n" + kL2 + "\n");
  ASSERT_TRUE(p->close(data_->data).ok());
  EXPECT_EQ(content(), kHeader + "\n" + kL1 + "\n" + kL2 + "\n");
}

TEST_P(PersistenceTest, DeferredUntilPersistLeavesNoFileWhenDroppedAndReportsAFailedWriteOnClose) {
  {
    auto dropped = make_with(Deferral::kUntilPersist);
    ASSERT_TRUE(append(*dropped, kL1, true).ok());
  }
  EXPECT_FALSE(exists());
  auto p = make_with(Deferral::kUntilPersist);
  ASSERT_TRUE(append(*p, kL1, true).ok());
  fs_->fail(storage::FsOp::kCreateNew);
  EXPECT_EQ(p->close(data_->data).code(), Code::kIo);
  fs_->clear(storage::FsOp::kCreateNew);
  EXPECT_FALSE(exists());
  EXPECT_EQ(p->sticky_error().code(), Code::kIo);
}

TEST_P(PersistenceTest, WithoutDeferralTheFirstAppendWritesAtOnce) {
  auto p = make(false);
  ASSERT_TRUE(append(*p, kL1, false).ok());
  EXPECT_TRUE(p->persisted());
  EXPECT_EQ(content(), kHeader + "\n" + kL1 + "\n");
}

TEST_P(PersistenceTest, WriteNowWritesTheHeaderOnceAndIsIdempotent) {
  auto p = make();
  ASSERT_TRUE(p->persist(data_->data).ok());
  EXPECT_TRUE(p->persisted());
  EXPECT_EQ(content(), kHeader + "\n");
  ASSERT_TRUE(p->persist(data_->data).ok());
  EXPECT_EQ(content(), kHeader + "\n");
  ASSERT_TRUE(append(*p, kL1, false).ok());  // persisted: no more deferral
  EXPECT_EQ(content(), kHeader + "\n" + kL1 + "\n");
}

TEST_P(PersistenceTest, RewriteIsANoOpBeforeTheFirstWrite) {
  auto p = make();
  ASSERT_TRUE(p->rewrite(data_->data).ok());
  EXPECT_FALSE(exists());
  EXPECT_FALSE(p->persisted());
}

TEST_P(PersistenceTest, FirstWriteNeverOverwritesAnExistingFile) {
  test::put_file(*base_, path_, "precious\n");
  auto p = make(false);
  EXPECT_EQ(p->persist(data_->data).code(), Code::kConflict);
  EXPECT_EQ(content(), "precious\n");
  EXPECT_EQ(names(), (std::vector<std::string>{"s.jsonl", "s.jsonl.lock"}));
}

TEST_P(PersistenceTest, RewriteReplacesAtomicallyAndAppendsContinueOnTheNewFile) {
  auto p = make(false);
  ASSERT_TRUE(append(*p, kL1, false).ok());
  auto before = base_->stat(path_);
  // Change the header line in memory, then rewrite.
  std::string titled = R"({"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/","title":"T"})";
  data_->data.lines[0].bytes = data_->data.arena.store(titled, json::kPadding);
  ASSERT_TRUE(p->rewrite(data_->data).ok());
  EXPECT_EQ(content(), titled + "\n" + kL1 + "\n");
  auto after = base_->stat(path_);
  ASSERT_TRUE(before.ok() && after.ok());
  EXPECT_NE(before->ino, after->ino);
  ASSERT_TRUE(append(*p, kL2, true).ok());
  EXPECT_EQ(content(), titled + "\n" + kL1 + "\n" + kL2 + "\n");
  EXPECT_EQ(names(), (std::vector<std::string>{"s.jsonl", "s.jsonl.lock"}));
}

TEST_P(PersistenceTest, ForeignRenameOverOurFileIsAConflictAndNothingIsWritten) {
  auto p = make(false);
  ASSERT_TRUE(append(*p, kL1, false).ok());
  foreign_replace("theirs\n");
  EXPECT_EQ(p->append_record(data_->data, kL2 + "\n", true).code(), Code::kConflict);
  EXPECT_EQ(content(), "theirs\n");
  // A conflict is not a write failure: it is not latched as poison.
  EXPECT_TRUE(p->sticky_error().ok());
  EXPECT_EQ(p->append_record(data_->data, kL2 + "\n", true).code(), Code::kConflict);
  EXPECT_EQ(content(), "theirs\n");
}

TEST_P(PersistenceTest, ForeignRenameBeforeOurFirstAppendAfterOpenIsAConflict) {
  // A file loaded for writing: the writer opens it lazily on the first append.
  test::put_file(*base_, path_, kHeader + "\n");
  auto read = base_->stat(path_);
  ASSERT_TRUE(read.ok());
  auto p = make();
  ASSERT_TRUE(p->lock().ok());
  ASSERT_TRUE(read.ok());
  p->adopt_existing(*read, true);
  foreign_replace("theirs\n");
  EXPECT_EQ(p->append_record(data_->data, kL1 + "\n", false).code(), Code::kConflict);
  EXPECT_EQ(content(), "theirs\n");
}

TEST_P(PersistenceTest, RemovedFileIsAConflict) {
  auto p = make(false);
  ASSERT_TRUE(append(*p, kL1, false).ok());
  ASSERT_TRUE(base_->unlink(path_).ok());
  EXPECT_EQ(p->append_record(data_->data, kL2 + "\n", true).code(), Code::kConflict);
  EXPECT_FALSE(exists());
}

TEST_P(PersistenceTest, ForeignAppendMakesTheNextRewriteAConflict) {
  auto p = make(false);
  ASSERT_TRUE(append(*p, kL1, false).ok());
  test::append_file(*base_, path_, "foreign line\n");
  EXPECT_EQ(p->rewrite(data_->data).code(), Code::kConflict);
  EXPECT_EQ(content(), kHeader + "\n" + kL1 + "\nforeign line\n");
  EXPECT_EQ(names(), (std::vector<std::string>{"s.jsonl", "s.jsonl.lock"}));
  EXPECT_TRUE(p->sticky_error().ok());
}

TEST_P(PersistenceTest, TornTailGetsItsNewlineBeforeTheFirstAppendOnly) {
  test::put_file(*base_, path_, kHeader + "\n{\"torn");
  auto read = base_->stat(path_);
  auto p = make();
  ASSERT_TRUE(p->lock().ok());
  ASSERT_TRUE(read.ok());
  p->adopt_existing(*read, false);
  EXPECT_TRUE(p->persisted());
  ASSERT_TRUE(append(*p, kL1, false).ok());
  ASSERT_TRUE(append(*p, kL2, true).ok());
  EXPECT_EQ(content(), kHeader + "\n{\"torn\n" + kL1 + "\n" + kL2 + "\n");
  // One write per record, the repair newline included.
  EXPECT_EQ(static_cast<int>(fs_->count(storage::FsOp::kAppend)), 2);
}

TEST_P(PersistenceTest, EmptyExistingFileNeedsNoNewline) {
  test::put_file(*base_, path_, "");
  auto read = base_->stat(path_);
  auto p = make();
  ASSERT_TRUE(read.ok());
  p->adopt_existing(*read, false);
  ASSERT_TRUE(append(*p, kL1, false).ok());
  EXPECT_EQ(content(), kL1 + "\n");
}

TEST_P(PersistenceTest, OneWriterPerFile) {
  ASSERT_TRUE(base_->make_dirs(dir_).ok());
  auto p1 = make(false);
  ASSERT_TRUE(p1->lock().ok());
  auto p2 = make(false);
  EXPECT_EQ(p2->lock().code(), Code::kLocked);
  EXPECT_EQ(p2->persist(data_->data).code(), Code::kLocked);
  EXPECT_FALSE(exists());
  ASSERT_TRUE(p1->close(data_->data).ok());
  EXPECT_TRUE(p2->lock().ok());
}

TEST_P(PersistenceTest, DestroyingAPersistenceReleasesItsLock) {
  {
    auto p = make(false);
    ASSERT_TRUE(append(*p, kL1, false).ok());
  }
  auto again = make(false);
  EXPECT_TRUE(again->lock().ok());
}

TEST_P(PersistenceTest, WriteFailureIsStickyUntilReopened) {
  auto p = make(false);
  ASSERT_TRUE(append(*p, kL1, false).ok());
  fs_->fail(storage::FsOp::kAppend);
  Status failed = p->append_record(data_->data, kL2 + "\n", true);
  EXPECT_EQ(failed.code(), Code::kIo);
  fs_->clear(storage::FsOp::kAppend);
  EXPECT_EQ(p->sticky_error().code(), Code::kIo);
  EXPECT_EQ(p->append_record(data_->data, kL2 + "\n", true).code(), Code::kPoisoned);
  EXPECT_EQ(p->rewrite(data_->data).code(), Code::kPoisoned);
  EXPECT_EQ(p->persist(data_->data).code(), Code::kPoisoned);
  EXPECT_EQ(p->flush().code(), Code::kPoisoned);
  EXPECT_EQ(p->close(data_->data).code(), Code::kPoisoned);
  EXPECT_EQ(content(), kHeader + "\n" + kL1 + "\n");
  // Reopening clears it.
  p.reset();
  auto read = base_->stat(path_);
  auto reopened = make();
  ASSERT_TRUE(reopened->lock().ok());
  ASSERT_TRUE(read.ok());
  reopened->adopt_existing(*read, true);
  ASSERT_TRUE(append(*reopened, kL2, true).ok());
  EXPECT_EQ(content(), kHeader + "\n" + kL1 + "\n" + kL2 + "\n");
}

TEST_P(PersistenceTest, TornWriteIsStickyAndRepairedByTheNextWriter) {
  auto p = make(false);
  ASSERT_TRUE(append(*p, kL1, false).ok());
  fs_->fail(storage::FsOp::kAppend, Code::kIo, /*torn=*/true);
  EXPECT_EQ(p->append_record(data_->data, kL2 + "\n", true).code(), Code::kIo);
  fs_->clear(storage::FsOp::kAppend);
  EXPECT_EQ(p->append_record(data_->data, kL3 + "\n", true).code(), Code::kPoisoned);
  std::string half = (kL2 + "\n").substr(0, (kL2.size() + 1) / 2);
  EXPECT_EQ(content(), kHeader + "\n" + kL1 + "\n" + half);
}

TEST_P(PersistenceTest, SyncFailureInSyncModeIsSticky) {
  auto p = make(false, Durability::kSync);
  ASSERT_TRUE(append(*p, kL1, false).ok());
  fs_->fail(storage::FsOp::kSync);
  EXPECT_EQ(p->append_record(data_->data, kL2 + "\n", true).code(), Code::kIo);
  fs_->clear(storage::FsOp::kSync);
  EXPECT_EQ(p->append_record(data_->data, kL3 + "\n", true).code(), Code::kPoisoned);
}

TEST_P(PersistenceTest, FlushFailureIsSticky) {
  auto p = make(false);
  ASSERT_TRUE(append(*p, kL1, false).ok());
  ASSERT_TRUE(append(*p, kL2, true).ok());
  fs_->fail(storage::FsOp::kSync);
  EXPECT_EQ(p->flush().code(), Code::kIo);
  fs_->clear(storage::FsOp::kSync);
  EXPECT_EQ(p->flush().code(), Code::kPoisoned);
  EXPECT_EQ(p->append_record(data_->data, kL3 + "\n", true).code(), Code::kPoisoned);
}

TEST_P(PersistenceTest, FailedFirstWriteLeavesNoFileAndIsSticky) {
  auto p = make();
  ASSERT_TRUE(append(*p, kL1, false).ok());
  fs_->fail(storage::FsOp::kCreateNew, Code::kNoSpace);
  EXPECT_EQ(p->append_record(data_->data, kL2 + "\n", true).code(), Code::kNoSpace);
  fs_->clear(storage::FsOp::kCreateNew);
  EXPECT_FALSE(p->persisted());
  EXPECT_FALSE(exists());
  EXPECT_EQ(p->append_record(data_->data, kL2 + "\n", true).code(), Code::kPoisoned);
}

TEST_P(PersistenceTest, FailedRewriteRenameKeepsTheOldFileAndIsSticky) {
  auto p = make(false);
  ASSERT_TRUE(append(*p, kL1, false).ok());
  fs_->fail(storage::FsOp::kRename);
  fs_->fail(storage::FsOp::kRenameNoReplace);
  EXPECT_EQ(p->rewrite(data_->data).code(), Code::kIo);
  fs_->clear(storage::FsOp::kRename);
  fs_->clear(storage::FsOp::kRenameNoReplace);
  EXPECT_EQ(content(), kHeader + "\n" + kL1 + "\n");
  EXPECT_EQ(names(), (std::vector<std::string>{"s.jsonl", "s.jsonl.lock"}));
  EXPECT_EQ(p->append_record(data_->data, kL2 + "\n", true).code(), Code::kPoisoned);
}

TEST_P(PersistenceTest, BufferedModeSyncsOnlyOnFlushSyncModeOnEveryAppend) {
  auto buffered = make(false);
  ASSERT_TRUE(append(*buffered, kL1, false).ok());  // the atomic first write syncs its temp file
  int after_first = static_cast<int>(fs_->count(storage::FsOp::kSync));
  ASSERT_TRUE(append(*buffered, kL2, true).ok());
  ASSERT_TRUE(append(*buffered, kL3, true).ok());
  EXPECT_EQ(static_cast<int>(fs_->count(storage::FsOp::kSync)), after_first);
  ASSERT_TRUE(buffered->flush().ok());
  EXPECT_EQ(static_cast<int>(fs_->count(storage::FsOp::kSync)), after_first + 1);
  ASSERT_TRUE(buffered->close(data_->data).ok());

  path_ = dir_ + "/sync.jsonl";
  data_ = test::load(kHeader + "\n");
  auto sync = make(false, Durability::kSync);
  ASSERT_TRUE(append(*sync, kL1, false).ok());
  int base = static_cast<int>(fs_->count(storage::FsOp::kSync));
  ASSERT_TRUE(append(*sync, kL2, true).ok());
  ASSERT_TRUE(append(*sync, kL3, true).ok());
  EXPECT_EQ(static_cast<int>(fs_->count(storage::FsOp::kSync)), base + 2);
  EXPECT_EQ(test::get_file(*base_, path_), kHeader + "\n" + kL1 + "\n" + kL2 + "\n" + kL3 + "\n");
}

INSTANTIATE_TEST_SUITE_P(Both, PersistenceTest, ::testing::Values("memory", "posix"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

TEST(PersistencePosix, FilesAre0600AndDirectories0700) {
  test::TempDir tmp;
  auto fs = storage::make_posix_fs();
  std::string dir = tmp.path() + "/a/b";
  auto data = test::load(kHeader + "\n");
  Persistence p(fs, dir + "/s.jsonl", Durability::kBuffered, Deferral::kNone);
  ASSERT_TRUE(p.persist(data->data).ok());
  EXPECT_EQ(test::file_mode(tmp.path() + "/a"), 0700);
  EXPECT_EQ(test::file_mode(dir), 0700);
  EXPECT_EQ(test::file_mode(dir + "/s.jsonl"), 0600);
  EXPECT_EQ(test::file_mode(dir + "/s.jsonl.lock"), 0600);
  EXPECT_EQ(test::list_dir(dir), (std::vector<std::string>{"s.jsonl", "s.jsonl.lock"}));
}

}  // namespace
}  // namespace xs::session
