// The prompt history through the C API: open from a store, add/flush/close, search and recent as
// JSON through caller buffers, the statuses of every refusal, and a damaged file kept aside.
#include <fstream>
#include <string>

#include "capi_test_util.h"

namespace {

using xstest::TempDir;

class HistoryApi : public ::testing::Test {
 protected:
  void SetUp() override {
    st_ = xs_store_new();
    ASSERT_EQ(xs_store_open(st_, (dir_ / "root").c_str(), nullptr), XS_OK);
    ASSERT_EQ(xs_history_open(st_, nullptr, &h_), XS_OK) << xs_store_errmsg(st_);
  }
  void TearDown() override {
    EXPECT_EQ(xs_history_close(h_), XS_OK);
    xs_store_free(st_);
  }
  xs_status add(const std::string& p, const char* cwd, int64_t t) {
    return xs_history_add(h_, p.data(), p.size(), cwd, t);
  }
  // A reader's whole output, by the size query then the fill.
  template <class F>
  std::string read(F&& call) {
    size_t n = 0;
    xs_status rc = call(nullptr, 0, &n);
    if (rc == XS_OK && n == 0) return "";
    EXPECT_EQ(rc, XS_EBUFS) << xs_history_errmsg(h_);
    std::string out(n, '\0');
    EXPECT_EQ(call(&out[0], out.size(), &n), XS_OK) << xs_history_errmsg(h_);
    return out;
  }
  std::string recent(const char* cwd = nullptr, uint32_t limit = 0) {
    return read([&](char* b, size_t c, size_t* n) { return xs_history_recent(h_, cwd, limit, b, c, n); });
  }
  std::string search(const char* q, const char* cwd = nullptr, uint32_t flags = 0) {
    return read([&](char* b, size_t c, size_t* n) { return xs_history_search(h_, q, cwd, flags, 0, b, c, n); });
  }

