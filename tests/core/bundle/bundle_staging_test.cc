// bundle/: the staging files of an import that died (docs/bundles.md#staging-files). On a real
// disk, with the file system's own locks: a crashed import's files (its lock held by nobody, or by
// a process killed with SIGKILL) are swept by the next import; a running import's are kept; a
// lock file is removed only once it is a minute old; the import leaves no file of its own behind.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "bundle/bundle_reader.h"
#include "bundle/export.h"
#include "bundle/import.h"
#include "bundle_fixture.h"
#include "storage/faulty_fs.h"

namespace xs::bundle {
namespace {

using namespace xs::bundle::test;  // NOLINT: the fixture's names

constexpr int64_t kLongAgoMs = 1700000000000;  // 2023: older than any grace period

class BundleStagingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // The fixed store's bundle, made in memory and copied to the disk.
    auto mem = storage::make_memory_fs();
    auto src = fixed_store(mem);
    ASSERT_TRUE(export_bundle(src, {"branch01"}, mem, "/out/b.xsb", {}).ok());
    xs::test::write_file(dir_.file("b.xsb"), xs::test::get_file(*mem, "/out/b.xsb"));
    root_ = dir_.file("root");
    ASSERT_TRUE(fs_->make_dirs(root_).ok());
    store_ = open_store(fs_, root_);
  }
  std::string at(const std::string& name) const { return root_ + "/" + name; }
  // The names in the root that are staging files or locks.
  std::vector<std::string> staged() const {
    std::vector<std::string> out;
    for (const std::string& n : xs::test::list_dir(root_)) {
      if (n.rfind(".xs-bundle-", 0) == 0) out.push_back(n);
    }
    return out;
  }
  void import_ok() {
    auto r = import_bundle(store_, fs_, dir_.file("b.xsb"), {});
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(r->blobs.size(), 1u);
  }

  xs::test::TempDir dir_;
  std::shared_ptr<storage::Fs> fs_ = storage::make_posix_fs();
  std::string root_;
  std::shared_ptr<store::Store> store_;
};

TEST_F(BundleStagingTest, AnImportLeavesNoStagingFileOrLockBehind) {
  ASSERT_NO_FATAL_FAILURE(import_ok());
  EXPECT_EQ(staged(), std::vector<std::string>{});
  // A refused import neither.
  xs::test::write_file(dir_.file("cut.xsb"), xs::test::read_file(dir_.file("b.xsb")).substr(0, 300));
  auto r = import_bundle(store_, fs_, dir_.file("cut.xsb"), {});
  EXPECT_EQ(r.status().code(), Code::kCorrupt);
  EXPECT_EQ(staged(), std::vector<std::string>{});
}

TEST_F(BundleStagingTest, ACrashedImportsFilesAreSweptAndARunningOnesKept) {
  // Died long ago: nobody holds its lock.
  xs::test::write_file(at(".xs-bundle-dead0000dead0000-0"), "half a blob");
  xs::test::write_file(at(".xs-bundle-dead0000dead0000-1"), "another");
  xs::test::write_file(at(".xs-bundle-dead0000dead0000.lock"), "");
  ASSERT_TRUE(xs::test::set_mtime(at(".xs-bundle-dead0000dead0000.lock"), kLongAgoMs));
  // Died after removing its lock file (or before locks existed): its files alone.
  xs::test::write_file(at(".xs-bundle-0123456789abcdef-3"), "orphan");
  // Died a moment ago: its files go, its young lock file stays for now.
  xs::test::write_file(at(".xs-bundle-young000young000-0"), "young");
  xs::test::write_file(at(".xs-bundle-young000young000.lock"), "");
  // Running: its lock is held (here, by this process through another descriptor).
  auto live = fs_->try_lock(at(".xs-bundle-live0000live0000.lock"));
  ASSERT_TRUE(live.ok()) << live.status().message();
  xs::test::write_file(at(".xs-bundle-live0000live0000-0"), "in use");
  // Not staging files at all, whatever they look like.
  xs::test::write_file(at(".xs-bundle-notes.txt"), "mine");
  xs::test::write_file(at(".xs-bundle--0"), "mine too");

  ASSERT_NO_FATAL_FAILURE(import_ok());
  EXPECT_EQ(staged(), (std::vector<std::string>{".xs-bundle--0", ".xs-bundle-live0000live0000-0",
                                                ".xs-bundle-live0000live0000.lock", ".xs-bundle-notes.txt",
                                                ".xs-bundle-young000young000.lock"}));
  EXPECT_EQ(xs::test::read_file(at(".xs-bundle-live0000live0000-0")), "in use");
  // Once the running import is gone, the next import sweeps its files too.
  live->reset();
  ASSERT_NO_FATAL_FAILURE(import_ok());
  EXPECT_EQ(staged(), (std::vector<std::string>{".xs-bundle--0", ".xs-bundle-live0000live0000.lock",
                                                ".xs-bundle-notes.txt", ".xs-bundle-young000young000.lock"}));
  // A dry run writes nothing, so it sweeps nothing either.
  xs::test::write_file(at(".xs-bundle-dead0000dead0000-0"), "again");
  ImportOptions dry;
  dry.dry_run = true;
  ASSERT_TRUE(import_bundle(store_, fs_, dir_.file("b.xsb"), dry).ok());
  EXPECT_TRUE(xs::test::file_exists(at(".xs-bundle-dead0000dead0000-0")));
  EXPECT_EQ(sweep_staging(*fs_, root_), 1u);
}

