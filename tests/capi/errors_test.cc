// NULL handles give XS_EMISUSE and NULL required arguments give XS_EINVAL, for every function of
// the header; a refused call leaves the session as it was and records its text on the handle.
#include <string>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;

const char kJson[] = R"({"role":"user","content":"x"})";
const size_t kJsonLen = sizeof kJson - 1;

// --- NULL handle -> XS_EMISUSE ----------------------------------------------------------------

TEST(NullHandle, StoreFunctions) {
  size_t n = 7;
  char buf[8];
  EXPECT_EQ(xs_store_open(nullptr, "/tmp", nullptr), XS_EMISUSE);
  EXPECT_EQ(xs_store_session_dir(nullptr, "/w", buf, sizeof buf, &n), XS_EMISUSE);
  EXPECT_EQ(xs_store_session_dir(nullptr, "/w", nullptr, 0, &n), XS_EMISUSE);
  EXPECT_EQ(xs_store_errcode(nullptr), XS_EMISUSE);
  EXPECT_NE(xs_store_errmsg(nullptr), nullptr);
}

TEST(NullHandle, Constructors) {
  int dummy;
  xs_session* s = reinterpret_cast<xs_session*>(&dummy);
  EXPECT_EQ(xs_session_create(nullptr, "/w", nullptr, &s), XS_EMISUSE);
  EXPECT_EQ(s, nullptr) << "*out is NULL on error";
  s = reinterpret_cast<xs_session*>(&dummy);
  EXPECT_EQ(xs_session_open(nullptr, "/tmp/x.jsonl", nullptr, &s), XS_EMISUSE);
  EXPECT_EQ(s, nullptr) << "*out is NULL on error";
}

TEST(NullHandle, SessionLifecycleAndWrites) {
  char id[XS_ID_BUFSIZE];
  xs_compaction c;
  ASSERT_EQ(xs_compaction_init(&c, XS_COMPACTION_VERSION), XS_OK);
  c.summary = "s";
  c.summary_len = 1;
  c.first_kept_entry_id = "x";
  xs_custom_message m;
  ASSERT_EQ(xs_custom_message_init(&m, XS_CUSTOM_MESSAGE_VERSION), XS_OK);
  m.custom_type = "t";
  m.content_json = "\"c\"";
  m.content_len = 3;
  xs_session_init_entry si;
  ASSERT_EQ(xs_session_init_entry_init(&si, XS_SESSION_INIT_ENTRY_VERSION), XS_OK);
  si.system_prompt = "p";
  si.system_prompt_len = 1;
  si.task = "t";
  si.task_len = 1;
  si.tools_json = "[]";
  si.tools_len = 2;

  EXPECT_EQ(xs_session_errcode(nullptr), XS_EMISUSE);
  EXPECT_NE(xs_session_errmsg(nullptr), nullptr);
  EXPECT_EQ(xs_session_flush(nullptr), XS_EMISUSE);
  EXPECT_EQ(xs_session_persist(nullptr), XS_EMISUSE);
  EXPECT_EQ(xs_append(nullptr, R"({"type":"x"})", 12, id), XS_EMISUSE);
  EXPECT_EQ(xs_append_message(nullptr, kJson, kJsonLen, id), XS_EMISUSE);
  EXPECT_EQ(xs_append_thinking_level(nullptr, "high", id), XS_EMISUSE);
  EXPECT_EQ(xs_append_model_change(nullptr, "a/b", nullptr, id), XS_EMISUSE);
  EXPECT_EQ(xs_append_compaction(nullptr, &c, id), XS_EMISUSE);
  EXPECT_EQ(xs_append_custom(nullptr, "t", nullptr, 0, id), XS_EMISUSE);
  EXPECT_EQ(xs_append_custom_message(nullptr, &m, id), XS_EMISUSE);
  EXPECT_EQ(xs_append_label(nullptr, "x", "l", id), XS_EMISUSE);
  EXPECT_EQ(xs_append_ttsr_injection(nullptr, "[]", 2, id), XS_EMISUSE);
  EXPECT_EQ(xs_append_session_init(nullptr, &si, id), XS_EMISUSE);
  EXPECT_EQ(xs_append_mode_change(nullptr, "plan", nullptr, 0, id), XS_EMISUSE);
  EXPECT_EQ(xs_session_branch_with_summary(nullptr, nullptr, "s", 1, nullptr, 0, XS_UNSET, id), XS_EMISUSE);
  EXPECT_EQ(xs_session_set_leaf(nullptr, "x"), XS_EMISUSE);
  EXPECT_EQ(xs_session_set_leaf(nullptr, nullptr), XS_EMISUSE);
  EXPECT_EQ(xs_session_set_title(nullptr, "t", 1), XS_EMISUSE);
}

