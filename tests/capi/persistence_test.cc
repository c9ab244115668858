// Persistence through the API: deferral until the first assistant message, XS_SESSION_NO_DEFER
// and xs_session_persist, exact file bytes under a fixed clock and id seed, reopening, file
// modes, titles, XS_SESSION_CREATE.
#include <sys/stat.h>

#include <string>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;
using xstest::Exists;
using xstest::FileName;
using xstest::HeaderLine;
using xstest::MsgLine;
using xstest::ReadFile;
using xstest::Ts;

using Persistence = CapiTest;

TEST_F(Persistence, NoFileBeforeTheFirstAssistantMessage) {
  xs_session* s = Create();
  ASSERT_NE(s, nullptr);
  std::string info = xstest::Info(s);
  EXPECT_NE(info.find("\"persisted\":false"), std::string::npos) << info;
  std::string path = xstest::JsonStr(info, "path");
  std::string sid = xstest::JsonStr(info, "id");
  ASSERT_FALSE(path.empty());
  EXPECT_EQ(path, root_.path() + "/sessions/--work-proj--/" + FileName(Ts(0), sid));
  EXPECT_FALSE(Exists(path));

  char u1[XS_ID_BUFSIZE], t1[XS_ID_BUFSIZE], c1[XS_ID_BUFSIZE], a1[XS_ID_BUFSIZE], u2[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s, xs_append_message(s, xstest::kUser1.data(), xstest::kUser1.size(), u1));
  XS_ASSERT_OK(s, xs_append_thinking_level(s, "high", t1));
  XS_ASSERT_OK(s, xs_append_custom(s, "ext", "1", 1, c1));
  XS_ASSERT_OK(s, xs_session_flush(s));  // "a deferred session that is not on disk yet has nothing to flush"
  EXPECT_FALSE(Exists(path)) << "nothing is written before the first assistant message";
  EXPECT_TRUE(xstest::ListDir(root_.path()).empty()) << "not even the directories";
  EXPECT_NE(xstest::Info(s).find("\"persisted\":false"), std::string::npos);

  XS_ASSERT_OK(s, xs_append_message(s, xstest::kAssistant1.data(), xstest::kAssistant1.size(), a1));
  EXPECT_NE(xstest::Info(s).find("\"persisted\":true"), std::string::npos);
  std::string expected = HeaderLine(sid, Ts(0), "/work/proj") + "\n" + MsgLine(u1, "", Ts(1), xstest::kUser1) +
                         "\n" +
                         xstest::Line("thinking_level_change", t1, u1, Ts(2), "\"thinkingLevel\":\"high\"") + "\n" +
                         xstest::TailLine("custom", "\"customType\":\"ext\",\"data\":1", c1, t1, Ts(3)) + "\n" +
                         MsgLine(a1, c1, Ts(4), xstest::kAssistant1) + "\n";
  EXPECT_EQ(ReadFile(path), expected);

  // From now on every append goes straight to the file.
  XS_ASSERT_OK(s, xs_append_message(s, xstest::kUser2.data(), xstest::kUser2.size(), u2));
  expected += MsgLine(u2, a1, Ts(5), xstest::kUser2) + "\n";
  EXPECT_EQ(ReadFile(path), expected);
}

TEST_F(Persistence, GenericAssistantMessageEntryEndsTheDeferral) {
  xs_session* s = Create();
  ASSERT_NE(s, nullptr);
  std::string path = xstest::PathOf(s);
  std::string e = "{\"type\":\"message\",\"message\":" + xstest::kAssistant1 + "}";
  char id[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s, xs_append(s, e.data(), e.size(), id));
  ASSERT_TRUE(Exists(path));
  EXPECT_EQ(xstest::SplitLines(ReadFile(path)).size(), 2u);
}

TEST_F(Persistence, NoDeferWritesTheHeaderAtOnce) {
  xs_session* s = Create(XS_SESSION_NO_DEFER);
  ASSERT_NE(s, nullptr);
  std::string info = xstest::Info(s);
  EXPECT_NE(info.find("\"persisted\":true"), std::string::npos) << info;
  std::string path = xstest::JsonStr(info, "path");
  std::string sid = xstest::JsonStr(info, "id");
  EXPECT_EQ(ReadFile(path), HeaderLine(sid, Ts(0), "/work/proj") + "\n");
  char u1[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s, xs_append_message(s, xstest::kUser1.data(), xstest::kUser1.size(), u1));
  EXPECT_EQ(ReadFile(path), HeaderLine(sid, Ts(0), "/work/proj") + "\n" + MsgLine(u1, "", Ts(1), xstest::kUser1) + "\n");
}

