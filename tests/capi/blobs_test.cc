// Blobs (xs_blob_put / xs_blob_get) and the size rules applied to appended entries
// (docs/format.md#size-rules): big base64 images and image data URLs move to the store's blobs,
// strings over 500,000 UTF-16 units are cut with a notice, partialJson/jsonlEvents are dropped.
// Hashes below were computed independently (Python hashlib).
#include <string>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;

const char kAbcHash[] = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
const char kEmptyHash[] = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const char kAllBytesHash[] = "40aff2e9d2d8922e47afd4648e6967497158785fbd1da870e7110266bf944880";  // bytes 0..255
// sha256 of the 768 bytes (i*7+3)%256, whose base64 is exactly 1024 chars.
const char kImageHash[] = "ac315a0be063ff331c93913f8b573005d48f9e62c09226c0527c96349c2ca34f";
const char kDataUrl[] = "data:image/png;base64,iVBORw0KGgo=";
const char kDataUrlHash[] = "e1e10747c2374f621aa59fefede6ef99dc6acdb41b267ab4af408d5529f89ea8";

std::string Base64(const std::string& in) {
  static const char k[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
    out += k[v >> 18];
    out += k[(v >> 12) & 63];
    out += k[(v >> 6) & 63];
    out += k[v & 63];
  }
  if (i + 1 == in.size()) {
    uint32_t v = uint8_t(in[i]) << 16;
    out += k[v >> 18];
    out += k[(v >> 12) & 63];
    out += "==";
  } else if (i + 2 == in.size()) {
    uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8);
    out += k[v >> 18];
    out += k[(v >> 12) & 63];
    out += k[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

std::string Payload(size_t n) {
  std::string b(n, '\0');
  for (size_t i = 0; i < n; ++i) b[i] = static_cast<char>((i * 7 + 3) % 256);
  return b;
}

class Blobs : public CapiTest {
 protected:
  std::string Get(const std::string& hash, xs_status* st = nullptr) {
    return xstest::Fetch(
        [&](char* b, size_t c, size_t* n) { return xs_blob_get(store_, hash.c_str(), b, c, n); }, st);
  }
  std::string Put(const std::string& bytes) {
    char hash[XS_HASH_BUFSIZE];
    std::memset(hash, 'Z', sizeof hash);
    xs_status st = xs_blob_put(store_, bytes.data(), bytes.size(), hash);
    EXPECT_EQ(st, XS_OK) << xs_store_errmsg(store_);
    EXPECT_EQ(std::strlen(hash), 64u);
    return hash;
  }
  std::string BlobFile(const std::string& hash) { return root_.path() + "/blobs/" + hash; }
};

TEST_F(Blobs, PutNamesTheBlobByItsSha256AndGetReturnsTheBytes) {
  EXPECT_EQ(Put("abc"), kAbcHash);
  EXPECT_EQ(xs_store_errcode(store_), XS_OK);
  EXPECT_STREQ(xs_store_errmsg(store_), "");
  EXPECT_EQ(xstest::ReadFile(BlobFile(kAbcHash)), "abc");
  size_t n = 0;
  EXPECT_EQ(xs_blob_get(store_, kAbcHash, nullptr, 0, &n), XS_EBUFS);
  EXPECT_EQ(n, 3u);
  char two[2] = {'#', '#'};
  EXPECT_EQ(xs_blob_get(store_, kAbcHash, two, 2, &n), XS_EBUFS);
  EXPECT_EQ(std::string(two, 2), "##");
  EXPECT_EQ(Get(kAbcHash), "abc");
}

TEST_F(Blobs, BinaryBytesAndEmptyBlobs) {
  std::string all;
  for (int i = 0; i < 256; ++i) all += static_cast<char>(i);
  EXPECT_EQ(Put(all), kAllBytesHash);
  EXPECT_EQ(Get(kAllBytesHash), all);
  EXPECT_EQ(Put(""), kEmptyHash);
  size_t n = 99;
  EXPECT_EQ(xs_blob_get(store_, kEmptyHash, nullptr, 0, &n), XS_OK);
  EXPECT_EQ(n, 0u);
}

TEST_F(Blobs, PutIsIdempotent) {
  EXPECT_EQ(Put("abc"), kAbcHash);
  EXPECT_EQ(Put("abc"), kAbcHash);
  EXPECT_EQ(xstest::ListDir(root_.path() + "/blobs"), std::vector<std::string>{kAbcHash});
  EXPECT_EQ(xstest::ReadFile(BlobFile(kAbcHash)), "abc");
}

TEST_F(Blobs, MissingBlobIsNotFound) {
  xs_status st;
  Get(kAbcHash, &st);
  EXPECT_EQ(st, XS_ENOTFOUND);
  EXPECT_EQ(xs_store_errcode(store_), XS_ENOTFOUND);
  EXPECT_STRNE(xs_store_errmsg(store_), "");
}

TEST_F(Blobs, BadHashIsInvalid) {
  size_t n = 0;
  for (const std::string& bad : {std::string("abc"), std::string(kAbcHash).substr(0, 63), std::string(kAbcHash) + "0",
                                 std::string(63, 'a') + "g", std::string(""), std::string("../") + std::string(kAbcHash).substr(3),
                                 std::string(64, ' ')}) {
    EXPECT_EQ(xs_blob_get(store_, bad.c_str(), nullptr, 0, &n), XS_EINVAL) << "\"" << bad << "\"";
  }
}

TEST_F(Blobs, ContentThatDoesNotMatchItsNameIsCorrupt) {
  Put("abc");
  xstest::WriteFile(BlobFile(kAbcHash), "abd");
  xs_status st;
  Get(kAbcHash, &st);
  EXPECT_EQ(st, XS_ECORRUPT);
  EXPECT_EQ(xs_store_errcode(store_), XS_ECORRUPT);
  EXPECT_STRNE(xs_store_errmsg(store_), "");
  // Putting the content again replaces the damaged copy: a blob is either absent or right.
  Put("abc");
  EXPECT_EQ(Get(kAbcHash, &st), "abc");
  EXPECT_EQ(st, XS_OK);
}

TEST(InMemoryBlobs, NothingTouchesTheDisk) {
  xstest::TempDir dir;
  xs_store* st = xs_store_new();
  xs_store_options so;
  ASSERT_EQ(xs_store_options_init(&so, XS_STORE_OPTIONS_VERSION), XS_OK);
  so.flags = XS_STORE_IN_MEMORY;
  ASSERT_EQ(xs_store_open(st, dir.path().c_str(), &so), XS_OK);
  char hash[XS_HASH_BUFSIZE];
  ASSERT_EQ(xs_blob_put(st, "abc", 3, hash), XS_OK) << xs_store_errmsg(st);
  EXPECT_STREQ(hash, kAbcHash);
  EXPECT_EQ(xstest::Fetch([&](char* b, size_t c, size_t* n) { return xs_blob_get(st, kAbcHash, b, c, n); }), "abc");
  EXPECT_TRUE(xstest::ListDir(dir.path()).empty());
  xs_store_free(st);
}

// --- size rules on append ---------------------------------------------------------------------

class SizeRules : public CapiTest {
 protected:
  void SetUp() override {
    CapiTest::SetUp();
    s_ = Create(XS_SESSION_NO_DEFER);
    ASSERT_NE(s_, nullptr);
    path_ = xstest::PathOf(s_);
  }
  std::string Stored(const std::string& id) { return xstest::Entry(s_, id); }
  xs_session* s_ = nullptr;
  std::string path_;
};

TEST_F(SizeRules, BigBase64ImageMovesToABlob) {
  std::string bytes = Payload(768);
  std::string b64 = Base64(bytes);
  ASSERT_EQ(b64.size(), 1024u);
  std::string msg = R"({"role":"user","content":[{"type":"text","text":"see"},{"type":"image","data":")" + b64 +
                    R"(","mimeType":"image/png"}]})";
  std::string id = Msg(s_, msg);
  std::string ref_msg = std::string(R"({"role":"user","content":[{"type":"text","text":"see"},{"type":"image","data":"blob:sha256:)") +
                        kImageHash + R"(","mimeType":"image/png"}]})";
  // Stored (entry and file) with the ref; the blob holds the decoded bytes.
  EXPECT_EQ(Stored(id), xstest::MsgLine(id, "", xstest::Ts(1), ref_msg));
  EXPECT_EQ(xstest::SplitLines(xstest::ReadFile(path_)).back(), xstest::MsgLine(id, "", xstest::Ts(1), ref_msg));
  EXPECT_EQ(xstest::ReadFile(root_.path() + "/blobs/" + kImageHash), bytes);
  EXPECT_EQ(xstest::Fetch([&](char* b, size_t c, size_t* n) { return xs_blob_get(store_, kImageHash, b, c, n); }),
            bytes);
  // The context shows it resolved, as the caller sent it.
  std::string ctx = xstest::Context(s_);
  EXPECT_EQ(ctx, "{\"leafId\":\"" + id + "\",\"messages\":[" + msg +
                     "],\"thinkingLevel\":\"off\",\"models\":{},\"injectedTtsrRules\":[],\"mode\":\"none\"}");
  // And after a reopen.
  Close(s_);
  s_ = nullptr;
  xs_session* r = Open(path_, XS_SESSION_READ_ONLY);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(xstest::Context(r), ctx);
}

