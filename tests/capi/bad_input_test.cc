// Bad input through the C API. Each case checks the exact status, that the error text is set,
// that nothing was written (file bytes, entries, leaf unchanged) and that the session still works
// afterwards (the next valid append lands as exactly one more line).
#include <string>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;

// The bytes of a literal, embedded NULs included.
template <size_t N>
std::string Bytes(const char (&lit)[N]) {
  return std::string(lit, N - 1);
}

class BadInput : public CapiTest {
 protected:
  void SetUp() override {
    CapiTest::SetUp();
    s_ = Create();
    ASSERT_NE(s_, nullptr);
    u1_ = Msg(s_, xstest::kUser1);
    a1_ = Msg(s_, xstest::kAssistant1);  // on disk from here
    path_ = xstest::PathOf(s_);
    Snapshot();
  }
  void TearDown() override {
    if (s_ && !HasFatalFailure()) StillWorks();
    CapiTest::TearDown();
  }
  void Snapshot() {
    file_ = xstest::ReadFile(path_);
    entries_ = xstest::Entries(s_);
    leaf_ = xstest::Leaf(s_);
  }
  // The refused call returned `want`, said why, and changed nothing.
  void Refused(xs_status got, xs_status want, const std::string& what) {
    EXPECT_EQ(got, want) << what << ": got " << xs_status_str(got) << " (" << xs_session_errmsg(s_) << ")";
    EXPECT_EQ(xs_session_errcode(s_), want) << what;
    EXPECT_STRNE(xs_session_errmsg(s_), "") << what;
    EXPECT_EQ(xstest::ReadFile(path_), file_) << what << ": the file changed";
    EXPECT_EQ(xstest::Entries(s_), entries_) << what << ": the entries changed";
    EXPECT_EQ(xstest::Leaf(s_), leaf_) << what << ": the leaf moved";
  }
  void RefusedMessage(const std::string& json, xs_status want, const std::string& what) {
    char id[XS_ID_BUFSIZE] = "untouched";
    Refused(xs_append_message(s_, json.data(), json.size(), id), want, what);
  }
  void RefusedEntry(const std::string& json, xs_status want, const std::string& what) {
    char id[XS_ID_BUFSIZE] = "untouched";
    Refused(xs_append(s_, json.data(), json.size(), id), want, what);
  }
  // A valid append after the refusals: exactly one more line, parented on the unchanged leaf.
  void StillWorks() {
    std::string before = xstest::ReadFile(path_);
    char id[XS_ID_BUFSIZE];
    xs_status st = xs_append_message(s_, xstest::kUser2.data(), xstest::kUser2.size(), id);
    ASSERT_EQ(st, XS_OK) << xs_session_errmsg(s_);
    EXPECT_STREQ(xs_session_errmsg(s_), "");
    std::string after = xstest::ReadFile(path_);
    ASSERT_EQ(after.substr(0, before.size()), before);
    auto added = xstest::SplitLines(after.substr(before.size()));
    ASSERT_EQ(added.size(), 1u);
    EXPECT_EQ(xstest::JsonStr(added[0], "parentId"), leaf_);
    EXPECT_EQ(xstest::Leaf(s_), std::string(id));
  }

  xs_session* s_ = nullptr;
  std::string u1_, a1_, path_, file_, entries_, leaf_;
};

// --- malformed JSON ---------------------------------------------------------------------------

TEST_F(BadInput, MalformedJsonMessageTruncated) {
  RefusedMessage(R"({"role":"user","content":"x")", XS_EINVAL, "unterminated object");
  RefusedMessage(R"({"role":"user","content":"x)", XS_EINVAL, "unterminated string");
}

TEST_F(BadInput, MalformedJsonMessageTrailingGarbage) {
  RefusedMessage(R"({"role":"user","content":"x"} x)", XS_EINVAL, "garbage after the value");
  RefusedMessage(R"({"role":"user"}{"role":"user"})", XS_EINVAL, "two values");
}

