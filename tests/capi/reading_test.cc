// The read family: the context (docs/context.md: oh-my-pi 13's shape plus leafId), entries, the
// paths from the root, children, the tree, labels, diagnostics, info and usage.
#include <string>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;
using xstest::kAssistant1;
using xstest::kAssistant2;
using xstest::kUser1;
using xstest::kUser2;
using xstest::kUser3;
using xstest::Ms;

std::string Ctx(const std::string& leaf, const std::string& messages, const std::string& rest) {
  return "{\"leafId\":\"" + leaf + "\",\"messages\":[" + messages + "]," + rest + "}";
}
const char kNoState[] = R"("thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none")";
const char kClaude[] =
    R"("thinkingLevel":"off","models":{"default":"anthropic/claude-x"},"injectedTtsrRules":[],"mode":"none")";

class Reading : public CapiTest {
 protected:
  void SetUp() override {
    CapiTest::SetUp();
    s_ = Create();
    ASSERT_NE(s_, nullptr);
  }
  xs_session* s_ = nullptr;
};

// --- context ----------------------------------------------------------------------------------

TEST_F(Reading, ContextFollowsTheBranchToTheLeaf) {
  std::string u1 = Msg(s_, kUser1), a1 = Msg(s_, kAssistant1), u2 = Msg(s_, kUser2), a2 = Msg(s_, kAssistant2);
  EXPECT_EQ(xstest::Context(s_), Ctx(a2, kUser1 + "," + kAssistant1 + "," + kUser2 + "," + kAssistant2, kClaude));
  XS_ASSERT_OK(s_, xs_session_set_leaf(s_, a1.c_str()));
  EXPECT_EQ(xstest::Leaf(s_), a1);
  EXPECT_EQ(xstest::Context(s_), Ctx(a1, kUser1 + "," + kAssistant1, kClaude));
  std::string u3 = Msg(s_, kUser3);
  EXPECT_EQ(xstest::Context(s_), Ctx(u3, kUser1 + "," + kAssistant1 + "," + kUser3, kClaude));
  // An explicit leaf on the other branch.
  EXPECT_EQ(xstest::Context(s_, a2.c_str()),
            Ctx(a2, kUser1 + "," + kAssistant1 + "," + kUser2 + "," + kAssistant2, kClaude));
  EXPECT_EQ(xstest::Context(s_, u1.c_str()), Ctx(u1, kUser1, kNoState));
  // The path matches.
  std::string path = xstest::PathEntries(s_);
  EXPECT_EQ(xstest::Count(path, "\"type\":\"message\""), 3u);
  EXPECT_EQ(path, "[" + xstest::Entry(s_, u1) + "," + xstest::Entry(s_, a1) + "," + xstest::Entry(s_, u3) + "]");
  EXPECT_EQ(xstest::PathEntries(s_, a2.c_str()), "[" + xstest::Entry(s_, u1) + "," + xstest::Entry(s_, a1) + "," +
                                                   xstest::Entry(s_, u2) + "," + xstest::Entry(s_, a2) + "]");
}

TEST_F(Reading, ContextFoldsStateAlongThePath) {
  std::string u1 = Msg(s_, kUser1);
  XS_ASSERT_OK(s_, xs_append_thinking_level(s_, "high", nullptr));
  XS_ASSERT_OK(s_, xs_append_model_change(s_, "openai/gpt-5", nullptr, nullptr));
  std::string a1 = Msg(s_, kAssistant1);  // overrides models.default
  XS_ASSERT_OK(s_, xs_append_model_change(s_, "openai/mini", "smol", nullptr));
  XS_ASSERT_OK(s_, xs_append_ttsr_injection(s_, R"(["r1","r2"])", 11, nullptr));
  XS_ASSERT_OK(s_, xs_append_ttsr_injection(s_, R"(["r2","r3"])", 11, nullptr));
  XS_ASSERT_OK(s_, xs_append_mode_change(s_, "plan", R"({"step":1})", 10, nullptr));
  XS_ASSERT_OK(s_, xs_append_custom(s_, "ext", R"({"k":1})", 7, nullptr));  // never part of the context
  std::string u2 = Msg(s_, kUser2);
  EXPECT_EQ(xstest::Context(s_),
            Ctx(u2, kUser1 + "," + kAssistant1 + "," + kUser2,
                R"("thinkingLevel":"high","models":{"default":"anthropic/claude-x","smol":"openai/mini"},)"
                R"("injectedTtsrRules":["r1","r2","r3"],"mode":"plan","modeData":{"step":1})"));
  // A later model_change overrides the assistant's model; a null level is "off"; leaving a mode.
  XS_ASSERT_OK(s_, xs_append_model_change(s_, "google/gemini", nullptr, nullptr));
  XS_ASSERT_OK(s_, xs_append_thinking_level(s_, nullptr, nullptr));
  char last[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s_, xs_append_mode_change(s_, "none", nullptr, 0, last));
  EXPECT_EQ(xstest::Context(s_),
            Ctx(last, kUser1 + "," + kAssistant1 + "," + kUser2,
                R"("thinkingLevel":"off","models":{"default":"google/gemini","smol":"openai/mini"},)"
                R"("injectedTtsrRules":["r1","r2","r3"],"mode":"none")"));
  // State before the branch point only: the context at a1.
  EXPECT_EQ(xstest::Context(s_, a1.c_str()),
            Ctx(a1, kUser1 + "," + kAssistant1,
                R"("thinkingLevel":"high","models":{"default":"anthropic/claude-x"},"injectedTtsrRules":[],"mode":"none")"));
}

