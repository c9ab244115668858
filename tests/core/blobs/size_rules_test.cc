// blobs/size_rules: omp's prepareEntryForPersistence (docs/format.md#size-rules) applied to one
// line: truncation counted in UTF-16 code units on the decoded string but cut on the raw token,
// signature keys emptied, partialJson/jsonlEvents removed, lineCount recomputed, images moved to
// the blob store. Every expected line below is written out byte for byte; hashes were computed
// independently (Python hashlib over the same bytes).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "blobs/size_rules.h"
#include "storage/faulty_fs.h"
#include "test_util.h"

namespace xs::blobs {
namespace {

const std::string kNotice = "\\n\\n[Session persistence truncated large content]";  // as JSON text
// sha256 of the 768 bytes (i*7+3)%256 (base64: exactly 1024 chars, the threshold).
const std::string kHash768 = "ac315a0be063ff331c93913f8b573005d48f9e62c09226c0527c96349c2ca34f";
// sha256 of the 769 bytes (i*7+3)%256 (base64: 1028 chars padded, 1026 unpadded).
const std::string kHash769 = "f530fb74068cf73dfd82ca598f9b31022ecd1bf8378918328d6c7c60d3e7d832";
const std::string kDataUrl = "data:image/png;base64,iVBORw0KGgo=";
const std::string kDataUrlHash = "e1e10747c2374f621aa59fefede6ef99dc6acdb41b267ab4af408d5529f89ea8";

std::string payload(size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s.push_back(static_cast<char>((i * 7 + 3) % 256));
  return s;
}

std::string base64(const std::string& in, bool pad = true) {
  static const char k[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < in.size(); i += 3) {
    uint32_t v = static_cast<uint8_t>(in[i]) << 16;
    if (i + 1 < in.size()) v |= static_cast<uint8_t>(in[i + 1]) << 8;
    if (i + 2 < in.size()) v |= static_cast<uint8_t>(in[i + 2]);
    out += k[v >> 18];
    out += k[(v >> 12) & 63];
    out += i + 1 < in.size() ? k[(v >> 6) & 63] : '=';
    out += i + 2 < in.size() ? k[v & 63] : '=';
  }
  if (!pad) out.erase(out.find_last_not_of('=') + 1);
  return out;
}

std::string repeat(const std::string& s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

std::string blob_ref(const std::string& hash) { return "blob:sha256:" + hash; }

class SizeRulesTest : public ::testing::Test {
 protected:
  // The rewritten line, "<unchanged>" when the rules left it alone, or the error.
  std::string apply(const std::string& line, bool with_store = true) {
    auto r = apply_size_rules(line, with_store ? &store_ : nullptr);
    if (!r.ok()) return "<error " + std::to_string(static_cast<int>(r.status().code())) + ">";
    last_ = *r;
    return r->rewritten ? *r->rewritten : "<unchanged>";
  }
  // The files in the blob directory, sorted; none when it does not exist.
  std::vector<std::string> blob_names() {
    auto names = fs_->list_dir("/store/blobs");
    if (!names.ok()) return {};
    std::sort(names->begin(), names->end());
    return *names;
  }

  std::shared_ptr<storage::Fs> fs_ = storage::make_memory_fs();
  BlobStore store_{fs_, "/store"};
  SizeRulesOutcome last_;
};

// --- lines the rules do not change ------------------------------------------------------------

TEST_F(SizeRulesTest, LinesThatNeedNoChangeComeBackAsNullopt) {
  EXPECT_EQ(apply(R"({"role":"user","content":"hi"})"), "<unchanged>");
  EXPECT_FALSE(last_.has_blob_ref);
  // The rule words are present (so the tokens are walked) but nothing applies.
  EXPECT_EQ(apply(R"({"type":"image","content":[{"type":"image","data":"aGk="}],"x":"partialJson"})"), "<unchanged>");
  EXPECT_FALSE(last_.has_blob_ref);
  // A ref already in place is reported, and left as it is.
  std::string stored = R"({"content":[{"type":"image","data":")" + blob_ref(kHash768) + R"("}]})";
  EXPECT_EQ(apply(stored), "<unchanged>");
  EXPECT_TRUE(last_.has_blob_ref);
  EXPECT_EQ(blob_names(), std::vector<std::string>{});
}

// The limit is in decoded code units: 300,000 "\n" escapes are 600,000 bytes but 300,000 units.
TEST_F(SizeRulesTest, EscapesCountAsOneUnitSoALongRawTokenCanBeUnderTheLimit) {
  EXPECT_EQ(apply(R"({"s":")" + repeat("\\n", 300000) + "\"}"), "<unchanged>");
  // 250,000 astral characters are 1,000,000 bytes and exactly 500,000 units: kept.
  EXPECT_EQ(apply(R"({"s":")" + repeat("\xF0\x9F\x98\x80", 250000) + "\"}"), "<unchanged>");
}

// --- truncation -------------------------------------------------------------------------------

TEST_F(SizeRulesTest, CutIs499953UnitsPlusTheNotice) {
  std::string line = R"({"a":1,"s":")" + std::string(500001, 'x') + R"(","b":2})";
  EXPECT_EQ(apply(line), R"({"a":1,"s":")" + std::string(499953, 'x') + kNotice + R"(","b":2})");
  // Two-byte characters are one unit each: the cut counts characters, not bytes.
  EXPECT_EQ(apply(R"({"s":")" + repeat("\xC3\xA9", 500001) + "\"}"),
            R"({"s":")" + repeat("\xC3\xA9", 499953) + kNotice + "\"}");
}