TEST_F(BadInput, MalformedJsonMessageGrammar) {
  RefusedMessage(R"({"role":"user","content":"x",})", XS_EINVAL, "trailing comma");
  RefusedMessage(R"({'role':'user'})", XS_EINVAL, "single quotes");
  RefusedMessage(R"({role:"user"})", XS_EINVAL, "bare key");
  RefusedMessage(R"({"role":"user","n":01})", XS_EINVAL, "leading zero");
  RefusedMessage(R"({"role":"user","n":NaN})", XS_EINVAL, "NaN");
  RefusedMessage(R"({"role":"user","c":"\x"})", XS_EINVAL, "bad escape");
  RefusedMessage(R"({"role":"user","c":"\u12"})", XS_EINVAL, "short \\u escape");
  // Short escapes that begin like a surrogate: a surrogate half needs all four hex digits, so these
  // are malformed and refused, never stored as a line JSON.parse rejects
  // (fuzz/regressions/README.md).
  RefusedMessage(R"({"role":"user","content":"\ud8" n\udda"an"})", XS_EINVAL, "short surrogate escapes");
  RefusedMessage(R"({"role":"user","content":"\udc"})", XS_EINVAL, "short low surrogate escape");
  RefusedEntry(R"({"type":"custom","customType":"c","data":["\uDBF","\uDBFF"]})", XS_EINVAL, "short escape");
  RefusedMessage(std::string("{\"role\":\"user\",\"c\":\"a\tb\"}"), XS_EINVAL, "raw control char in a string");
}

TEST_F(BadInput, EmptyOrBlankJson) {
  RefusedMessage("", XS_EINVAL, "empty text");
  RefusedMessage("   \n\t ", XS_EINVAL, "whitespace only");
  RefusedEntry("", XS_EINVAL, "empty entry");
}

TEST_F(BadInput, LengthIsHonouredNotNulTermination) {
  // The text is (pointer, length): a valid object cut short by `len` is malformed.
  std::string json = xstest::kUser2;
  char id[XS_ID_BUFSIZE];
  Refused(xs_append_message(s_, json.data(), json.size() - 1, id), XS_EINVAL, "len one short");
}

TEST_F(BadInput, MalformedJsonEntry) {
  RefusedEntry(R"({"type":"x",)", XS_EINVAL, "truncated entry");
  RefusedEntry(R"({"type":"x"}])", XS_EINVAL, "stray bracket");
}

TEST_F(BadInput, MalformedJsonInValueArguments) {
  char id[XS_ID_BUFSIZE];
  Refused(xs_append_custom(s_, "ext", "{\"a\":", 5, id), XS_EINVAL, "custom data");
  Refused(xs_append_mode_change(s_, "plan", "[1,", 3, id), XS_EINVAL, "mode data");
  Refused(xs_append_ttsr_injection(s_, "[\"a\"", 4, id), XS_EINVAL, "ttsr rules");
  Refused(xs_session_branch_with_summary(s_, u1_.c_str(), "s", 1, "{", 1, XS_UNSET, id), XS_EINVAL,
          "branch summary details");
  xs_compaction c;
  ASSERT_EQ(xs_compaction_init(&c, XS_COMPACTION_VERSION), XS_OK);
  c.summary = "s";
  c.summary_len = 1;
  c.first_kept_entry_id = u1_.c_str();
  c.details_json = "{x}";
  c.details_len = 3;
  Refused(xs_append_compaction(s_, &c, id), XS_EINVAL, "compaction details");
  c.details_json = nullptr;
  c.preserve_data_json = "tru";
  c.preserve_data_len = 3;
  Refused(xs_append_compaction(s_, &c, id), XS_EINVAL, "compaction preserveData");
  xs_custom_message m;
  ASSERT_EQ(xs_custom_message_init(&m, XS_CUSTOM_MESSAGE_VERSION), XS_OK);
  m.custom_type = "t";
  m.content_json = "\"unterminated";
  m.content_len = 13;
  Refused(xs_append_custom_message(s_, &m, id), XS_EINVAL, "custom message content");
  xs_session_init_entry si;
  ASSERT_EQ(xs_session_init_entry_init(&si, XS_SESSION_INIT_ENTRY_VERSION), XS_OK);
  si.system_prompt = "p";
  si.system_prompt_len = 1;
  si.task = "t";
  si.task_len = 1;
  si.tools_json = "[read]";
  si.tools_len = 6;
  Refused(xs_append_session_init(s_, &si, id), XS_EINVAL, "session init tools");
}

