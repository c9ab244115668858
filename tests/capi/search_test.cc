// The session index and search through the C API: open from a store, rebuild/refresh/verify
// reports, list and search as JSON through caller buffers, the statuses of every refusal, and a
// retry after XS_EBUFS that copies the report instead of doing the work again.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include <string>

#include "capi_test_util.h"

namespace {

using xstest::TempDir;

class SearchApi : public ::testing::Test {
 protected:
  void SetUp() override {
    st_ = xs_store_new();
    ASSERT_EQ(xs_store_open(st_, (dir_ / "root").c_str(), nullptr), XS_OK);
    ASSERT_EQ(xs_index_open(st_, nullptr, &ix_), XS_OK) << xs_store_errmsg(st_);
  }
  void TearDown() override {
    xs_index_close(ix_);
    xs_store_free(st_);
  }
  // A session "s<n>" in cwd with a user prompt and an assistant answer (fixed clock and ids).
  void session(int n, const char* cwd, const std::string& prompt, const std::string& answer) {
    xs_session_options o;
    xs_session_options_init(&o, XS_SESSION_OPTIONS_VERSION);
    o.flags = XS_SESSION_FIXED_CLOCK;
    o.clock_start_ms = xstest::kT0 + n * 60000;
    o.clock_step_ms = xstest::kStep;
    o.id_seed = xstest::kSeed + n;
    std::string id = "s" + std::to_string(n);
    o.session_id = id.c_str();
    xs_session* s = nullptr;
    ASSERT_EQ(xs_session_create(st_, cwd, &o, &s), XS_OK) << xs_store_errmsg(st_);
    std::string user = R"({"role":"user","content":")" + prompt + R"(","timestamp":1})";
    std::string assistant = R"({"role":"assistant","content":[{"type":"text","text":")" + answer +
                            R"("}],"api":"x","provider":"p","model":"m","usage":{"input":10,"output":5,)"
                            R"("cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0,"output":0,)"
                            R"("cacheRead":0,"cacheWrite":0,"total":0.25}},"stopReason":"stop","timestamp":2})";
    ASSERT_EQ(xs_append_message(s, user.data(), user.size(), nullptr), XS_OK) << xs_session_errmsg(s);
    ASSERT_EQ(xs_append_message(s, assistant.data(), assistant.size(), nullptr), XS_OK) << xs_session_errmsg(s);
    xs_session_close(s);
  }
  // A reader's whole output, by the size query then the fill.
  template <class F>
  std::string read(F&& call) {
    size_t n = 0;
    xs_status rc = call(nullptr, 0, &n);
    EXPECT_EQ(rc, XS_EBUFS) << xs_index_errmsg(ix_);
    std::string out(n, '\0');
    EXPECT_EQ(call(&out[0], out.size(), &n), XS_OK) << xs_index_errmsg(ix_);
    return out;
  }
  std::string rebuild() {
    return read([&](char* b, size_t c, size_t* n) { return xs_index_rebuild(ix_, b, c, n); });
  }
  std::string refresh() {
    return read([&](char* b, size_t c, size_t* n) { return xs_index_refresh(ix_, b, c, n); });
  }
  std::string search(const char* q, const xs_search_options* o = nullptr) {
    return read([&](char* b, size_t c, size_t* n) { return xs_search(ix_, q, o, b, c, n); });
  }
  std::string info() {
    return read([&](char* b, size_t c, size_t* n) { return xs_index_info(ix_, b, c, n); });
  }
  xs_search_options options() {
    xs_search_options o;
    EXPECT_EQ(xs_search_options_init(&o, XS_SEARCH_OPTIONS_VERSION), XS_OK);
    return o;
  }

  TempDir dir_;
  xs_store* st_ = nullptr;
  xs_index* ix_ = nullptr;
};

