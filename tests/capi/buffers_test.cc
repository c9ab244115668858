// The output protocol shared by every read: (NULL, 0) is a size query answered with XS_EBUFS and
// the exact length; one byte short is XS_EBUFS with the buffer untouched; the exact size is XS_OK
// with the exact bytes; the result cached for the retry is never served once the session changed.
#include <string>
#include <vector>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;
using xstest::Reader;

// A persisted session with a little of everything, with caller-chosen ids so that every read's
// exact bytes are known in advance.
class Buffers : public CapiTest {
 protected:
  void SetUp() override {
    CapiTest::SetUp();
    s_ = Create(XS_SESSION_NO_DEFER);
    ASSERT_NE(s_, nullptr);
    u1_ = R"({"type":"message","id":"u1","timestamp":"2026-01-01T00:00:00.000Z","message":)" + xstest::kUser1 + "}";
    a1_ = R"({"type":"message","id":"a1","timestamp":"2026-01-01T00:00:01.000Z","message":)" + xstest::kAssistant1 + "}";
    l1_ = R"({"type":"label","id":"l1","timestamp":"2026-01-01T00:00:02.000Z","targetId":"u1","label":"start"})";
    ASSERT_EQ(Append(s_, u1_), "u1");
    ASSERT_EQ(Append(s_, a1_), "a1");
    ASSERT_EQ(Append(s_, l1_), "l1");
    char hash[XS_HASH_BUFSIZE];
    ASSERT_EQ(xs_blob_put(store_, "blob bytes", 10, hash), XS_OK) << xs_store_errmsg(store_);
    hash_ = hash;
    session_id_ = xstest::JsonStr(xstest::Info(s_), "id");
    path_ = xstest::PathOf(s_);
    // As stored: the session adds parentId after id (and keeps the caller's timestamps).
    u1_line_ = R"({"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":)" +
               xstest::kUser1 + "}";
    a1_line_ = R"({"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:01.000Z","message":)" +
               xstest::kAssistant1 + "}";
    l1_line_ = R"({"type":"label","id":"l1","parentId":"a1","timestamp":"2026-01-01T00:00:02.000Z","targetId":"u1","label":"start"})";
  }

  struct Case {
    std::string name;
    Reader read;
    std::string expected;  // exact bytes
  };

  std::vector<Case> Cases() {
    xs_session* s = s_;
    const std::string ctx = "{\"leafId\":\"l1\",\"messages\":[" + xstest::kUser1 + "," + xstest::kAssistant1 +
                            "],\"thinkingLevel\":\"off\",\"models\":{\"default\":\"anthropic/claude-x\"},"
                            "\"injectedTtsrRules\":[],\"mode\":\"none\"}";
    const std::string all = "[" + u1_line_ + "," + a1_line_ + "," + l1_line_ + "]";
    const std::string usage =
        R"({"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"premiumRequests":0,"cost":0,"assistantMessages":1})";
    const std::string tree =
        "[{\"id\":\"u1\",\"parentId\":null,\"depth\":0,\"children\":[\"a1\"],\"label\":\"start\","
        "\"labelTimestamp\":\"2026-01-01T00:00:02.000Z\",\"entry\":" + u1_line_ + "}," +
        "{\"id\":\"a1\",\"parentId\":\"u1\",\"depth\":1,\"children\":[\"l1\"],\"entry\":" + a1_line_ + "}," +
        "{\"id\":\"l1\",\"parentId\":\"a1\",\"depth\":2,\"children\":[],\"entry\":" + l1_line_ + "}]";
    return {
        {"build_context", [s](char* b, size_t c, size_t* n) { return xs_build_context(s, nullptr, b, c, n); }, ctx},
        {"build_context(a1)",
         [s](char* b, size_t c, size_t* n) { return xs_build_context(s, "a1", b, c, n); },
         "{\"leafId\":\"a1\"" + ctx.substr(14)},
        {"header", [s](char* b, size_t c, size_t* n) { return xs_session_header(s, b, c, n); },
         xstest::SplitLines(xstest::ReadFile(xstest::PathOf(s)))[0]},
        {"entries", [s](char* b, size_t c, size_t* n) { return xs_session_entries(s, 0, b, c, n); }, all},
        {"entry", [s](char* b, size_t c, size_t* n) { return xs_session_entry(s, "a1", 0, b, c, n); }, a1_line_},
        {"path", [s](char* b, size_t c, size_t* n) { return xs_session_path(s, nullptr, 0, b, c, n); },
         all},
        {"path(u1)", [s](char* b, size_t c, size_t* n) { return xs_session_path(s, "u1", 0, b, c, n); },
         "[" + u1_line_ + "]"},
        {"children", [s](char* b, size_t c, size_t* n) { return xs_session_children(s, "u1", 0, b, c, n); },
         "[" + a1_line_ + "]"},
        {"tree", [s](char* b, size_t c, size_t* n) { return xs_session_tree(s, 0, b, c, n); }, tree},
        {"labels", [s](char* b, size_t c, size_t* n) { return xs_session_labels(s, b, c, n); },
         R"([{"targetId":"u1","label":"start","timestamp":"2026-01-01T00:00:02.000Z"}])"},
        {"leaf", [s](char* b, size_t c, size_t* n) { return xs_session_leaf(s, b, c, n); }, "l1"},
        {"diagnostics", [s](char* b, size_t c, size_t* n) { return xs_session_diagnostics(s, b, c, n); }, "[]"},
        {"usage", [s](char* b, size_t c, size_t* n) { return xs_session_usage(s, b, c, n); }, usage},
        {"blob_get", [this](char* b, size_t c, size_t* n) { return xs_blob_get(store_, hash_.c_str(), b, c, n); },
         "blob bytes"},
        {"store_resolve",
         [this](char* b, size_t c, size_t* n) { return xs_store_resolve(store_, session_id_.c_str(), nullptr, b, c, n); },
         path_},
        {"store_session_dir",
         [this](char* b, size_t c, size_t* n) { return xs_store_session_dir(store_, "/work/proj", b, c, n); },
         root_.path() + "/sessions/--work-proj--"},
    };
  }

  xs_session* s_ = nullptr;
  std::string u1_, a1_, l1_, u1_line_, a1_line_, l1_line_;
  std::string hash_, session_id_, path_;
};