TEST_F(SizeRulesTest, AstralCharactersCountTwoUnitsAndAreNeverSplit) {
  const std::string smile = "\xF0\x9F\x98\x80";  // U+1F600: a surrogate pair in UTF-16
  // 499,953 is odd: the 24,977th pair would end on its high half, which is dropped -> 499,952.
  EXPECT_EQ(apply(R"({"s":")" + repeat(smile, 250001) + "\"}"), R"({"s":")" + repeat(smile, 249976) + kNotice + "\"}");
  // One BMP character first shifts the pairs: the cut then ends after a whole pair (499,953).
  EXPECT_EQ(apply(R"({"s":"a)" + repeat(smile, 250001) + "\"}"),
            R"({"s":"a)" + repeat(smile, 249976) + kNotice + "\"}");
}

TEST_F(SizeRulesTest, EscapedSurrogatesAreCutLikeJavaScriptCutsTheirUnits) {
  const std::string pair = "\\ud83d\\ude00";
  EXPECT_EQ(apply(R"({"s":")" + repeat(pair, 250001) + "\"}"), R"({"s":")" + repeat(pair, 249976) + kNotice + "\"}");
  EXPECT_EQ(apply(R"({"s":"a)" + repeat(pair, 250001) + "\"}"), R"({"s":"a)" + repeat(pair, 249976) + kNotice + "\"}");
  // Lone high surrogates (JSON.stringify writes them): the last kept unit would be high -> dropped.
  EXPECT_EQ(apply(R"({"s":")" + repeat("\\ud83d", 500001) + "\"}"),
            R"({"s":")" + repeat("\\ud83d", 499952) + kNotice + "\"}");
}

TEST_F(SizeRulesTest, EscapesAreNeverCutInHalf) {
  EXPECT_EQ(apply(R"({"s":")" + repeat("\\n", 500001) + "\"}"), R"({"s":")" + repeat("\\n", 499953) + kNotice + "\"}");
  EXPECT_EQ(apply(R"({"s":")" + repeat("\\u00e9", 500001) + "\"}"),
            R"({"s":")" + repeat("\\u00e9", 499953) + kNotice + "\"}");
  // Mixed widths: "ab\"" is 3 units in 4 bytes; the cut lands right after a whole escape.
  std::string mixed = repeat("ab\\\"", 166667);  // 500,001 units
  std::string kept = repeat("ab\\\"", 166651);   // 499,953 units exactly
  EXPECT_EQ(apply(R"({"s":")" + mixed + "\"}"), R"({"s":")" + kept + kNotice + "\"}");
}

