// Discovery through the store: xs_store_list, xs_store_resolve, xs_session_open by id,
// breadcrumbs and xs_session_continue_recent (docs/format.md#finding-sessions,
// docs/decisions.md#4-discovery-has-no-blind-spot).
#include <fcntl.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;

void SetMtime(const std::string& path, int64_t ms) {
  struct timespec times[2];
  times[0].tv_sec = static_cast<time_t>(ms / 1000);
  times[0].tv_nsec = static_cast<long>((ms % 1000) * 1000000);
  times[1] = times[0];
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0) << path;
}

int64_t FileSize(const std::string& path) {
  struct stat st;
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return static_cast<int64_t>(st.st_size);
}

class Discovery : public CapiTest {
 protected:
  // A session written at once, with a caller-chosen id; returns its path.
  std::string Make(const std::string& id, const std::string& cwd, int64_t mtime_ms, bool with_messages = true,
                   const char* title = nullptr) {
    xs_session_options o = Opts(XS_SESSION_NO_DEFER);
    o.session_id = id.c_str();
    o.title = title;
    xs_session* s = nullptr;
    EXPECT_EQ(xs_session_create(store_, cwd.c_str(), &o, &s), XS_OK) << xs_store_errmsg(store_);
    if (!s) return std::string();
    if (with_messages) {
      Msg(s, xstest::kUser1);
      Msg(s, xstest::kAssistant1);
    }
    std::string path = xstest::PathOf(s);
    xs_session_close(s);
    SetMtime(path, mtime_ms);
    return path;
  }
  std::string List(const xs_list_options* o, xs_status* st = nullptr) {
    return xstest::Fetch([&](char* b, size_t c, size_t* n) { return xs_store_list(store_, o, b, c, n); }, st);
  }
  std::string Resolve(const char* query, const char* cwd, xs_status* st = nullptr) {
    return xstest::Fetch([&](char* b, size_t c, size_t* n) { return xs_store_resolve(store_, query, cwd, b, c, n); },
                         st);
  }
  static xs_list_options ListOpts(uint32_t flags = 0, uint64_t limit = 0, const char* cwd = nullptr) {
    xs_list_options o;
    EXPECT_EQ(xs_list_options_init(&o, XS_LIST_OPTIONS_VERSION), XS_OK);
    o.flags = flags;
    o.limit = limit;
    o.cwd = cwd;
    return o;
  }
};

// --- xs_store_list ----------------------------------------------------------------------------

TEST_F(Discovery, ListOfAnEmptyStore) {
  EXPECT_EQ(List(nullptr), "[]");
  EXPECT_EQ(xstest::ListDir(root_.path()).size(), 0u) << "listing writes nothing";
}

TEST_F(Discovery, ListEntryFieldsInOrder) {
  xs_session_options o = Opts(XS_SESSION_NO_DEFER);
  o.session_id = "sess-a";
  o.title = "Title A";
  o.parent_session = "sess-0";
  xs_session* s = Create(&o, "/home/u/a");
  ASSERT_NE(s, nullptr);
  Msg(s, xstest::kUser1);
  Msg(s, xstest::kAssistant1);
  std::string path = xstest::PathOf(s);
  Close(s);
  SetMtime(path, 1700000000123);
  std::string want = "[{\"path\":\"" + path + "\",\"id\":\"sess-a\",\"cwd\":\"/home/u/a\",\"timestamp\":\"" +
                     xstest::Ts(0) + "\",\"modified\":1700000000123,\"size\":" + std::to_string(FileSize(path)) +
                     ",\"title\":\"Title A\",\"parentSession\":\"sess-0\",\"version\":3,\"needsMigration\":false,"
                     "\"corruptCopies\":0,\"archived\":false,\"firstMessage\":\"hello\",\"firstPrompt\":\"hello\"}]";
  EXPECT_EQ(List(nullptr), want);
  xs_list_options lo = ListOpts();
  EXPECT_EQ(List(&lo), want);
}

TEST_F(Discovery, ListCountsTheCorruptCopiesKeptBesideAFile) {
  std::string path = Make("kept-1", "/w", 1700000000000);
  Make("other-1", "/w", 1700000000001);
  // A header-less file opened for writing is kept as <file>.corrupt-<time>, replaced by a fresh session.
  {
    FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fputs("not a session\n", f);
    std::fclose(f);
  }
  xs_session* s = Open(path);
  ASSERT_NE(s, nullptr);
  Close(s);
  std::string out = List(nullptr);
  EXPECT_NE(out.find("\"id\":\"other-1\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"corruptCopies\":1"), std::string::npos) << out;
  EXPECT_NE(out.find("\"corruptCopies\":0"), std::string::npos) << out;
  size_t copies = 0;
  for (const std::string& n : xstest::ListDir(path.substr(0, path.rfind('/')))) copies += n.find(".corrupt-") != std::string::npos;
  EXPECT_EQ(copies, 1u);
}