// --- valid JSON, wrong shape ------------------------------------------------------------------

TEST_F(BadInput, TopLevelArrayEntry) {
  RefusedEntry(R"([{"type":"x"}])", XS_EINVAL, "array entry");
}

TEST_F(BadInput, TopLevelArrayOrScalarMessage) {
  RefusedMessage("[" + xstest::kUser2 + "]", XS_EINVAL, "array message");
  RefusedMessage(R"("user")", XS_EINVAL, "string message");
  RefusedMessage("null", XS_EINVAL, "null message");
  RefusedMessage("42", XS_EINVAL, "number message");
}

TEST_F(BadInput, EntryWithoutType) {
  RefusedEntry(R"({"id":"abc","message":{"role":"user"}})", XS_EINVAL, "no type");
  RefusedEntry(R"({"type":5})", XS_EINVAL, "numeric type");
  RefusedEntry(R"({"type":null})", XS_EINVAL, "null type");
}

TEST_F(BadInput, MessageThatIsNotAnObject) {
  RefusedEntry(R"({"type":"message","message":"hello"})", XS_EINVAL, "string message");
  RefusedEntry(R"({"type":"message","message":[{"role":"user"}]})", XS_EINVAL, "array message");
  RefusedEntry(R"({"type":"message","message":null})", XS_EINVAL, "null message");
}

TEST_F(BadInput, MessageWithoutStringRole) {
  RefusedMessage(R"({"content":"x"})", XS_EINVAL, "no role");
  RefusedMessage(R"({"role":5,"content":"x"})", XS_EINVAL, "numeric role");
  RefusedMessage(R"({"role":null,"content":"x"})", XS_EINVAL, "null role");
  RefusedMessage(R"({"role":["user"]})", XS_EINVAL, "array role");
}

TEST_F(BadInput, MessageEntryWithoutStringRole) {
  // The same message through the generic append: a message entry's message is an AgentMessage.
  RefusedEntry(R"({"type":"message","message":{"content":"x"}})", XS_EINVAL, "no role (xs_append)");
  RefusedEntry(R"({"type":"message","message":{"role":1}})", XS_EINVAL, "numeric role (xs_append)");
}

TEST_F(BadInput, SessionHeaderAsAnEntry) {
  RefusedEntry(R"({"type":"session","version":3,"id":"x","timestamp":"t","cwd":"/"})", XS_EINVAL,
               "a second header");
}

TEST_F(BadInput, IdAndTimestampOfTheWrongType) {
  RefusedEntry(R"({"type":"x","id":5})", XS_EINVAL, "numeric id");
  RefusedEntry(R"({"type":"x","timestamp":5})", XS_EINVAL, "numeric timestamp");
}

// --- invalid UTF-8 ----------------------------------------------------------------------------

TEST_F(BadInput, InvalidUtf8InJsonString) {
  RefusedMessage("{\"role\":\"user\",\"content\":\"\xff\"}", XS_EINVAL, "0xff");
  RefusedMessage("{\"role\":\"user\",\"content\":\"\xc0\xaf\"}", XS_EINVAL, "overlong '/'");
  RefusedMessage("{\"role\":\"user\",\"content\":\"\xed\xa0\x80\"}", XS_EINVAL, "UTF-8-encoded surrogate");
  RefusedMessage("{\"role\":\"user\",\"content\":\"\xe2\x82\"}", XS_EINVAL, "truncated sequence");
  RefusedMessage("{\"role\":\"user\",\"content\":\"\x80\"}", XS_EINVAL, "lone continuation byte");
  RefusedMessage("{\"role\":\"user\",\"content\":\"\xf4\x90\x80\x80\"}", XS_EINVAL, "above U+10FFFF");
}