TEST_F(Reading, ContextWithCompaction) {
  // Clock: header 0, u1 1, a1 2, u2 3, a2 4, compaction 5, u3 6.
  std::string u1 = Msg(s_, kUser1), a1 = Msg(s_, kAssistant1), u2 = Msg(s_, kUser2), a2 = Msg(s_, kAssistant2);
  xs_compaction c;
  ASSERT_EQ(xs_compaction_init(&c, XS_COMPACTION_VERSION), XS_OK);
  c.summary = "Earlier work";
  c.summary_len = 12;
  c.short_summary = "short";
  c.short_summary_len = 5;
  c.first_kept_entry_id = u2.c_str();
  c.tokens_before = 4242;
  char cid[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s_, xs_append_compaction(s_, &c, cid));
  std::string u3 = Msg(s_, kUser3);
  std::string summary = R"({"role":"compactionSummary","summary":"Earlier work","shortSummary":"short",)"
                        R"("tokensBefore":4242,"timestamp":)" + Ms(5) + "}";
  EXPECT_EQ(xstest::Context(s_), Ctx(u3, summary + "," + kUser2 + "," + kAssistant2 + "," + kUser3, kClaude));
  // A leaf before the compaction sees the full history.
  EXPECT_EQ(xstest::Context(s_, a2.c_str()),
            Ctx(a2, kUser1 + "," + kAssistant1 + "," + kUser2 + "," + kAssistant2, kClaude));
}

TEST_F(Reading, ContextWithCompactionWhoseKeptIdIsNotOnThePath) {
  Msg(s_, kUser1);
  Msg(s_, kAssistant1);
  xs_compaction c;
  ASSERT_EQ(xs_compaction_init(&c, XS_COMPACTION_VERSION), XS_OK);
  c.summary = "S";
  c.summary_len = 1;
  c.first_kept_entry_id = "bogus";
  c.tokens_before = 1;
  XS_ASSERT_OK(s_, xs_append_compaction(s_, &c, nullptr));  // clock 3
  std::string u2 = Msg(s_, kUser2);
  EXPECT_EQ(xstest::Context(s_),
            Ctx(u2, R"({"role":"compactionSummary","summary":"S","tokensBefore":1,"timestamp":)" + Ms(3) + "}," + kUser2,
                kClaude));
}

TEST_F(Reading, ContextWithBranchSummaryAndCustomMessage) {
  std::string u1 = Msg(s_, kUser1), a1 = Msg(s_, kAssistant1);  // clock 1, 2
  Msg(s_, kUser2);                                               // 3
  char b1[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s_, xs_session_branch_with_summary(s_, a1.c_str(), "tried X", 7, nullptr, 0, XS_UNSET, b1));  // 4
  xs_custom_message m;
  ASSERT_EQ(xs_custom_message_init(&m, XS_CUSTOM_MESSAGE_VERSION), XS_OK);
  m.custom_type = "note";
  m.content_json = "\"hello\"";
  m.content_len = 7;
  m.display = 0;  // still part of the context
  m.details_json = "{\"x\":true}";
  m.details_len = 10;
  char cm[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s_, xs_append_custom_message(s_, &m, cm));  // 5
  XS_ASSERT_OK(s_, xs_append_label(s_, u1.c_str(), "first", nullptr));  // 6, not a message
  std::string expected_msgs =
      kUser1 + "," + kAssistant1 + "," + R"({"role":"branchSummary","summary":"tried X","fromId":")" + a1 +
      R"(","timestamp":)" + Ms(4) + "}," +
      R"({"role":"custom","customType":"note","content":"hello","display":false,"details":{"x":true},)"
      R"("attribution":"agent","timestamp":)" + Ms(5) + "}";
  EXPECT_EQ(xstest::Context(s_), Ctx(xstest::Leaf(s_), expected_msgs, kClaude));
}