TEST(NullHandle, BlobsAndDiscovery) {
  char hash[XS_HASH_BUFSIZE];
  char buf[16];
  size_t n = 0;
  xs_list_options lo;
  ASSERT_EQ(xs_list_options_init(&lo, XS_LIST_OPTIONS_VERSION), XS_OK);
  EXPECT_EQ(xs_blob_put(nullptr, "abc", 3, hash), XS_EMISUSE);
  EXPECT_EQ(xs_blob_get(nullptr, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", buf, sizeof buf,
                        &n),
            XS_EMISUSE);
  EXPECT_EQ(xs_store_list(nullptr, &lo, buf, sizeof buf, &n), XS_EMISUSE);
  EXPECT_EQ(xs_store_list(nullptr, nullptr, nullptr, 0, &n), XS_EMISUSE);
  EXPECT_EQ(xs_store_resolve(nullptr, "abc", nullptr, buf, sizeof buf, &n), XS_EMISUSE);
  EXPECT_EQ(xs_store_write_breadcrumb(nullptr, "tty1", "/w", "/w/x.jsonl"), XS_EMISUSE);
}

TEST(NullHandle, SessionFileOperations) {
  int dummy;
  xs_session* s = reinterpret_cast<xs_session*>(&dummy);
  EXPECT_EQ(xs_session_continue_recent(nullptr, "/w", nullptr, nullptr, &s), XS_EMISUSE);
  EXPECT_EQ(s, nullptr) << "*out is NULL on error";
  s = reinterpret_cast<xs_session*>(&dummy);
  EXPECT_EQ(xs_session_fork_from(nullptr, "/tmp/x.jsonl", "/w", nullptr, &s), XS_EMISUSE);
  EXPECT_EQ(s, nullptr);
  s = reinterpret_cast<xs_session*>(&dummy);
  EXPECT_EQ(xs_session_fork(nullptr, nullptr, &s), XS_EMISUSE);
  EXPECT_EQ(s, nullptr);
  s = reinterpret_cast<xs_session*>(&dummy);
  EXPECT_EQ(xs_session_create_branched(nullptr, nullptr, nullptr, &s), XS_EMISUSE);
  EXPECT_EQ(s, nullptr);
  EXPECT_EQ(xs_session_move_to(nullptr, "/w"), XS_EMISUSE);
  int64_t added = 5;
  EXPECT_EQ(xs_session_reload(nullptr, &added), XS_EMISUSE);
  EXPECT_EQ(xs_session_reload(nullptr, nullptr), XS_EMISUSE);
}