TEST_F(BadInput, InvalidUtf8InJsonKey) {
  RefusedMessage("{\"role\":\"user\",\"\xfe\":1}", XS_EINVAL, "key");
}

TEST_F(BadInput, InvalidUtf8InEntry) {
  RefusedEntry("{\"type\":\"x\",\"v\":\"\xff\"}", XS_EINVAL, "generic entry");
  RefusedEntry("{\"type\":\"\xff\"}", XS_EINVAL, "type");
}

TEST_F(BadInput, InvalidUtf8InTextArguments) {
  char id[XS_ID_BUFSIZE];
  Refused(xs_append_model_change(s_, "anthropic/\xff", nullptr, id), XS_EINVAL, "model");
  Refused(xs_append_model_change(s_, "a/b", "r\xc3", id), XS_EINVAL, "model role");
  Refused(xs_append_thinking_level(s_, "hi\xff", id), XS_EINVAL, "thinking level");
  Refused(xs_append_custom(s_, "\xff", nullptr, 0, id), XS_EINVAL, "custom type");
  Refused(xs_append_label(s_, u1_.c_str(), "l\xff", id), XS_EINVAL, "label");
  Refused(xs_append_mode_change(s_, "\xc3(", nullptr, 0, id), XS_EINVAL, "mode");
  Refused(xs_session_branch_with_summary(s_, u1_.c_str(), "s\xff", 2, nullptr, 0, XS_UNSET, id), XS_EINVAL,
          "branch summary");
  xs_compaction c;
  ASSERT_EQ(xs_compaction_init(&c, XS_COMPACTION_VERSION), XS_OK);
  c.summary = "\xff";
  c.summary_len = 1;
  c.first_kept_entry_id = u1_.c_str();
  Refused(xs_append_compaction(s_, &c, id), XS_EINVAL, "compaction summary");
  xs_custom_message m;
  ASSERT_EQ(xs_custom_message_init(&m, XS_CUSTOM_MESSAGE_VERSION), XS_OK);
  m.custom_type = "t";
  m.content_json = "\"c\"";
  m.content_len = 3;
  m.attribution = "\xff";
  Refused(xs_append_custom_message(s_, &m, id), XS_EINVAL, "custom message attribution");
  xs_session_init_entry si;
  ASSERT_EQ(xs_session_init_entry_init(&si, XS_SESSION_INIT_ENTRY_VERSION), XS_OK);
  si.system_prompt = "\xff";
  si.system_prompt_len = 1;
  si.task = "t";
  si.task_len = 1;
  si.tools_json = "[]";
  si.tools_len = 2;
  Refused(xs_append_session_init(s_, &si, id), XS_EINVAL, "system prompt");
}

TEST_F(BadInput, InvalidUtf8InTitle) {
  Refused(xs_session_set_title(s_, "t\xff", 2), XS_EINVAL, "set_title");
  Refused(xs_session_set_title(s_, "\xe2\x82", 2), XS_EINVAL, "set_title, truncated sequence");
  EXPECT_EQ(xstest::Header(s_).find("title"), std::string::npos);
}