TEST_F(Persistence, PersistWritesTheWholeSessionAtOnce) {
  xs_session* s = Create();
  ASSERT_NE(s, nullptr);
  std::string path = xstest::PathOf(s);
  std::string sid = xstest::JsonStr(xstest::Info(s), "id");
  char u1[XS_ID_BUFSIZE], u2[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s, xs_append_message(s, xstest::kUser1.data(), xstest::kUser1.size(), u1));
  ASSERT_FALSE(Exists(path));
  XS_ASSERT_OK(s, xs_session_persist(s));
  std::string expected = HeaderLine(sid, Ts(0), "/work/proj") + "\n" + MsgLine(u1, "", Ts(1), xstest::kUser1) + "\n";
  EXPECT_EQ(ReadFile(path), expected);
  EXPECT_NE(xstest::Info(s).find("\"persisted\":true"), std::string::npos);
  // XS_OK also when already on disk, and nothing changes.
  XS_ASSERT_OK(s, xs_session_persist(s));
  EXPECT_EQ(ReadFile(path), expected);
  // The deferral is over: a user message is written at once.
  XS_ASSERT_OK(s, xs_append_message(s, xstest::kUser2.data(), xstest::kUser2.size(), u2));
  EXPECT_EQ(ReadFile(path), expected + MsgLine(u2, u1, Ts(2), xstest::kUser2) + "\n");
}

TEST_F(Persistence, PersistOfAnEmptySessionWritesTheHeader) {
  xs_session* s = Create();
  ASSERT_NE(s, nullptr);
  XS_ASSERT_OK(s, xs_session_persist(s));
  EXPECT_EQ(ReadFile(xstest::PathOf(s)), HeaderLine(xstest::JsonStr(xstest::Info(s), "id"), Ts(0), "/work/proj") + "\n");
}

TEST_F(Persistence, ExactFileBytesWithFixedClockAndSeed) {
  xs_session_options o = Opts(XS_SESSION_SYNC);
  o.title = "Fix the parser";
  xs_session* s = Create(&o, "/home/u/src/app");
  ASSERT_NE(s, nullptr);
  std::string info = xstest::Info(s);
  std::string sid = xstest::JsonStr(info, "id");
  ASSERT_EQ(sid.size(), 16u);
  std::string path = xstest::JsonStr(info, "path");
  EXPECT_EQ(path, root_.path() + "/sessions/--home-u-src-app--/" + FileName(Ts(0), sid));

  char u1[XS_ID_BUFSIZE], a1[XS_ID_BUFSIZE], m1[XS_ID_BUFSIZE], u2[XS_ID_BUFSIZE], b1[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s, xs_append_message(s, xstest::kUser1.data(), xstest::kUser1.size(), u1));
  XS_ASSERT_OK(s, xs_append_message(s, xstest::kAssistant1.data(), xstest::kAssistant1.size(), a1));
  XS_ASSERT_OK(s, xs_append_model_change(s, "openai/gpt-5", "smol", m1));
  XS_ASSERT_OK(s, xs_append_message(s, xstest::kUser2.data(), xstest::kUser2.size(), u2));
  XS_ASSERT_OK(s, xs_session_branch_with_summary(s, u1, "abandoned", 9, nullptr, 0, XS_UNSET, b1));
  XS_ASSERT_OK(s, xs_session_flush(s));

  for (const char* id : {u1, a1, m1, u2, b1}) EXPECT_TRUE(xstest::IsGeneratedEntryId(id)) << id;
  std::string expected =
      HeaderLine(sid, Ts(0), "/home/u/src/app", ",\"title\":\"Fix the parser\"") + "\n" +
      MsgLine(u1, "", Ts(1), xstest::kUser1) + "\n" + MsgLine(a1, u1, Ts(2), xstest::kAssistant1) + "\n" +
      xstest::Line("model_change", m1, a1, Ts(3), "\"model\":\"openai/gpt-5\",\"role\":\"smol\"") + "\n" +
      MsgLine(u2, m1, Ts(4), xstest::kUser2) + "\n" +
      xstest::Line("branch_summary", b1, u1, Ts(5), "\"fromId\":\"" + std::string(u1) + "\",\"summary\":\"abandoned\"") +
      "\n";
  EXPECT_EQ(ReadFile(path), expected);
}