TEST(NullHandle, Reads) {
  size_t n = 0;
  char buf[16];
  EXPECT_EQ(xs_build_context(nullptr, nullptr, buf, sizeof buf, &n), XS_EMISUSE);
  EXPECT_EQ(xs_build_context(nullptr, nullptr, nullptr, 0, &n), XS_EMISUSE);
  EXPECT_EQ(xs_session_header(nullptr, buf, sizeof buf, &n), XS_EMISUSE);
  EXPECT_EQ(xs_session_entries(nullptr, 0, buf, sizeof buf, &n), XS_EMISUSE);
  EXPECT_EQ(xs_session_entry(nullptr, "x", 0, buf, sizeof buf, &n), XS_EMISUSE);
  EXPECT_EQ(xs_session_entry(nullptr, nullptr, 0, buf, sizeof buf, &n), XS_EMISUSE);
  EXPECT_EQ(xs_session_path(nullptr, nullptr, 0, buf, sizeof buf, &n), XS_EMISUSE);
  EXPECT_EQ(xs_session_children(nullptr, "x", 0, buf, sizeof buf, &n), XS_EMISUSE);
  EXPECT_EQ(xs_session_children(nullptr, nullptr, 0, buf, sizeof buf, &n), XS_EMISUSE);
  EXPECT_EQ(xs_session_tree(nullptr, 0, buf, sizeof buf, &n), XS_EMISUSE);
  EXPECT_EQ(xs_session_labels(nullptr, buf, sizeof buf, &n), XS_EMISUSE);
  EXPECT_EQ(xs_session_leaf(nullptr, buf, sizeof buf, &n), XS_EMISUSE);
  EXPECT_EQ(xs_session_diagnostics(nullptr, buf, sizeof buf, &n), XS_EMISUSE);
  EXPECT_EQ(xs_session_info(nullptr, buf, sizeof buf, &n), XS_EMISUSE);
  EXPECT_EQ(xs_session_usage(nullptr, buf, sizeof buf, &n), XS_EMISUSE);
}

// --- NULL required argument -> XS_EINVAL ------------------------------------------------------

TEST_F(CapiTest, NullArgsStore) {
  size_t n = 0;
  char buf[8];
  EXPECT_EQ(xs_store_session_dir(store_, nullptr, buf, sizeof buf, &n), XS_EINVAL);
  EXPECT_STRNE(xs_store_errmsg(store_), "");
  EXPECT_EQ(xs_store_session_dir(store_, "/w", buf, sizeof buf, nullptr), XS_EINVAL);
  EXPECT_EQ(xs_store_session_dir(store_, "/w", nullptr, 5, &n), XS_EINVAL);

  xs_session* s = reinterpret_cast<xs_session*>(&n);
  EXPECT_EQ(xs_session_create(store_, nullptr, nullptr, &s), XS_EINVAL);
  EXPECT_EQ(s, nullptr);
  EXPECT_EQ(xs_store_errcode(store_), XS_EINVAL);
  EXPECT_STRNE(xs_store_errmsg(store_), "");
  EXPECT_EQ(xs_session_create(store_, "/w", nullptr, nullptr), XS_EINVAL);

  s = reinterpret_cast<xs_session*>(&n);
  EXPECT_EQ(xs_session_open(store_, nullptr, nullptr, &s), XS_EINVAL);
  EXPECT_EQ(s, nullptr);
  std::string missing = root_ / "m.jsonl";
  EXPECT_EQ(xs_session_open(store_, missing.c_str(), nullptr, nullptr), XS_EINVAL);
  // Nothing was created by the refused calls.
  EXPECT_TRUE(xstest::ListDir(root_.path()).empty());
}

