// One writer per session file (XS_ELOCKED), read-only opens (allowed alongside the writer, never
// writing, XS_EREADONLY for writes, XS_ENOHEADER for a file without a header), missing files.
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;

using Locking = CapiTest;

TEST_F(Locking, SecondWritableOpenIsLockedWhileReadOnlyOpenSucceeds) {
  xs_session* w = Create(XS_SESSION_NO_DEFER);
  ASSERT_NE(w, nullptr);
  std::string u1 = Msg(w, xstest::kUser1);
  std::string path = xstest::PathOf(w);
  std::string file = xstest::ReadFile(path);

  Open(path, 0, XS_ELOCKED);
  EXPECT_EQ(xs_store_errcode(store_), XS_ELOCKED);
  EXPECT_STRNE(xs_store_errmsg(store_), "");
  // XS_SESSION_CREATE does not get around the lock either.
  Open(path, XS_SESSION_CREATE, XS_ELOCKED);

  xs_session* r = Open(path, XS_SESSION_READ_ONLY);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(xstest::Leaf(r), u1);
  xs_session* r2 = Open(path, XS_SESSION_READ_ONLY);  // any number of readers
  ASSERT_NE(r2, nullptr);
  EXPECT_EQ(xstest::Entries(r2), xstest::Entries(w));

  // The writer is unaffected by the failed open and the readers.
  std::string a1 = Msg(w, xstest::kAssistant1);
  EXPECT_EQ(xstest::SplitLines(xstest::ReadFile(path)).size(), 3u);
  EXPECT_EQ(xstest::ReadFile(path).substr(0, file.size()), file);

  Close(w);
  xs_session* w2 = Open(path);
  ASSERT_NE(w2, nullptr) << "the lock is released by close";
  EXPECT_EQ(xstest::Leaf(w2), a1);
  Open(path, 0, XS_ELOCKED);
}

TEST_F(Locking, DeferredSessionTakesTheLockWhenItIsWritten) {
  xs_session* w = Create();
  ASSERT_NE(w, nullptr);
  std::string path = xstest::PathOf(w);
  Msg(w, xstest::kUser1);
  Msg(w, xstest::kAssistant1);  // written now
  ASSERT_TRUE(xstest::Exists(path));
  Open(path, 0, XS_ELOCKED);
  EXPECT_NE(Open(path, XS_SESSION_READ_ONLY), nullptr);
}

TEST_F(Locking, TwoWritableOpensOfAnExistingFile) {
  xs_session* w = Create(XS_SESSION_NO_DEFER);
  ASSERT_NE(w, nullptr);
  std::string path = xstest::PathOf(w);
  Close(w);
  xs_session* first = Open(path);
  ASSERT_NE(first, nullptr);
  Open(path, 0, XS_ELOCKED);
  // A second store (another handle tree in the same process) is locked out too.
  xs_store* other = xs_store_new();
  ASSERT_EQ(xs_store_open(other, root_.path().c_str(), nullptr), XS_OK);
  xs_session* s = reinterpret_cast<xs_session*>(&owned_);
  EXPECT_EQ(xs_session_open(other, path.c_str(), nullptr, &s), XS_ELOCKED);
  EXPECT_EQ(s, nullptr);
  EXPECT_EQ(xs_store_errcode(other), XS_ELOCKED);
  xs_store_free(other);
}