TEST_F(SizeRules, SmallerImageStaysInline) {
  std::string b64 = Base64(Payload(765));
  ASSERT_EQ(b64.size(), 1020u);
  std::string msg = R"({"role":"user","content":[{"type":"image","data":")" + b64 + R"(","mimeType":"image/png"}]})";
  std::string id = Msg(s_, msg);
  EXPECT_EQ(Stored(id), xstest::MsgLine(id, "", xstest::Ts(1), msg));
  EXPECT_FALSE(xstest::Exists(root_.path() + "/blobs"));
}

TEST_F(SizeRules, ImageDataUrlMovesToABlobWhateverItsLength) {
  std::string msg = std::string(R"({"role":"user","content":[{"type":"image_url","image_url":")") + kDataUrl + R"("}]})";
  std::string id = Msg(s_, msg);
  std::string ref = std::string(R"({"role":"user","content":[{"type":"image_url","image_url":"blob:sha256:)") +
                    kDataUrlHash + R"("}]})";
  EXPECT_EQ(Stored(id), xstest::MsgLine(id, "", xstest::Ts(1), ref));
  EXPECT_EQ(xstest::ReadFile(root_.path() + "/blobs/" + kDataUrlHash), kDataUrl);
  EXPECT_NE(xstest::Context(s_).find(msg), std::string::npos) << xstest::Context(s_);
}