TEST_F(Discovery, ListFullAddsCounts) {
  std::string path = Make("full-1", "/w", 1700000000000);
  xs_session* s = Open(path);
  ASSERT_NE(s, nullptr);
  XS_ASSERT_OK(s, xs_append_thinking_level(s, "high", nullptr));
  Close(s);
  xs_list_options lo = ListOpts(XS_LIST_FULL);
  std::string out = List(&lo);
  EXPECT_NE(out.find("\"firstMessage\":\"hello\",\"firstPrompt\":\"hello\",\"messageCount\":2,\"entryCount\":3,\"diagnostics\":"),
            std::string::npos)
      << out;
  lo = ListOpts();
  out = List(&lo);
  EXPECT_EQ(out.find("messageCount"), std::string::npos) << "only with XS_LIST_FULL: " << out;
}

TEST_F(Discovery, ListIsNewestFirstWithLimit) {
  std::string a = Make("old", "/w", 1600000000000);
  std::string b = Make("new", "/x", 1800000000000);
  std::string c = Make("mid", "/w", 1700000000000);
  std::string all = List(nullptr);
  size_t pb = all.find("\"id\":\"new\""), pc = all.find("\"id\":\"mid\""), pa = all.find("\"id\":\"old\"");
  ASSERT_NE(pb, std::string::npos);
  ASSERT_NE(pc, std::string::npos);
  ASSERT_NE(pa, std::string::npos);
  EXPECT_LT(pb, pc);
  EXPECT_LT(pc, pa);
  xs_list_options lo = ListOpts(0, 2);
  std::string two = List(&lo);
  EXPECT_EQ(xstest::Count(two, "\"path\":"), 2u) << two;
  EXPECT_NE(two.find("\"id\":\"new\""), std::string::npos);
  EXPECT_NE(two.find("\"id\":\"mid\""), std::string::npos);
}

TEST_F(Discovery, ListByCwdFiltersOnTheHeaderNotTheDirectory) {
  // "/a-b" and "/a/b" share the directory --a-b--.
  Make("dash", "/a-b", 1700000000000);
  Make("slash", "/a/b", 1700000001000);
  ASSERT_EQ(xstest::ListDir(root_.path() + "/sessions").size(), 1u);
  xs_list_options lo = ListOpts(0, 0, "/a/b");
  std::string out = List(&lo);
  EXPECT_EQ(xstest::Count(out, "\"path\":"), 1u) << out;
  EXPECT_NE(out.find("\"id\":\"slash\""), std::string::npos) << out;
  lo = ListOpts(0, 0, "/a-b");
  out = List(&lo);
  EXPECT_EQ(xstest::Count(out, "\"path\":"), 1u) << out;
  EXPECT_NE(out.find("\"id\":\"dash\""), std::string::npos) << out;
  lo = ListOpts(0, 0, "/nowhere");
  EXPECT_EQ(List(&lo), "[]");
}

TEST_F(Discovery, FilesWithoutAHeaderAreNotListed) {
  Make("good", "/w", 1700000000000);
  std::string dir = root_.path() + "/sessions/--w--";
  xstest::WriteFile(dir + "/junk.jsonl", "not a session\n");
  xstest::WriteFile(dir + "/empty.jsonl", "");
  std::string out = List(nullptr);
  EXPECT_EQ(xstest::Count(out, "\"path\":"), 1u) << out;
  EXPECT_NE(out.find("\"id\":\"good\""), std::string::npos) << out;
}

TEST_F(Discovery, HeaderLongerThan4096BytesIsStillListed) {
  std::string title(6000, 't');
  Make("long-header", "/w", 1700000000000, true, title.c_str());
  std::string out = List(nullptr);
  EXPECT_NE(out.find("\"id\":\"long-header\""), std::string::npos) << out.substr(0, 200);
  EXPECT_NE(out.find("\"firstMessage\":\"hello\""), std::string::npos);
}

TEST_F(Discovery, DeferredSessionsAreNotOnDiskSoNotListed) {
  xs_session* s = Create();
  ASSERT_NE(s, nullptr);
  Msg(s, xstest::kUser1);
  EXPECT_EQ(List(nullptr), "[]");
}