TEST_F(SizeRulesTest, LongSignaturesBecomeEmptyOtherKeysAreCut) {
  std::string big(500001, 'g');
  for (const char* key : {"thinkingSignature", "thoughtSignature", "textSignature"}) {
    EXPECT_EQ(apply(std::string(R"({"t":"x",")") + key + R"(":")" + big + "\"}"),
              std::string(R"({"t":"x",")") + key + R"(":""})")
        << key;
  }
  // A signature of exactly the limit is kept; a look-alike key is truncated like any string.
  EXPECT_EQ(apply(R"({"textSignature":")" + std::string(500000, 'g') + "\"}"), "<unchanged>");
  EXPECT_EQ(apply(R"({"signature":")" + big + "\"}"), R"({"signature":")" + std::string(499953, 'g') + kNotice + "\"}");
  // Array items inherit their array's key (the reference passes the parent key down).
  EXPECT_EQ(apply(R"({"thinkingSignature":[")" + big + "\"]}"), R"({"thinkingSignature":[""]})");
}

// --- transient members ------------------------------------------------------------------------

TEST_F(SizeRulesTest, PartialJsonAndJsonlEventsAreRemovedFirstMiddleLastAndDeep) {
  EXPECT_EQ(apply(R"({"partialJson":"{\"a","a":1,"jsonlEvents":[1,{"x":2}],"b":{"c":[{"partialJson":{"d":2}}],"jsonlEvents":null}})"),
            R"({"a":1,"b":{"c":[{}]}})");
  EXPECT_EQ(apply(R"({"a":1,"partialJson":"x"})"), R"({"a":1})");
  EXPECT_EQ(apply(R"({"partialJson":"x"})"), R"({})");
  EXPECT_EQ(apply(R"({"partialJson":1,"jsonlEvents":2})"), R"({})");
  EXPECT_EQ(apply(R"({"a":1,"partialJson":2,"jsonlEvents":3,"b":4})"), R"({"a":1,"b":4})");
  // Whitespace between tokens stays where it was (the writer minifies afterwards).
  EXPECT_EQ(apply(R"({ "a" : 1 , "partialJson" : "x" , "b" : 2 })"), R"({ "a" : 1  , "b" : 2 })");
  EXPECT_EQ(apply(R"({ "partialJson" : "x" , "b" : 2 })"), R"({  "b" : 2 })");
  // What was inside goes with it, including a string the limit would have cut.
  EXPECT_EQ(apply(R"({"partialJson":")" + std::string(500001, 'p') + R"(","k":true})"), R"({"k":true})");
}

TEST_F(SizeRulesTest, ImagesInsideRemovedMembersNeverReachTheBlobStore) {
  // omp drops the streaming leftovers before it looks for images: an image inside one must not
  // leave an orphan blob behind.
  std::string b64 = base64(payload(768));
  EXPECT_EQ(apply(R"({"a":1,"partialJson":{"content":[{"type":"image","data":")" + b64 + R"("}]}})"),
            R"({"a":1})");
  EXPECT_EQ(apply(R"({"jsonlEvents":[{"x":{"image_url":")" + kDataUrl + R"("}}],"b":2})"), R"({"b":2})");
  EXPECT_FALSE(last_.has_blob_ref);
  EXPECT_TRUE(blob_names().empty());
}

// --- lineCount --------------------------------------------------------------------------------

