// blobs/blob_resolver: the way back from the store (docs/format.md#blob-refs,
// docs/decisions.md#3-blobs). Refs in image blocks under `content` become the base64 of
// the blob again, image_url refs the data URL; a missing or damaged blob leaves its ref in place
// and is reported; anything that is not exactly a ref in one of those two places is left alone
// without touching the store.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "blobs/blob_resolver.h"
#include "blobs/size_rules.h"
#include "storage/faulty_fs.h"
#include "test_util.h"

namespace xs::blobs {
namespace {

const std::string kAbcHash = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
const std::string kDataUrl = "data:image/png;base64,iVBORw0KGgo=";
const std::string kDataUrlHash = "e1e10747c2374f621aa59fefede6ef99dc6acdb41b267ab4af408d5529f89ea8";

std::string blob_ref(const std::string& hash) { return "blob:sha256:" + hash; }

class BlobResolverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string h;
    ASSERT_TRUE(store_.put("abc", &h).ok());  // base64 "YWJj"
    ASSERT_TRUE(store_.put(kDataUrl, &h).ok());
  }
  // The resolved text, or the error code.
  std::string resolve(const std::string& json) {
    problems_.clear();
    auto r = resolve_blobs(json, store_, &problems_);
    return r.ok() ? *r : "<error " + std::to_string(static_cast<int>(r.status().code())) + ">";
  }
  std::string problem_summary() const {
    std::string out;
    for (const BlobProblem& p : problems_) {
      if (!out.empty()) out += ',';
      out += p.hash.substr(0, 8) + ":" + std::to_string(static_cast<int>(p.status.code()));
    }
    return out;
  }

  std::shared_ptr<storage::Fs> base_ = storage::make_memory_fs();
  std::shared_ptr<storage::FaultyFs> fs_ = std::make_shared<storage::FaultyFs>(base_);
  BlobStore store_{fs_, "/root"};
  std::vector<BlobProblem> problems_;
};

TEST_F(BlobResolverTest, ImageDataRefBecomesTheBase64OfTheBlob) {
  std::string line = R"({"type":"message","id":"a","message":{"role":"user","content":[{"type":"text","text":"x"},)"
                     R"({"type":"image","data":")" + blob_ref(kAbcHash) + R"(","mimeType":"image/png"}]}})";
  EXPECT_EQ(resolve(line),
            R"({"type":"message","id":"a","message":{"role":"user","content":[{"type":"text","text":"x"},)"
            R"({"type":"image","data":"YWJj","mimeType":"image/png"}]}})");
  EXPECT_EQ(problem_summary(), "");
  // Key order inside the block does not matter: `type` may come after `data`.
  EXPECT_EQ(resolve(R"({"content":[{"data":")" + blob_ref(kAbcHash) + R"(","type":"image"}]})"),
            R"({"content":[{"data":"YWJj","type":"image"}]})");
}

TEST_F(BlobResolverTest, ImageUrlRefBecomesTheDataUrlAgain) {
  EXPECT_EQ(resolve(R"({"content":[{"type":"image_url","image_url":")" + blob_ref(kDataUrlHash) + R"("}],"n":1.50})"),
            R"({"content":[{"type":"image_url","image_url":")" + kDataUrl + R"("}],"n":1.50})");
  // Anywhere in the document, and in arrays under image_url.
  EXPECT_EQ(resolve(R"({"a":{"b":{"image_url":[")" + blob_ref(kDataUrlHash) + R"("]}}})"),
            R"({"a":{"b":{"image_url":[")" + kDataUrl + R"("]}}})");
}

TEST_F(BlobResolverTest, EveryRefInALineIsResolvedAndOtherBytesStay) {
  std::string r = blob_ref(kAbcHash);
  EXPECT_EQ(resolve(R"({ "content" : [ {"type":"image","data":")" + r + R"("} , {"type":"image","data":")" + r +
                    R"("} ], "image_url" : ")" + blob_ref(kDataUrlHash) + R"(", "s":"\u00e9\ud83d" })"),
            R"({ "content" : [ {"type":"image","data":"YWJj"} , {"type":"image","data":"YWJj"} ], "image_url" : ")" +
                kDataUrl + R"(", "s":"\u00e9\ud83d" })");
}

// What the size rules stored comes back as the caller wrote it (for padded base64).
TEST_F(BlobResolverTest, SizeRulesThenResolveGivesTheOriginalLine) {
  std::string b64;
  for (int i = 0; i < 256; ++i) b64 += "QUJD";  // "ABC" x 256: 1024 chars
  std::string line = R"({"role":"user","content":[{"type":"image","data":")" + b64 +
                     R"("},{"type":"image_url","image_url":")" + kDataUrl + R"("}]})";
  auto stored = apply_size_rules(line, &store_);
  ASSERT_TRUE(stored.ok());
  ASSERT_TRUE(stored->rewritten.has_value());
  EXPECT_EQ(stored->rewritten->find(b64), std::string::npos);
  EXPECT_EQ(resolve(*stored->rewritten), line);
  EXPECT_EQ(problem_summary(), "");
}

