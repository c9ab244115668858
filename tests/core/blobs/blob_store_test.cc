// blobs/blob_store: content-addressed blobs under <root>/blobs (docs/decisions.md#3-blobs,
// docs/format.md#blob-refs). A blob is either absent or exactly right: put is atomic and
// idempotent (a repeat put only refreshes the mtime), get verifies the SHA-256, and a failed put
// leaves neither a blob nor a temp file. Hashes were computed independently (Python hashlib).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <string>
#include <vector>

#include "blobs/blob_store.h"
#include "storage/faulty_fs.h"
#include "test_util.h"

namespace xs::blobs {
namespace {

const std::string kAbc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
const std::string kEmpty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const std::string kAllBytes = "40aff2e9d2d8922e47afd4648e6967497158785fbd1da870e7110266bf944880";  // bytes 0..255
const std::string kHello = "e997afd18e5f6be004fc193aed2c90291e68ab2c7599a62538c935b7fca6ab0f";  // "hello blob"

std::string all_bytes() {
  std::string s;
  for (int i = 0; i < 256; ++i) s.push_back(static_cast<char>(i));
  return s;
}

class BlobStoreTest : public ::testing::Test {
 protected:
  std::string put(std::string_view bytes, Code want = Code::kOk) {
    std::string hash;
    Status st = store_.put(bytes, &hash);
    EXPECT_EQ(st.code(), want) << st.message();
    return hash;
  }
  Status get(std::string_view hash, std::string* out) { return store_.get(hash, out); }
  // The files in the blob directory (temp files included), sorted; none when it does not exist.
  std::vector<std::string> names() {
    auto r = base_->list_dir("/root/blobs");
    if (!r.ok()) return {};
    std::sort(r->begin(), r->end());
    return *r;
  }

  std::shared_ptr<storage::Fs> base_ = storage::make_memory_fs();
  std::shared_ptr<storage::FaultyFs> fs_ = std::make_shared<storage::FaultyFs>(base_);
  BlobStore store_{fs_, "/root"};
};

TEST(Sha256Hex, KnownVectorsInLowercaseHex) {
  EXPECT_EQ(sha256_hex("abc"), kAbc);
  EXPECT_EQ(sha256_hex(""), kEmpty);
  EXPECT_EQ(sha256_hex(all_bytes()), kAllBytes);
}

TEST(IsBlobHash, OnlySixtyFourLowercaseHexCharacters) {
  EXPECT_TRUE(is_blob_hash(kAbc));
  EXPECT_TRUE(is_blob_hash(std::string(64, '0')));
  std::string upper = kAbc;
  std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
  for (const std::string& bad : {upper, kAbc.substr(0, 63), kAbc + "0", std::string(63, 'a') + "g", std::string(),
                                 "../" + kAbc.substr(3), std::string(64, ' '), kAbc.substr(0, 32) + '\0' + kAbc.substr(33)}) {
    EXPECT_FALSE(is_blob_hash(bad)) << bad;
  }
}

TEST_F(BlobStoreTest, PutNamesTheFileByTheHashOfItsBytes) {
  EXPECT_EQ(store_.dir(), "/root/blobs");
  EXPECT_EQ(store_.path_of(kAbc), "/root/blobs/" + kAbc);
  EXPECT_EQ(put("abc"), kAbc);
  EXPECT_EQ(put(all_bytes()), kAllBytes);
  EXPECT_EQ(put(""), kEmpty);
  EXPECT_EQ(names(), (std::vector<std::string>{kAllBytes, kAbc, kEmpty}));
  EXPECT_EQ(test::get_file(*base_, "/root/blobs/" + kAbc), "abc");
  EXPECT_EQ(test::get_file(*base_, "/root/blobs/" + kAllBytes), all_bytes());
  std::string out = "stale";
  ASSERT_TRUE(get(kAllBytes, &out).ok());
  EXPECT_EQ(out, all_bytes());
  ASSERT_TRUE(get(kEmpty, &out).ok());
  EXPECT_EQ(out, "");
}

TEST_F(BlobStoreTest, APutAgainRewritesNothingAndOnlyTouchesTheFile) {
  EXPECT_EQ(put("hello blob"), kHello);
  uint64_t creates = fs_->count(storage::FsOp::kCreateNew), renames = fs_->count(storage::FsOp::kRenameNoReplace);
  EXPECT_EQ(fs_->count(storage::FsOp::kTouch), 0u);
  EXPECT_EQ(put("hello blob"), kHello);
  EXPECT_EQ(fs_->count(storage::FsOp::kCreateNew), creates) << "no temp file the second time";
  EXPECT_EQ(fs_->count(storage::FsOp::kRenameNoReplace), renames);
  EXPECT_EQ(fs_->count(storage::FsOp::kTouch), 1u) << "the GC's grace period restarts";
  EXPECT_EQ(names(), std::vector<std::string>{kHello});
}

// On a real disk: an old blob put again is young again (the touch reaches the file's mtime).
TEST(BlobStorePosix, PutAgainRefreshesAnOldMtime) {
  test::TempDir dir;
  BlobStore store(storage::make_posix_fs(), dir.path());
  std::string hash;
  ASSERT_TRUE(store.put("abc", &hash).ok());
  std::string path = dir.path() + "/blobs/" + kAbc;
  struct timespec old[2] = {{1000000000, 0}, {1000000000, 0}};  // 2001-09-09
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), old, 0), 0);
  ASSERT_TRUE(store.put("abc", &hash).ok());
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_GT(st.st_mtim.tv_sec, 1000000000);
  EXPECT_EQ(test::read_file(path), "abc");
  EXPECT_EQ(test::file_mode(path), 0600) << "blobs hold secrets";
  EXPECT_EQ(test::list_dir(dir.path() + "/blobs"), std::vector<std::string>{kAbc});
}