TEST_F(SizeRulesTest, LineCountIsRecomputedOnlyForAChangedObject) {
  // Changed (a member removed): content.split("\n").length, wherever lineCount sits.
  EXPECT_EQ(apply(R"({"content":"a\nb\nc","lineCount":99,"partialJson":"x"})"), R"({"content":"a\nb\nc","lineCount":3})");
  EXPECT_EQ(apply(R"({"lineCount":-5,"jsonlEvents":[],"content":"one"})"), R"({"lineCount":1,"content":"one"})");
  // The sibling object did not change, so its (wrong) lineCount stays.
  EXPECT_EQ(apply(R"({"x":{"partialJson":1},"y":{"content":"a\nb","lineCount":9}})"),
            R"({"x":{},"y":{"content":"a\nb","lineCount":9}})");
  // Not a numeric lineCount, or not a string content: nothing to recompute.
  EXPECT_EQ(apply(R"({"content":"a\nb","lineCount":"9","partialJson":1})"), R"({"content":"a\nb","lineCount":"9"})");
  EXPECT_EQ(apply(R"({"content":["a\nb"],"lineCount":9,"partialJson":1})"), R"({"content":["a\nb"],"lineCount":9})");
}

TEST_F(SizeRulesTest, LineCountOfTruncatedContentCountsTheNoticesNewlines) {
  // 10 newlines survive the cut, the notice adds 2: 13 lines.
  std::string content = repeat("line\\n", 10) + std::string(500001, 'z');
  std::string kept = repeat("line\\n", 10) + std::string(499953 - 50, 'z');
  EXPECT_EQ(apply(R"({"content":")" + content + R"(","lineCount":1})"),
            R"({"content":")" + kept + kNotice + R"(","lineCount":13})");
}

// --- images -----------------------------------------------------------------------------------

TEST_F(SizeRulesTest, ImageDataOfAtLeast1024CharsUnderContentMovesToTheStore) {
  std::string b64 = base64(payload(768));
  ASSERT_EQ(b64.size(), 1024u);
  std::string line = R"({"role":"user","content":[{"type":"text","text":"see"},{"type":"image","data":")" + b64 +
                     R"(","mimeType":"image/png"}]})";
  EXPECT_EQ(apply(line), R"({"role":"user","content":[{"type":"text","text":"see"},{"type":"image","data":")" +
                             blob_ref(kHash768) + R"(","mimeType":"image/png"}]})");
  EXPECT_TRUE(last_.has_blob_ref);
  // The blob holds the decoded bytes, named by their hash.
  EXPECT_EQ(blob_names(), std::vector<std::string>{kHash768});
  EXPECT_EQ(test::get_file(*fs_, "/store/blobs/" + kHash768), payload(768));
}

TEST_F(SizeRulesTest, UnpaddedBase64IsDecodedLikeNodeDoes) {
  std::string b64 = base64(payload(769), /*pad=*/false);
  ASSERT_EQ(b64.size(), 1026u);
  EXPECT_EQ(apply(R"({"content":[{"type":"image","data":")" + b64 + R"("}]})"),
            R"({"content":[{"type":"image","data":")" + blob_ref(kHash769) + R"("}]})");
  EXPECT_EQ(test::get_file(*fs_, "/store/blobs/" + kHash769), payload(769));
}

TEST_F(SizeRulesTest, ImagesStayInlineBelowTheThresholdOrOutsideContent) {
  std::string small = base64(payload(765));  // 1020 chars
  std::string big = base64(payload(768));
  EXPECT_EQ(apply(R"({"content":[{"type":"image","data":")" + small + R"("}]})"), "<unchanged>");
  EXPECT_EQ(apply(R"({"details":{"images":[{"type":"image","data":")" + big + R"("}]}})"), "<unchanged>");
  EXPECT_EQ(apply(R"({"content":{"type":"image","data":")" + big + R"("}})"), "<unchanged>") << "not in an array";
  EXPECT_EQ(apply(R"({"content":[{"type":"text","data":")" + big + R"("}]})"), "<unchanged>") << "not an image";
  EXPECT_FALSE(last_.has_blob_ref);
  EXPECT_EQ(blob_names(), std::vector<std::string>{}) << "nothing was stored";
  // A nested array under content passes the key down: that image moves.
  EXPECT_EQ(apply(R"({"content":[[{"type":"image","data":")" + big + R"("}]]})"),
            R"({"content":[[{"type":"image","data":")" + blob_ref(kHash768) + R"("}]]})");
}