// The size rules apply to every entry type, so a blob ref can sit in a custom entry's data too:
// the entry reads back resolved when asked, after a reopen as before it.
TEST_F(SizeRules, ARefOutsideAMessageIsResolvedAfterAReopen) {
  std::string entry = std::string(R"({"type":"custom","customType":"shot","data":{"image_url":")") + kDataUrl +
                      R"("}})";
  char id[XS_ID_BUFSIZE];
  ASSERT_EQ(xs_append(s_, entry.data(), entry.size(), id), XS_OK) << xs_session_errmsg(s_);
  auto read = [&](xs_session* s) {
    return xstest::Fetch([&](char* b, size_t c, size_t* n) {
      return xs_session_entry(s, id, XS_READ_RESOLVE_BLOBS, b, c, n);
    });
  };
  std::string resolved = read(s_);
  EXPECT_NE(resolved.find(kDataUrl), std::string::npos) << resolved;
  EXPECT_EQ(xstest::Entry(s_, id).find(kDataUrl), std::string::npos) << "stored with the ref";
  Close(s_);
  s_ = Open(path_, XS_SESSION_READ_ONLY);
  ASSERT_NE(s_, nullptr);
  EXPECT_EQ(read(s_), resolved);
}

TEST_F(SizeRules, LongStringIsCutWithANotice) {
  std::string notice = "\\n\\n[Session persistence truncated large content]";  // as JSON text
  std::string msg = R"({"role":"user","content":")" + std::string(500001, 'a') + R"("})";
  std::string id = Msg(s_, msg);
  std::string cut = R"({"role":"user","content":")" + std::string(500000 - 47, 'a') + notice + R"("})";
  EXPECT_EQ(Stored(id), xstest::MsgLine(id, "", xstest::Ts(1), cut));
  // The context shows what is persisted.
  EXPECT_NE(xstest::Context(s_).find(cut), std::string::npos);
}

TEST_F(SizeRules, StringOfExactlyTheLimitIsKept) {
  std::string msg = R"({"role":"user","content":")" + std::string(500000, 'b') + R"("})";
  std::string id = Msg(s_, msg);
  EXPECT_EQ(Stored(id), xstest::MsgLine(id, "", xstest::Ts(1), msg));
}

TEST_F(SizeRules, LongSignaturesBecomeEmpty) {
  std::string sig(500001, 's');
  std::string msg = R"({"role":"assistant","content":[{"type":"thinking","thinking":"hm","thinkingSignature":")" + sig +
                    R"("}],"provider":"p","model":"m"})";
  std::string id = Msg(s_, msg);
  EXPECT_EQ(Stored(id),
            xstest::MsgLine(id, "", xstest::Ts(1),
                            R"({"role":"assistant","content":[{"type":"thinking","thinking":"hm","thinkingSignature":""}],"provider":"p","model":"m"})"));
}

TEST_F(SizeRules, PartialJsonAndJsonlEventsAreDropped) {
  std::string msg =
      R"({"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{},"partialJson":"{\"pa"}],"jsonlEvents":[1,2],"provider":"p","model":"m"})";
  std::string id = Msg(s_, msg);
  EXPECT_EQ(Stored(id),
            xstest::MsgLine(id, "", xstest::Ts(1),
                            R"({"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{}}],"provider":"p","model":"m"})"));
}

TEST_F(SizeRules, UntouchedEntriesKeepTheirBytes) {
  // Nothing for the rules to change: the caller's tokens stay as written.
  std::string msg = R"({"role":"user","content":[{"type":"text","text":"\u00e9\/"}],"n":1.0e3})";
  std::string id = Msg(s_, msg);
  EXPECT_EQ(Stored(id), xstest::MsgLine(id, "", xstest::Ts(1), msg));
}

}  // namespace
