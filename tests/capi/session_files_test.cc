// Calls that make, copy or move session files: xs_session_fork, xs_session_fork_from,
// xs_session_create_branched, xs_session_move_to; and xs_session_reload for read-only handles
// (docs/format.md#new-files-from-old-ones, docs/decisions.md#reload).
#include <string>
#include <vector>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;

// Lines 2.. of a file (the entries), in order.
std::vector<std::string> EntryLines(const std::string& path) {
  auto lines = xstest::SplitLines(xstest::ReadFile(path));
  if (!lines.empty()) lines.erase(lines.begin());
  return lines;
}

// The session files (*.jsonl) in a directory.
std::vector<std::string> Sessions(const std::string& dir) {
  std::vector<std::string> out;
  for (const std::string& f : xstest::ListDir(dir)) {
    if (f.size() > 6 && f.compare(f.size() - 6, 6, ".jsonl") == 0) out.push_back(f);
  }
  return out;
}

class SessionFiles : public CapiTest {
 protected:
  void SetUp() override {
    CapiTest::SetUp();
    xs_session_options o = Opts(XS_SESSION_NO_DEFER);
    o.session_id = "orig";
    o.title = "The title";
    s_ = Create(&o, "/work/proj");
    ASSERT_NE(s_, nullptr);
    u1_ = Msg(s_, xstest::kUser1);
    a1_ = Msg(s_, xstest::kAssistant1);
    u2_ = Msg(s_, xstest::kUser2);
    path_ = xstest::PathOf(s_);
    file_ = xstest::ReadFile(path_);
  }
  // Options for the new session of a fork-like call.
  static xs_session_options NewOpts(const char* id) {
    xs_session_options o = Opts();
    o.clock_start_ms = xstest::kT0 + 100000;  // a different time from the original's
    o.session_id = id;
    return o;
  }
  xs_session* s_ = nullptr;
  std::string u1_, a1_, u2_, path_, file_;
};

// --- fork -------------------------------------------------------------------------------------

TEST_F(SessionFiles, ForkCopiesEveryEntryUnderANewIdBesideIt) {
  xs_session_options o = NewOpts("forked");
  xs_session* f = nullptr;
  ASSERT_EQ(xs_session_fork(s_, &o, &f), XS_OK) << xs_session_errmsg(s_);
  owned_.push_back(f);
  EXPECT_STREQ(xs_session_errmsg(s_), "");
  std::string fpath = xstest::PathOf(f);
  std::string ts = xstest::Iso(xstest::kT0 + 100000);
  EXPECT_EQ(fpath, path_.substr(0, path_.rfind('/') + 1) + xstest::FileName(ts, "forked"));
  auto lines = xstest::SplitLines(xstest::ReadFile(fpath));
  ASSERT_EQ(lines.size(), 4u) << "written at once";
  EXPECT_EQ(lines[0], xstest::HeaderLine("forked", ts, "/work/proj",
                                         ",\"title\":\"The title\",\"parentSession\":\"orig\""));
  EXPECT_EQ(EntryLines(fpath), EntryLines(path_));
  EXPECT_EQ(xstest::Leaf(f), u2_);
  // The original is untouched and s_ stays on it.
  EXPECT_EQ(xstest::ReadFile(path_), file_);
  EXPECT_EQ(xstest::PathOf(s_), path_);
  Msg(s_, xstest::kUser3);
  EXPECT_EQ(xstest::SplitLines(xstest::ReadFile(path_)).size(), 5u);
  EXPECT_EQ(xstest::SplitLines(xstest::ReadFile(fpath)).size(), 4u);
  // The fork is independent and writable.
  Msg(f, xstest::kUser3);
  EXPECT_EQ(xstest::SplitLines(xstest::ReadFile(fpath)).size(), 5u);
  Open(fpath, 0, XS_ELOCKED);
}