TEST_F(SearchApi, RebuildThenSearchListAndInfo) {
  ASSERT_NO_FATAL_FAILURE(session(1, "/w/app", "deploy the staging server", "staging is deployed"));
  ASSERT_NO_FATAL_FAILURE(session(2, "/w/lib", "write a unit test", "the test passes"));
  EXPECT_EQ(info(), "{\"path\":\"" + (dir_ / "root/index.db") +
                        "\",\"schemaVersion\":2,\"sessions\":0,\"entries\":0,\"damaged\":null}");
  EXPECT_EQ(rebuild(),
            "{\"files\":2,\"unchanged\":0,\"appended\":0,\"reindexed\":0,\"added\":2,\"removed\":0,\"unreadable\":0,"
            "\"raced\":0,\"entries\":4}");
  EXPECT_EQ(info(), "{\"path\":\"" + (dir_ / "root/index.db") +
                        "\",\"schemaVersion\":2,\"sessions\":2,\"entries\":4,\"damaged\":null}");

  std::string hits = search("staging");
  EXPECT_EQ(xstest::Count(hits, "\"sessionId\":\"s1\""), 2u) << hits;
  EXPECT_EQ(xstest::Count(hits, "\"sessionId\":"), 2u) << hits;
  EXPECT_NE(hits.find("\"snippet\":\"deploy the \\u0002staging\\u0003 server\""), std::string::npos) << hits;
  EXPECT_NE(hits.find("\"cwd\":\"/w/app\""), std::string::npos) << hits;
  EXPECT_NE(hits.find("\"onPath\":true"), std::string::npos) << hits;

  xs_search_options o = options();
  o.role = "assistant";
  hits = search("staging", &o);
  EXPECT_EQ(xstest::Count(hits, "\"role\":\"assistant\""), 1u) << hits;
  EXPECT_EQ(xstest::Count(hits, "\"sessionId\":"), 1u) << hits;
  o = options();
  o.cwd = "/w/lib";
  EXPECT_EQ(search("staging", &o), "[]");
  o.flags = XS_SEARCH_LITERAL;
  hits = search("unit te", &o);  // plain words, the last a prefix
  EXPECT_EQ(xstest::Count(hits, "\"sessionId\":\"s2\""), 1u) << hits;
  o = options();
  o.session_id = "s2";
  o.limit = 1;
  hits = search("test", &o);
  EXPECT_EQ(xstest::Count(hits, "\"sessionId\":\"s2\""), 1u) << hits;
  o = options();
  o.since_ms = xstest::kT0 + 2 * 60000;  // only the second session's entries are that new
  hits = search("test OR staging", &o);
  EXPECT_EQ(xstest::Count(hits, "\"sessionId\":\"s2\""), 2u) << hits;
  EXPECT_EQ(xstest::Count(hits, "\"sessionId\":\"s1\""), 0u) << hits;

  std::string all = read([&](char* b, size_t c, size_t* n) { return xs_index_list(ix_, nullptr, 0, b, c, n); });
  EXPECT_EQ(xstest::Count(all, "\"path\":"), 2u) << all;
  std::string lib = read([&](char* b, size_t c, size_t* n) { return xs_index_list(ix_, "/w/lib", 5, b, c, n); });
  EXPECT_EQ(lib.rfind("[{\"path\":", 0), 0u) << lib;
  EXPECT_NE(lib.find("\"id\":\"s2\",\"cwd\":\"/w/lib\",\"title\":null,\"firstPrompt\":\"write a unit test\""),
            std::string::npos)
      << lib;
  EXPECT_NE(lib.find("\"entries\":2,\"messages\":2,\"inputTokens\":10,\"outputTokens\":5,\"cost\":0.25"),
            std::string::npos)
      << lib;
  EXPECT_EQ(xstest::Count(lib, "\"path\":"), 1u) << lib;
}

TEST_F(SearchApi, RefreshReadsWhatChangedAndVerifyReportsDifferences) {
  ASSERT_NO_FATAL_FAILURE(session(1, "/w/app", "first prompt", "first answer"));
  std::string verify = read([&](char* b, size_t c, size_t* n) { return xs_index_verify(ix_, b, c, n); });
  EXPECT_EQ(verify.rfind("{\"ok\":false,\"files\":1,\"indexed\":0,\"missing\":[\"", 0), 0u) << verify;
  EXPECT_NE(verify.find("\"extra\":[],\"stale\":[]}"), std::string::npos) << verify;
  EXPECT_EQ(refresh(),
            "{\"files\":1,\"unchanged\":0,\"appended\":0,\"reindexed\":0,\"added\":1,\"removed\":0,\"unreadable\":0,"
            "\"raced\":0,\"entries\":2}");
  EXPECT_EQ(refresh(),
            "{\"files\":1,\"unchanged\":1,\"appended\":0,\"reindexed\":0,\"added\":0,\"removed\":0,\"unreadable\":0,"
            "\"raced\":0,\"entries\":0}");
  verify = read([&](char* b, size_t c, size_t* n) { return xs_index_verify(ix_, b, c, n); });
  EXPECT_EQ(verify, "{\"ok\":true,\"files\":1,\"indexed\":1,\"missing\":[],\"extra\":[],\"stale\":[]}");
  EXPECT_EQ(search("second"), "[]");
  ASSERT_NO_FATAL_FAILURE(session(2, "/w/app", "second prompt", "second answer"));
  EXPECT_EQ(refresh(),
            "{\"files\":2,\"unchanged\":1,\"appended\":0,\"reindexed\":0,\"added\":1,\"removed\":0,\"unreadable\":0,"
            "\"raced\":0,\"entries\":2}");
  EXPECT_EQ(xstest::Count(search("second"), "\"sessionId\":\"s2\""), 2u);
}