  TempDir dir_;
  xs_store* st_ = nullptr;
  xs_history* h_ = nullptr;
};

TEST_F(HistoryApi, AddFlushRecentSearch) {
  ASSERT_EQ(add("deploy the staging server", "/w/app", 1000), XS_OK);
  ASSERT_EQ(add("write a unit test", nullptr, 2000), XS_OK);
  ASSERT_EQ(xs_history_flush(h_), XS_OK);
  EXPECT_EQ(recent(),
            "[{\"id\":2,\"prompt\":\"write a unit test\",\"createdAt\":2000,\"cwd\":null},"
            "{\"id\":1,\"prompt\":\"deploy the staging server\",\"createdAt\":1000,\"cwd\":\"/w/app\"}]");
  EXPECT_EQ(recent("/w/app", 5),
            "[{\"id\":1,\"prompt\":\"deploy the staging server\",\"createdAt\":1000,\"cwd\":\"/w/app\"}]");
  std::string hits = search("stag*");
  EXPECT_EQ(hits.rfind("[{\"id\":1,\"prompt\":\"deploy the staging server\",\"createdAt\":1000,\"cwd\":\"/w/app\","
                       "\"score\":",
                       0),
            0u)
      << hits;
  EXPECT_NE(hits.find("\"snippet\":\"deploy the \\u0002staging\\u0003 server\"}]"), std::string::npos) << hits;
  EXPECT_EQ(search("staging", "/elsewhere"), "[]");
  EXPECT_EQ(search("unit te", nullptr, XS_HISTORY_LITERAL).find("[{\"id\":2,"), 0u);
  // The history file is <root>/history.db.
  EXPECT_TRUE(xstest::Exists(dir_ / "root/history.db"));
  std::string info = read([&](char* b, size_t c, size_t* n) { return xs_history_info(h_, b, c, n); });
  EXPECT_EQ(info, "{\"path\":\"" + (dir_ / "root/history.db") +
                      "\",\"schemaVersion\":3,\"count\":2,\"pending\":0,\"synchronous\":\"normal\",\"damaged\":null}");
}

TEST_F(HistoryApi, RefusalsHaveExactStatuses) {
  EXPECT_EQ(xs_history_add(h_, nullptr, 0, nullptr, 0), XS_EINVAL);
  EXPECT_STREQ(xs_history_errmsg(h_), "prompt is NULL");
  EXPECT_EQ(xs_history_errcode(h_), XS_EINVAL);
  EXPECT_EQ(xs_history_add(h_, "a\0b", 3, nullptr, 0), XS_EINVAL);
  EXPECT_STREQ(xs_history_errmsg(h_), "the prompt contains a NUL byte");
  EXPECT_EQ(xs_history_add(h_, "\xc0\xaf", 2, nullptr, 0), XS_EINVAL);
  EXPECT_STREQ(xs_history_errmsg(h_), "the prompt is not valid UTF-8");
  EXPECT_EQ(xs_history_add(h_, "x", 1, "\xff", 0), XS_EINVAL);
  EXPECT_EQ(xs_history_add(h_, "x", 1, nullptr, -5), XS_EINVAL);
  std::string ten_mb(10 * 1024 * 1024, 'p');
  EXPECT_EQ(add(ten_mb, nullptr, 1), XS_ELIMIT);
  EXPECT_STREQ(xs_history_errmsg(h_), "the prompt has 10485760 bytes; the limit is 1048576");
  ASSERT_EQ(add("ok", nullptr, 1), XS_OK);
  EXPECT_STREQ(xs_history_errmsg(h_), "");

  size_t n = 0;
  EXPECT_EQ(xs_history_search(h_, "\"open", nullptr, 0, 0, nullptr, 0, &n), XS_EINVAL);
  EXPECT_STREQ(xs_history_errmsg(h_), "bad history query: unterminated string");  // SQLite's words
  EXPECT_EQ(xs_history_search(h_, "a AND", nullptr, 0, 0, nullptr, 0, &n), XS_EINVAL);
  EXPECT_STREQ(xs_history_errmsg(h_), "bad history query: fts5: syntax error near \"\"");
  EXPECT_EQ(xs_history_search(h_, nullptr, nullptr, 0, 0, nullptr, 0, &n), XS_EINVAL);
  EXPECT_EQ(xs_history_search(h_, "", nullptr, 0, 0, nullptr, 0, &n), XS_EINVAL);
  EXPECT_EQ(xs_history_search(h_, "ok", nullptr, 0x80, 0, nullptr, 0, &n), XS_EINVAL);
  EXPECT_EQ(xs_history_search(h_, "ok", nullptr, 0, 10001, nullptr, 0, &n), XS_EINVAL);
  EXPECT_EQ(xs_history_search(h_, "ok", nullptr, 0, 0, nullptr, 0, nullptr), XS_EINVAL);
  EXPECT_EQ(xs_history_recent(h_, nullptr, 10001, nullptr, 0, &n), XS_EINVAL);
  char small[4];
  ASSERT_EQ(xs_history_flush(h_), XS_OK);
  EXPECT_EQ(xs_history_recent(h_, nullptr, 0, small, sizeof small, &n), XS_EBUFS);
  EXPECT_EQ(n, std::string("[{\"id\":1,\"prompt\":\"ok\",\"createdAt\":1,\"cwd\":null}]").size());

  EXPECT_EQ(xs_history_add(nullptr, "x", 1, nullptr, 0), XS_EMISUSE);
  EXPECT_EQ(xs_history_flush(nullptr), XS_EMISUSE);
  EXPECT_EQ(xs_history_errcode(nullptr), XS_EMISUSE);
  EXPECT_STREQ(xs_history_errmsg(nullptr), "history handle is NULL");
  EXPECT_EQ(xs_history_close(nullptr), XS_OK);
}

TEST_F(HistoryApi, OptionsAndOpenRefusals) {
  xs_history_options o;
  EXPECT_EQ(xs_history_options_init(nullptr, XS_HISTORY_OPTIONS_VERSION), XS_EINVAL);
  EXPECT_EQ(xs_history_options_init(&o, 99), XS_EVERSION);
  ASSERT_EQ(xs_history_options_init(&o, XS_HISTORY_OPTIONS_VERSION), XS_OK);
  EXPECT_EQ(o.flags, 0u);
  EXPECT_EQ(o.path, nullptr);
  EXPECT_EQ(o.busy_timeout_ms, 0u);
  EXPECT_EQ(o.max_prompt_bytes, 0u);

  xs_history* other = nullptr;
  EXPECT_EQ(xs_history_open(st_, &o, nullptr), XS_EINVAL);
  o.version = 7;
  EXPECT_EQ(xs_history_open(st_, &o, &other), XS_EVERSION);
  o.version = XS_HISTORY_OPTIONS_VERSION;
  o.flags = 0x100;
  EXPECT_EQ(xs_history_open(st_, &o, &other), XS_EINVAL);
  EXPECT_EQ(other, nullptr);

  // A path of its own, synchronous=FULL, a small prompt limit.
  o.flags = XS_HISTORY_SYNC;
  std::string path = dir_ / "elsewhere/h.db";
  o.path = path.c_str();
  o.max_prompt_bytes = 4;
  ASSERT_EQ(xs_history_open(st_, &o, &other), XS_OK) << xs_store_errmsg(st_);
  EXPECT_EQ(xs_history_add(other, "12345", 5, nullptr, 0), XS_ELIMIT);
  EXPECT_EQ(xs_history_add(other, "1234", 4, nullptr, 0), XS_OK);
  EXPECT_EQ(xs_history_close(other), XS_OK);
  EXPECT_TRUE(xstest::Exists(path));

  // An in-memory store has no root on disk: a path is required.
  xs_store* mem = xs_store_new();
  xs_store_options so;
  xs_store_options_init(&so, XS_STORE_OPTIONS_VERSION);
  so.flags = XS_STORE_IN_MEMORY;
  ASSERT_EQ(xs_store_open(mem, nullptr, &so), XS_OK);
  EXPECT_EQ(xs_history_open(mem, nullptr, &other), XS_EINVAL);
  EXPECT_STREQ(xs_store_errmsg(mem), "an in-memory store keeps no history.db: name a path in the options");
  xs_store_free(mem);
  xs_store* closed = xs_store_new();
  EXPECT_EQ(xs_history_open(closed, nullptr, &other), XS_EMISUSE);
  xs_store_free(closed);
}

TEST_F(HistoryApi, DamagedFileIsKeptAndAFreshOneStarted) {
  ASSERT_EQ(xs_history_close(h_), XS_OK);
  h_ = nullptr;
  {
    std::ofstream f(dir_ / "root/history.db", std::ios::binary | std::ios::trunc);
    f << "garbage that is not a database";
  }
  ASSERT_EQ(xs_history_open(st_, nullptr, &h_), XS_OK) << xs_store_errmsg(st_);
  std::string info = read([&](char* b, size_t c, size_t* n) { return xs_history_info(h_, b, c, n); });
  std::string damaged = "\"damaged\":{\"path\":\"" + (dir_ / "root/history.db.damaged-");
  EXPECT_NE(info.find(damaged), std::string::npos) << info;
  EXPECT_NE(info.find("\"count\":0,"), std::string::npos) << info;
  ASSERT_EQ(add("fresh", nullptr, 1), XS_OK);
  ASSERT_EQ(xs_history_flush(h_), XS_OK);
  EXPECT_EQ(recent(), "[{\"id\":1,\"prompt\":\"fresh\",\"createdAt\":1,\"cwd\":null}]");
}

TEST_F(HistoryApi, TwoHandlesSeeEachOthersFlushedPrompts) {
  xs_history* second = nullptr;
  ASSERT_EQ(xs_history_open(st_, nullptr, &second), XS_OK);
  ASSERT_EQ(xs_history_add(second, "from the second", 15, "/b", 5), XS_OK);
  ASSERT_EQ(xs_history_flush(second), XS_OK);
  EXPECT_EQ(search("second"), search("second"));  // the cached retry and a fresh read agree
  EXPECT_EQ(search("second").find("[{\"id\":1,\"prompt\":\"from the second\""), 0u);
  EXPECT_EQ(xs_history_close(second), XS_OK);
}

}  // namespace