TEST_F(Persistence, SameSeedSameBytes) {
  // Two stores, same options: the same ids, the same file names, the same bytes.
  xstest::TempDir other_root;
  xs_store* other = xs_store_new();
  ASSERT_EQ(xs_store_open(other, other_root.path().c_str(), nullptr), XS_OK);
  auto run = [](xs_store* st, uint64_t seed, std::string* ids) {
    xs_session_options o = Opts(XS_SESSION_NO_DEFER);
    o.id_seed = seed;
    xs_session* s = nullptr;
    EXPECT_EQ(xs_session_create(st, "/w", &o, &s), XS_OK);
    if (!s) return std::string();
    char id[XS_ID_BUFSIZE];
    for (const std::string* m : {&xstest::kUser1, &xstest::kAssistant1, &xstest::kUser2}) {
      EXPECT_EQ(xs_append_message(s, m->data(), m->size(), id), XS_OK);
      *ids += id;
      *ids += ' ';
    }
    std::string path = xstest::PathOf(s);
    xs_session_close(s);
    return path;
  };
  std::string ids1, ids2, ids3;
  std::string p1 = run(store_, 7, &ids1);
  std::string p2 = run(other, 7, &ids2);
  xstest::TempDir third_root;
  xs_store* third = xs_store_new();
  ASSERT_EQ(xs_store_open(third, third_root.path().c_str(), nullptr), XS_OK);
  std::string p3 = run(third, 8, &ids3);
  xs_store_free(other);
  xs_store_free(third);

  EXPECT_EQ(ids1, ids2);
  EXPECT_NE(ids1, ids3) << "a different seed gives different ids";
  ASSERT_EQ(p1.substr(0, root_.path().size()), root_.path());
  ASSERT_EQ(p2.substr(0, other_root.path().size()), other_root.path());
  EXPECT_EQ(p1.substr(root_.path().size()), p2.substr(other_root.path().size()));
  EXPECT_EQ(ReadFile(p1), ReadFile(p2));
}

TEST_F(Persistence, ReopenGivesTheSameEntriesAndLeafIsTheLastEntry) {
  xs_session* s = Create();
  ASSERT_NE(s, nullptr);
  std::string u1 = Msg(s, xstest::kUser1);
  std::string a1 = Msg(s, xstest::kAssistant1);
  std::string u2 = Msg(s, xstest::kUser2);
  XS_ASSERT_OK(s, xs_session_set_leaf(s, a1.c_str()));
  std::string u3 = Msg(s, xstest::kUser3);  // last in file order
  XS_ASSERT_OK(s, xs_session_set_leaf(s, u2.c_str()));  // the leaf is not persisted
  std::string entries = xstest::Entries(s);
  std::string header = xstest::Header(s);
  std::string tree = xstest::Tree(s);
  std::string ctx_u3 = xstest::Context(s, u3.c_str());
  std::string ctx_u2 = xstest::Context(s, u2.c_str());
  std::string path = xstest::PathOf(s);
  std::string file = ReadFile(path);
  Close(s);

  for (uint32_t flags : {0u, static_cast<uint32_t>(XS_SESSION_READ_ONLY)}) {
    xs_session* r = Open(path, flags);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(xstest::Entries(r), entries);
    EXPECT_EQ(xstest::Header(r), header);
    EXPECT_EQ(xstest::Tree(r), tree);
    EXPECT_EQ(xstest::Leaf(r), u3) << "reopening puts the leaf at the last entry in file order";
    EXPECT_EQ(xstest::Context(r), ctx_u3);
    EXPECT_EQ(xstest::Context(r, u2.c_str()), ctx_u2);
    EXPECT_EQ(xstest::Diagnostics(r), "[]");
    std::string info = xstest::Info(r);
    EXPECT_NE(info.find("\"entryCount\":4"), std::string::npos) << info;
    EXPECT_NE(info.find("\"leafId\":\"" + u3 + "\""), std::string::npos) << info;
    Close(r);
    EXPECT_EQ(ReadFile(path), file) << "opening and closing writes nothing";
  }
}