TEST_F(SessionFiles, ForkOfADeferredSessionIsWrittenAtOnce) {
  xs_session* d = Create();
  ASSERT_NE(d, nullptr);
  Msg(d, xstest::kUser1);
  ASSERT_FALSE(xstest::Exists(xstest::PathOf(d)));
  xs_session_options o = NewOpts("forked-d");
  xs_session* f = nullptr;
  ASSERT_EQ(xs_session_fork(d, &o, &f), XS_OK) << xs_session_errmsg(d);
  owned_.push_back(f);
  EXPECT_EQ(xstest::SplitLines(xstest::ReadFile(xstest::PathOf(f))).size(), 2u);
}

TEST_F(SessionFiles, ForkOptionErrorsAreReportedOnTheSession) {
  xs_session_options o = NewOpts("forked");
  o.version = 9;
  xs_session* f = reinterpret_cast<xs_session*>(&o);
  EXPECT_EQ(xs_session_fork(s_, &o, &f), XS_EVERSION);
  EXPECT_EQ(f, nullptr);
  EXPECT_EQ(xs_session_errcode(s_), XS_EVERSION);
  EXPECT_STRNE(xs_session_errmsg(s_), "");
  o = NewOpts("bad/id");
  EXPECT_EQ(xs_session_fork(s_, &o, &f), XS_EINVAL);
  EXPECT_EQ(f, nullptr);
  EXPECT_EQ(Sessions(path_.substr(0, path_.rfind('/'))), std::vector<std::string>{path_.substr(path_.rfind('/') + 1)})
      << "no new session file";
}

// --- fork_from --------------------------------------------------------------------------------

TEST_F(SessionFiles, ForkFromCopiesAFileIntoAnotherCwd) {
  xs_session_options o = NewOpts("copied");
  xs_session* f = nullptr;
  // The source is only read: it works while s_ holds the writer lock.
  ASSERT_EQ(xs_session_fork_from(store_, path_.c_str(), "/other/place", &o, &f), XS_OK) << xs_store_errmsg(store_);
  owned_.push_back(f);
  std::string ts = xstest::Iso(xstest::kT0 + 100000);
  std::string fpath = xstest::PathOf(f);
  EXPECT_EQ(fpath, root_.path() + "/sessions/--other-place--/" + xstest::FileName(ts, "copied"));
  auto lines = xstest::SplitLines(xstest::ReadFile(fpath));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], xstest::HeaderLine("copied", ts, "/other/place",
                                         ",\"title\":\"The title\",\"parentSession\":\"orig\""));
  EXPECT_EQ(EntryLines(fpath), EntryLines(path_));
  EXPECT_EQ(xstest::ReadFile(path_), file_);
}

TEST_F(SessionFiles, ForkFromMigratesAnOldFile) {
  std::string src = root_ / "v2.jsonl";
  std::string bytes =
      R"({"type":"session","version":2,"id":"old2","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w"})" "\n"
      R"({"type":"message","id":"m1","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}})" "\n";
  xstest::WriteFile(src, bytes);
  xs_session_options o = NewOpts("from-v2");
  xs_session* f = nullptr;
  ASSERT_EQ(xs_session_fork_from(store_, src.c_str(), "/w", &o, &f), XS_OK) << xs_store_errmsg(store_);
  owned_.push_back(f);
  auto lines = xstest::SplitLines(xstest::ReadFile(xstest::PathOf(f)));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], xstest::HeaderLine("from-v2", xstest::Iso(xstest::kT0 + 100000), "/w",
                                         ",\"parentSession\":\"old2\""));
  EXPECT_EQ(lines[1],
            R"({"type":"message","id":"m1","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}})");
  EXPECT_EQ(xstest::ReadFile(src), bytes) << "the source is only read";
}