TEST_F(SearchApi, TheRetryAfterXS_EBUFSCopiesTheReportWithoutRebuildingAgain) {
  ASSERT_NO_FATAL_FAILURE(session(1, "/w/app", "a prompt", "an answer"));
  size_t n = 0;
  ASSERT_EQ(xs_index_refresh(ix_, nullptr, 0, &n), XS_EBUFS);
  ASSERT_NO_FATAL_FAILURE(session(2, "/w/app", "another prompt", "another answer"));  // not seen by the retry
  std::string out(n, '\0');
  ASSERT_EQ(xs_index_refresh(ix_, &out[0], out.size(), &n), XS_OK);
  EXPECT_EQ(out,
            "{\"files\":1,\"unchanged\":0,\"appended\":0,\"reindexed\":0,\"added\":1,\"removed\":0,\"unreadable\":0,"
            "\"raced\":0,\"entries\":2}");
  // A call that is not the retry works afresh.
  EXPECT_EQ(refresh(),
            "{\"files\":2,\"unchanged\":1,\"appended\":0,\"reindexed\":0,\"added\":1,\"removed\":0,\"unreadable\":0,"
            "\"raced\":0,\"entries\":2}");
}

TEST_F(SearchApi, WithFollowWritesWhatSessionsOfTheStoreWriteIsIndexedWithoutARefresh) {
  xs_index_close(ix_);
  xs_index_options o;
  ASSERT_EQ(xs_index_options_init(&o, XS_INDEX_OPTIONS_VERSION), XS_OK);
  o.flags = XS_INDEX_FOLLOW_WRITES;
  ASSERT_EQ(xs_index_open(st_, &o, &ix_), XS_OK) << xs_store_errmsg(st_);
  ASSERT_EQ(rebuild().find("\"files\":0"), 1u);
  ASSERT_NO_FATAL_FAILURE(session(1, "/w/app", "launch the zeppelin", "zeppelin launched"));
  // The index's own thread indexes it shortly after; flush waits for it.
  ASSERT_EQ(xs_index_flush(ix_), XS_OK) << xs_index_errmsg(ix_);
  EXPECT_STREQ(xs_index_errmsg(ix_), "");
  EXPECT_EQ(xstest::Count(search("zeppelin"), "\"sessionId\":\"s1\""), 2u);
  // Nothing left for a refresh to do.
  EXPECT_NE(refresh().find("\"files\":1,\"unchanged\":1,"), std::string::npos);
}