// The lock dies with its holder: a process killed with SIGKILL while it holds one leaves files the
// next import removes.
TEST_F(BundleStagingTest, AnImportKilledWithSigkillIsSweptByTheNext) {
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto lock = fs_->try_lock(at(".xs-bundle-killed00killed00.lock"));
    xs::test::write_file(at(".xs-bundle-killed00killed00-0"), "staged");
    char c = lock.ok() ? 'y' : 'n';
    if (write(ready[1], &c, 1) != 1) _exit(1);
    for (;;) pause();
  }
  char c = 0;
  ASSERT_EQ(read(ready[0], &c, 1), 1);
  ASSERT_EQ(c, 'y');
  // While it lives, its files stay.
  EXPECT_EQ(sweep_staging(*fs_, root_), 0u);
  kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  close(ready[0]);
  close(ready[1]);
  ASSERT_TRUE(xs::test::set_mtime(at(".xs-bundle-killed00killed00.lock"), kLongAgoMs));
  ASSERT_NO_FATAL_FAILURE(import_ok());
  EXPECT_EQ(staged(), std::vector<std::string>{});
}

// A session that goes in as carried is its staging file, synced and renamed into place (its bytes
// are not written a second time). Where that rename fails for another reason than a clash (a
// sessions/ on another file system), the bytes are written in place instead; either way the
// files are the carried bytes and no staging file stays behind.
TEST_F(BundleStagingTest, ACarriedSessionIsItsStagedFileRenamedOrElseWritten) {
  auto faulty = std::make_shared<storage::FaultyFs>(fs_);
  auto store = open_store(faulty, root_);
  // The blob is renamed into place first (the first no-replace rename), then the three sessions.
  faulty->arm(storage::Fault{2, Code::kIo, false, false, storage::op_mask({storage::FsOp::kRenameNoReplace})});
  auto r = import_bundle(store, faulty, dir_.file("b.xsb"), {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto injected = faulty->injected();
  ASSERT_EQ(injected.size(), 1u);
  EXPECT_EQ(storage::base_name(injected[0].path).rfind(".xs-bundle-", 0), 0u) << injected[0].path;
  const std::string dir = root_ + "/sessions/--w--/";
  EXPECT_EQ(xs::test::read_file(dir + kRootFile), root_bytes());
  EXPECT_EQ(xs::test::read_file(dir + kForkFile), fork_bytes());
  EXPECT_EQ(xs::test::read_file(dir + kBranchFile), branch_bytes());
  EXPECT_EQ(xs::test::read_file(root_ + "/blobs/" + kBlobHash), kBlob);
  EXPECT_EQ(staged(), std::vector<std::string>{});
  EXPECT_EQ(faulty->open_files(), 0);
}

// Staged blobs are synced in batches of SyncBatch::kBatch (64) open files: 150 blobs make two
// full batches and a last one, and every blob arrives whole.
TEST_F(BundleStagingTest, ManyBlobsAreStagedAndSyncedInBatches) {
  auto mem = storage::make_memory_fs();
  auto src = open_store(mem, "/store");
  ASSERT_TRUE(mem->make_dirs("/out").ok());
  std::string text =
      R"({"type":"session","version":3,"id":"many0001","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"})"
      "\n";
  std::vector<std::pair<std::string, std::string>> blobs;  // hash, bytes
  for (int i = 0; i < 150; ++i) {
    std::string bytes = "blob number " + std::to_string(i);
    std::string hash;
    ASSERT_TRUE(src->blobs().put(bytes, &hash).ok());
    blobs.emplace_back(hash, bytes);
    text += R"({"type":"custom","id":"c)" + std::to_string(1000 + i) + R"(","parentId":null,)" +
            R"("timestamp":"2026-01-01T00:00:01.000Z","customType":"image","data":"blob:sha256:)" + hash + "\"}\n";
  }
  xs::test::put_file(*mem, std::string(kDir) + "2026-01-01T00-00-00-000Z_many0001.jsonl", text);
  auto exported = export_bundle(src, {"many0001"}, mem, "/out/many.xsb", {});
  ASSERT_TRUE(exported.ok()) << exported.status().message();
  ASSERT_EQ(exported->blobs.size(), 150u);
  xs::test::write_file(dir_.file("many.xsb"), xs::test::get_file(*mem, "/out/many.xsb"));

  auto faulty = std::make_shared<storage::FaultyFs>(fs_);
  auto r = import_bundle(open_store(faulty, root_), faulty, dir_.file("many.xsb"), {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->blobs.size(), 150u);
  for (const auto& [hash, bytes] : blobs) {
    EXPECT_EQ(xs::test::read_file(root_ + "/blobs/" + hash), bytes) << hash;
  }
  EXPECT_EQ(xs::test::read_file(root_ + "/sessions/--w--/2026-01-01T00-00-00-000Z_many0001.jsonl"), text);
  EXPECT_EQ(staged(), std::vector<std::string>{});
  EXPECT_EQ(faulty->open_files(), 0);
  // Every staged file was synced: 150 blobs and the session.
  EXPECT_EQ(faulty->count(storage::FsOp::kSync), 151u);
}

// A staged blob whose sync fails fails the import, and the store is as it was.
TEST_F(BundleStagingTest, AFailedSyncOfAStagedBlobRefusesTheImport) {
  auto faulty = std::make_shared<storage::FaultyFs>(fs_);
  auto store = open_store(faulty, root_);
  auto before = snapshot(*fs_, root_);
  faulty->arm(storage::Fault{1, Code::kIo, false, false, storage::op_mask({storage::FsOp::kSync})});
  auto r = import_bundle(store, faulty, dir_.file("b.xsb"), {});
  EXPECT_EQ(r.status().code(), Code::kIo) << r.status().message();
  EXPECT_NE(r.status().message().find("cannot stage the bundle's blobs"), std::string::npos) << r.status().message();
  EXPECT_EQ(snapshot(*fs_, root_), before);
  EXPECT_EQ(faulty->open_files(), 0);
}

}  // namespace
}  // namespace xs::bundle