TEST_F(CapiTest, InvalidUtf8InCreateOptions) {
  xs_session* s = reinterpret_cast<xs_session*>(&owned_);
  xs_session_options o = Opts(XS_SESSION_NO_DEFER);
  o.title = "bad \xff title";
  EXPECT_EQ(xs_session_create(store_, "/work/proj", &o, &s), XS_EINVAL);
  EXPECT_EQ(s, nullptr);
  EXPECT_EQ(xs_store_errcode(store_), XS_EINVAL);
  EXPECT_STRNE(xs_store_errmsg(store_), "");
  o = Opts(XS_SESSION_NO_DEFER);
  o.parent_session = "\xc0\xaf";
  EXPECT_EQ(xs_session_create(store_, "/work/proj", &o, &s), XS_EINVAL);
  o = Opts(XS_SESSION_NO_DEFER);
  EXPECT_EQ(xs_session_create(store_, "/work/\xff", &o, &s), XS_EINVAL);
  EXPECT_EQ(s, nullptr);
  EXPECT_TRUE(xstest::ListDir(root_.path()).empty()) << "nothing was written";
}

// --- NUL bytes --------------------------------------------------------------------------------

TEST_F(BadInput, NulByteInsideAJsonString) {
  RefusedMessage(Bytes("{\"role\":\"user\",\"content\":\"a\0b\"}"), XS_EINVAL, "NUL in a string");
}

TEST_F(BadInput, NulByteBetweenTokens) {
  RefusedMessage(Bytes("{\"role\":\"user\",\0\"c\":1}"), XS_EINVAL, "NUL between tokens");
  RefusedMessage(xstest::kUser2 + std::string(1, '\0'), XS_EINVAL, "NUL after the value");
  RefusedEntry(Bytes("{\"type\":\"x\"}\0"), XS_EINVAL, "NUL after an entry");
}

TEST_F(BadInput, NulByteInValueArguments) {
  char id[XS_ID_BUFSIZE];
  std::string data = Bytes("{\"a\":\"\0\"}");
  Refused(xs_append_custom(s_, "ext", data.data(), data.size(), id), XS_EINVAL, "custom data");
}

// --- limits -----------------------------------------------------------------------------------

std::string Nested(size_t depth, char open, char close) {
  return std::string(depth, open) + std::string(depth, close);
}

TEST_F(BadInput, MillionDeepArrayInAMessage) {
  RefusedMessage("{\"role\":\"user\",\"content\":" + Nested(1000000, '[', ']') + "}", XS_ELIMIT, "10^6 arrays");
}

TEST_F(BadInput, MillionDeepObjectsInAMessage) {
  std::string deep;
  deep.reserve(7000010);
  for (int i = 0; i < 1000000; ++i) deep += "{\"a\":";
  deep += "1";
  deep += std::string(1000000, '}');
  RefusedMessage("{\"role\":\"user\",\"content\":" + deep + "}", XS_ELIMIT, "10^6 objects");
}

TEST_F(BadInput, MillionDeepAsTheWholeMessage) {
  RefusedMessage(Nested(1000000, '[', ']'), XS_ELIMIT, "10^6 arrays as the message");
}

TEST_F(BadInput, MillionDeepInAnEntryAndAValue) {
  RefusedEntry("{\"type\":\"x\",\"v\":" + Nested(1000000, '[', ']') + "}", XS_ELIMIT, "entry");
  std::string v = Nested(1000000, '[', ']');
  char id[XS_ID_BUFSIZE];
  Refused(xs_append_custom(s_, "ext", v.data(), v.size(), id), XS_ELIMIT, "custom data");
}

TEST_F(BadInput, MillionDeepUnclosedDoesNotCrash) {
  // Both too deep and malformed: either refusal is right, a crash is not.
  std::string v = "{\"role\":\"user\",\"content\":" + std::string(1000000, '[');
  char id[XS_ID_BUFSIZE];
  xs_status st = xs_append_message(s_, v.data(), v.size(), id);
  EXPECT_TRUE(st == XS_ELIMIT || st == XS_EINVAL) << xs_status_str(st);
  EXPECT_EQ(xstest::ReadFile(path_), file_);
  EXPECT_EQ(xstest::Entries(s_), entries_);
}