TEST_F(SizeRulesTest, AnExternalisedBlockIsAShallowCopy) {
  // Only `data` changes: the reference spreads the block and sets data, so the other members are
  // not processed (a transient member inside survives, a long caption is not cut).
  std::string big = base64(payload(768));
  std::string caption(500001, 'c');
  EXPECT_EQ(apply(R"({"content":[{"type":"image","caption":")" + caption + R"(","data":")" + big +
                  R"(","partialJson":"x"}]})"),
            R"({"content":[{"type":"image","caption":")" + caption + R"(","data":")" + blob_ref(kHash768) +
                R"(","partialJson":"x"}]})");
}

TEST_F(SizeRulesTest, ImageDataUrlsMoveWholeWhateverTheirLength) {
  EXPECT_EQ(apply(R"({"content":[{"type":"image_url","image_url":")" + kDataUrl + R"("}]})"),
            R"({"content":[{"type":"image_url","image_url":")" + blob_ref(kDataUrlHash) + R"("}]})");
  EXPECT_TRUE(last_.has_blob_ref);
  EXPECT_EQ(test::get_file(*fs_, "/store/blobs/" + kDataUrlHash), kDataUrl);
  // The hash is over the decoded string: "\/" written by some encoders is the same URL.
  EXPECT_EQ(apply(R"({"image_url":"data:image\/png;base64,iVBORw0KGgo="})"), R"({"image_url":")" + blob_ref(kDataUrlHash) + "\"}");
  // Array items under image_url count too.
  EXPECT_EQ(apply(R"({"image_url":[")" + kDataUrl + R"("]})"), R"({"image_url":[")" + blob_ref(kDataUrlHash) + "\"]}");
  EXPECT_EQ(blob_names(), std::vector<std::string>{kDataUrlHash});
}

TEST_F(SizeRulesTest, OtherUrlsStayInline) {
  EXPECT_EQ(apply(R"({"image_url":"https://example.com/a.png"})"), "<unchanged>");
  EXPECT_EQ(apply(R"({"image_url":"data:text/plain;base64,aGk="})"), "<unchanged>");
  EXPECT_EQ(apply(R"({"image_url":"data:image/svg+xml,<svg/>"})"), "<unchanged>") << "not base64";
  // OpenAI's {"image_url":{"url":...}}: the string sits under "url", not "image_url".
  EXPECT_EQ(apply(R"({"image_url":{"url":")" + kDataUrl + R"("}})"), "<unchanged>");
  EXPECT_EQ(blob_names(), std::vector<std::string>{});
}

TEST_F(SizeRulesTest, WithoutABlobStoreImagesStayInline) {
  std::string big = base64(payload(768));
  EXPECT_EQ(apply(R"({"content":[{"type":"image","data":")" + big + R"("}]})", false), "<unchanged>");
  EXPECT_EQ(apply(R"({"content":[{"type":"image_url","image_url":")" + kDataUrl + R"("}]})", false), "<unchanged>");
  EXPECT_FALSE(last_.has_blob_ref);
  // The other rules still apply.
  EXPECT_EQ(apply(R"({"content":[{"type":"image","data":")" + big + R"(","partialJson":1}]})", false),
            R"({"content":[{"type":"image","data":")" + big + R"("}]})");
  EXPECT_EQ(blob_names(), std::vector<std::string>{});
}

TEST_F(SizeRulesTest, AFailedBlobPutFailsTheLine) {
  auto faulty = std::make_shared<storage::FaultyFs>(fs_);
  BlobStore store(faulty, "/store");
  faulty->fail(storage::FsOp::kCreateNew, Code::kNoSpace);
  auto r = apply_size_rules(R"({"content":[{"type":"image","data":")" + base64(payload(768)) + R"("}]})", &store);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kNoSpace);
  EXPECT_EQ(blob_names(), std::vector<std::string>{}) << "no blob, no temp file";
}

}  // namespace
}  // namespace xs::blobs