TEST_F(CapiTest, NullArgsBlobsAndDiscovery) {
  char hash[XS_HASH_BUFSIZE];
  char buf[16];
  size_t n = 0;
  auto refused = [&](xs_status got, const char* what) {
    EXPECT_EQ(got, XS_EINVAL) << what << ": " << xs_status_str(got);
    EXPECT_EQ(xs_store_errcode(store_), XS_EINVAL) << what;
    EXPECT_STRNE(xs_store_errmsg(store_), "") << what;
  };
  refused(xs_blob_put(store_, nullptr, 3, hash), "blob_put data");
  refused(xs_blob_put(store_, "abc", 3, nullptr), "blob_put hash_out");
  const char* h = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  refused(xs_blob_get(store_, nullptr, buf, sizeof buf, &n), "blob_get hash");
  refused(xs_blob_get(store_, h, buf, sizeof buf, nullptr), "blob_get out_len");
  refused(xs_blob_get(store_, h, nullptr, 4, &n), "blob_get buf");
  refused(xs_store_list(store_, nullptr, buf, sizeof buf, nullptr), "list out_len");
  refused(xs_store_list(store_, nullptr, nullptr, 4, &n), "list buf");
  refused(xs_store_resolve(store_, nullptr, nullptr, buf, sizeof buf, &n), "resolve query");
  refused(xs_store_resolve(store_, "abc", nullptr, buf, sizeof buf, nullptr), "resolve out_len");
  refused(xs_store_resolve(store_, "abc", nullptr, nullptr, 4, &n), "resolve buf");
  refused(xs_store_write_breadcrumb(store_, nullptr, "/w", "/w/x.jsonl"), "breadcrumb terminal_id");
  refused(xs_store_write_breadcrumb(store_, "tty1", nullptr, "/w/x.jsonl"), "breadcrumb cwd");
  refused(xs_store_write_breadcrumb(store_, "tty1", "/w", nullptr), "breadcrumb session_path");
  EXPECT_TRUE(xstest::ListDir(root_.path()).empty()) << "refused calls write nothing";
}

TEST_F(CapiTest, NullArgsStoreConstructors) {
  int dummy;
  xs_session* s = reinterpret_cast<xs_session*>(&dummy);
  EXPECT_EQ(xs_session_continue_recent(store_, nullptr, "tty1", nullptr, &s), XS_EINVAL);
  EXPECT_EQ(s, nullptr);
  EXPECT_STRNE(xs_store_errmsg(store_), "");
  EXPECT_EQ(xs_session_continue_recent(store_, "/w", "tty1", nullptr, nullptr), XS_EINVAL);
  std::string src = root_ / "src.jsonl";
  s = reinterpret_cast<xs_session*>(&dummy);
  EXPECT_EQ(xs_session_fork_from(store_, nullptr, "/w", nullptr, &s), XS_EINVAL);
  EXPECT_EQ(s, nullptr);
  s = reinterpret_cast<xs_session*>(&dummy);
  EXPECT_EQ(xs_session_fork_from(store_, src.c_str(), nullptr, nullptr, &s), XS_EINVAL);
  EXPECT_EQ(s, nullptr);
  EXPECT_EQ(xs_session_fork_from(store_, src.c_str(), "/w", nullptr, nullptr), XS_EINVAL);
  EXPECT_EQ(xs_store_errcode(store_), XS_EINVAL);
  EXPECT_TRUE(xstest::ListDir(root_.path()).empty()) << "refused calls write nothing";
}

// A session on disk with one message, so refused calls can be checked for having written nothing.
class NullArgs : public CapiTest {
 protected:
  void SetUp() override {
    CapiTest::SetUp();
    s_ = Create(XS_SESSION_NO_DEFER);
    ASSERT_NE(s_, nullptr);
    first_ = Msg(s_, xstest::kUser1);
    path_ = xstest::PathOf(s_);
    file_ = xstest::ReadFile(path_);
    entries_ = xstest::Entries(s_);
  }
  // Checks the status and text of a refused call, and that it changed nothing.
  void Refused(xs_status got, const char* what) {
    EXPECT_EQ(got, XS_EINVAL) << what << ": " << xs_status_str(got);
    EXPECT_EQ(xs_session_errcode(s_), XS_EINVAL) << what;
    EXPECT_STRNE(xs_session_errmsg(s_), "") << what;
    EXPECT_EQ(xstest::ReadFile(path_), file_) << what;
    EXPECT_EQ(xstest::Entries(s_), entries_) << what;
    EXPECT_EQ(xstest::Leaf(s_), first_) << what;
  }
  xs_session* s_ = nullptr;
  std::string first_, path_, file_, entries_;
};