TEST_F(BadInput, DefaultDepthLimitIs256) {
  // Line depth = 3 + k for content = k nested arrays around a number: entry(1) > message(2) >
  // k arrays (3 .. k+2) > number (k+3).
  auto msg = [](size_t k) {
    return "{\"role\":\"user\",\"content\":" + std::string(k, '[') + "1" + std::string(k, ']') + "}";
  };
  RefusedMessage(msg(254), XS_ELIMIT, "line depth 257");
  std::string ok = msg(253);  // line depth 256
  char id[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s_, xs_append_message(s_, ok.data(), ok.size(), id));
  EXPECT_EQ(xstest::JsonStr(xstest::Entry(s_, id), "id"), std::string(id));
  Snapshot();
}

class LineLimit : public CapiTest {
 protected:
  static constexpr uint64_t kMax = 256;
  void SetUp() override {
    CapiTest::SetUp();
    xs_session_options o = Opts(XS_SESSION_NO_DEFER);
    o.max_line_bytes = kMax;
    s_ = Create(&o);
    ASSERT_NE(s_, nullptr);
    path_ = xstest::PathOf(s_);
  }
  // A root message entry with caller-chosen id and timestamp whose stored line is `n` bytes.
  static std::string EntryOfLineLength(size_t n, const std::string& id) {
    std::string head = "{\"type\":\"message\",\"id\":\"" + id +
                       "\",\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"message\":{\"role\":\"user\",\"content\":\"";
    std::string stored_head = "{\"type\":\"message\",\"id\":\"" + id +
                              "\",\"parentId\":null,\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"message\":{\"role\":"
                              "\"user\",\"content\":\"";
    size_t fixed = stored_head.size() + 3;  // closing "}}
    return head + std::string(n - fixed, 'x') + "\"}}";
  }
  xs_session* s_ = nullptr;
  std::string path_;
};

TEST_F(LineLimit, LineOfExactlyMaxIsAccepted) {
  std::string e = EntryOfLineLength(kMax, "ok");
  char id[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s_, xs_append(s_, e.data(), e.size(), id));
  EXPECT_EQ(xstest::Entry(s_, "ok").size(), kMax);
  auto lines = xstest::SplitLines(xstest::ReadFile(path_));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1].size(), kMax);
}

TEST_F(LineLimit, LineOneOverMaxIsElimit) {
  std::string file = xstest::ReadFile(path_);
  std::string e = EntryOfLineLength(kMax + 1, "no");
  ASSERT_LE(e.size(), kMax) << "the input alone fits; only the stored line is over";
  char id[XS_ID_BUFSIZE];
  EXPECT_EQ(xs_append(s_, e.data(), e.size(), id), XS_ELIMIT) << xs_session_errmsg(s_);
  EXPECT_EQ(xs_session_errcode(s_), XS_ELIMIT);
  EXPECT_STRNE(xs_session_errmsg(s_), "");
  EXPECT_EQ(xstest::ReadFile(path_), file);
  EXPECT_EQ(xstest::Entries(s_), "[]");
  // Still works.
  std::string small = EntryOfLineLength(200, "fine");
  XS_ASSERT_OK(s_, xs_append(s_, small.data(), small.size(), id));
  EXPECT_EQ(xstest::SplitLines(xstest::ReadFile(path_)).size(), 2u);
}

TEST_F(LineLimit, MessageLargerThanTheLimitIsElimit) {
  std::string file = xstest::ReadFile(path_);
  std::string big = "{\"role\":\"user\",\"content\":\"" + std::string(300, 'y') + "\"}";
  char id[XS_ID_BUFSIZE];
  EXPECT_EQ(xs_append_message(s_, big.data(), big.size(), id), XS_ELIMIT) << xs_session_errmsg(s_);
  EXPECT_EQ(xstest::ReadFile(path_), file);
  EXPECT_EQ(xstest::Entries(s_), "[]");
  // A generated line that would be too long (long summary text) is refused too.
  std::string summary(300, 's');
  EXPECT_EQ(xs_session_branch_with_summary(s_, nullptr, summary.data(), summary.size(), nullptr, 0, XS_UNSET, id),
            XS_ELIMIT);
  EXPECT_EQ(xstest::ReadFile(path_), file);
  EXPECT_EQ(xstest::Entries(s_), "[]");
}