TEST_F(Reading, EmptyBranchSummaryIsNotAMessage) {
  std::string u1 = Msg(s_, kUser1);
  char b1[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s_, xs_session_branch_with_summary(s_, u1.c_str(), "", 0, nullptr, 0, XS_UNSET, b1));
  EXPECT_EQ(xstest::Context(s_), Ctx(b1, kUser1, kNoState));
}

TEST_F(Reading, RootBranchSummaryStartsANewTree) {
  Msg(s_, kUser1);
  char b1[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s_, xs_session_branch_with_summary(s_, nullptr, "restart", 7, nullptr, 0, 1, b1));  // clock 2
  EXPECT_EQ(xstest::Context(s_),
            Ctx(b1, R"({"role":"branchSummary","summary":"restart","fromId":"root","timestamp":)" + Ms(2) + "}",
                kNoState));
  EXPECT_EQ(xstest::PathEntries(s_), "[" + xstest::Entry(s_, b1) + "]");
}

TEST_F(Reading, UnknownEntryTypesAreKeptButNotInTheContext) {
  std::string u1 = Msg(s_, kUser1);
  std::string x = Append(s_, R"({"type":"future_thing","payload":[1,2,3]})");
  std::string u2 = Msg(s_, kUser2);
  EXPECT_EQ(xstest::Context(s_), Ctx(u2, kUser1 + "," + kUser2, kNoState));
  EXPECT_EQ(xstest::Children(s_, u1), "[" + xstest::Entry(s_, x) + "]");
}

// --- tree, children, labels -------------------------------------------------------------------

TEST_F(Reading, TreeIsDepthFirstWithChildrenOldestFirst) {
  std::string u1 = Msg(s_, kUser1);   // clock 1
  std::string a1 = Msg(s_, kAssistant1);  // 2
  XS_ASSERT_OK(s_, xs_session_set_leaf(s_, u1.c_str()));
  std::string a2 = Msg(s_, kAssistant2);  // 3: second child of u1
  XS_ASSERT_OK(s_, xs_session_set_leaf(s_, nullptr));
  std::string r2 = Msg(s_, kUser3);  // 4: a second root
  XS_ASSERT_OK(s_, xs_session_set_leaf(s_, a1.c_str()));
  std::string u2 = Msg(s_, kUser2);  // 5: child of a1
  std::string e_u1 = xstest::Entry(s_, u1), e_a1 = xstest::Entry(s_, a1), e_a2 = xstest::Entry(s_, a2),
              e_r2 = xstest::Entry(s_, r2), e_u2 = xstest::Entry(s_, u2);
  EXPECT_EQ(xstest::Tree(s_),
            "[{\"id\":\"" + u1 + "\",\"parentId\":null,\"depth\":0,\"children\":[\"" + a1 + "\",\"" + a2 +
                "\"],\"entry\":" + e_u1 + "}," + "{\"id\":\"" + a1 + "\",\"parentId\":\"" + u1 +
                "\",\"depth\":1,\"children\":[\"" + u2 + "\"],\"entry\":" + e_a1 + "}," + "{\"id\":\"" + u2 +
                "\",\"parentId\":\"" + a1 + "\",\"depth\":2,\"children\":[],\"entry\":" + e_u2 + "}," +
                "{\"id\":\"" + a2 + "\",\"parentId\":\"" + u1 + "\",\"depth\":1,\"children\":[],\"entry\":" + e_a2 +
                "}," + "{\"id\":\"" + r2 + "\",\"parentId\":null,\"depth\":0,\"children\":[],\"entry\":" + e_r2 +
                "}]");
  EXPECT_EQ(xstest::Children(s_, u1), "[" + e_a1 + "," + e_a2 + "]");
  EXPECT_EQ(xstest::Children(s_, u2), "[]");
  EXPECT_EQ(xstest::Entries(s_), "[" + e_u1 + "," + e_a1 + "," + e_a2 + "," + e_r2 + "," + e_u2 + "]");
}