TEST_F(NullArgs, Appends) {
  char id[XS_ID_BUFSIZE];
  Refused(xs_append(s_, nullptr, 5, id), "xs_append entry_json");
  Refused(xs_append(s_, nullptr, 0, id), "xs_append entry_json (len 0)");
  Refused(xs_append_message(s_, nullptr, kJsonLen, id), "xs_append_message message_json");
  Refused(xs_append_model_change(s_, nullptr, "smol", id), "xs_append_model_change model");
  Refused(xs_append_custom(s_, nullptr, "{}", 2, id), "xs_append_custom custom_type");
  Refused(xs_append_label(s_, nullptr, "l", id), "xs_append_label target_id");
  Refused(xs_append_ttsr_injection(s_, nullptr, 2, id), "xs_append_ttsr_injection rules_json");
  Refused(xs_append_mode_change(s_, nullptr, nullptr, 0, id), "xs_append_mode_change mode");
  Refused(xs_session_branch_with_summary(s_, first_.c_str(), nullptr, 3, nullptr, 0, XS_UNSET, id),
          "xs_session_branch_with_summary summary");
}

TEST_F(NullArgs, SessionFileOperations) {
  Refused(xs_session_fork(s_, nullptr, nullptr), "xs_session_fork out");
  Refused(xs_session_create_branched(s_, nullptr, nullptr, nullptr), "xs_session_create_branched out");
  Refused(xs_session_move_to(s_, nullptr), "xs_session_move_to new_cwd");
  EXPECT_EQ(xstest::ListDir(root_.path() + "/sessions"), std::vector<std::string>{"--work-proj--"});
}

TEST_F(NullArgs, Compaction) {
  char id[XS_ID_BUFSIZE];
  Refused(xs_append_compaction(s_, nullptr, id), "compaction NULL");
  xs_compaction c;
  ASSERT_EQ(xs_compaction_init(&c, XS_COMPACTION_VERSION), XS_OK);
  c.first_kept_entry_id = first_.c_str();
  c.summary = nullptr;
  Refused(xs_append_compaction(s_, &c, id), "compaction summary");
  c.summary = "s";
  c.summary_len = 1;
  c.first_kept_entry_id = nullptr;
  Refused(xs_append_compaction(s_, &c, id), "compaction first_kept_entry_id");
}

TEST_F(NullArgs, CustomMessage) {
  char id[XS_ID_BUFSIZE];
  Refused(xs_append_custom_message(s_, nullptr, id), "custom_message NULL");
  xs_custom_message m;
  ASSERT_EQ(xs_custom_message_init(&m, XS_CUSTOM_MESSAGE_VERSION), XS_OK);
  m.content_json = "\"c\"";
  m.content_len = 3;
  Refused(xs_append_custom_message(s_, &m, id), "custom_message custom_type");
  m.custom_type = "t";
  m.content_json = nullptr;
  Refused(xs_append_custom_message(s_, &m, id), "custom_message content_json");
}

TEST_F(NullArgs, SessionInit) {
  char id[XS_ID_BUFSIZE];
  Refused(xs_append_session_init(s_, nullptr, id), "session_init NULL");
  xs_session_init_entry si;
  ASSERT_EQ(xs_session_init_entry_init(&si, XS_SESSION_INIT_ENTRY_VERSION), XS_OK);
  si.system_prompt = "p";
  si.system_prompt_len = 1;
  si.task = "t";
  si.task_len = 1;
  si.tools_json = "[]";
  si.tools_len = 2;
  xs_session_init_entry bad = si;
  bad.system_prompt = nullptr;
  Refused(xs_append_session_init(s_, &bad, id), "session_init system_prompt");
  bad = si;
  bad.task = nullptr;
  Refused(xs_append_session_init(s_, &bad, id), "session_init task");
  bad = si;
  bad.tools_json = nullptr;
  Refused(xs_append_session_init(s_, &bad, id), "session_init tools_json");
}