// --- caller-chosen ids ------------------------------------------------------------------------

TEST_F(BadInput, CallerIdWithSlash) {
  RefusedEntry(R"({"type":"x","id":"a/b"})", XS_EINVAL, "id with '/'");
  RefusedEntry(R"({"type":"x","id":"\/etc"})", XS_EINVAL, "id with an escaped '/'");
}

TEST_F(BadInput, CallerIdDotDot) {
  RefusedEntry(R"({"type":"x","id":".."})", XS_EINVAL, "..");
  RefusedEntry(R"({"type":"x","id":"."})", XS_EINVAL, ".");
}

TEST_F(BadInput, CallerIdTooLong) {
  RefusedEntry("{\"type\":\"x\",\"id\":\"" + std::string(200, 'a') + "\"}", XS_EINVAL, "200 chars");
  RefusedEntry("{\"type\":\"x\",\"id\":\"" + std::string(65, 'a') + "\"}", XS_EINVAL, "65 chars");
}

TEST_F(BadInput, CallerIdEmpty) {
  RefusedEntry(R"({"type":"x","id":""})", XS_EINVAL, "empty id");
}

TEST_F(BadInput, CallerIdOtherCharacters) {
  RefusedEntry(R"({"type":"x","id":"a b"})", XS_EINVAL, "space");
  RefusedEntry(R"({"type":"x","id":"a.b"})", XS_EINVAL, "dot");
  RefusedEntry("{\"type\":\"x\",\"id\":\"caf\xc3\xa9\"}", XS_EINVAL, "non-ASCII");
  RefusedEntry(R"({"type":"x","id":"a\u0000b"})", XS_EINVAL, "escaped NUL");
}

TEST_F(BadInput, CallerIdDuplicate) {
  RefusedEntry("{\"type\":\"x\",\"id\":\"" + u1_ + "\"}", XS_EEXISTS, "the id of an existing entry");
  ASSERT_EQ(Append(s_, R"({"type":"x","id":"mine"})"), "mine");
  Snapshot();
  RefusedEntry(R"({"type":"y","id":"mine"})", XS_EEXISTS, "a caller id used twice");
}

TEST_F(CapiTest, CallerSessionIdsAreValidated) {
  for (const std::string& bad : {std::string("a/b"), std::string(".."), std::string(200, 'a'), std::string("a b"),
                                 std::string("x\xff")}) {
    xs_session_options o = Opts(XS_SESSION_NO_DEFER);
    o.session_id = bad.c_str();
    xs_session* s = reinterpret_cast<xs_session*>(&owned_);
    EXPECT_EQ(xs_session_create(store_, "/work/proj", &o, &s), XS_EINVAL) << "session id \"" << bad << "\"";
    EXPECT_EQ(s, nullptr);
    EXPECT_STRNE(xs_store_errmsg(store_), "");
    if (s && s != reinterpret_cast<xs_session*>(&owned_)) xs_session_close(s);
  }
  EXPECT_TRUE(xstest::ListDir(root_.path() + "/sessions/--work-proj--").empty()) << "nothing was written";
}

// session_id NULL means "generated"; "" is a caller-chosen id, and ids callers choose are 1-64
// chars, so it is refused like any other bad id (not silently replaced by a generated one).
TEST_F(CapiTest, EmptyCallerSessionIdIsInvalid) {
  xs_session_options o = Opts(XS_SESSION_NO_DEFER);
  o.session_id = "";
  xs_session* s = reinterpret_cast<xs_session*>(&owned_);
  EXPECT_EQ(xs_session_create(store_, "/work/proj", &o, &s), XS_EINVAL);
  EXPECT_EQ(s, nullptr);
  if (s && s != reinterpret_cast<xs_session*>(&owned_)) xs_session_close(s);
  EXPECT_TRUE(xstest::ListDir(root_.path() + "/sessions/--work-proj--").empty()) << "nothing was written";
}