TEST_F(Reading, TreeChildrenSortedByTimestampNotFileOrder) {
  // Caller timestamps: the second child in the file is older, so it comes first.
  ASSERT_EQ(Append(s_, R"({"type":"n","id":"root","timestamp":"2026-01-01T00:00:00.000Z"})"), "root");
  ASSERT_EQ(Append(s_, R"({"type":"n","id":"late","timestamp":"2026-01-01T00:00:09.000Z"})"), "late");
  XS_ASSERT_OK(s_, xs_session_set_leaf(s_, "root"));
  ASSERT_EQ(Append(s_, R"({"type":"n","id":"early","timestamp":"2026-01-01T00:00:01.000Z"})"), "early");
  std::string tree = xstest::Tree(s_);
  EXPECT_NE(tree.find(R"("children":["early","late"])"), std::string::npos) << tree;
  EXPECT_LT(tree.find(R"({"id":"early")"), tree.find(R"({"id":"late")")) << tree;
  // children() is in file order.
  EXPECT_EQ(xstest::Children(s_, "root"), "[" + xstest::Entry(s_, "late") + "," + xstest::Entry(s_, "early") + "]");
}

TEST_F(Reading, LabelsAreGlobalLastOneWinsInFirstSetOrder) {
  std::string u1 = Msg(s_, kUser1);  // 1
  std::string a1 = Msg(s_, kAssistant1);  // 2
  XS_ASSERT_OK(s_, xs_append_label(s_, u1.c_str(), "one", nullptr));  // 3
  XS_ASSERT_OK(s_, xs_append_label(s_, a1.c_str(), "two", nullptr));  // 4
  char l5[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s_, xs_append_label(s_, u1.c_str(), "uno", l5));  // 5
  EXPECT_EQ(xstest::Labels(s_), "[{\"targetId\":\"" + u1 + "\",\"label\":\"uno\",\"timestamp\":\"" + xstest::Ts(5) +
                                    "\"},{\"targetId\":\"" + a1 + "\",\"label\":\"two\",\"timestamp\":\"" +
                                    xstest::Ts(4) + "\"}]");
  // Labels on the tree nodes.
  std::string tree = xstest::Tree(s_);
  EXPECT_NE(tree.find("{\"id\":\"" + u1 + "\",\"parentId\":null,\"depth\":0,\"children\":[\"" + a1 +
                      "\"],\"label\":\"uno\",\"labelTimestamp\":\"" + xstest::Ts(5) + "\",\"entry\":"),
            std::string::npos)
      << tree;
  // Clearing; the label entry is a child of the previous leaf and becomes the leaf.
  char l6[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s_, xs_append_label(s_, u1.c_str(), nullptr, l6));  // 6
  EXPECT_EQ(xstest::Labels(s_), "[{\"targetId\":\"" + a1 + "\",\"label\":\"two\",\"timestamp\":\"" + xstest::Ts(4) +
                                    "\"}]");
  EXPECT_EQ(xstest::Leaf(s_), l6);
  EXPECT_EQ(xstest::Entry(s_, l6), xstest::Line("label", l6, l5, xstest::Ts(6), "\"targetId\":\"" + u1 + "\""));
  // An empty label clears too (JavaScript truthiness).
  XS_ASSERT_OK(s_, xs_append_label(s_, a1.c_str(), "", nullptr));
  EXPECT_EQ(xstest::Labels(s_), "[]");
}

TEST_F(Reading, EntryAndChildrenOfUnknownIdsAreNotFound) {
  Msg(s_, kUser1);
  size_t n = 0;
  EXPECT_EQ(xs_session_entry(s_, "nope", 0, nullptr, 0, &n), XS_ENOTFOUND);
  EXPECT_STRNE(xs_session_errmsg(s_), "");
  EXPECT_EQ(xs_session_children(s_, "nope", 0, nullptr, 0, &n), XS_ENOTFOUND);
  EXPECT_EQ(xs_session_path(s_, "nope", 0, nullptr, 0, &n), XS_ENOTFOUND);
  EXPECT_EQ(xs_session_entry(s_, "", 0, nullptr, 0, &n), XS_ENOTFOUND);  // any string is just "not found"
}

// --- info, usage, header ----------------------------------------------------------------------

