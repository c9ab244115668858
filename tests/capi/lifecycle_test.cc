// Handle lifecycle: store new/open/free, session create/open/close, error text on the right
// handle, sessions outliving their store, in-memory stores, the session directory.
#include <sys/stat.h>

#include <string>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;
using xstest::TempDir;

TEST(StoreLifecycle, NewThenFreeWithoutOpen) {
  xs_store* st = xs_store_new();
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(xs_store_errcode(st), XS_OK);
  ASSERT_NE(xs_store_errmsg(st), nullptr);
  EXPECT_STREQ(xs_store_errmsg(st), "");
  xs_store_free(st);
}

TEST(StoreLifecycle, FreeNullAndCloseNullAreNoOps) {
  xs_store_free(nullptr);
  xs_session_close(nullptr);
  SUCCEED();
}

TEST(StoreLifecycle, UseBeforeOpenIsMisuse) {
  TempDir dir;
  xs_store* st = xs_store_new();
  ASSERT_NE(st, nullptr);

  size_t n = 123;
  EXPECT_EQ(xs_store_session_dir(st, "/work", nullptr, 0, &n), XS_EMISUSE);
  EXPECT_EQ(xs_store_errcode(st), XS_EMISUSE);
  EXPECT_STRNE(xs_store_errmsg(st), "");

  xs_session* s = reinterpret_cast<xs_session*>(&n);
  EXPECT_EQ(xs_session_create(st, "/work", nullptr, &s), XS_EMISUSE);
  EXPECT_EQ(s, nullptr);
  EXPECT_EQ(xs_store_errcode(st), XS_EMISUSE);
  EXPECT_STRNE(xs_store_errmsg(st), "");

  s = reinterpret_cast<xs_session*>(&n);
  std::string path = dir / "x.jsonl";
  EXPECT_EQ(xs_session_open(st, path.c_str(), nullptr, &s), XS_EMISUSE);
  EXPECT_EQ(s, nullptr);
  EXPECT_STRNE(xs_store_errmsg(st), "");

  char hash[XS_HASH_BUFSIZE];
  EXPECT_EQ(xs_blob_put(st, "abc", 3, hash), XS_EMISUSE);
  EXPECT_EQ(xs_blob_get(st, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", nullptr, 0, &n),
            XS_EMISUSE);
  EXPECT_EQ(xs_store_list(st, nullptr, nullptr, 0, &n), XS_EMISUSE);
  EXPECT_EQ(xs_store_resolve(st, "abc", nullptr, nullptr, 0, &n), XS_EMISUSE);
  EXPECT_EQ(xs_store_write_breadcrumb(st, "tty1", "/w", path.c_str()), XS_EMISUSE);
  s = reinterpret_cast<xs_session*>(&n);
  EXPECT_EQ(xs_session_continue_recent(st, "/w", nullptr, nullptr, &s), XS_EMISUSE);
  EXPECT_EQ(s, nullptr);
  s = reinterpret_cast<xs_session*>(&n);
  EXPECT_EQ(xs_session_fork_from(st, path.c_str(), "/w", nullptr, &s), XS_EMISUSE);
  EXPECT_EQ(s, nullptr);
  EXPECT_EQ(xs_store_errcode(st), XS_EMISUSE);
  EXPECT_STRNE(xs_store_errmsg(st), "");
  EXPECT_TRUE(xstest::ListDir(dir.path()).empty());

  // Opening afterwards works, and resets the error text.
  ASSERT_EQ(xs_store_open(st, dir.path().c_str(), nullptr), XS_OK) << xs_store_errmsg(st);
  EXPECT_EQ(xs_store_errcode(st), XS_OK);
  EXPECT_STREQ(xs_store_errmsg(st), "");
  xs_store_free(st);
}

TEST(StoreLifecycle, ReopeningAnOpenStoreIsMisuse) {
  TempDir dir, other;
  xs_store* st = xs_store_new();
  ASSERT_EQ(xs_store_open(st, dir.path().c_str(), nullptr), XS_OK);
  EXPECT_EQ(xs_store_open(st, other.path().c_str(), nullptr), XS_EMISUSE);
  EXPECT_EQ(xs_store_errcode(st), XS_EMISUSE);
  EXPECT_STRNE(xs_store_errmsg(st), "");
  // The store still uses its first root.
  std::string out = xstest::Fetch([&](char* b, size_t c, size_t* l) { return xs_store_session_dir(st, "/a", b, c, l); });
  EXPECT_EQ(out, dir.path() + "/sessions/--a--");
  xs_store_free(st);
}

TEST(StoreLifecycle, OpenWritesNothing) {
  TempDir dir;
  std::string root = dir / "not-yet";
  xs_store* st = xs_store_new();
  ASSERT_EQ(xs_store_open(st, root.c_str(), nullptr), XS_OK) << xs_store_errmsg(st);
  EXPECT_FALSE(xstest::Exists(root)) << "opening the store must not create its root";
  EXPECT_TRUE(xstest::ListDir(dir.path()).empty());
  xs_store_free(st);
}

TEST(StoreLifecycle, RootNamingAFileIsInvalid) {
  TempDir dir;
  std::string file = dir / "plain-file";
  xstest::WriteFile(file, "x");
  xs_store* st = xs_store_new();
  EXPECT_EQ(xs_store_open(st, file.c_str(), nullptr), XS_EINVAL);
  EXPECT_EQ(xs_store_errcode(st), XS_EINVAL);
  EXPECT_STRNE(xs_store_errmsg(st), "");
  // Failed open leaves it unopened: using it is still misuse.
  size_t n;
  EXPECT_EQ(xs_store_session_dir(st, "/a", nullptr, 0, &n), XS_EMISUSE);
  xs_store_free(st);
}

TEST(StoreLifecycle, NullRootIsInvalidOnDisk) {
  xs_store* st = xs_store_new();
  EXPECT_EQ(xs_store_open(st, nullptr, nullptr), XS_EINVAL);
  EXPECT_EQ(xs_store_errcode(st), XS_EINVAL);
  EXPECT_STRNE(xs_store_errmsg(st), "");
  xs_store_free(st);
}

TEST(StoreLifecycle, SessionDirEncodesCwd) {
  TempDir dir;
  xs_store* st = xs_store_new();
  ASSERT_EQ(xs_store_open(st, dir.path().c_str(), nullptr), XS_OK);
  auto session_dir = [&](const char* cwd) {
    return xstest::Fetch([&](char* b, size_t c, size_t* l) { return xs_store_session_dir(st, cwd, b, c, l); });
  };
  // Seed 000's encoding: drop one leading '/' or '\', then '/', '\' and ':' become '-'.
  EXPECT_EQ(session_dir("/work/proj"), dir.path() + "/sessions/--work-proj--");
  EXPECT_EQ(session_dir("C:\\Users\\me"), dir.path() + "/sessions/--C--Users-me--");
  EXPECT_EQ(session_dir("/a-b"), dir.path() + "/sessions/--a-b--");
  EXPECT_EQ(session_dir("/a/b"), dir.path() + "/sessions/--a-b--");
  EXPECT_EQ(xs_store_errcode(st), XS_OK);
  EXPECT_STREQ(xs_store_errmsg(st), "");
  xs_store_free(st);
}

// --- error text lives on the handle the call was made on --------------------------------------

TEST_F(CapiTest, SessionErrmsgEmptyAfterSuccessSetAfterFailure) {
  xs_session* s = Create();
  ASSERT_NE(s, nullptr);
  ASSERT_NE(xs_session_errmsg(s), nullptr);
  EXPECT_STREQ(xs_session_errmsg(s), "");
  EXPECT_EQ(xs_session_errcode(s), XS_OK);

  EXPECT_EQ(xs_session_set_leaf(s, "nope"), XS_ENOTFOUND);
  EXPECT_EQ(xs_session_errcode(s), XS_ENOTFOUND);
  ASSERT_NE(xs_session_errmsg(s), nullptr);
  EXPECT_STRNE(xs_session_errmsg(s), "");

  // The store is untouched by session calls.
  EXPECT_EQ(xs_store_errcode(store_), XS_OK);
  EXPECT_STREQ(xs_store_errmsg(store_), "");

  // A success resets both.
  XS_ASSERT_OK(s, xs_append_message(s, xstest::kUser1.data(), xstest::kUser1.size(), nullptr));
  EXPECT_EQ(xs_session_errcode(s), XS_OK);
  EXPECT_STREQ(xs_session_errmsg(s), "");

  // Reads follow the same rule (XS_EBUFS is a failure with text, then the fill succeeds).
  size_t n = 0;
  EXPECT_EQ(xs_session_entries(s, 0, nullptr, 0, &n), XS_EBUFS);
  EXPECT_EQ(xs_session_errcode(s), XS_EBUFS);
  EXPECT_STRNE(xs_session_errmsg(s), "");
  std::string buf(n, '\0');
  EXPECT_EQ(xs_session_entries(s, 0, &buf[0], n, &n), XS_OK);
  EXPECT_EQ(xs_session_errcode(s), XS_OK);
  EXPECT_STREQ(xs_session_errmsg(s), "");
}

TEST_F(CapiTest, ConstructorErrorsGoToTheStore) {
  xs_session* s = reinterpret_cast<xs_session*>(&owned_);
  std::string missing = root_ / "missing.jsonl";
  EXPECT_EQ(xs_session_open(store_, missing.c_str(), nullptr, &s), XS_ENOTFOUND);
  EXPECT_EQ(s, nullptr);
  EXPECT_EQ(xs_store_errcode(store_), XS_ENOTFOUND);
  EXPECT_STRNE(xs_store_errmsg(store_), "");
  // The next successful store call clears it.
  ASSERT_EQ(xs_session_create(store_, "/work/proj", nullptr, &s), XS_OK);
  EXPECT_EQ(xs_store_errcode(store_), XS_OK);
  EXPECT_STREQ(xs_store_errmsg(store_), "");
  xs_session_close(s);
}

TEST(NullHandles, ErrAccessorsOnNull) {
  EXPECT_EQ(xs_store_errcode(nullptr), XS_EMISUSE);
  EXPECT_EQ(xs_session_errcode(nullptr), XS_EMISUSE);
  ASSERT_NE(xs_store_errmsg(nullptr), nullptr);
  ASSERT_NE(xs_session_errmsg(nullptr), nullptr);
}

// --- sessions outlive the store ---------------------------------------------------------------

TEST(StoreLifetime, SessionsOutliveXsStoreFree) {
  TempDir dir;
  xs_store* st = xs_store_new();
  ASSERT_EQ(xs_store_open(st, dir.path().c_str(), nullptr), XS_OK);
  xs_session_options o;
  ASSERT_EQ(xs_session_options_init(&o, XS_SESSION_OPTIONS_VERSION), XS_OK);
  xs_session* deferred = nullptr;
  xs_session* written = nullptr;
  ASSERT_EQ(xs_session_create(st, "/w", &o, &deferred), XS_OK);
  o.flags = XS_SESSION_NO_DEFER;
  ASSERT_EQ(xs_session_create(st, "/w", &o, &written), XS_OK);
  xs_store_free(st);

  // Both keep working: appends, the first write of the deferred one, reads.
  XS_ASSERT_OK(deferred, xs_append_message(deferred, xstest::kUser1.data(), xstest::kUser1.size(), nullptr));
  XS_ASSERT_OK(deferred,
               xs_append_message(deferred, xstest::kAssistant1.data(), xstest::kAssistant1.size(), nullptr));
  std::string path = xstest::PathOf(deferred);
  ASSERT_FALSE(path.empty());
  EXPECT_EQ(xstest::SplitLines(xstest::ReadFile(path)).size(), 3u);

  XS_ASSERT_OK(written, xs_append_message(written, xstest::kUser1.data(), xstest::kUser1.size(), nullptr));
  std::string path2 = xstest::PathOf(written);
  EXPECT_EQ(xstest::SplitLines(xstest::ReadFile(path2)).size(), 2u);
  EXPECT_NE(xstest::Context(written).find(xstest::kUser1), std::string::npos);

  xs_session_close(deferred);
  xs_session_close(written);
}

// --- close releases the handle and the writer lock --------------------------------------------

TEST_F(CapiTest, CloseFlushesAndReleasesTheLock) {
  xs_session* s = Create(XS_SESSION_NO_DEFER);
  ASSERT_NE(s, nullptr);
  std::string path = xstest::PathOf(s);
  std::string id = Msg(s, xstest::kUser1);
  Close(s);
  // A writable open succeeds now that the first writer is gone, and sees the entry.
  xs_session* again = Open(path);
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(xstest::Leaf(again), id);
}

// --- XS_STORE_IN_MEMORY -----------------------------------------------------------------------

TEST(InMemoryStore, NothingTouchesTheDisk) {
  TempDir dir;
  std::string root = dir / "root";
  xs_store* st = xs_store_new();
  xs_store_options so;
  ASSERT_EQ(xs_store_options_init(&so, XS_STORE_OPTIONS_VERSION), XS_OK);
  so.flags = XS_STORE_IN_MEMORY;
  ASSERT_EQ(xs_store_open(st, root.c_str(), &so), XS_OK) << xs_store_errmsg(st);

  xs_session_options o;
  ASSERT_EQ(xs_session_options_init(&o, XS_SESSION_OPTIONS_VERSION), XS_OK);
  o.flags = XS_SESSION_NO_DEFER | XS_SESSION_SYNC;
  xs_session* s = nullptr;
  ASSERT_EQ(xs_session_create(st, "/work/proj", &o, &s), XS_OK) << xs_store_errmsg(st);
  char id1[XS_ID_BUFSIZE], id2[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s, xs_append_message(s, xstest::kUser1.data(), xstest::kUser1.size(), id1));
  XS_ASSERT_OK(s, xs_append_message(s, xstest::kAssistant1.data(), xstest::kAssistant1.size(), id2));
  XS_ASSERT_OK(s, xs_session_flush(s));
  XS_ASSERT_OK(s, xs_session_set_title(s, "t", 1));
  std::string info = xstest::Info(s);
  EXPECT_NE(info.find("\"persisted\":true"), std::string::npos) << info;
  std::string path = xstest::JsonStr(info, "path");
  EXPECT_FALSE(path.empty());
  EXPECT_FALSE(xstest::Exists(path)) << path;
  EXPECT_FALSE(xstest::Exists(root));
  EXPECT_TRUE(xstest::ListDir(dir.path()).empty());
  EXPECT_EQ(xstest::Context(s),
            "{\"leafId\":\"" + std::string(id2) + "\",\"messages\":[" + xstest::kUser1 + "," + xstest::kAssistant1 +
                "],\"thinkingLevel\":\"off\",\"models\":{\"default\":\"anthropic/claude-x\"},"
                "\"injectedTtsrRules\":[],\"mode\":\"none\"}");
  xs_session_close(s);

  // The session lives in the store's memory: reopening its path there gives it back.
  xs_session* again = nullptr;
  ASSERT_EQ(xs_session_open(st, path.c_str(), nullptr, &again), XS_OK) << xs_store_errmsg(st);
  EXPECT_EQ(xstest::Leaf(again), id2);
  EXPECT_NE(xstest::Header(again).find("\"title\":\"t\""), std::string::npos);
  xs_session_close(again);
  xs_store_free(st);
  EXPECT_TRUE(xstest::ListDir(dir.path()).empty());
}

TEST(InMemoryStore, RootMayBeNull) {
  xs_store* st = xs_store_new();
  xs_store_options so;
  ASSERT_EQ(xs_store_options_init(&so, XS_STORE_OPTIONS_VERSION), XS_OK);
  so.flags = XS_STORE_IN_MEMORY;
  ASSERT_EQ(xs_store_open(st, nullptr, &so), XS_OK) << xs_store_errmsg(st);
  xs_session* s = nullptr;
  ASSERT_EQ(xs_session_create(st, "/w", nullptr, &s), XS_OK) << xs_store_errmsg(st);
  XS_ASSERT_OK(s, xs_session_persist(s));
  EXPECT_NE(xstest::Info(s).find("\"persisted\":true"), std::string::npos);
  xs_session_close(s);
  xs_store_free(st);
}

}  // namespace