TEST_F(Persistence, ReopenedSessionAppendsAfterTheLastEntry) {
  xs_session* s = Create(XS_SESSION_NO_DEFER);
  ASSERT_NE(s, nullptr);
  std::string u1 = Msg(s, xstest::kUser1);
  std::string path = xstest::PathOf(s);
  std::string before = ReadFile(path);
  Close(s);
  xs_session* r = Open(path);
  ASSERT_NE(r, nullptr);
  char id[XS_ID_BUFSIZE];
  XS_ASSERT_OK(r, xs_append_message(r, xstest::kAssistant1.data(), xstest::kAssistant1.size(), id));
  std::string after = ReadFile(path);
  ASSERT_EQ(after.substr(0, before.size()), before) << "existing bytes are never rewritten by an append";
  std::string line = after.substr(before.size());
  ASSERT_FALSE(line.empty());
  EXPECT_EQ(line.back(), '\n');
  std::string expected_prefix = "{\"type\":\"message\",\"id\":\"" + std::string(id) + "\",\"parentId\":\"" + u1 + "\"";
  EXPECT_EQ(line.substr(0, expected_prefix.size()), expected_prefix);
  EXPECT_NE(id, u1);
}

TEST_F(Persistence, FilesAre0600AndDirectories0700) {
  xs_session* s = Create(XS_SESSION_NO_DEFER);
  ASSERT_NE(s, nullptr);
  std::string path = xstest::PathOf(s);
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(::stat((root_.path() + "/sessions/--work-proj--").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_EQ(::stat((root_.path() + "/sessions").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
}

TEST_F(Persistence, SetTitleRewritesTheHeaderAndKeepsEntries) {
  xs_session* s = Create(XS_SESSION_NO_DEFER);
  ASSERT_NE(s, nullptr);
  std::string path = xstest::PathOf(s);
  std::string sid = xstest::JsonStr(xstest::Info(s), "id");
  std::string u1 = Msg(s, xstest::kUser1);
  std::string body = MsgLine(u1, "", Ts(1), xstest::kUser1) + "\n";

  XS_ASSERT_OK(s, xs_session_set_title(s, "My \"title\"", 10));
  EXPECT_EQ(ReadFile(path), HeaderLine(sid, Ts(0), "/work/proj", ",\"title\":\"My \\\"title\\\"\"") + "\n" + body);
  EXPECT_EQ(xstest::Header(s), HeaderLine(sid, Ts(0), "/work/proj", ",\"title\":\"My \\\"title\\\"\""));
  // Length-delimited: only the first 2 bytes.
  XS_ASSERT_OK(s, xs_session_set_title(s, "Hi there", 2));
  EXPECT_EQ(xstest::JsonStr(xstest::Header(s), "title"), "Hi");
  XS_ASSERT_OK(s, xs_session_set_title(s, nullptr, 0));
  EXPECT_EQ(ReadFile(path), HeaderLine(sid, Ts(0), "/work/proj") + "\n" + body);
  // Appends continue after the rewrite.
  char a1[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s, xs_append_message(s, xstest::kAssistant1.data(), xstest::kAssistant1.size(), a1));
  EXPECT_EQ(ReadFile(path), HeaderLine(sid, Ts(0), "/work/proj") + "\n" + body +
                                MsgLine(a1, u1, Ts(2), xstest::kAssistant1) + "\n");
}

TEST_F(Persistence, SetTitleOnADeferredSessionWritesNothing) {
  xs_session* s = Create();
  ASSERT_NE(s, nullptr);
  std::string path = xstest::PathOf(s);
  std::string sid = xstest::JsonStr(xstest::Info(s), "id");
  XS_ASSERT_OK(s, xs_session_set_title(s, "T", 1));
  EXPECT_FALSE(Exists(path));
  EXPECT_EQ(xstest::Header(s), HeaderLine(sid, Ts(0), "/work/proj", ",\"title\":\"T\""));
  char u1[XS_ID_BUFSIZE], a1[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s, xs_append_message(s, xstest::kUser1.data(), xstest::kUser1.size(), u1));
  XS_ASSERT_OK(s, xs_append_message(s, xstest::kAssistant1.data(), xstest::kAssistant1.size(), a1));
  EXPECT_EQ(ReadFile(path), HeaderLine(sid, Ts(0), "/work/proj", ",\"title\":\"T\"") + "\n" +
                                MsgLine(u1, "", Ts(1), xstest::kUser1) + "\n" +
                                MsgLine(a1, u1, Ts(2), xstest::kAssistant1) + "\n");
}

TEST_F(Persistence, OpenWithCreateMakesANewSessionAtThatPath) {
  std::string path = root_ / "sub/dir/chosen.jsonl";
  xs_session_options o = Opts(XS_SESSION_CREATE | XS_SESSION_NO_DEFER);
  o.cwd = "/elsewhere";
  o.session_id = "abc-123";
  xs_session* s = nullptr;
  ASSERT_EQ(xs_session_open(store_, path.c_str(), &o, &s), XS_OK) << xs_store_errmsg(store_);
  owned_.push_back(s);
  EXPECT_EQ(ReadFile(path), HeaderLine("abc-123", Ts(0), "/elsewhere") + "\n");
  EXPECT_EQ(xstest::PathOf(s), path);
}

TEST_F(Persistence, OpenWithCreateIsDeferredByDefault) {
  std::string path = root_ / "deferred.jsonl";
  xs_session_options o = Opts(XS_SESSION_CREATE);
  xs_session* s = nullptr;
  ASSERT_EQ(xs_session_open(store_, path.c_str(), &o, &s), XS_OK) << xs_store_errmsg(store_);
  owned_.push_back(s);
  EXPECT_FALSE(Exists(path));
  Msg(s, xstest::kUser1);
  EXPECT_FALSE(Exists(path));
  Msg(s, xstest::kAssistant1);
  EXPECT_EQ(xstest::SplitLines(ReadFile(path)).size(), 3u);
}

TEST_F(Persistence, OpenWithCreateOfAnExistingFileOpensIt) {
  xs_session* s = Create(XS_SESSION_NO_DEFER);
  ASSERT_NE(s, nullptr);
  std::string u1 = Msg(s, xstest::kUser1);
  std::string path = xstest::PathOf(s);
  std::string file = ReadFile(path);
  Close(s);
  xs_session* r = Open(path, XS_SESSION_CREATE);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(xstest::Leaf(r), u1);
  EXPECT_EQ(ReadFile(path), file);
}

TEST_F(Persistence, SyncFlagAndFlush) {
  xs_session* s = Create(XS_SESSION_SYNC | XS_SESSION_NO_DEFER);
  ASSERT_NE(s, nullptr);
  std::string path = xstest::PathOf(s);
  Msg(s, xstest::kUser1);
  XS_ASSERT_OK(s, xs_session_flush(s));
  EXPECT_EQ(xstest::SplitLines(ReadFile(path)).size(), 2u);
}

TEST_F(Persistence, TornTailGetsANewlineBeforeTheNextAppend) {
  xs_session* s = Create(XS_SESSION_NO_DEFER);
  ASSERT_NE(s, nullptr);
  std::string u1 = Msg(s, xstest::kUser1);
  std::string path = xstest::PathOf(s);
  Close(s);
  std::string fragment = R"({"type":"message","id":"torn","par)";
  std::string before = ReadFile(path) + fragment;
  xstest::WriteFile(path, before);

  xs_session* r = Open(path);
  ASSERT_NE(r, nullptr);
  std::string diags = xstest::Diagnostics(r);
  EXPECT_NE(diags.find("\"code\":\"incomplete_tail\""), std::string::npos) << diags;
  EXPECT_EQ(xstest::Leaf(r), u1);
  char id[XS_ID_BUFSIZE];
  XS_ASSERT_OK(r, xs_append_message(r, xstest::kUser2.data(), xstest::kUser2.size(), id));
  std::string after = ReadFile(path);
  ASSERT_EQ(after.substr(0, before.size()), before) << "the fragment stays byte for byte";
  std::string rest = after.substr(before.size());
  ASSERT_FALSE(rest.empty());
  EXPECT_EQ(rest[0], '\n') << "a newline first, so the entry is not glued onto the fragment";
  Close(r);
  // The new entry survives a reload.
  xs_session* again = Open(path, XS_SESSION_READ_ONLY);
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(xstest::Leaf(again), std::string(id));
}

}  // namespace