TEST_F(SessionFiles, ForkFromMissingOrHeaderlessSource) {
  xs_session_options o = NewOpts("x1");
  xs_session* f = reinterpret_cast<xs_session*>(&o);
  EXPECT_EQ(xs_session_fork_from(store_, (root_ / "missing.jsonl").c_str(), "/w", &o, &f), XS_ENOTFOUND);
  EXPECT_EQ(f, nullptr);
  EXPECT_EQ(xs_store_errcode(store_), XS_ENOTFOUND);
  std::string junk = root_ / "junk.jsonl";
  xstest::WriteFile(junk, "garbage\n");
  f = reinterpret_cast<xs_session*>(&o);
  EXPECT_EQ(xs_session_fork_from(store_, junk.c_str(), "/w", &o, &f), XS_ENOHEADER);
  EXPECT_EQ(f, nullptr);
  EXPECT_EQ(xstest::ReadFile(junk), "garbage\n");
  EXPECT_FALSE(xstest::Exists(root_.path() + "/sessions/--w--/" + xstest::FileName(xstest::Iso(xstest::kT0 + 100000), "x1")));
}

// --- create_branched --------------------------------------------------------------------------

TEST_F(SessionFiles, CreateBranchedKeepsThePathAndItsLabels) {
  // u1 -> a1 -> u2 (path), a side branch a1 -> s1, labels on u1 (on the path) and s1 (not).
  XS_ASSERT_OK(s_, xs_session_set_leaf(s_, a1_.c_str()));
  std::string s1 = Msg(s_, xstest::kUser3);
  char l1[XS_ID_BUFSIZE], l2[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s_, xs_append_label(s_, u1_.c_str(), "start", l1));
  XS_ASSERT_OK(s_, xs_append_label(s_, s1.c_str(), "side", l2));
  std::string before = xstest::ReadFile(path_);

  xs_session_options o = NewOpts("branched");
  xs_session* b = nullptr;
  ASSERT_EQ(xs_session_create_branched(s_, u2_.c_str(), &o, &b), XS_OK) << xs_session_errmsg(s_);
  owned_.push_back(b);
  std::string bpath = xstest::PathOf(b);
  std::string ts = xstest::Iso(xstest::kT0 + 100000);
  EXPECT_EQ(bpath, path_.substr(0, path_.rfind('/') + 1) + xstest::FileName(ts, "branched"));
  auto lines = xstest::SplitLines(xstest::ReadFile(bpath));
  ASSERT_EQ(lines.size(), 5u) << "header, u1, a1, u2, one fresh label";
  // A branched session's header: {type, version, id, timestamp, cwd, parentSession = the source's
  // path}, no title, unlike a fork (docs/format.md#new-files-from-old-ones).
  EXPECT_EQ(lines[0], xstest::HeaderLine("branched", ts, "/work/proj", ",\"parentSession\":\"" + path_ + "\""));
  auto orig = EntryLines(path_);
  EXPECT_EQ(lines[1], orig[0]);
  EXPECT_EQ(lines[2], orig[1]);
  EXPECT_EQ(lines[3], orig[2]);
  std::string label_id = xstest::JsonStr(lines[4], "id");
  EXPECT_NE(label_id, l1) << "a fresh label entry";
  EXPECT_EQ(lines[4].substr(0, 17), "{\"type\":\"label\",\"");
  EXPECT_EQ(xstest::JsonStr(lines[4], "parentId"), u2_);
  EXPECT_NE(lines[4].find("\"targetId\":\"" + u1_ + "\",\"label\":\"start\"}"), std::string::npos) << lines[4];
  EXPECT_EQ(xstest::Leaf(b), label_id);
  EXPECT_EQ(xstest::Labels(b).find("side"), std::string::npos);
  EXPECT_EQ(xstest::ReadFile(path_), before) << "the old file is left as it was";
}

TEST_F(SessionFiles, CreateBranchedFromTheCurrentLeaf) {
  XS_ASSERT_OK(s_, xs_session_set_leaf(s_, a1_.c_str()));
  xs_session_options o = NewOpts("at-leaf");
  xs_session* b = nullptr;
  ASSERT_EQ(xs_session_create_branched(s_, nullptr, &o, &b), XS_OK) << xs_session_errmsg(s_);
  owned_.push_back(b);
  auto lines = EntryLines(xstest::PathOf(b));
  auto orig = EntryLines(path_);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], orig[0]);
  EXPECT_EQ(lines[1], orig[1]);
}