TEST_F(Buffers, ExpectedBytesAreHeaderLineOfTheFile) {
  // Sanity for the "header" case: the header read is the file's first line, as written.
  std::string header = xstest::Header(s_);
  std::string info = xstest::Info(s_);
  EXPECT_EQ(header, xstest::HeaderLine(xstest::JsonStr(info, "id"), xstest::Ts(0), "/work/proj"));
}

TEST_F(Buffers, SizeQueryReturnsEbufsWithExactLength) {
  for (const Case& c : Cases()) {
    size_t n = 0;
    EXPECT_EQ(c.read(nullptr, 0, &n), XS_EBUFS) << c.name;
    EXPECT_EQ(n, c.expected.size()) << c.name;
  }
}

TEST_F(Buffers, ExactCapacityGivesExactBytes) {
  for (const Case& c : Cases()) {
    size_t n = 0;
    ASSERT_EQ(c.read(nullptr, 0, &n), XS_EBUFS) << c.name;
    // One byte of sentinel after the buffer: nothing is written past cap (and no NUL).
    std::string buf(n + 1, '#');
    size_t got = 0;
    ASSERT_EQ(c.read(&buf[0], n, &got), XS_OK) << c.name;
    EXPECT_EQ(got, c.expected.size()) << c.name;
    EXPECT_EQ(buf.substr(0, n), c.expected) << c.name;
    EXPECT_EQ(buf[n], '#') << c.name << ": wrote past the reported length";
  }
}

TEST_F(Buffers, FillWithoutSizeQueryWorks) {
  for (const Case& c : Cases()) {
    std::string buf(c.expected.size() + 100, '#');
    size_t got = 0;
    ASSERT_EQ(c.read(&buf[0], buf.size(), &got), XS_OK) << c.name;
    EXPECT_EQ(got, c.expected.size()) << c.name;
    EXPECT_EQ(buf.substr(0, got), c.expected) << c.name;
    EXPECT_EQ(buf.substr(got), std::string(100, '#')) << c.name;
  }
}

TEST_F(Buffers, OneByteShortIsEbufsAndWritesNothing) {
  for (const Case& c : Cases()) {
    ASSERT_GT(c.expected.size(), 0u) << c.name;
    size_t cap = c.expected.size() - 1;
    std::string buf(c.expected.size() + 8, '\x5a');
    size_t got = 0;
    EXPECT_EQ(c.read(&buf[0], cap, &got), XS_EBUFS) << c.name;
    EXPECT_EQ(got, c.expected.size()) << c.name;
    EXPECT_EQ(buf, std::string(c.expected.size() + 8, '\x5a')) << c.name << ": buffer touched on XS_EBUFS";
    // Twice short in a row, then the retry: the cached result is the right one.
    EXPECT_EQ(c.read(&buf[0], 1, &got), XS_EBUFS) << c.name;
    EXPECT_EQ(buf, std::string(c.expected.size() + 8, '\x5a')) << c.name;
    ASSERT_EQ(c.read(&buf[0], c.expected.size(), &got), XS_OK) << c.name;
    EXPECT_EQ(buf.substr(0, got), c.expected) << c.name;
  }
}