TEST_F(CapiTest, InfoFieldsInOrder) {
  xs_session_options o = Opts(XS_SESSION_NO_DEFER);
  o.title = "T";
  o.parent_session = "/prev/session.jsonl";
  o.session_id = "sid-1";
  xs_session* s = Create(&o);
  ASSERT_NE(s, nullptr);
  std::string u1 = Msg(s, xstest::kUser1);
  std::string path = root_.path() + "/sessions/--work-proj--/" + xstest::FileName(xstest::Ts(0), "sid-1");
  std::string prefix = "{\"id\":\"sid-1\",\"path\":\"" + path + "\",\"cwd\":\"/work/proj\",\"timestamp\":\"" +
                       xstest::Ts(0) +
                       "\",\"title\":\"T\",\"parentSession\":\"/prev/session.jsonl\",\"version\":3,"
                       "\"dialect\":\"omp\",\"entryCount\":1,\"leafId\":\"" + u1 + "\",\"persisted\":true,\"readOnly\":false,"
                       "\"archived\":false,\"diagnostics\":";
  std::string info = xstest::Info(s);
  ASSERT_EQ(info.substr(0, prefix.size()), prefix);
  std::string rest = info.substr(prefix.size());
  EXPECT_EQ(rest, "0,\"entryTypes\":{\"message\":1}}");
}

TEST_F(CapiTest, InfoOfAReadOnlyOpen) {
  xs_session* s = Create(XS_SESSION_NO_DEFER);
  ASSERT_NE(s, nullptr);
  std::string path = xstest::PathOf(s);
  Close(s);
  xs_session* r = Open(path, XS_SESSION_READ_ONLY);
  ASSERT_NE(r, nullptr);
  std::string info = xstest::Info(r);
  EXPECT_NE(info.find("\"readOnly\":true"), std::string::npos) << info;
  EXPECT_NE(info.find("\"persisted\":true"), std::string::npos) << info;
  EXPECT_NE(info.find("\"entryCount\":0,\"leafId\":null"), std::string::npos) << info;
  EXPECT_NE(info.find("\"title\":null"), std::string::npos) << "absent title: " << info;
}

TEST_F(CapiTest, UsageAddsUpAssistantMessages) {
  xs_session* s = Create();
  ASSERT_NE(s, nullptr);
  Msg(s, xstest::kUser1);
  Msg(s, R"({"role":"assistant","content":[],"provider":"p","model":"m","usage":{"input":10,"output":20,)"
         R"("cacheRead":5,"cacheWrite":1,"premiumRequests":1,"cost":{"total":0.25}}})");
  Msg(s, R"({"role":"assistant","content":[],"usage":{"input":1,"output":2,"cacheRead":3,"cacheWrite":4,)"
         R"("cost":{"total":0.5}}})");
  Msg(s, R"({"role":"assistant","content":[]})");  // counted, no usage
  Msg(s, R"({"role":"user","content":"x","usage":{"input":1000}})");  // not an assistant: ignored
  EXPECT_EQ(xstest::Usage(s),
            R"({"input":11,"output":22,"cacheRead":8,"cacheWrite":5,"premiumRequests":1,"cost":0.75,"assistantMessages":3})");
}

// --- diagnostics, loading foreign files -------------------------------------------------------