TEST_F(SessionFiles, CreateBranchedFromAnUnknownLeafIsNotFound) {
  xs_session_options o = NewOpts("nope");
  xs_session* b = reinterpret_cast<xs_session*>(&o);
  EXPECT_EQ(xs_session_create_branched(s_, "no-such-entry", &o, &b), XS_ENOTFOUND);
  EXPECT_EQ(b, nullptr);
  EXPECT_EQ(xs_session_errcode(s_), XS_ENOTFOUND);
  EXPECT_STRNE(xs_session_errmsg(s_), "");
  EXPECT_EQ(xstest::ReadFile(path_), file_);
}

// --- move_to ----------------------------------------------------------------------------------

TEST_F(SessionFiles, MoveToRenamesIntoTheNewCwdsDirectory) {
  std::string artifacts = path_.substr(0, path_.size() - 6);  // "<file without .jsonl>/"
  ASSERT_EQ(::mkdir(artifacts.c_str(), 0700), 0);
  xstest::WriteFile(artifacts + "/out.txt", "artifact");
  XS_ASSERT_OK(s_, xs_session_move_to(s_, "/moved/here"));
  std::string name = path_.substr(path_.rfind('/') + 1);
  std::string moved = root_.path() + "/sessions/--moved-here--/" + name;
  EXPECT_EQ(xstest::PathOf(s_), moved);
  EXPECT_FALSE(xstest::Exists(path_));
  EXPECT_FALSE(xstest::Exists(artifacts));
  EXPECT_EQ(xstest::ReadFile(moved.substr(0, moved.size() - 6) + "/out.txt"), "artifact");
  auto lines = xstest::SplitLines(xstest::ReadFile(moved));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], xstest::HeaderLine("orig", xstest::Ts(0), "/moved/here", ",\"title\":\"The title\""));
  auto old_entries = xstest::SplitLines(file_);
  EXPECT_EQ(std::vector<std::string>(lines.begin() + 1, lines.end()),
            std::vector<std::string>(old_entries.begin() + 1, old_entries.end()));
  // Appends go to the moved file, and the lock moved along.
  std::string id = Msg(s_, xstest::kUser3);
  EXPECT_EQ(xstest::JsonStr(xstest::SplitLines(xstest::ReadFile(moved)).back(), "id"), id);
  Open(moved, 0, XS_ELOCKED);
}

TEST_F(SessionFiles, MoveToOntoAnExistingFileIsEexists) {
  std::string name = path_.substr(path_.rfind('/') + 1);
  std::string dir = root_.path() + "/sessions/--taken--";
  ASSERT_EQ(::mkdir((root_.path() + "/sessions").c_str(), 0700) == 0 || errno == EEXIST, true);
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  xstest::WriteFile(dir + "/" + name, "someone else's\n");
  EXPECT_EQ(xs_session_move_to(s_, "/taken"), XS_EEXISTS);
  EXPECT_EQ(xs_session_errcode(s_), XS_EEXISTS);
  EXPECT_STRNE(xs_session_errmsg(s_), "");
  EXPECT_EQ(xstest::ReadFile(dir + "/" + name), "someone else's\n");
  EXPECT_EQ(xstest::ReadFile(path_), file_);
  EXPECT_EQ(xstest::PathOf(s_), path_);
  Msg(s_, xstest::kUser3);  // still works, in place
  EXPECT_EQ(xstest::SplitLines(xstest::ReadFile(path_)).size(), 5u);
}

TEST_F(SessionFiles, MoveToOnAReadOnlyHandleIsRefused) {
  xs_session* r = Open(path_, XS_SESSION_READ_ONLY);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(xs_session_move_to(r, "/elsewhere"), XS_EREADONLY);
  EXPECT_EQ(xstest::ReadFile(path_), file_);
  EXPECT_FALSE(xstest::Exists(root_.path() + "/sessions/--elsewhere--"));
}