TEST_F(BlobStoreTest, MissingBlobIsNotFound) {
  std::string out = "untouched";
  EXPECT_EQ(get(kAbc, &out).code(), Code::kNotFound);
  put("x");
  EXPECT_EQ(get(kAbc, &out).code(), Code::kNotFound);
  EXPECT_EQ(out, "untouched");
}

TEST_F(BlobStoreTest, BadHashesAreInvalidAndNeverReachTheFileSystem) {
  std::string upper = kAbc;
  std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
  uint64_t before = fs_->calls();
  std::string out = "untouched";
  for (const std::string& bad : {upper, "../" + kAbc.substr(3), kAbc.substr(0, 63), kAbc + "0", std::string("abc"),
                                 std::string()}) {
    EXPECT_EQ(get(bad, &out).code(), Code::kInvalid) << bad;
  }
  EXPECT_EQ(fs_->calls(), before);
  EXPECT_EQ(out, "untouched");
}

TEST_F(BlobStoreTest, DamagedBlobIsCorruptNotWrongBytes) {
  put("abc");
  std::string out = "untouched";
  test::put_file(*base_, "/root/blobs/" + kAbc, "abd");  // same size, other bytes
  EXPECT_EQ(get(kAbc, &out).code(), Code::kCorrupt);
  test::put_file(*base_, "/root/blobs/" + kAbc, "ab");  // cut short
  EXPECT_EQ(get(kAbc, &out).code(), Code::kCorrupt);
  EXPECT_EQ(out, "untouched");
}

TEST_F(BlobStoreTest, PutOverADamagedBlobReplacesIt) {
  for (const std::string& damage : {std::string("abd"), std::string("ab"), std::string("abcd")}) {
    test::put_file(*base_, "/root/blobs/" + kAbc, damage);
    EXPECT_EQ(put("abc"), kAbc) << damage;
    EXPECT_EQ(test::get_file(*base_, "/root/blobs/" + kAbc), "abc") << damage;
    std::string out;
    EXPECT_TRUE(get(kAbc, &out).ok()) << damage;
    EXPECT_EQ(out, "abc");
    EXPECT_EQ(names(), std::vector<std::string>{kAbc}) << "no temp file left: " << damage;
  }
}

// Every step of the atomic write can fail; none leaves a blob (which a reader would trust because
// of its name) or a temp file behind, and the store works again once the fault is gone.
TEST_F(BlobStoreTest, AFailedPutLeavesNoBlobAndNoTempFile) {
  for (storage::FsOp op : {storage::FsOp::kMakeDirs, storage::FsOp::kCreateNew, storage::FsOp::kAppend,
                           storage::FsOp::kSync, storage::FsOp::kFileStat, storage::FsOp::kClose,
                           storage::FsOp::kRenameNoReplace}) {
    fs_->fail(op, Code::kIo, /*torn=*/true);
    std::string hash = "unset";
    Status st = store_.put("hello blob", &hash);
    fs_->clear(op);
    EXPECT_EQ(st.code(), Code::kIo) << storage::fs_op_name(op);
    EXPECT_EQ(names(), std::vector<std::string>{}) << storage::fs_op_name(op);
    std::string out;
    EXPECT_EQ(get(kHello, &out).code(), Code::kNotFound) << storage::fs_op_name(op);
  }
  EXPECT_EQ(put("hello blob"), kHello);
  EXPECT_EQ(names(), std::vector<std::string>{kHello});
}

// Replacing a damaged blob fails at the rename: the damaged copy stays, still reported as such.
TEST_F(BlobStoreTest, AFailedRepairLeavesTheDamageReportedAndNoTempFile) {
  test::put_file(*base_, "/root/blobs/" + kAbc, "abd");
  fs_->fail(storage::FsOp::kRename, Code::kNoSpace);
  put("abc", Code::kNoSpace);
  fs_->clear(storage::FsOp::kRename);
  EXPECT_EQ(names(), std::vector<std::string>{kAbc});
  std::string out;
  EXPECT_EQ(get(kAbc, &out).code(), Code::kCorrupt);
}

}  // namespace
}  // namespace xs::blobs