TEST_F(Buffers, NullBufWithNonZeroCapIsEinval) {
  for (const Case& c : Cases()) {
    size_t got = 12345;
    EXPECT_EQ(c.read(nullptr, c.expected.size(), &got), XS_EINVAL) << c.name;
    EXPECT_EQ(c.read(nullptr, 1, &got), XS_EINVAL) << c.name;
  }
}

TEST_F(Buffers, NullOutLenIsEinval) {
  for (const Case& c : Cases()) {
    std::string buf(c.expected.size() + 10, '#');
    EXPECT_EQ(c.read(&buf[0], buf.size(), nullptr), XS_EINVAL) << c.name;
    EXPECT_EQ(buf, std::string(c.expected.size() + 10, '#')) << c.name;
    EXPECT_EQ(c.read(nullptr, 0, nullptr), XS_EINVAL) << c.name;
  }
}

// --- the cache never serves stale data --------------------------------------------------------

TEST_F(Buffers, AppendBetweenSizeQueryAndFillRecomputes) {
  size_t n = 0;
  ASSERT_EQ(xs_build_context(s_, nullptr, nullptr, 0, &n), XS_EBUFS);
  const size_t first = n;
  // Mutation before the fill.
  std::string u2 = R"({"type":"message","id":"u2","timestamp":"2026-01-01T00:00:03.000Z","message":)" +
                   xstest::kUser2 + "}";
  ASSERT_EQ(Append(s_, u2), "u2");
  std::string expected = "{\"leafId\":\"u2\",\"messages\":[" + xstest::kUser1 + "," + xstest::kAssistant1 + "," +
                         xstest::kUser2 +
                         "],\"thinkingLevel\":\"off\",\"models\":{\"default\":\"anthropic/claude-x\"},"
                         "\"injectedTtsrRules\":[],\"mode\":\"none\"}";
  std::string buf(first, '#');
  size_t got = 0;
  EXPECT_EQ(xs_build_context(s_, nullptr, &buf[0], first, &got), XS_EBUFS);
  EXPECT_EQ(got, expected.size());
  EXPECT_EQ(buf, std::string(first, '#'));
  // The loop a binding runs: grow to the new length and retry.
  buf.assign(got, '#');
  ASSERT_EQ(xs_build_context(s_, nullptr, &buf[0], got, &got), XS_OK) << xs_session_errmsg(s_);
  EXPECT_EQ(buf, expected);
}

TEST_F(Buffers, SameLengthChangeIsNotServedFromCache) {
  // The leaf id changes from "l1" to "u3" (same length): a stale cache would still fit.
  size_t n = 0;
  ASSERT_EQ(xs_session_leaf(s_, nullptr, 0, &n), XS_EBUFS);
  ASSERT_EQ(n, 2u);
  ASSERT_EQ(Append(s_, R"({"type":"note","id":"u3"})"), "u3");
  char buf[2];
  size_t got = 0;
  ASSERT_EQ(xs_session_leaf(s_, buf, 2, &got), XS_OK);
  EXPECT_EQ(std::string(buf, got), "u3");
}

TEST_F(Buffers, SetLeafBetweenSizeQueryAndFillRecomputes) {
  size_t n = 0;
  ASSERT_EQ(xs_session_leaf(s_, nullptr, 0, &n), XS_EBUFS);
  XS_ASSERT_OK(s_, xs_session_set_leaf(s_, "u1"));  // writes nothing, but moves the leaf
  char buf[2];
  ASSERT_EQ(xs_session_leaf(s_, buf, sizeof buf, &n), XS_OK);
  EXPECT_EQ(std::string(buf, n), "u1");

  ASSERT_EQ(xs_build_context(s_, nullptr, nullptr, 0, &n), XS_EBUFS);
  XS_ASSERT_OK(s_, xs_session_set_leaf(s_, nullptr));
  std::string expected =
      R"({"leafId":null,"messages":[],"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none"})";
  std::string out(n, '#');
  size_t got = 0;
  ASSERT_EQ(xs_build_context(s_, nullptr, &out[0], n, &got), XS_OK);
  EXPECT_EQ(out.substr(0, got), expected);
}