TEST_F(NullArgs, ReadsWithoutOutLen) {
  char buf[4096];
  Refused(xs_build_context(s_, nullptr, buf, sizeof buf, nullptr), "xs_build_context out_len");
  Refused(xs_session_header(s_, buf, sizeof buf, nullptr), "xs_session_header out_len");
  Refused(xs_session_entries(s_, 0, buf, sizeof buf, nullptr), "xs_session_entries out_len");
  Refused(xs_session_entry(s_, first_.c_str(), 0, buf, sizeof buf, nullptr), "xs_session_entry out_len");
  Refused(xs_session_path(s_, nullptr, 0, buf, sizeof buf, nullptr), "xs_session_path out_len");
  Refused(xs_session_children(s_, first_.c_str(), 0, buf, sizeof buf, nullptr), "xs_session_children out_len");
  Refused(xs_session_tree(s_, 0, buf, sizeof buf, nullptr), "xs_session_tree out_len");
  Refused(xs_session_labels(s_, buf, sizeof buf, nullptr), "xs_session_labels out_len");
  Refused(xs_session_leaf(s_, buf, sizeof buf, nullptr), "xs_session_leaf out_len");
  Refused(xs_session_diagnostics(s_, buf, sizeof buf, nullptr), "xs_session_diagnostics out_len");
  Refused(xs_session_info(s_, buf, sizeof buf, nullptr), "xs_session_info out_len");
  Refused(xs_session_usage(s_, buf, sizeof buf, nullptr), "xs_session_usage out_len");
}

TEST_F(NullArgs, ReadsWithNullBufAndNonZeroCap) {
  size_t n = 0;
  Refused(xs_build_context(s_, nullptr, nullptr, 1, &n), "xs_build_context buf");
  Refused(xs_session_header(s_, nullptr, 1, &n), "xs_session_header buf");
  Refused(xs_session_entries(s_, 0, nullptr, 1, &n), "xs_session_entries buf");
  Refused(xs_session_entry(s_, first_.c_str(), 0, nullptr, 1, &n), "xs_session_entry buf");
  Refused(xs_session_path(s_, nullptr, 0, nullptr, 1, &n), "xs_session_path buf");
  Refused(xs_session_children(s_, first_.c_str(), 0, nullptr, 1, &n), "xs_session_children buf");
  Refused(xs_session_tree(s_, 0, nullptr, 1, &n), "xs_session_tree buf");
  Refused(xs_session_labels(s_, nullptr, 1, &n), "xs_session_labels buf");
  Refused(xs_session_leaf(s_, nullptr, 1, &n), "xs_session_leaf buf");
  Refused(xs_session_diagnostics(s_, nullptr, 1, &n), "xs_session_diagnostics buf");
  Refused(xs_session_info(s_, nullptr, 1, &n), "xs_session_info buf");
  Refused(xs_session_usage(s_, nullptr, 1, &n), "xs_session_usage buf");
  // Even with a huge cap (that would fit anything).
  Refused(xs_session_entries(s_, 0, nullptr, SIZE_MAX, &n), "xs_session_entries buf, cap SIZE_MAX");
}

TEST_F(NullArgs, ReadsWithNullId) {
  char buf[4096];
  size_t n = 0;
  Refused(xs_session_entry(s_, nullptr, 0, buf, sizeof buf, &n), "xs_session_entry id");
  Refused(xs_session_children(s_, nullptr, 0, buf, sizeof buf, &n), "xs_session_children id");
}