TEST_F(CapiTest, DiagnosticsReportSkippedLinesAndKeepTheirBytes) {
  std::string header = R"({"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"})";
  std::string e1 = R"({"type":"message","id":"e1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"a"}})";
  std::string bad = R"({"type":"message","id":"x",)";
  std::string notype = R"({"id":"e9","parentId":"e1"})";
  std::string badutf8 = "{\"type\":\"message\",\"id\":\"u\",\"message\":{\"role\":\"user\",\"content\":\"\xff\"}}";
  std::string e2 = R"({"type":"message","id":"e2","parentId":"e1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"user","content":"b"}})";
  std::string file = header + "\n" + e1 + "\n" + bad + "\n" + notype + "\n" + badutf8 + "\n" + e2 + "\n";
  std::string path = root_ / "foreign.jsonl";
  xstest::WriteFile(path, file);

  xs_session* r = Open(path, XS_SESSION_READ_ONLY);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(xstest::Entries(r), "[" + e1 + "," + e2 + "]");
  EXPECT_EQ(xstest::Leaf(r), "e2");
  std::string d = xstest::Diagnostics(r);
  size_t off_bad = header.size() + 1 + e1.size() + 1;
  size_t off_notype = off_bad + bad.size() + 1;
  size_t off_utf8 = off_notype + notype.size() + 1;
  EXPECT_NE(d.find("{\"line\":3,\"offset\":" + std::to_string(off_bad) + ",\"length\":" + std::to_string(bad.size()) +
                   ",\"code\":\"invalid_json\",\"reason\":"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("{\"line\":4,\"offset\":" + std::to_string(off_notype) + ",\"length\":" +
                   std::to_string(notype.size()) + ",\"code\":\"no_type\",\"reason\":"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("{\"line\":5,\"offset\":" + std::to_string(off_utf8) + ",\"length\":" +
                   std::to_string(badutf8.size()) + ",\"code\":\"invalid_utf8\",\"reason\":"),
            std::string::npos)
      << d;
  EXPECT_EQ(xstest::Count(d, "\"line\":"), 3u) << d;
  Close(r);
  EXPECT_EQ(xstest::ReadFile(path), file);

  // A writable open and a rewrite (set_title) keep the skipped lines byte for byte.
  xs_session* w = Open(path);
  ASSERT_NE(w, nullptr);
  XS_ASSERT_OK(w, xs_session_set_title(w, "T", 1));
  std::string after = xstest::ReadFile(path);
  EXPECT_EQ(after, R"({"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w","title":"T"})"
                   "\n" + e1 + "\n" + bad + "\n" + notype + "\n" + badutf8 + "\n" + e2 + "\n");
}

TEST_F(CapiTest, LoneSurrogateInAFileLoadsAndKeepsItsBytes) {
  std::string header = R"({"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"})";
  std::string msg = R"({"role":"user","content":"half \ud83d pair"})";
  std::string e1 = R"({"type":"message","id":"e1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":)" + msg + "}";
  std::string path = root_ / "surrogate.jsonl";
  xstest::WriteFile(path, header + "\n" + e1 + "\n");
  xs_session* r = Open(path, XS_SESSION_READ_ONLY);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(xstest::Diagnostics(r), "[]");
  EXPECT_EQ(xstest::Entry(r, "e1"), e1);
  EXPECT_EQ(xstest::Context(r), Ctx("e1", msg, kNoState));
}

TEST_F(CapiTest, V2FileIsMigratedInMemoryAndRewrittenOnlyByAWritableOpen) {
  std::string file =
      R"({"type":"session","version":2,"id":"old","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w"})" "\n"
      R"({"type":"message","id":"m1","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}})" "\n";
  std::string path = root_ / "v2.jsonl";
  xstest::WriteFile(path, file);
  xs_session* r = Open(path, XS_SESSION_READ_ONLY);
  ASSERT_NE(r, nullptr);
  EXPECT_NE(xstest::Info(r).find("\"version\":3"), std::string::npos) << xstest::Info(r);
  EXPECT_EQ(xstest::Leaf(r), "m1");
  Close(r);
  EXPECT_EQ(xstest::ReadFile(path), file) << "a read-only open never writes (not even a migration)";

  xs_session* w = Open(path);
  ASSERT_NE(w, nullptr);
  std::string after = xstest::ReadFile(path);
  EXPECT_NE(after, file) << "a writable open rewrites a migrated file at once";
  EXPECT_NE(xstest::SplitLines(after)[0].find("\"version\":3"), std::string::npos) << after;
  EXPECT_EQ(xstest::SplitLines(after)[1],
            R"({"type":"message","id":"m1","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}})");
}

TEST_F(CapiTest, WritableOpenOfAHeaderlessFilePreservesItsBytes) {
  std::string junk = "this is not a session\n{\"type\":\"message\",\"id\":\"m\"}\n";
  std::string path = root_ / "junk.jsonl";
  xstest::WriteFile(path, junk);
  xs_session* w = Open(path);
  ASSERT_NE(w, nullptr);
  std::string d = xstest::Diagnostics(w);
  EXPECT_NE(d.find("\"code\":\"corrupt_file_preserved\""), std::string::npos) << d;
  EXPECT_EQ(xstest::Entries(w), "[]");
  // A fresh header in its place; the old bytes beside it as <path>.corrupt-<time>.
  std::string fresh = xstest::ReadFile(path);
  const std::string start = R"({"type":"session","version":3,"id":")";
  EXPECT_EQ(fresh.substr(0, start.size()), start);
  EXPECT_EQ(xstest::SplitLines(fresh).size(), 1u);
  int preserved = 0;
  for (const std::string& name : xstest::ListDir(root_.path())) {
    if (name.rfind("junk.jsonl.corrupt-", 0) == 0) {
      ++preserved;
      EXPECT_EQ(xstest::ReadFile(root_ / name), junk);
    }
  }
  EXPECT_EQ(preserved, 1);
}

}  // namespace