// --- unknown ids ------------------------------------------------------------------------------

TEST_F(BadInput, SetLeafToUnknownId) {
  Refused(xs_session_set_leaf(s_, "nope"), XS_ENOTFOUND, "set_leaf");
  Refused(xs_session_set_leaf(s_, ""), XS_ENOTFOUND, "set_leaf to \"\"");
}

TEST_F(BadInput, LabelUnknownId) {
  char id[XS_ID_BUFSIZE];
  Refused(xs_append_label(s_, "nope", "l", id), XS_ENOTFOUND, "label");
  Refused(xs_append_label(s_, "nope", nullptr, id), XS_ENOTFOUND, "clear label");
  RefusedEntry(R"({"type":"label","targetId":"nope","label":"l"})", XS_ENOTFOUND, "label entry");
}

TEST_F(BadInput, BranchWithSummaryFromUnknownId) {
  char id[XS_ID_BUFSIZE];
  Refused(xs_session_branch_with_summary(s_, "nope", "s", 1, nullptr, 0, XS_UNSET, id), XS_ENOTFOUND,
          "branch_with_summary");
}

TEST_F(BadInput, BuildContextWithUnknownLeaf) {
  size_t n = 77;
  char buf[16];
  Refused(xs_build_context(s_, "nope", nullptr, 0, &n), XS_ENOTFOUND, "size query");
  Refused(xs_build_context(s_, "nope", buf, sizeof buf, &n), XS_ENOTFOUND, "fill");
}

// --- lone surrogates are accepted and kept ----------------------------------------------------

TEST_F(BadInput, LoneSurrogateEscapesAreStoredByteForByte) {
  std::string msg = R"({"role":"user","content":"\ud83d and \udc00\ud83d"})";
  char id[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s_, xs_append_message(s_, msg.data(), msg.size(), id));
  std::string line = xstest::Entry(s_, id);
  EXPECT_EQ(line, "{\"type\":\"message\",\"id\":\"" + std::string(id) + "\",\"parentId\":\"" + a1_ +
                      "\",\"timestamp\":\"" + xstest::Ts(3) + "\",\"message\":" + msg + "}");
  EXPECT_EQ(xstest::SplitLines(xstest::ReadFile(path_)).back(), line);
  std::string ctx = xstest::Context(s_);
  EXPECT_NE(ctx.find("," + msg + "]"), std::string::npos) << ctx;
  Snapshot();
  // And after a reopen.
  xs_session* r = Open(path_, XS_SESSION_READ_ONLY);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(xstest::Entry(r, id), line);
  EXPECT_EQ(xstest::Diagnostics(r), "[]");
}

// --- a rejected first assistant message of a deferred session writes nothing -----------------

TEST_F(CapiTest, RejectedAssistantMessageDoesNotEndTheDeferral) {
  xs_session* s = Create();
  ASSERT_NE(s, nullptr);
  std::string path = xstest::PathOf(s);
  Msg(s, xstest::kUser1);
  std::string bad = "{\"role\":\"assistant\",\"content\":\"\xff\"}";
  EXPECT_EQ(xs_append_message(s, bad.data(), bad.size(), nullptr), XS_EINVAL);
  std::string deep = "{\"role\":\"assistant\",\"content\":" + std::string(5000, '[') + std::string(5000, ']') + "}";
  EXPECT_EQ(xs_append_message(s, deep.data(), deep.size(), nullptr), XS_ELIMIT);
  EXPECT_FALSE(xstest::Exists(path));
  EXPECT_NE(xstest::Info(s).find("\"persisted\":false"), std::string::npos);
  EXPECT_EQ(xstest::Count(xstest::Entries(s), "\"type\":\"message\""), 1u);
}

}  // namespace