TEST_F(Locking, LockCoordinatesProcesses) {
  xs_session* w = Create(XS_SESSION_NO_DEFER);
  ASSERT_NE(w, nullptr);
  std::string path = xstest::PathOf(w);
  std::string root = root_.path();
  auto child = [&](uint32_t flags) -> int {
    pid_t pid = ::fork();
    if (pid == 0) {
      xs_store* st = xs_store_new();
      if (!st || xs_store_open(st, root.c_str(), nullptr) != XS_OK) ::_exit(100);
      xs_session_options o;
      xs_session_options_init(&o, XS_SESSION_OPTIONS_VERSION);
      o.flags = flags;
      xs_session* s = nullptr;
      xs_status rc = xs_session_open(st, path.c_str(), &o, &s);
      xs_session_close(s);
      xs_store_free(st);
      ::_exit(-rc);
    }
    int status = 0;
    if (pid < 0 || ::waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
  };
  EXPECT_EQ(child(0), -XS_ELOCKED) << "another process's writable open";
  EXPECT_EQ(child(XS_SESSION_READ_ONLY), XS_OK) << "another process's read-only open";
  Close(w);
  EXPECT_EQ(child(0), XS_OK) << "after the writer closed";
}

// --- read-only sessions -----------------------------------------------------------------------

class ReadOnly : public CapiTest {
 protected:
  void SetUp() override {
    CapiTest::SetUp();
    xs_session* w = Create(XS_SESSION_NO_DEFER);
    ASSERT_NE(w, nullptr);
    u1_ = Msg(w, xstest::kUser1);
    path_ = xstest::PathOf(w);
    Close(w);
    file_ = xstest::ReadFile(path_);
    r_ = Open(path_, XS_SESSION_READ_ONLY);
    ASSERT_NE(r_, nullptr);
    entries_ = xstest::Entries(r_);
  }
  void Refused(xs_status got, const char* what) {
    EXPECT_EQ(got, XS_EREADONLY) << what << ": " << xs_status_str(got);
    EXPECT_EQ(xs_session_errcode(r_), XS_EREADONLY) << what;
    EXPECT_STRNE(xs_session_errmsg(r_), "") << what;
    EXPECT_EQ(xstest::ReadFile(path_), file_) << what;
    EXPECT_EQ(xstest::Entries(r_), entries_) << what;
    EXPECT_EQ(xstest::Leaf(r_), u1_) << what;
  }
  xs_session* r_ = nullptr;
  std::string u1_, path_, file_, entries_;
};

TEST_F(ReadOnly, EveryWriteIsRefused) {
  char id[XS_ID_BUFSIZE];
  Refused(xs_append(r_, R"({"type":"x"})", 12, id), "xs_append");
  Refused(xs_append_message(r_, xstest::kAssistant1.data(), xstest::kAssistant1.size(), id), "xs_append_message");
  Refused(xs_append_thinking_level(r_, "high", id), "xs_append_thinking_level");
  Refused(xs_append_model_change(r_, "a/b", nullptr, id), "xs_append_model_change");
  xs_compaction c;
  ASSERT_EQ(xs_compaction_init(&c, XS_COMPACTION_VERSION), XS_OK);
  c.summary = "s";
  c.summary_len = 1;
  c.first_kept_entry_id = u1_.c_str();
  Refused(xs_append_compaction(r_, &c, id), "xs_append_compaction");
  Refused(xs_append_custom(r_, "t", nullptr, 0, id), "xs_append_custom");
  xs_custom_message m;
  ASSERT_EQ(xs_custom_message_init(&m, XS_CUSTOM_MESSAGE_VERSION), XS_OK);
  m.custom_type = "t";
  m.content_json = "\"c\"";
  m.content_len = 3;
  Refused(xs_append_custom_message(r_, &m, id), "xs_append_custom_message");
  Refused(xs_append_label(r_, u1_.c_str(), "l", id), "xs_append_label");
  Refused(xs_append_ttsr_injection(r_, "[]", 2, id), "xs_append_ttsr_injection");
  xs_session_init_entry si;
  ASSERT_EQ(xs_session_init_entry_init(&si, XS_SESSION_INIT_ENTRY_VERSION), XS_OK);
  si.system_prompt = "p";
  si.system_prompt_len = 1;
  si.task = "t";
  si.task_len = 1;
  si.tools_json = "[]";
  si.tools_len = 2;
  Refused(xs_append_session_init(r_, &si, id), "xs_append_session_init");
  Refused(xs_append_mode_change(r_, "plan", nullptr, 0, id), "xs_append_mode_change");
  Refused(xs_session_branch_with_summary(r_, u1_.c_str(), "s", 1, nullptr, 0, XS_UNSET, id),
          "xs_session_branch_with_summary");
  Refused(xs_session_set_title(r_, "t", 1), "xs_session_set_title");
  Refused(xs_session_set_title(r_, nullptr, 0), "xs_session_set_title(NULL)");
  Refused(xs_session_persist(r_), "xs_session_persist");
}

TEST_F(ReadOnly, NavigationAndReadsWork) {
  // Moving the leaf writes nothing, so a read-only session may do it.
  XS_ASSERT_OK(r_, xs_session_set_leaf(r_, nullptr));
  EXPECT_EQ(xstest::Leaf(r_), "");
  XS_ASSERT_OK(r_, xs_session_set_leaf(r_, u1_.c_str()));
  EXPECT_EQ(xstest::Leaf(r_), u1_);
  EXPECT_EQ(xstest::Context(r_), "{\"leafId\":\"" + u1_ + "\",\"messages\":[" + xstest::kUser1 +
                                     "],\"thinkingLevel\":\"off\",\"models\":{},\"injectedTtsrRules\":[],"
                                     "\"mode\":\"none\"}");
  Close(r_);
  r_ = nullptr;
  EXPECT_EQ(xstest::ReadFile(path_), file_);
  // No writer lock was held by the reader.
  EXPECT_NE(Open(path_), nullptr);
}

TEST_F(ReadOnly, ReaderDoesNotBlockAWriter) {
  xs_session* w = Open(path_);
  ASSERT_NE(w, nullptr);
  Msg(w, xstest::kAssistant1);
}

// --- missing and header-less files ------------------------------------------------------------

TEST_F(CapiTest, OpenOfAMissingFileIsNotFound) {
  std::string path = root_ / "missing.jsonl";
  Open(path, XS_SESSION_READ_ONLY, XS_ENOTFOUND);
  EXPECT_EQ(xs_store_errcode(store_), XS_ENOTFOUND);
  EXPECT_STRNE(xs_store_errmsg(store_), "");
  EXPECT_TRUE(xstest::ListDir(root_.path()).empty()) << "a read-only open never writes anything";
  Open(path, 0, XS_ENOTFOUND);
  EXPECT_EQ(xs_store_errcode(store_), XS_ENOTFOUND);
  EXPECT_FALSE(xstest::Exists(path));
  // In a directory that does not exist either.
  std::string deeper = root_ / "nope/missing.jsonl";
  Open(deeper, 0, XS_ENOTFOUND);
  Open(deeper, XS_SESSION_READ_ONLY, XS_ENOTFOUND);
  EXPECT_FALSE(xstest::Exists(root_ / "nope"));
}

TEST_F(CapiTest, ReadOnlyOpenOfAHeaderlessFileIsEnoheader) {
  std::string path = root_ / "noheader.jsonl";
  std::string bytes =
      R"({"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"x"}})"
      "\n";
  xstest::WriteFile(path, bytes);
  Open(path, XS_SESSION_READ_ONLY, XS_ENOHEADER);
  EXPECT_EQ(xs_store_errcode(store_), XS_ENOHEADER);
  EXPECT_STRNE(xs_store_errmsg(store_), "");
  EXPECT_EQ(xstest::ReadFile(path), bytes) << "a read-only open never writes";
  EXPECT_EQ(xstest::ListDir(root_.path()), std::vector<std::string>{"noheader.jsonl"});
}