// Arguments documented as optional (NULL = absent / default) are accepted.
TEST_F(NullArgs, OptionalArgumentsMayBeNull) {
  XS_EXPECT_S(XS_OK, s_, xs_append_thinking_level(s_, nullptr, nullptr));       // stores null
  XS_EXPECT_S(XS_OK, s_, xs_append_model_change(s_, "a/b", nullptr, nullptr));  // role absent
  XS_EXPECT_S(XS_OK, s_, xs_append_custom(s_, "t", nullptr, 0, nullptr));       // data absent
  XS_EXPECT_S(XS_OK, s_, xs_append_label(s_, first_.c_str(), nullptr, nullptr));  // clears
  XS_EXPECT_S(XS_OK, s_, xs_append_mode_change(s_, "plan", nullptr, 0, nullptr));
  XS_EXPECT_S(XS_OK, s_, xs_session_branch_with_summary(s_, nullptr, "s", 1, nullptr, 0, XS_UNSET, nullptr));
  XS_EXPECT_S(XS_OK, s_, xs_session_set_title(s_, nullptr, 0));  // removes the title
  size_t n = 0;
  EXPECT_EQ(xs_build_context(s_, nullptr, nullptr, 0, &n), XS_EBUFS);       // NULL leaf = current
  EXPECT_EQ(xs_session_path(s_, nullptr, 0, nullptr, 0, &n), XS_EBUFS);  // NULL id = leaf
}

// --- struct versions and tri-states in the append structs -------------------------------------

TEST_F(NullArgs, AppendStructsWithUnknownVersionAreEversion) {
  char id[XS_ID_BUFSIZE];
  xs_compaction c;
  ASSERT_EQ(xs_compaction_init(&c, XS_COMPACTION_VERSION), XS_OK);
  c.summary = "s";
  c.summary_len = 1;
  c.first_kept_entry_id = first_.c_str();
  c.version = 2;
  EXPECT_EQ(xs_append_compaction(s_, &c, id), XS_EVERSION);

  xs_custom_message m;
  ASSERT_EQ(xs_custom_message_init(&m, XS_CUSTOM_MESSAGE_VERSION), XS_OK);
  m.custom_type = "t";
  m.content_json = "\"c\"";
  m.content_len = 3;
  m.version = 0;
  EXPECT_EQ(xs_append_custom_message(s_, &m, id), XS_EVERSION);

  xs_session_init_entry si;
  ASSERT_EQ(xs_session_init_entry_init(&si, XS_SESSION_INIT_ENTRY_VERSION), XS_OK);
  si.system_prompt = "p";
  si.system_prompt_len = 1;
  si.task = "t";
  si.task_len = 1;
  si.tools_json = "[]";
  si.tools_len = 2;
  si.version = 7;
  EXPECT_EQ(xs_append_session_init(s_, &si, id), XS_EVERSION);
  EXPECT_EQ(xs_session_errcode(s_), XS_EVERSION);
  EXPECT_EQ(xstest::ReadFile(path_), file_);
  EXPECT_EQ(xstest::Entries(s_), entries_);
}

TEST_F(NullArgs, OutOfRangeTriStatesAndReservedAreInvalid) {
  char id[XS_ID_BUFSIZE];
  xs_compaction c;
  ASSERT_EQ(xs_compaction_init(&c, XS_COMPACTION_VERSION), XS_OK);
  c.summary = "s";
  c.summary_len = 1;
  c.first_kept_entry_id = first_.c_str();
  c.from_extension = 2;
  Refused(xs_append_compaction(s_, &c, id), "compaction from_extension 2");
  Refused(xs_session_branch_with_summary(s_, first_.c_str(), "s", 1, nullptr, 0, -2, id),
          "branch_with_summary from_extension -2");
  xs_custom_message m;
  ASSERT_EQ(xs_custom_message_init(&m, XS_CUSTOM_MESSAGE_VERSION), XS_OK);
  m.custom_type = "t";
  m.content_json = "\"c\"";
  m.content_len = 3;
  m.display = 2;
  Refused(xs_append_custom_message(s_, &m, id), "custom_message display 2");
  xs_session_init_entry si;
  ASSERT_EQ(xs_session_init_entry_init(&si, XS_SESSION_INIT_ENTRY_VERSION), XS_OK);
  si.system_prompt = "p";
  si.system_prompt_len = 1;
  si.task = "t";
  si.task_len = 1;
  si.tools_json = "[]";
  si.tools_len = 2;
  si.reserved = 1;
  Refused(xs_append_session_init(s_, &si, id), "session_init reserved 1");
}

}  // namespace