TEST_F(Discovery, OldVersionNeedsMigration) {
  std::string dir = root_.path() + "/sessions/--w--";
  std::string path = dir + "/2025-01-01T00-00-00-000Z_v2old.jsonl";
  Make("anchor", "/w", 1700000000000);  // creates the directory
  xstest::WriteFile(path,
                    R"({"type":"session","version":2,"id":"v2old","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w"})"
                    "\n");
  SetMtime(path, 1600000000000);
  std::string out = List(nullptr);
  EXPECT_NE(out.find("\"id\":\"v2old\",\"cwd\":\"/w\",\"timestamp\":\"2025-01-01T00:00:00.000Z\""), std::string::npos)
      << out;
  EXPECT_NE(out.find("\"version\":2,\"needsMigration\":true"), std::string::npos) << out;
}

TEST_F(Discovery, ListOptionsErrors) {
  xs_list_options lo = ListOpts();
  lo.version = 2;
  xs_status st;
  List(&lo, &st);
  EXPECT_EQ(st, XS_EVERSION);
  EXPECT_EQ(xs_store_errcode(store_), XS_EVERSION);
}

// --- xs_store_resolve / xs_session_open by id -------------------------------------------------

TEST_F(Discovery, ResolveByIdPrefixCaseInsensitive) {
  std::string a = Make("Abc123", "/w", 1700000000000);
  std::string b = Make("xyz789", "/x", 1700000000000);
  EXPECT_EQ(Resolve("abc", nullptr), a);
  EXPECT_EQ(Resolve("ABC1", nullptr), a);
  EXPECT_EQ(Resolve("xyz789", "/w"), b) << "the cwd is searched first, then the whole store";
  EXPECT_EQ(xs_store_errcode(store_), XS_OK);
}

TEST_F(Discovery, ResolveByFileNameOrSuffix) {
  std::string a = Make("abc123", "/w", 1700000000000);
  std::string name = a.substr(a.rfind('/') + 1);
  EXPECT_EQ(Resolve(name.c_str(), nullptr), a);
  EXPECT_EQ(Resolve(name.substr(0, name.size() - 6).c_str(), nullptr), a);  // without .jsonl
}

TEST_F(Discovery, ResolveAmbiguousNamesTheCandidates) {
  std::string a = Make("abc123", "/w", 1700000000000);
  std::string b = Make("abd456", "/x", 1700000000000);
  xs_status st;
  Resolve("ab", nullptr, &st);
  EXPECT_EQ(st, XS_EAMBIGUOUS);
  EXPECT_EQ(xs_store_errcode(store_), XS_EAMBIGUOUS);
  std::string msg = xs_store_errmsg(store_);
  EXPECT_NE(msg.find("abc123"), std::string::npos) << msg;
  EXPECT_NE(msg.find("abd456"), std::string::npos) << msg;
  // The cwd's own directory is searched first: a single match there wins.
  EXPECT_EQ(Resolve("ab", "/w"), a);
  EXPECT_EQ(Resolve("ab", "/x"), b);
}

TEST_F(Discovery, ResolveUnknownIsNotFound) {
  Make("abc123", "/w", 1700000000000);
  xs_status st;
  Resolve("zzz", nullptr, &st);
  EXPECT_EQ(st, XS_ENOTFOUND);
  EXPECT_STRNE(xs_store_errmsg(store_), "");
}

TEST_F(Discovery, OpenBySessionId) {
  std::string a = Make("abc123", "/w", 1700000000000);
  Make("abd456", "/x", 1700000000000);
  xs_session* s = Open("abc1");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(xstest::PathOf(s), a);
  Close(s);
  Open("ab", 0, XS_EAMBIGUOUS);
  Open("nothing-like-it", 0, XS_ENOTFOUND);
  Open("nothing-like-it", XS_SESSION_READ_ONLY, XS_ENOTFOUND);
}

// --- breadcrumbs and continue-recent ----------------------------------------------------------

TEST_F(Discovery, BreadcrumbFile) {
  std::string a = Make("abc123", "/w", 1700000000000);
  ASSERT_EQ(xs_store_write_breadcrumb(store_, "tty-1", "/w", a.c_str()), XS_OK) << xs_store_errmsg(store_);
  EXPECT_EQ(xstest::ReadFile(root_.path() + "/terminal-sessions/tty-1"), "/w\n" + a + "\n");
  // Replaced, not appended.
  ASSERT_EQ(xs_store_write_breadcrumb(store_, "tty-1", "/v", a.c_str()), XS_OK);
  EXPECT_EQ(xstest::ReadFile(root_.path() + "/terminal-sessions/tty-1"), "/v\n" + a + "\n");
}