TEST_F(CapiTest, ReadOnlyOpenOfGarbageOrEmptyFileIsEnoheader) {
  std::string garbage = root_ / "garbage.jsonl";
  xstest::WriteFile(garbage, "not json at all\n");
  Open(garbage, XS_SESSION_READ_ONLY, XS_ENOHEADER);
  std::string empty = root_ / "empty.jsonl";
  xstest::WriteFile(empty, "");
  Open(empty, XS_SESSION_READ_ONLY, XS_ENOHEADER);
  EXPECT_EQ(xstest::ReadFile(garbage), "not json at all\n");
  EXPECT_EQ(xstest::ReadFile(empty), "");
  EXPECT_EQ(xstest::ListDir(root_.path()), (std::vector<std::string>{"empty.jsonl", "garbage.jsonl"}));
}

TEST_F(CapiTest, HeaderAfterGarbageIsFound) {
  // A header that is not on physical line 1 is still found (files pi wrote have them); the garbage
  // line is reported.
  std::string path = root_ / "late-header.jsonl";
  std::string header = R"({"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"})";
  xstest::WriteFile(path, "garbage line\n" + header + "\n");
  xs_session* r = Open(path, XS_SESSION_READ_ONLY);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(xstest::Header(r), header);
  EXPECT_NE(xstest::Diagnostics(r).find("\"line\":1,\"offset\":0,\"length\":12,"), std::string::npos)
      << xstest::Diagnostics(r);
}

}  // namespace