// --- reload -----------------------------------------------------------------------------------

TEST_F(SessionFiles, ReloadPicksUpAppendedEntries) {
  xs_session* r = Open(path_, XS_SESSION_READ_ONLY);
  ASSERT_NE(r, nullptr);
  int64_t added = -1;
  XS_ASSERT_OK(r, xs_session_reload(r, &added));
  EXPECT_EQ(added, 0);
  Msg(s_, xstest::kAssistant2);
  std::string u3 = Msg(s_, xstest::kUser3);
  XS_ASSERT_OK(r, xs_session_reload(r, &added));
  EXPECT_EQ(added, 2);
  EXPECT_EQ(xstest::Entries(r), xstest::Entries(s_));
  EXPECT_EQ(xstest::Leaf(r), u3);
  XS_ASSERT_OK(r, xs_session_reload(r, nullptr));
}

TEST_F(SessionFiles, ReloadReportsAnIncompleteTailAndReadsItAgainLater) {
  xs_session* r = Open(path_, XS_SESSION_READ_ONLY);
  ASSERT_NE(r, nullptr);
  Close(s_);
  s_ = nullptr;
  std::string line = R"({"type":"note","id":"late","parentId":")" + u2_ + R"(","timestamp":"2026-01-01T00:00:00.000Z"})";
  xstest::WriteFile(path_, file_ + line.substr(0, 20));
  int64_t added = -1;
  XS_ASSERT_OK(r, xs_session_reload(r, &added));
  EXPECT_EQ(added, 0);
  EXPECT_NE(xstest::Diagnostics(r).find("\"code\":\"incomplete_tail\""), std::string::npos) << xstest::Diagnostics(r);
  EXPECT_EQ(xstest::ReadFile(path_), file_ + line.substr(0, 20)) << "a reader never repairs";
  xstest::WriteFile(path_, file_ + line + "\n");
  XS_ASSERT_OK(r, xs_session_reload(r, &added));
  EXPECT_EQ(added, 1);
  EXPECT_EQ(xstest::Leaf(r), "late");
  EXPECT_EQ(xstest::Entry(r, "late"), line);
}

TEST_F(SessionFiles, ReloadAfterTheFileWasReplaced) {
  xs_session* r = Open(path_, XS_SESSION_READ_ONLY);
  ASSERT_NE(r, nullptr);
  XS_ASSERT_OK(s_, xs_session_set_title(s_, "New title", 9));  // an atomic rewrite: a new file
  Msg(s_, xstest::kAssistant2);
  int64_t added = -1;
  XS_ASSERT_OK(r, xs_session_reload(r, &added));
  EXPECT_EQ(added, 1);
  EXPECT_EQ(xstest::Header(r), xstest::Header(s_));
  EXPECT_EQ(xstest::Entries(r), xstest::Entries(s_));
}

TEST_F(SessionFiles, ReloadOnAWritableHandleIsMisuse) {
  int64_t added = -1;
  EXPECT_EQ(xs_session_reload(s_, &added), XS_EMISUSE);
  EXPECT_EQ(xs_session_errcode(s_), XS_EMISUSE);
  EXPECT_STRNE(xs_session_errmsg(s_), "");
}

TEST_F(SessionFiles, ReloadOfAVanishedFileIsNotFound) {
  xs_session* r = Open(path_, XS_SESSION_READ_ONLY);
  ASSERT_NE(r, nullptr);
  std::string entries = xstest::Entries(r);
  Close(s_);
  s_ = nullptr;
  ASSERT_EQ(::unlink(path_.c_str()), 0);
  int64_t added = -1;
  EXPECT_EQ(xs_session_reload(r, &added), XS_ENOTFOUND);
  EXPECT_EQ(xs_session_errcode(r), XS_ENOTFOUND);
  EXPECT_EQ(xstest::Entries(r), entries) << "what was loaded stays readable";
}

}  // namespace