TEST_F(Discovery, BreadcrumbTerminalIdIsValidated) {
  for (const char* bad : {"", "a/b", "..", "tty 1"}) {
    EXPECT_EQ(xs_store_write_breadcrumb(store_, bad, "/w", "/w/x.jsonl"), XS_EINVAL) << bad;
    EXPECT_EQ(xs_store_errcode(store_), XS_EINVAL);
  }
  std::string long_id(65, 'a');
  EXPECT_EQ(xs_store_write_breadcrumb(store_, long_id.c_str(), "/w", "/w/x.jsonl"), XS_EINVAL);
  EXPECT_FALSE(xstest::Exists(root_.path() + "/terminal-sessions/a")) << "nothing escapes the directory";
  EXPECT_FALSE(xstest::Exists(root_.path() + "/a"));
}

TEST_F(Discovery, ContinueRecentTakesTheNewestSessionOfTheCwd) {
  Make("older", "/w", 1600000000000);
  std::string newest = Make("newer", "/w", 1700000000000);
  Make("other-cwd", "/x", 1800000000000);
  xs_session* s = nullptr;
  ASSERT_EQ(xs_session_continue_recent(store_, "/w", nullptr, nullptr, &s), XS_OK) << xs_store_errmsg(store_);
  owned_.push_back(s);
  EXPECT_EQ(xstest::PathOf(s), newest);
  EXPECT_NE(xstest::Info(s).find("\"readOnly\":false"), std::string::npos);
  EXPECT_EQ(xstest::Count(xstest::Entries(s), "\"type\":\"message\""), 2u);
  // Opened for writing: it holds the lock.
  Open(newest, 0, XS_ELOCKED);
}

TEST_F(Discovery, ContinueRecentPrefersTheTerminalsBreadcrumb) {
  std::string older = Make("older", "/w", 1600000000000);
  Make("newer", "/w", 1700000000000);
  ASSERT_EQ(xs_store_write_breadcrumb(store_, "tty-7", "/w", older.c_str()), XS_OK);
  xs_session* s = nullptr;
  ASSERT_EQ(xs_session_continue_recent(store_, "/w", "tty-7", nullptr, &s), XS_OK) << xs_store_errmsg(store_);
  owned_.push_back(s);
  EXPECT_EQ(xstest::PathOf(s), older);
}

TEST_F(Discovery, ContinueRecentIgnoresABreadcrumbForAnotherCwdOrAMissingFile) {
  std::string older = Make("older", "/w", 1600000000000);
  std::string newer = Make("newer", "/w", 1700000000000);
  ASSERT_EQ(xs_store_write_breadcrumb(store_, "tty-7", "/elsewhere", older.c_str()), XS_OK);
  xs_session* s = nullptr;
  ASSERT_EQ(xs_session_continue_recent(store_, "/w", "tty-7", nullptr, &s), XS_OK) << xs_store_errmsg(store_);
  EXPECT_EQ(xstest::PathOf(s), newer);
  xs_session_close(s);
  ASSERT_EQ(xs_store_write_breadcrumb(store_, "tty-7", "/w", (root_.path() + "/gone.jsonl").c_str()), XS_OK);
  s = nullptr;
  ASSERT_EQ(xs_session_continue_recent(store_, "/w", "tty-7", nullptr, &s), XS_OK) << xs_store_errmsg(store_);
  EXPECT_EQ(xstest::PathOf(s), newer);
  xs_session_close(s);
}

TEST_F(Discovery, ContinueRecentUpdatesTheBreadcrumb) {
  std::string newer = Make("newer", "/w", 1700000000000);
  xs_session* s = nullptr;
  ASSERT_EQ(xs_session_continue_recent(store_, "/w", "tty-9", nullptr, &s), XS_OK) << xs_store_errmsg(store_);
  owned_.push_back(s);
  EXPECT_EQ(xstest::ReadFile(root_.path() + "/terminal-sessions/tty-9"), "/w\n" + newer + "\n");
}

TEST_F(Discovery, ContinueRecentWithNothingThereStartsANewSession) {
  xs_session_options o = Opts();
  o.session_id = "fresh-1";
  xs_session* s = nullptr;
  ASSERT_EQ(xs_session_continue_recent(store_, "/new/place", nullptr, &o, &s), XS_OK) << xs_store_errmsg(store_);
  owned_.push_back(s);
  std::string info = xstest::Info(s);
  EXPECT_NE(info.find("\"id\":\"fresh-1\""), std::string::npos) << info;
  EXPECT_NE(info.find("\"cwd\":\"/new/place\""), std::string::npos) << info;
  EXPECT_EQ(xstest::JsonStr(info, "path"),
            root_.path() + "/sessions/--new-place--/" + xstest::FileName(xstest::Ts(0), "fresh-1"));
  EXPECT_EQ(xstest::Entries(s), "[]");
}

}  // namespace