// A flush reports the update the index's thread could not make (another connection held the
// write lock past the busy timeout) once, with its status and message; the next refresh makes it.
TEST_F(SearchApi, FlushReportsAFailedUpdateOnceAndARefreshMakesIt) {
  xs_index_close(ix_);
  xs_index_options o;
  ASSERT_EQ(xs_index_options_init(&o, XS_INDEX_OPTIONS_VERSION), XS_OK);
  o.flags = XS_INDEX_FOLLOW_WRITES;
  o.busy_timeout_ms = 50;
  ASSERT_EQ(xs_index_open(st_, &o, &ix_), XS_OK) << xs_store_errmsg(st_);
  ASSERT_EQ(rebuild().find("\"files\":0"), 1u);
  // Another connection holds the write lock longer than the index waits for it.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir_ / "root/index.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
  ASSERT_NO_FATAL_FAILURE(session(1, "/w/app", "launch the zeppelin", "zeppelin launched"));
  EXPECT_EQ(xs_index_flush(ix_), XS_ELOCKED);
  EXPECT_EQ(std::string(xs_index_errmsg(ix_)).rfind("indexing what sessions wrote: ", 0), 0u) << xs_index_errmsg(ix_);
  EXPECT_EQ(xs_index_errcode(ix_), XS_ELOCKED);
  EXPECT_EQ(xs_index_flush(ix_), XS_OK);  // reported once
  ASSERT_EQ(sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  EXPECT_EQ(search("zeppelin"), "[]");
  EXPECT_NE(refresh().find("\"added\":1,"), std::string::npos);
  EXPECT_EQ(xstest::Count(search("zeppelin"), "\"sessionId\":\"s1\""), 2u);
  EXPECT_EQ(xs_index_flush(nullptr), XS_EMISUSE);
}

TEST_F(SearchApi, RefusalsHaveTheirStatusAndMessage) {
  size_t n = 0;
  char buf[16];
  EXPECT_EQ(xs_search(ix_, "(", nullptr, buf, sizeof buf, &n), XS_EINVAL);
  EXPECT_EQ(std::string(xs_index_errmsg(ix_)).rfind("bad search query: ", 0), 0u) << xs_index_errmsg(ix_);
  EXPECT_EQ(xs_index_errcode(ix_), XS_EINVAL);
  EXPECT_EQ(xs_search(ix_, "", nullptr, buf, sizeof buf, &n), XS_EINVAL);
  EXPECT_EQ(xs_search(ix_, nullptr, nullptr, buf, sizeof buf, &n), XS_EINVAL);
  EXPECT_STREQ(xs_index_errmsg(ix_), "query is NULL");
  xs_search_options o = options();
  o.role = "robot";
  EXPECT_EQ(xs_search(ix_, "x", &o, buf, sizeof buf, &n), XS_EINVAL);
  o = options();
  o.flags = 0x80;
  EXPECT_EQ(xs_search(ix_, "x", &o, buf, sizeof buf, &n), XS_EINVAL);
  EXPECT_STREQ(xs_index_errmsg(ix_), "unknown bits in xs_search_options.flags");
  o = options();
  o.limit = 10001;
  EXPECT_EQ(xs_search(ix_, "x", &o, buf, sizeof buf, &n), XS_EINVAL);
  o = options();
  o.since_ms = -1;
  EXPECT_EQ(xs_search(ix_, "x", &o, buf, sizeof buf, &n), XS_EINVAL);
  o = options();
  o.version = 9;
  EXPECT_EQ(xs_search(ix_, "x", &o, buf, sizeof buf, &n), XS_EVERSION);
  EXPECT_EQ(xs_index_list(ix_, nullptr, 10001, buf, sizeof buf, &n), XS_EINVAL);
  EXPECT_EQ(xs_search(ix_, "x", nullptr, buf, sizeof buf, nullptr), XS_EINVAL);
  EXPECT_EQ(xs_search(ix_, "x", nullptr, buf, sizeof buf, &n), XS_OK);  // no hits: "[]"
  EXPECT_EQ(std::string(buf, n), "[]");
  EXPECT_STREQ(xs_index_errmsg(ix_), "");

  EXPECT_EQ(xs_index_errcode(nullptr), XS_EMISUSE);
  EXPECT_STREQ(xs_index_errmsg(nullptr), "index handle is NULL");
  EXPECT_EQ(xs_index_rebuild(nullptr, buf, sizeof buf, &n), XS_EMISUSE);
  xs_index_close(nullptr);
  xs_index_options io;
  EXPECT_EQ(xs_index_options_init(&io, 2), XS_EVERSION);
  EXPECT_EQ(xs_index_options_init(nullptr, XS_INDEX_OPTIONS_VERSION), XS_EINVAL);
  EXPECT_EQ(xs_search_options_init(nullptr, XS_SEARCH_OPTIONS_VERSION), XS_EINVAL);
  ASSERT_EQ(xs_index_options_init(&io, XS_INDEX_OPTIONS_VERSION), XS_OK);
  io.flags = 0x80;
  xs_index* other = nullptr;
  EXPECT_EQ(xs_index_open(st_, &io, &other), XS_EINVAL);
  EXPECT_STREQ(xs_store_errmsg(st_), "unknown bits in xs_index_options.flags");
  EXPECT_EQ(xs_index_open(st_, nullptr, nullptr), XS_EINVAL);

  // An in-memory store has no directory for index.db: it must be named.
  xs_store* mem = xs_store_new();
  xs_store_options so;
  ASSERT_EQ(xs_store_options_init(&so, XS_STORE_OPTIONS_VERSION), XS_OK);
  so.flags = XS_STORE_IN_MEMORY;
  ASSERT_EQ(xs_store_open(mem, nullptr, &so), XS_OK);
  EXPECT_EQ(xs_index_open(mem, nullptr, &other), XS_EINVAL);
  EXPECT_STREQ(xs_store_errmsg(mem), "an in-memory store keeps no index.db: name a path in the options");
  io.flags = 0;
  std::string path = dir_ / "elsewhere/mem-index.db";
  io.path = path.c_str();
  ASSERT_EQ(xs_index_open(mem, &io, &other), XS_OK) << xs_store_errmsg(mem);
  xs_store_free(mem);  // the index keeps what it reads through
  size_t len = 0;
  EXPECT_EQ(xs_index_refresh(other, buf, sizeof buf, &len), XS_EBUFS);
  EXPECT_TRUE(xstest::Exists(path));
  xs_index_close(other);

  xs_store* closed = xs_store_new();
  EXPECT_EQ(xs_index_open(closed, nullptr, &other), XS_EMISUSE);
  xs_store_free(closed);
}

// A store on the disk whose root holds index.db lists from it (docs/search.md#listing), with the
// file scan's output. A file rewritten behind the index's back with its size and mtime kept still
// lists as indexed, which shows where the summary came from, until a rebuild reads it again.
TEST_F(SearchApi, AStoreWhoseRootHoldsTheIndexListsFromIt) {
  ASSERT_NO_FATAL_FAILURE(session(1, "/w/app", "deploy the staging server", "staging is deployed"));
  ASSERT_NO_FATAL_FAILURE(session(2, "/w/lib", "fix the parser", "fixed"));
  auto list = [](xs_store* st) {
    size_t n = 0;
    EXPECT_EQ(xs_store_list(st, nullptr, nullptr, 0, &n), XS_EBUFS) << xs_store_errmsg(st);
    std::string out(n, '\0');
    EXPECT_EQ(xs_store_list(st, nullptr, &out[0], out.size(), &n), XS_OK) << xs_store_errmsg(st);
    return out;
  };
  std::string scanned = list(st_);
  ASSERT_NE(scanned.find("deploy the staging server"), std::string::npos) << scanned;
  rebuild();
  xs_store* other = xs_store_new();
  ASSERT_EQ(xs_store_open(other, (dir_ / "root").c_str(), nullptr), XS_OK);
  EXPECT_EQ(list(other), scanned);

  char path[4096];
  size_t len = 0;
  ASSERT_EQ(xs_store_resolve(st_, "s1", nullptr, path, sizeof path, &len), XS_OK);
  std::string file(path, len);
  struct stat before;
  ASSERT_EQ(::stat(file.c_str(), &before), 0);
  std::string bytes = xstest::ReadFile(file);
  size_t at = bytes.find("staging server");
  ASSERT_NE(at, std::string::npos);
  bytes.replace(at, 7, "STAGING");
  xstest::WriteFile(file, bytes);  // truncates and rewrites: the same inode and size
  struct timespec times[2] = {before.st_atim, before.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, file.c_str(), times, 0), 0);
  EXPECT_EQ(list(other), scanned);
  rebuild();
  std::string relisted = list(other);
  EXPECT_NE(relisted.find("deploy the STAGING server"), std::string::npos) << relisted;
  xs_store_free(other);
}

TEST_F(SearchApi, ADamagedIndexIsKeptAsideAndReported) {
  xs_index_close(ix_);
  ix_ = nullptr;
  xstest::WriteFile(dir_ / "root/index.db", std::string(4096, 'x'));
  ASSERT_EQ(xs_index_open(st_, nullptr, &ix_), XS_OK) << xs_store_errmsg(st_);
  std::string got = info();
  EXPECT_NE(got.find("\"damaged\":{\"path\":\"" + (dir_ / "root/index.db.damaged-")), std::string::npos) << got;
  EXPECT_NE(got.find("\"sessions\":0"), std::string::npos) << got;
}

}  // namespace