TEST_F(BlobResolverTest, MissingOrDamagedBlobLeavesTheRefAndIsReported) {
  const std::string missing = std::string(64, 'e');
  std::string line = R"({"content":[{"type":"image","data":")" + blob_ref(missing) + R"("},{"type":"image","data":")" +
                     blob_ref(kAbcHash) + R"("}],"image_url":")" + blob_ref(missing) + R"("})";
  EXPECT_EQ(resolve(line), R"({"content":[{"type":"image","data":")" + blob_ref(missing) +
                               R"("},{"type":"image","data":"YWJj"}],"image_url":")" + blob_ref(missing) + R"("})");
  EXPECT_EQ(problem_summary(), "eeeeeeee:-5,eeeeeeee:-5");
  EXPECT_EQ(problems_[0].hash, missing);
  EXPECT_EQ(problems_[0].status.code(), Code::kNotFound);
  // Damaged: the ref stays (never wrong bytes), reported as corrupt.
  test::put_file(*base_, "/root/blobs/" + kAbcHash, "abd");
  std::string damaged = R"({"content":[{"type":"image","data":")" + blob_ref(kAbcHash) + R"("}]})";
  EXPECT_EQ(resolve(damaged), damaged);
  EXPECT_EQ(problem_summary(), "ba7816bf:-8");
  // Problems may go unreported (a null list), the result is the same.
  auto r = resolve_blobs(damaged, store_, nullptr);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, damaged);
}

// Only an exact "blob:sha256:<64 lowercase hex>" in one of the two places is a ref; nothing else
// makes the resolver look at the store.
TEST_F(BlobResolverTest, AnImageUrlRefToBytesThatAreNotUtf8StaysAndIsReported) {
  // Only a hand-made ref can point an image_url at binary bytes; splicing them would make the
  // line invalid JSON, so the ref stays and the blob is reported as corrupt.
  std::string binary("\xff\xfe\x00\x01", 4), hash;
  ASSERT_TRUE(store_.put(binary, &hash).ok());
  std::string line = R"({"image_url":")" + blob_ref(hash) + R"("})";
  EXPECT_EQ(resolve(line), line);
  EXPECT_EQ(problem_summary(), hash.substr(0, 8) + ":" + std::to_string(static_cast<int>(Code::kCorrupt)));
}

TEST_F(BlobResolverTest, NearMissesAreLeftAloneWithoutLookingAtTheStore) {
  std::string upper = kAbcHash;
  for (char& c : upper) c = static_cast<char>(::toupper(c));
  uint64_t before = fs_->calls();
  for (const std::string& s : {"see " + blob_ref(kAbcHash), blob_ref(kAbcHash) + " ", blob_ref(kAbcHash.substr(0, 63)),
                               blob_ref(kAbcHash + "0"), blob_ref(upper), "blob:sha1:" + kAbcHash, std::string("blob:sha256:")}) {
    std::string line = R"({"content":[{"type":"image","data":")" + s + R"("}],"image_url":")" + s + R"("})";
    EXPECT_EQ(resolve(line), line) << s;
    EXPECT_EQ(problem_summary(), "") << s;
  }
  // Real refs in the wrong place: not an image block, not under content, not under image_url.
  for (const std::string& line : {R"({"content":[{"type":"text","data":")" + blob_ref(kAbcHash) + R"("}]})",
                                  R"({"details":{"images":[{"type":"image","data":")" + blob_ref(kAbcHash) + R"("}]}})",
                                  R"({"content":{"type":"image","data":")" + blob_ref(kAbcHash) + R"("}})",
                                  R"({"content":[{"type":"text","text":")" + blob_ref(kAbcHash) + R"("}]})",
                                  R"({"image":")" + blob_ref(kAbcHash) + R"("})"}) {
    EXPECT_EQ(resolve(line), line);
    EXPECT_EQ(problem_summary(), "") << line;
  }
  EXPECT_EQ(fs_->calls(), before) << "no lookups";
}

TEST_F(BlobResolverTest, InvalidJsonIsRefused) {
  EXPECT_EQ(resolve(R"({"content":[)"), "<error -3>");
  EXPECT_EQ(resolve(R"({"image_url":"x",})"), "<error -3>");
}

}  // namespace
}  // namespace xs::blobs