TEST_F(Buffers, TitleChangeBetweenSizeQueryAndFillRecomputes) {
  size_t n = 0;
  ASSERT_EQ(xs_session_header(s_, nullptr, 0, &n), XS_EBUFS);
  XS_ASSERT_OK(s_, xs_session_set_title(s_, "T", 1));
  std::string buf(n, '#');
  size_t got = 0;
  EXPECT_EQ(xs_session_header(s_, &buf[0], n, &got), XS_EBUFS);
  EXPECT_EQ(got, n + std::string(",\"title\":\"T\"").size());
  EXPECT_EQ(buf, std::string(n, '#'));
}

TEST_F(Buffers, CacheIsPerFunction) {
  // A size query on one function must not make another function's fill return its bytes.
  size_t n = 0;
  ASSERT_EQ(xs_session_entry(s_, "u1", 0, nullptr, 0, &n), XS_EBUFS);
  ASSERT_EQ(n, u1_line_.size());
  std::string buf(4096, '#');
  size_t got = 0;
  ASSERT_EQ(xs_session_path(s_, "u1", 0, &buf[0], buf.size(), &got), XS_OK);
  EXPECT_EQ(buf.substr(0, got), "[" + u1_line_ + "]");
  ASSERT_EQ(xs_session_children(s_, "u1", 0, &buf[0], buf.size(), &got), XS_OK);
  EXPECT_EQ(buf.substr(0, got), "[" + a1_line_ + "]");
}

TEST_F(Buffers, CacheIsPerArgument) {
  // Size query for entry u1, fill for entry a1 (and the contexts of two leaves).
  size_t n = 0;
  ASSERT_EQ(xs_session_entry(s_, "u1", 0, nullptr, 0, &n), XS_EBUFS);
  std::string buf(a1_line_.size(), '#');
  size_t got = 0;
  ASSERT_EQ(xs_session_entry(s_, "a1", 0, &buf[0], buf.size(), &got), XS_OK);
  EXPECT_EQ(buf.substr(0, got), a1_line_);

  ASSERT_EQ(xs_build_context(s_, "u1", nullptr, 0, &n), XS_EBUFS);
  std::string out(8192, '#');
  ASSERT_EQ(xs_build_context(s_, nullptr, &out[0], out.size(), &got), XS_OK);
  EXPECT_EQ(out.substr(0, 14), "{\"leafId\":\"l1\"");
  ASSERT_EQ(xs_build_context(s_, "u1", nullptr, 0, &n), XS_EBUFS);
  ASSERT_EQ(xs_build_context(s_, "a1", &out[0], out.size(), &got), XS_OK);
  EXPECT_EQ(out.substr(0, 14), "{\"leafId\":\"a1\"");
}

TEST_F(Buffers, StoreSessionDirCacheIsPerCwd) {
  size_t n = 0;
  ASSERT_EQ(xs_store_session_dir(store_, "/aaaa", nullptr, 0, &n), XS_EBUFS);
  std::string buf(n, '#');
  size_t got = 0;
  ASSERT_EQ(xs_store_session_dir(store_, "/bbbb", &buf[0], n, &got), XS_OK);
  EXPECT_EQ(buf.substr(0, got), root_.path() + "/sessions/--bbbb--");
}

TEST_F(Buffers, StoreListFollowsTheProtocol) {
  // The list's exact bytes are tested in discovery_test.cc; here: the protocol around them.
  std::string big(65536, '#');
  size_t full = 0;
  ASSERT_EQ(xs_store_list(store_, nullptr, &big[0], big.size(), &full), XS_OK) << xs_store_errmsg(store_);
  std::string expected = big.substr(0, full);
  ASSERT_NE(expected.find("\"path\":\"" + path_ + "\""), std::string::npos) << expected;
  EXPECT_EQ(big.substr(full), std::string(big.size() - full, '#'));
  size_t n = 0;
  EXPECT_EQ(xs_store_list(store_, nullptr, nullptr, 0, &n), XS_EBUFS);
  EXPECT_EQ(n, full);
  std::string shortbuf(full - 1, '%');
  EXPECT_EQ(xs_store_list(store_, nullptr, &shortbuf[0], full - 1, &n), XS_EBUFS);
  EXPECT_EQ(shortbuf, std::string(full - 1, '%'));
  std::string exact(full, '%');
  EXPECT_EQ(xs_store_list(store_, nullptr, &exact[0], full, &n), XS_OK);
  EXPECT_EQ(exact, expected);
  EXPECT_EQ(xs_store_list(store_, nullptr, nullptr, 1, &n), XS_EINVAL);
  EXPECT_EQ(xs_store_list(store_, nullptr, &exact[0], full, nullptr), XS_EINVAL);
}

TEST_F(Buffers, StoreCacheIsPerFunctionAndArgument) {
  size_t n = 0;
  ASSERT_EQ(xs_blob_get(store_, hash_.c_str(), nullptr, 0, &n), XS_EBUFS);
  std::string buf(4096, '#');
  size_t got = 0;
  ASSERT_EQ(xs_store_session_dir(store_, "/zz", &buf[0], buf.size(), &got), XS_OK);
  EXPECT_EQ(buf.substr(0, got), root_.path() + "/sessions/--zz--");
  ASSERT_EQ(xs_store_resolve(store_, session_id_.c_str(), nullptr, nullptr, 0, &n), XS_EBUFS);
  char hash[XS_HASH_BUFSIZE];
  ASSERT_EQ(xs_blob_put(store_, "other", 5, hash), XS_OK);
  ASSERT_EQ(xs_blob_get(store_, hash, &buf[0], buf.size(), &got), XS_OK);
  EXPECT_EQ(buf.substr(0, got), "other");
}

TEST_F(Buffers, NewSessionOnDiskBetweenListSizeQueryAndFill) {
  size_t n = 0;
  ASSERT_EQ(xs_store_list(store_, nullptr, nullptr, 0, &n), XS_EBUFS);
  const size_t first = n;
  xs_session_options o = Opts(XS_SESSION_NO_DEFER);
  o.session_id = "another";
  xs_session* other = Create(&o, "/another/cwd");
  ASSERT_NE(other, nullptr);
  std::string buf(first, '#');
  size_t got = 0;
  xs_status st = xs_store_list(store_, nullptr, &buf[0], first, &got);
  // Two sessions now: the list grew, so the stale single-session result must not be served.
  EXPECT_EQ(st, XS_EBUFS);
  EXPECT_GT(got, first);
  EXPECT_EQ(buf, std::string(first, '#'));
}

TEST_F(Buffers, CapLargerThanNeededReportsExactLength) {
  char buf[3] = {'#', '#', '#'};
  size_t got = 0;
  ASSERT_EQ(xs_session_leaf(s_, buf, sizeof buf, &got), XS_OK);
  EXPECT_EQ(got, 2u);
  EXPECT_EQ(std::string(buf, 3), "l1#") << "no NUL terminator is written";
}

// --- empty results ----------------------------------------------------------------------------

TEST_F(CapiTest, EmptyResultsOfAnEmptySession) {
  xs_session* s = Create();
  ASSERT_NE(s, nullptr);
  // The leaf of an empty session: length 0, and the size query itself succeeds.
  size_t n = 99;
  EXPECT_EQ(xs_session_leaf(s, nullptr, 0, &n), XS_OK);
  EXPECT_EQ(n, 0u);
  char buf[4] = {'#', '#', '#', '#'};
  n = 99;
  EXPECT_EQ(xs_session_leaf(s, buf, sizeof buf, &n), XS_OK);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(std::string(buf, 4), "####");

  EXPECT_EQ(xstest::Entries(s), "[]");
  EXPECT_EQ(xstest::PathEntries(s), "[]");
  EXPECT_EQ(xstest::Tree(s), "[]");
  EXPECT_EQ(xstest::Labels(s), "[]");
  EXPECT_EQ(xstest::Diagnostics(s), "[]");
  EXPECT_EQ(xstest::Context(s),
            R"({"leafId":null,"messages":[],"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none"})");
  EXPECT_EQ(xstest::Usage(s),
            R"({"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"premiumRequests":0,"cost":0,"assistantMessages":0})");
}

TEST_F(CapiTest, LeafAfterResetIsEmpty) {
  xs_session* s = Create();
  ASSERT_NE(s, nullptr);
  Msg(s, xstest::kUser1);
  XS_ASSERT_OK(s, xs_session_set_leaf(s, nullptr));
  size_t n = 99;
  EXPECT_EQ(xs_session_leaf(s, nullptr, 0, &n), XS_OK);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(xstest::PathEntries(s), "[]");  // "an empty array when the leaf is none"
}

}  // namespace
