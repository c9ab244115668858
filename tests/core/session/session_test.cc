// session/session: create/open/append/branch/labels/title/reopen through the Fs seam, on
// memory_fs and on posix_fs in a temp dir (DECISIONS.md "Bytes we write", "Write path",
// "Handles and the leaf"; reference-behaviour.md §2-§5).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <thread>

#include "format/clock.h"
#include "format/ids.h"
#include "session/session.h"
#include "storage/faulty_fs.h"
#include "test_util.h"

namespace xs::session {
namespace {

constexpr int64_t kT0 = 1771237230000;  // 2026-02-16T10:20:30.000Z
constexpr uint64_t kSeed = 42;
const std::string kCwd = "/home/u/proj";
const std::string kFileName = "2026-02-16T10-20-30-000Z_sess1.jsonl";

std::string iso(int sec) { return format::iso_from_ms(kT0 + sec * 1000LL); }
std::string ms(int sec) { return std::to_string(kT0 + sec * 1000LL); }

SessionOptions options(bool defer = true) {
  SessionOptions o;
  o.clock = format::Clock::Fixed(kT0, 1000);
  o.id_seed = kSeed;
  o.cwd = kCwd;
  o.session_id = "sess1";
  o.defer_until_assistant = defer;
  return o;
}

std::string header_line(const std::string& extra = "") {
  return R"({"type":"session","version":3,"id":"sess1","timestamp":")" + iso(0) + R"(","cwd":"/home/u/proj")" + extra + "}";
}

// The value of a Result, or a readable error in its place (never dereferences an error).
std::string val(const Result<std::string>& r) {
  return r.ok() ? r.value() : "<error " + std::to_string(static_cast<int>(r.status().code())) + ": " + r.status().message() + ">";
}

const std::string kUser = R"({"role":"user","content":"hi"})";
const std::string kAssistant =
    R"({"role":"assistant","content":[{"type":"text","text":"yo"}],"provider":"anthropic","model":"claude"})";

class SessionTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "posix") {
      tmp_ = std::make_unique<test::TempDir>();
      base_ = storage::make_posix_fs();
      root_ = tmp_->path();
    } else {
      base_ = storage::make_memory_fs();
      root_ = "/home/u/.xcsh/agent";
    }
    fs_ = std::make_shared<storage::FaultyFs>(base_);
    dir_ = root_ + "/sessions/--home-u-proj--";
    path_ = dir_ + "/" + kFileName;
    ids_ = test::seeded_entry_ids(kSeed, 64);
  }

  std::unique_ptr<Session> create(SessionOptions o) {
    auto r = Session::create(fs_, dir_, std::move(o));
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? std::move(*r) : nullptr;
  }
  Result<std::unique_ptr<Session>> open(SessionOptions o, const std::string& path = "") {
    return Session::open(fs_, path.empty() ? path_ : path, std::move(o));
  }
  SessionOptions read_only() {
    SessionOptions o = options();
    o.read_only = true;
    return o;
  }
  std::string content(const std::string& path = "") { return test::get_file(*base_, path.empty() ? path_ : path); }
  bool exists(const std::string& path = "") { return base_->stat(path.empty() ? path_ : path).ok(); }
  std::vector<std::string> names() { return test::fs_list(*base_, dir_); }
  uint64_t ino() {
    auto st = base_->stat(path_);
    return st.ok() ? st->ino : 0;
  }
  void put(const std::string& bytes) { test::put_file(*base_, path_, bytes); }
  void foreign_replace(const std::string& bytes) {
    test::put_file(*base_, dir_ + "/foreign.tmp", bytes);
    ASSERT_TRUE(base_->rename(dir_ + "/foreign.tmp", path_).ok());
  }

  // An entry line as we write it: envelope (type, id, parentId, timestamp) then payload, or
  // payload first for custom / custom_message.
  std::string line(const std::string& type, const std::string& id, const std::string& parent, int sec,
                   const std::string& payload) {
    std::string env = R"("id":")" + id + R"(","parentId":)" + (parent.empty() ? "null" : "\"" + parent + "\"") +
                      R"(,"timestamp":")" + iso(sec) + "\"";
    bool after = type == "custom" || type == "custom_message";
    std::string out = R"({"type":")" + type + "\",";
    if (after) {
      out += payload.empty() ? env : payload + "," + env;
    } else {
      out += payload.empty() ? env : env + "," + payload;
    }
    return out + "}";
  }

  std::unique_ptr<test::TempDir> tmp_;
  std::shared_ptr<storage::Fs> base_;
  std::shared_ptr<storage::FaultyFs> fs_;
  std::string root_, dir_, path_;
  std::vector<std::string> ids_;
};

#define ASSERT_OK(expr)                          \
  do {                                           \
    ::xs::Status st_ = (expr);                   \
    ASSERT_TRUE(st_.ok()) << #expr << ": " << st_.message(); \
  } while (0)

// --- creation and deferred persistence --------------------------------------------------------

TEST_P(SessionTest, CreateDefersTheFileUntilTheFirstAssistantMessage) {
  auto s = create(options());
  ASSERT_TRUE(s);
  EXPECT_EQ(s->path(), path_);
  EXPECT_FALSE(s->persisted());
  EXPECT_EQ(s->header(), header_line());
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  EXPECT_EQ(id, ids_[0]);
  ASSERT_OK(s->append_thinking_level("high", &id));
  ASSERT_OK(s->set_title("named"));
  EXPECT_FALSE(s->persisted());
  EXPECT_FALSE(exists());
  EXPECT_FALSE(base_->stat(dir_).ok());  // not even the directory
  ASSERT_OK(s->append_message(kAssistant, &id));
  EXPECT_EQ(id, ids_[2]);
  EXPECT_TRUE(s->persisted());
  std::string l0 = line("message", ids_[0], "", 1, "\"message\":" + kUser);
  std::string l1 = line("thinking_level_change", ids_[1], ids_[0], 2, R"("thinkingLevel":"high")");
  std::string l2 = line("message", ids_[2], ids_[1], 3, "\"message\":" + kAssistant);
  EXPECT_EQ(content(), header_line(R"(,"title":"named")") + "\n" + l0 + "\n" + l1 + "\n" + l2 + "\n");
  ASSERT_OK(s->append_custom("ext", std::nullopt, &id));
  std::string l3 = line("custom", ids_[3], ids_[2], 4, R"("customType":"ext")");
  EXPECT_EQ(content(), header_line(R"(,"title":"named")") + "\n" + l0 + "\n" + l1 + "\n" + l2 + "\n" + l3 + "\n");
  EXPECT_EQ(names(), (std::vector<std::string>{kFileName, kFileName + ".lock"}));
}

TEST_P(SessionTest, SessionWithoutAssistantNeverCreatesAFile) {
  {
    auto s = create(options());
    std::string id;
    ASSERT_OK(s->append_message(kUser, &id));
    ASSERT_OK(s->append_custom("x", std::string_view(R"({"a":1})"), &id));
    ASSERT_OK(s->flush());
    ASSERT_OK(s->close());
  }
  EXPECT_FALSE(exists());
  EXPECT_FALSE(base_->stat(dir_).ok());
}

TEST_P(SessionTest, NoDeferWritesTheHeaderAtOnce) {
  auto s = create(options(false));
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->persisted());
  EXPECT_EQ(content(), header_line() + "\n");
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  EXPECT_EQ(content(), header_line() + "\n" + line("message", ids_[0], "", 1, "\"message\":" + kUser) + "\n");
}

TEST_P(SessionTest, WriteNowForcesTheFileOfADeferredSession) {
  auto s = create(options());
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  ASSERT_OK(s->write_now());
  EXPECT_TRUE(s->persisted());
  EXPECT_EQ(content(), header_line() + "\n" + line("message", ids_[0], "", 1, "\"message\":" + kUser) + "\n");
}

TEST_P(SessionTest, HeaderCarriesTitleAndParentSessionInThatOrder) {
  SessionOptions o = options(false);
  o.title = "T \"1\"";
  o.parent_session = "/old/s.jsonl";
  auto s = create(o);
  ASSERT_TRUE(s);
  EXPECT_EQ(content(), header_line(R"(,"title":"T \"1\"","parentSession":"/old/s.jsonl")") + "\n");
}

TEST_P(SessionTest, GeneratedSessionIdIsSixteenHexAndNamesTheFile) {
  SessionOptions o = options(false);
  o.session_id.reset();
  auto s = create(o);
  ASSERT_TRUE(s);
  format::IdGenerator g(kSeed);
  std::string sid = g.session_id();
  EXPECT_EQ(s->header_info().id, sid);
  EXPECT_EQ(s->path(), dir_ + "/2026-02-16T10-20-30-000Z_" + sid + ".jsonl");
  // Entry ids continue the same seeded sequence.
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  EXPECT_EQ(id, test::seeded_entry_ids(kSeed, 1, true)[0]);
}

TEST_P(SessionTest, InvalidCreateOptions) {
  SessionOptions bad_id = options();
  bad_id.session_id = "../escape";
  EXPECT_EQ(Session::create(fs_, dir_, bad_id).status().code(), Code::kInvalid);
  SessionOptions long_id = options();
  long_id.session_id = std::string(65, 'a');
  EXPECT_EQ(Session::create(fs_, dir_, long_id).status().code(), Code::kInvalid);
  SessionOptions bad_cwd = options();
  bad_cwd.cwd = "/bad\xff";
  EXPECT_EQ(Session::create(fs_, dir_, bad_cwd).status().code(), Code::kInvalid);
  SessionOptions bad_title = options();
  bad_title.title = "\xc3";
  EXPECT_EQ(Session::create(fs_, dir_, bad_title).status().code(), Code::kInvalid);
  EXPECT_FALSE(base_->stat(dir_).ok());
}

// --- the bytes of every entry type --------------------------------------------------------------

TEST_P(SessionTest, TypedAppendsWriteOmpKeyOrder) {
  auto s = create(options(false));
  ASSERT_TRUE(s);
  std::vector<std::string> lines;
  std::string id;
  auto expect = [&](const std::string& type, size_t n, int parent, const std::string& payload) {
    EXPECT_EQ(id, ids_[n]);
    std::string l = line(type, ids_[n], parent < 0 ? "" : ids_[static_cast<size_t>(parent)], static_cast<int>(n) + 1, payload);
    auto stored = s->entry_json(id);
    ASSERT_TRUE(stored.ok());
    EXPECT_EQ(*stored, l) << type;
    lines.push_back(l);
  };
  ASSERT_OK(s->append_thinking_level(std::nullopt, &id));
  expect("thinking_level_change", 0, -1, R"("thinkingLevel":null)");
  ASSERT_OK(s->append_thinking_level("high", &id));
  expect("thinking_level_change", 1, 0, R"("thinkingLevel":"high")");
  ASSERT_OK(s->append_model_change("anthropic/claude", std::nullopt, &id));
  expect("model_change", 2, 1, R"("model":"anthropic/claude")");
  ASSERT_OK(s->append_model_change("openai/gpt", "smol", &id));
  expect("model_change", 3, 2, R"("model":"openai/gpt","role":"smol")");
  ASSERT_OK(s->append_message(R"( { "role" : "user" , "content" : "a  b" } )", &id));
  expect("message", 4, 3, R"("message":{"role":"user","content":"a  b"})");
  CompactionArgs full;
  full.summary = "Sum \"q\"\n";
  full.short_summary = "s";
  full.first_kept_entry_id = ids_[4];
  full.tokens_before = 1234;
  full.details_json = R"({ "files" : [ "a" ] })";
  full.from_extension = true;
  full.preserve_data_json = R"({"k":1})";
  ASSERT_OK(s->append_compaction(full, &id));
  expect("compaction", 5, 4,
         R"("summary":"Sum \"q\"\n","shortSummary":"s","firstKeptEntryId":")" + ids_[4] +
             R"(","tokensBefore":1234,"details":{"files":["a"]},"fromExtension":true,"preserveData":{"k":1})");
  CompactionArgs minimal;
  minimal.summary = "x";
  minimal.first_kept_entry_id = "bogus";  // not validated (reference §4)
  ASSERT_OK(s->append_compaction(minimal, &id));
  expect("compaction", 6, 5, R"("summary":"x","firstKeptEntryId":"bogus","tokensBefore":0)");
  ASSERT_OK(s->append_custom("ext", std::string_view(R"({"a": [1, 2]})"), &id));
  expect("custom", 7, 6, R"("customType":"ext","data":{"a":[1,2]})");
  ASSERT_OK(s->append_custom("ext2", std::nullopt, &id));
  expect("custom", 8, 7, R"("customType":"ext2")");
  CustomMessageArgs note;
  note.custom_type = "note";
  note.content_json = R"("hello")";
  note.display = false;
  note.details_json = R"({"d":1})";
  ASSERT_OK(s->append_custom_message(note, &id));
  expect("custom_message", 9, 8, R"("customType":"note","content":"hello","display":false,"details":{"d":1},"attribution":"agent")");
  CustomMessageArgs img;
  img.custom_type = "img";
  img.content_json = R"([ {"type":"text","text":"t"} ])";
  img.attribution = "user";
  ASSERT_OK(s->append_custom_message(img, &id));
  expect("custom_message", 10, 9, R"("customType":"img","content":[{"type":"text","text":"t"}],"display":true,"attribution":"user")");
  ASSERT_OK(s->append_label(ids_[4], "tag", &id));
  expect("label", 11, 10, R"("targetId":")" + ids_[4] + R"(","label":"tag")");
  ASSERT_OK(s->append_label(ids_[4], std::nullopt, &id));
  expect("label", 12, 11, R"("targetId":")" + ids_[4] + "\"");
  ASSERT_OK(s->append_ttsr_injection(R"( [ "r1" , "r2" ] )", &id));
  expect("ttsr_injection", 13, 12, R"("injectedRules":["r1","r2"])");
  SessionInitArgs init;
  init.system_prompt = "sys\tprompt";
  init.task = "task";
  init.tools_json = R"(["read","bash"])";
  init.output_schema_json = R"({"type":"object"})";
  ASSERT_OK(s->append_session_init(init, &id));
  expect("session_init", 14, 13, R"("systemPrompt":"sys\tprompt","task":"task","tools":["read","bash"],"outputSchema":{"type":"object"})");
  SessionInitArgs bare;
  bare.system_prompt = "";
  bare.task = "t";
  bare.tools_json = "[]";
  ASSERT_OK(s->append_session_init(bare, &id));
  expect("session_init", 15, 14, R"("systemPrompt":"","task":"t","tools":[])");
  ASSERT_OK(s->append_mode_change("plan", std::string_view(R"({"step":1})"), &id));
  expect("mode_change", 16, 15, R"("mode":"plan","data":{"step":1})");
  ASSERT_OK(s->append_mode_change("none", std::nullopt, &id));
  expect("mode_change", 17, 16, R"("mode":"none")");
  ASSERT_OK(s->branch_with_summary(std::string_view(ids_[4]), "went back", std::string_view(R"({"x":1})"), false, &id));
  expect("branch_summary", 18, 4, R"("fromId":")" + ids_[4] + R"(","summary":"went back","details":{"x":1},"fromExtension":false)");
  ASSERT_OK(s->branch_with_summary(std::nullopt, "from root", std::nullopt, std::nullopt, &id));
  expect("branch_summary", 19, -1, R"("fromId":"root","summary":"from root")");

  std::string expected = header_line() + "\n";
  for (const std::string& l : lines) expected += l + "\n";
  EXPECT_EQ(content(), expected);
  EXPECT_EQ(s->leaf_id(), ids_[19]);
  EXPECT_EQ(s->entry_count(), 20u);

  auto ctx = s->context(std::string_view(ids_[18]));
  ASSERT_TRUE(ctx.ok());
  EXPECT_EQ(*ctx, R"({"leafId":")" + ids_[18] + R"(","messages":[{"role":"user","content":"a  b"},)" +
                      R"({"role":"branchSummary","summary":"went back","fromId":")" + ids_[4] + R"(","timestamp":)" + ms(19) +
                      R"(}],"thinkingLevel":"high","models":{"default":"anthropic/claude","smol":"openai/gpt"},"injectedTtsrRules":[],"mode":"none"})");
  auto root_ctx = s->context(std::nullopt);
  ASSERT_TRUE(root_ctx.ok());
  EXPECT_EQ(*root_ctx, R"({"leafId":")" + ids_[19] + R"(","messages":[{"role":"branchSummary","summary":"from root","fromId":"root","timestamp":)" +
                           ms(20) + R"(}],"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none"})");
}

TEST_P(SessionTest, TypedAppendsRefuseBadArguments) {
  auto s = create(options());
  uint64_t gen = s->generation();
  std::string id = "untouched";
  EXPECT_EQ(s->append_model_change("", std::nullopt, &id).code(), Code::kInvalid);
  EXPECT_EQ(s->append_model_change("a/\xff", std::nullopt, &id).code(), Code::kInvalid);
  EXPECT_EQ(s->append_model_change("a/b", std::string_view("\xff"), &id).code(), Code::kInvalid);
  EXPECT_EQ(s->append_thinking_level(std::string_view("\xc3"), &id).code(), Code::kInvalid);
  CompactionArgs c;
  c.summary = "s";
  c.first_kept_entry_id = "x";
  c.details_json = "{";
  EXPECT_EQ(s->append_compaction(c, &id).code(), Code::kInvalid);
  c.details_json.reset();
  c.summary = "\xff";
  EXPECT_EQ(s->append_compaction(c, &id).code(), Code::kInvalid);
  CustomMessageArgs m;
  m.custom_type = "t";
  for (std::string_view content : {"{}", "42", "null", "{", ""}) {
    m.content_json = content;
    EXPECT_EQ(s->append_custom_message(m, &id).code(), Code::kInvalid) << content;
  }
  m.content_json = "\"ok\"";
  m.details_json = "[";
  EXPECT_EQ(s->append_custom_message(m, &id).code(), Code::kInvalid);
  EXPECT_EQ(s->append_custom("t", std::string_view("nope"), &id).code(), Code::kInvalid);
  for (std::string_view rules : {"[1]", "{}", "\"a\"", "[\"a\",null]", "[["}) {
    EXPECT_EQ(s->append_ttsr_injection(rules, &id).code(), Code::kInvalid) << rules;
  }
  SessionInitArgs init;
  init.system_prompt = "p";
  init.task = "t";
  init.tools_json = "{}";
  EXPECT_EQ(s->append_session_init(init, &id).code(), Code::kInvalid);
  init.tools_json = "[1]";
  EXPECT_EQ(s->append_session_init(init, &id).code(), Code::kInvalid);
  EXPECT_EQ(s->append_mode_change("m", std::string_view("{x}"), &id).code(), Code::kInvalid);
  EXPECT_EQ(s->append_label("nope", "l", &id).code(), Code::kNotFound);
  EXPECT_EQ(s->branch_with_summary(std::string_view("nope"), "s", std::nullopt, std::nullopt, &id).code(),
            Code::kNotFound);
  EXPECT_EQ(id, "untouched");
  EXPECT_EQ(s->entry_count(), 0u);
  EXPECT_EQ(s->generation(), gen);
  EXPECT_FALSE(s->leaf_id().has_value());
  // The session still works, with the next id of the sequence.
  ASSERT_OK(s->append_message(kUser, &id));
  EXPECT_EQ(id, ids_[0]);
}

// --- caller JSON through the API (DECISIONS.md "Caller JSON is stored minified") ---------------

TEST_P(SessionTest, MessagesAreValidatedAndStoredMinifiedTokenForToken) {
  auto s = create(options(false));
  std::string id;
  const std::string tricky = R"({ "role" : "user", "content" : "cut \ud83d \u00e9\/", "n" : 1.50E+2, "big" : 18446744073709551616 })";
  ASSERT_OK(s->append_message(tricky, &id));
  std::string l = line("message", ids_[0], "", 1,
                       R"("message":{"role":"user","content":"cut \ud83d \u00e9\/","n":1.50E+2,"big":18446744073709551616})");
  EXPECT_EQ(content(), header_line() + "\n" + l + "\n");
  auto ctx = s->context(std::nullopt);
  ASSERT_TRUE(ctx.ok());
  EXPECT_EQ(*ctx, R"({"leafId":")" + ids_[0] +
                      R"(","messages":[{"role":"user","content":"cut \ud83d \u00e9\/","n":1.50E+2,"big":18446744073709551616}],"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none"})");
}

TEST_P(SessionTest, MessagesWithNumbersBeyondDoubleRangeAreKept) {
  auto s = create(options(false));
  std::string id;
  ASSERT_OK(s->append_message(R"({"role":"user","n":1e400})", &id));
  EXPECT_EQ(content(), header_line() + "\n" + line("message", ids_[0], "", 1, R"("message":{"role":"user","n":1e400})") + "\n");
}

TEST_P(SessionTest, BadMessagesAreRefusedAndChangeNothing) {
  SessionOptions o = options(false);
  o.limits.max_depth = 4;
  o.limits.max_line_bytes = 300;
  auto s = create(o);
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  std::string before = content();
  uint64_t gen = s->generation();
  struct Case {
    std::string json;
    Code code;
  } cases[] = {
      {R"({"content":"no role"})", Code::kInvalid},
      {R"({"role":5})", Code::kInvalid},
      {R"(["role","user"])", Code::kInvalid},
      {R"("user")", Code::kInvalid},
      {"", Code::kInvalid},
      {"   ", Code::kInvalid},
      {R"({"role":"user")", Code::kInvalid},
      {"{\"role\":\"user\",\"content\":\"\xff\"}", Code::kInvalid},
      {std::string("{\"role\":\"user\",\"content\":\"a\0b\"}", 32), Code::kInvalid},
      {std::string("{\"role\":\"user\"}\0", 16), Code::kInvalid},
      // depth: root 1, message 2, content 3, block 4, its members 5 > 4
      {R"({"role":"user","content":[{"type":"text"}]})", Code::kLimit},
      {R"({"role":"user","content":)" + std::string(1000000, '[') + std::string(1000000, ']') + "}", Code::kLimit},
      // the message alone is over the line limit
      {R"({"role":"user","content":")" + std::string(400, 'x') + "\"}", Code::kLimit},
      // the message fits, the whole line does not
      {R"({"role":"user","content":")" + std::string(200, 'x') + "\"}", Code::kLimit},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(s->append_message(c.json, &id).code(), c.code) << c.json.substr(0, 80);
  }
  EXPECT_EQ(s->entry_count(), 1u);
  EXPECT_EQ(s->generation(), gen);
  EXPECT_EQ(content(), before);
  // Depth exactly at the limit is fine: root 1, message 2, content 3, "x" 4.
  ASSERT_OK(s->append_message(R"({"role":"user","content":["x"]})", &id));
}

TEST_P(SessionTest, AppendEntryRebuildsTheEnvelopeAndKeepsCallerTokens) {
  auto s = create(options());
  std::string id;
  ASSERT_OK(s->append_entry(R"({"type":"message","message":{"role":"user","content":"x"}})", &id));
  EXPECT_EQ(id, ids_[0]);
  ASSERT_OK(s->append_entry(
      R"( { "type" : "my_ext" , "zeta" : 1 , "timestamp" : "2020-01-01T00:00:00.000Z" , "id" : "custom-1" , "alpha" : [ 1 , 2 ] } )",
      &id));
  EXPECT_EQ(id, "custom-1");
  ASSERT_OK(s->append_entry(R"({"type":"custom","data":{"a":1},"customType":"x"})", &id));
  EXPECT_EQ(id, ids_[1]);
  ASSERT_OK(s->append_entry(R"({"type":"model_change","provider":"google","modelId":"gemini"})", &id));
  EXPECT_EQ(id, ids_[2]);
  EXPECT_FALSE(s->persisted());
  ASSERT_OK(s->append_entry(R"({"type":"message","message":{"role":"assistant","content":[]}})", &id));
  EXPECT_EQ(id, ids_[3]);
  EXPECT_TRUE(s->persisted());
  std::string expected =
      header_line() + "\n" +
      line("message", ids_[0], "", 1, R"("message":{"role":"user","content":"x"})") + "\n" +
      R"({"type":"my_ext","id":"custom-1","parentId":")" + ids_[0] +
      R"(","timestamp":"2020-01-01T00:00:00.000Z","zeta":1,"alpha":[1,2]})" "\n" +
      R"({"type":"custom","data":{"a":1},"customType":"x","id":")" + ids_[1] + R"(","parentId":"custom-1","timestamp":")" +
      iso(2) + "\"}\n" +
      line("model_change", ids_[2], ids_[1], 3, R"("provider":"google","modelId":"gemini")") + "\n" +
      line("message", ids_[3], ids_[2], 4, R"("message":{"role":"assistant","content":[]})") + "\n";
  EXPECT_EQ(content(), expected);
  auto ctx = s->context(std::nullopt);
  ASSERT_TRUE(ctx.ok());
  EXPECT_EQ(*ctx, R"({"leafId":")" + ids_[3] +
                      R"(","messages":[{"role":"user","content":"x"},{"role":"assistant","content":[]}],"thinkingLevel":"off","models":{"default":"google/gemini"},"injectedTtsrRules":[],"mode":"none"})");
}

TEST_P(SessionTest, AppendEntryRefusesWhatReadersCouldNotUse) {
  auto s = create(options());
  std::string id;
  ASSERT_OK(s->append_entry(R"({"type":"custom","customType":"x","id":"taken"})", &id));
  struct Case {
    std::string json;
    Code code;
  } cases[] = {
      {R"({"type":"custom","customType":"x","parentId":"taken"})", Code::kInvalid},
      {R"({"type":"custom","customType":"x","parentId":null})", Code::kInvalid},
      {R"({"type":"session","id":"s2"})", Code::kInvalid},
      {R"({"customType":"x"})", Code::kInvalid},
      {R"({"type":5})", Code::kInvalid},
      {R"([{"type":"custom"}])", Code::kInvalid},
      {R"("custom")", Code::kInvalid},
      {R"({"type":"custom","customType":"x","id":"taken"})", Code::kExists},
      {R"({"type":"custom","customType":"x","id":"a/b"})", Code::kInvalid},
      {R"({"type":"custom","customType":"x","id":""})", Code::kInvalid},
      {R"({"type":"custom","customType":"x","id":5})", Code::kInvalid},
      {R"({"type":"custom","customType":"x","timestamp":5})", Code::kInvalid},
      {R"({"type":"custom"})", Code::kInvalid},
      {R"({"type":"message"})", Code::kInvalid},
      {R"({"type":"message","message":"text"})", Code::kInvalid},
      {R"({"type":"compaction","summary":"s","tokensBefore":1})", Code::kInvalid},
      {R"({"type":"compaction","summary":"s","firstKeptEntryId":"taken","tokensBefore":"1"})", Code::kInvalid},
      {R"({"type":"label","targetId":"nope","label":"x"})", Code::kNotFound},
      {R"({"type":"label","label":"x"})", Code::kInvalid},
      {R"({"type":"model_change","role":"smol"})", Code::kInvalid},
      {R"({"type":"model_change","model":5})", Code::kInvalid},
      {R"({"type":"thinking_level_change","thinkingLevel":5})", Code::kInvalid},
      {R"({"type":"branch_summary","summary":"s"})", Code::kInvalid},
      {R"({"type":"custom_message","customType":"x","content":{}})", Code::kInvalid},
      {R"({"type":"ttsr_injection","injectedRules":"a"})", Code::kInvalid},
      {R"({"type":"mode_change"})", Code::kInvalid},
      {"{\"type\":\"custom\",\"customType\":\"\xff\"}", Code::kInvalid},
      {"{", Code::kInvalid},
  };
  for (const Case& c : cases) EXPECT_EQ(s->append_entry(c.json, &id).code(), c.code) << c.json;
  EXPECT_EQ(s->entry_count(), 1u);
  // A label on a known target is fine, and so is an explicit id of the allowed alphabet.
  ASSERT_OK(s->append_entry(R"({"type":"label","targetId":"taken","label":"L","id":"Label_1-x"})", &id));
  EXPECT_EQ(id, "Label_1-x");
  EXPECT_EQ(s->labels_json(), R"([{"targetId":"taken","label":"L","timestamp":")" + iso(2) + R"("}])");
}

// --- navigation, labels, reading --------------------------------------------------------------

TEST_P(SessionTest, BranchResetLeafAndTheReadViews) {
  auto s = create(options(false));
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));       // 0
  ASSERT_OK(s->append_message(kAssistant, &id));  // 1
  EXPECT_EQ(s->branch("nope").code(), Code::kNotFound);
  EXPECT_EQ(s->leaf_id(), ids_[1]);
  uint64_t gen = s->generation();
  ASSERT_OK(s->branch(ids_[0]));
  EXPECT_EQ(s->generation(), gen + 1);
  EXPECT_EQ(s->leaf_id(), ids_[0]);
  ASSERT_OK(s->append_message(R"({"role":"user","content":"again"})", &id));  // 2, child of 0
  s->reset_leaf();
  EXPECT_FALSE(s->leaf_id().has_value());
  auto empty = s->context(std::nullopt);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(*empty, R"({"leafId":null,"messages":[],"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none"})");
  ASSERT_OK(s->append_custom("root2", std::nullopt, &id));  // 3, a new root
  std::string l0 = line("message", ids_[0], "", 1, "\"message\":" + kUser);
  std::string l1 = line("message", ids_[1], ids_[0], 2, "\"message\":" + kAssistant);
  std::string l2 = line("message", ids_[2], ids_[0], 3, R"("message":{"role":"user","content":"again"})");
  std::string l3 = line("custom", ids_[3], "", 4, R"("customType":"root2")");
  EXPECT_EQ(content(), header_line() + "\n" + l0 + "\n" + l1 + "\n" + l2 + "\n" + l3 + "\n");
  EXPECT_EQ(s->entries_json(), "[" + l0 + "," + l1 + "," + l2 + "," + l3 + "]");
  EXPECT_EQ(val(s->entry_json(ids_[2])), l2);
  EXPECT_EQ(s->entry_json("nope").status().code(), Code::kNotFound);
  EXPECT_EQ(val(s->branch_json(std::nullopt)), "[" + l3 + "]");
  EXPECT_EQ(val(s->branch_json(std::string_view(ids_[2]))), "[" + l0 + "," + l2 + "]");
  EXPECT_EQ(s->branch_json(std::string_view("nope")).status().code(), Code::kNotFound);
  EXPECT_EQ(val(s->children_json(ids_[0])), "[" + l1 + "," + l2 + "]");
  EXPECT_EQ(val(s->children_json(ids_[3])), "[]");
  EXPECT_EQ(s->children_json("nope").status().code(), Code::kNotFound);
  EXPECT_EQ(s->tree_json(),
            R"([{"id":")" + ids_[0] + R"(","parentId":null,"depth":0,"children":[")" + ids_[1] + R"(",")" + ids_[2] +
                R"("],"entry":)" + l0 + R"(},{"id":")" + ids_[1] + R"(","parentId":")" + ids_[0] +
                R"(","depth":1,"children":[],"entry":)" + l1 + R"(},{"id":")" + ids_[2] + R"(","parentId":")" + ids_[0] +
                R"(","depth":1,"children":[],"entry":)" + l2 + R"(},{"id":")" + ids_[3] +
                R"(","parentId":null,"depth":0,"children":[],"entry":)" + l3 + "}]");
  auto ctx = s->context(std::string_view(ids_[2]));
  ASSERT_TRUE(ctx.ok());
  EXPECT_EQ(*ctx, R"({"leafId":")" + ids_[2] + R"(","messages":[{"role":"user","content":"hi"},{"role":"user","content":"again"}],"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none"})");
  // DECISIONS: an explicit leaf that is not in the session is "not found", no fallback.
  EXPECT_EQ(s->context(std::string_view("nope")).status().code(), Code::kNotFound);
}

TEST_P(SessionTest, LabelsAreEntriesOnThePathAndLastWriteWins) {
  auto s = create(options(false));
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));       // 0
  ASSERT_OK(s->append_message(kAssistant, &id));  // 1
  ASSERT_OK(s->append_label(ids_[0], "first", &id));  // 2
  EXPECT_EQ(s->leaf_id(), ids_[2]);
  ASSERT_OK(s->append_label(ids_[1], "b", &id));      // 3, child of the label before it
  ASSERT_OK(s->append_label(ids_[0], std::nullopt, &id));  // 4 clears
  ASSERT_OK(s->append_label(ids_[1], "b2", &id));     // 5 updates in place
  EXPECT_EQ(s->labels_json(), R"([{"targetId":")" + ids_[1] + R"(","label":"b2","timestamp":")" + iso(6) + R"("}])");
  EXPECT_EQ(val(s->entry_json(ids_[3])), line("label", ids_[3], ids_[2], 4, R"("targetId":")" + ids_[1] + R"(","label":"b")"));
  // Labelling a label works too (any entry is a target).
  ASSERT_OK(s->append_label(ids_[5], "", &id));  // "" is falsy: nothing set
  EXPECT_EQ(s->labels_json(), R"([{"targetId":")" + ids_[1] + R"(","label":"b2","timestamp":")" + iso(6) + R"("}])");
  std::string tree = s->tree_json();
  std::string needle = R"("id":")" + ids_[1] + R"(","parentId":")" + ids_[0] + R"(","depth":1,"children":[")" + ids_[2] +
                       R"("],"label":"b2","labelTimestamp":")" + iso(6) + R"(","entry":)";
  EXPECT_NE(tree.find(needle), std::string::npos) << tree;
  // Labels are not part of the context.
  EXPECT_EQ(val(s->context(std::nullopt)), R"({"leafId":")" + ids_[6] + R"(","messages":[)" + kUser + "," + kAssistant +
                      R"(],"thinkingLevel":"off","models":{"default":"anthropic/claude"},"injectedTtsrRules":[],"mode":"none"})");
}

TEST_P(SessionTest, InfoAndDiagnosticsViews) {
  put(header_line() + "\n" + line("message", "m1", "", 1, "\"message\":" + kUser) + "\nnot json\n");
  auto r = open(read_only());
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto& s = *r;
  EXPECT_EQ(s->info_json(), R"({"id":"sess1","path":")" + path_ + R"(","cwd":"/home/u/proj","timestamp":")" + iso(0) +
                                R"(","title":null,"parentSession":null,"version":3,"entryCount":1,"leafId":"m1","persisted":true,"readOnly":true,"diagnostics":1,"entryTypes":{"message":1}})");
  std::string offset = std::to_string(header_line().size() + 1 + line("message", "m1", "", 1, "\"message\":" + kUser).size() + 1);
  std::string diags = s->diagnostics_json();
  std::string prefix = R"([{"line":3,"offset":)" + offset + R"(,"length":8,"code":"invalid_json","reason":")";
  EXPECT_EQ(diags.substr(0, prefix.size()), prefix);
  EXPECT_EQ(diags.substr(diags.size() - 3), "\"}]");
}

// --- reopening ---------------------------------------------------------------------------------

TEST_P(SessionTest, ReopenGivesTheSameEntriesAndContextWithTheLeafAtTheLastLine) {
  std::string entries, live_ctx;
  {
    auto s = create(options(false));
    std::string id;
    ASSERT_OK(s->append_message(kUser, &id));
    ASSERT_OK(s->append_message(kAssistant, &id));
    ASSERT_OK(s->branch(ids_[0]));
    ASSERT_OK(s->append_message(R"({"role":"user","content":"alt"})", &id));
    ASSERT_OK(s->branch(ids_[1]));  // in memory only: the leaf is not persisted
    entries = s->entries_json();
    live_ctx = val(s->context(std::string_view(ids_[2])));
    ASSERT_OK(s->close());
  }
  SessionOptions o = options();
  o.id_seed = kSeed + 1;
  auto r = open(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto& s = *r;
  EXPECT_EQ(s->entries_json(), entries);
  EXPECT_EQ(s->leaf_id(), ids_[2]);
  EXPECT_EQ(val(s->context(std::nullopt)), live_ctx);
  EXPECT_EQ(s->header(), header_line());
  EXPECT_EQ(s->diagnostics_json(), "[]");
  EXPECT_TRUE(s->persisted());
  std::string before = content();
  std::string id;
  ASSERT_OK(s->append_custom("after", std::nullopt, &id));
  std::string expected_id = test::seeded_entry_ids(kSeed + 1, 1)[0];
  EXPECT_EQ(id, expected_id);
  // Reopened sessions use the clock from their own options: a fresh fixed clock starts at kT0.
  EXPECT_EQ(content(), before + line("custom", expected_id, ids_[2], 0, R"("customType":"after")") + "\n");
}

TEST_P(SessionTest, ReadOnlySessionsNeverWrite) {
  put(header_line() + "\n" + line("message", "m1", "", 1, "\"message\":" + kUser) + "\n");
  std::string before = content();
  auto r = open(read_only());
  ASSERT_TRUE(r.ok());
  auto& s = *r;
  EXPECT_TRUE(s->read_only());
  std::string id;
  EXPECT_EQ(s->append_message(kUser, &id).code(), Code::kReadOnly);
  EXPECT_EQ(s->append_entry(R"({"type":"custom","customType":"x"})", &id).code(), Code::kReadOnly);
  EXPECT_EQ(s->append_custom("x", std::nullopt, &id).code(), Code::kReadOnly);
  EXPECT_EQ(s->append_label("m1", "l", &id).code(), Code::kReadOnly);
  EXPECT_EQ(s->branch_with_summary(std::nullopt, "s", std::nullopt, std::nullopt, &id).code(), Code::kReadOnly);
  EXPECT_EQ(s->set_title("t").code(), Code::kReadOnly);
  EXPECT_EQ(s->write_now().code(), Code::kReadOnly);
  EXPECT_TRUE(s->flush().ok());
  ASSERT_OK(s->branch("m1"));  // navigation is fine: it writes nothing
  EXPECT_TRUE(s->close().ok());
  EXPECT_EQ(content(), before);
  EXPECT_FALSE(exists(path_ + ".lock"));
}

TEST_P(SessionTest, MissingFile) {
  EXPECT_EQ(open(options()).status().code(), Code::kNotFound);
  EXPECT_EQ(open(read_only()).status().code(), Code::kNotFound);
  SessionOptions o = options();
  o.create_if_missing = true;
  o.read_only = true;
  EXPECT_EQ(open(o).status().code(), Code::kNotFound);
  EXPECT_FALSE(exists());
  std::string other = root_ + "/elsewhere/deep/s.jsonl";
  o.read_only = false;
  auto r = open(o, other);
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto& s = *r;
  EXPECT_EQ(s->path(), other);
  EXPECT_FALSE(s->persisted());
  EXPECT_FALSE(exists(other));
  std::string id;
  ASSERT_OK(s->append_message(kAssistant, &id));
  EXPECT_EQ(content(other), header_line() + "\n" + line("message", ids_[0], "", 1, "\"message\":" + kAssistant) + "\n");
}

// --- one writer per file ------------------------------------------------------------------------

TEST_P(SessionTest, SecondWriterIsLockedReadersAreNot) {
  auto s = create(options(false));
  ASSERT_TRUE(s);
  EXPECT_EQ(open(options()).status().code(), Code::kLocked);
  auto reader = open(read_only());
  ASSERT_TRUE(reader.ok());
  ASSERT_OK(s->close());
  auto second = open(options());
  ASSERT_TRUE(second.ok()) << second.status().message();
  EXPECT_EQ(open(options()).status().code(), Code::kLocked);
  second->reset();  // destroyed without close(): the lock goes with it
  EXPECT_TRUE(open(options()).ok());
}

TEST_P(SessionTest, DeferredSessionOpenedByPathHoldsTheLockBeforeItsFileExists) {
  SessionOptions o = options();
  o.create_if_missing = true;
  auto first = open(o);
  ASSERT_TRUE(first.ok());
  EXPECT_FALSE(exists());
  EXPECT_EQ(open(o).status().code(), Code::kLocked);
}

// --- foreign writers ------------------------------------------------------------------------------

TEST_P(SessionTest, ForeignRenameOverOurFileMakesTheNextAppendAConflict) {
  auto s = create(options(false));
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  foreign_replace("{\"foreign\":true}\n");
  EXPECT_EQ(s->append_message(kAssistant, &id).code(), Code::kConflict);
  EXPECT_EQ(content(), "{\"foreign\":true}\n");
  EXPECT_EQ(s->entry_count(), 1u);
  EXPECT_EQ(s->leaf_id(), ids_[0]);
  // Also when the writer has not opened its descriptor yet (first append after open).
  ASSERT_OK(s->close());
  s.reset();
  put(header_line() + "\n");
  auto r = open(options());
  ASSERT_TRUE(r.ok());
  foreign_replace("theirs\n");
  EXPECT_EQ((*r)->append_message(kUser, &id).code(), Code::kConflict);
  EXPECT_EQ(content(), "theirs\n");
  // A failed branch_with_summary leaves the leaf where it was.
  EXPECT_EQ((*r)->branch_with_summary(std::nullopt, "s", std::nullopt, std::nullopt, &id).code(), Code::kConflict);
  EXPECT_FALSE((*r)->leaf_id().has_value());
}

TEST_P(SessionTest, ForeignAppendMakesTheNextRewriteAConflict) {
  auto s = create(options(false));
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  test::append_file(*base_, path_, "{\"type\":\"custom\",\"customType\":\"theirs\",\"id\":\"z\",\"parentId\":null}\n");
  std::string before = content();
  EXPECT_EQ(s->set_title("mine").code(), Code::kConflict);
  EXPECT_EQ(content(), before);
  EXPECT_EQ(s->header(), header_line());
  EXPECT_FALSE(s->title().has_value());
  EXPECT_EQ(names(), (std::vector<std::string>{kFileName, kFileName + ".lock"}));
}

// --- rewrites: title, migration, recovery ------------------------------------------------------

TEST_P(SessionTest, SetTitleRewritesOnlyTheHeaderAtomically) {
  SessionOptions o = options(false);
  o.parent_session = "/p.jsonl";
  auto s = create(o);
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  std::string l0 = line("message", ids_[0], "", 1, "\"message\":" + kUser);
  uint64_t before = ino();
  uint64_t gen = s->generation();
  ASSERT_OK(s->set_title("First \"one\""));
  EXPECT_EQ(s->generation(), gen + 1);
  EXPECT_EQ(content(), header_line(R"(,"title":"First \"one\"","parentSession":"/p.jsonl")") + "\n" + l0 + "\n");
  EXPECT_NE(ino(), before);
  EXPECT_EQ(s->title(), "First \"one\"");
  ASSERT_OK(s->set_title("Second"));
  EXPECT_EQ(content(), header_line(R"(,"title":"Second","parentSession":"/p.jsonl")") + "\n" + l0 + "\n");
  ASSERT_OK(s->set_title(std::nullopt));
  EXPECT_EQ(content(), header_line(R"(,"parentSession":"/p.jsonl")") + "\n" + l0 + "\n");
  EXPECT_FALSE(s->title().has_value());
  EXPECT_EQ(s->set_title(std::string_view("\xff")).code(), Code::kInvalid);
  // Appends continue on the new file.
  ASSERT_OK(s->append_message(kAssistant, &id));
  EXPECT_EQ(content(), header_line(R"(,"parentSession":"/p.jsonl")") + "\n" + l0 + "\n" +
                           line("message", ids_[1], ids_[0], 2, "\"message\":" + kAssistant) + "\n");
  EXPECT_EQ(names(), (std::vector<std::string>{kFileName, kFileName + ".lock"}));
}

TEST_P(SessionTest, SkippedLinesSurviveARewriteByteForByte) {
  std::string l0 = line("message", "m1", "", 1, "\"message\":" + kUser);
  std::string bad = "{\"bad\": \"\xff\"}";
  std::string unknown = R"( { "type" : "omp_future" , "id" : "u1" , "parentId" : "m1" , "n" : 1.0e0 } )";
  put("garbage first\n" + header_line() + "\n" + l0 + "\n" + bad + "\n" + unknown + "\n[1,2]\n\n{\"torn");
  auto r = open(options());
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto& s = *r;
  ASSERT_OK(s->set_title("T"));
  EXPECT_EQ(content(), "garbage first\n" + header_line(R"(,"title":"T")") + "\n" + l0 + "\n" + bad + "\n" + unknown +
                           "\n[1,2]\n\n{\"torn\n");
  EXPECT_EQ(val(s->entry_json("u1")), unknown);
  std::string id;
  ASSERT_OK(s->append_custom("c", std::nullopt, &id));
  EXPECT_EQ(content(), "garbage first\n" + header_line(R"(,"title":"T")") + "\n" + l0 + "\n" + bad + "\n" + unknown +
                           "\n[1,2]\n\n{\"torn\n" + line("custom", ids_[0], "u1", 0, R"("customType":"c")") + "\n");
}

TEST_P(SessionTest, TornTailIsReportedAndTheNextAppendStartsOnAFreshLine) {
  std::string l0 = line("message", "m1", "", 1, "\"message\":" + kUser);
  std::string fragment = R"({"type":"message","id":"m2","parentId":"m1","time)";
  put(header_line() + "\n" + l0 + "\n" + fragment);
  auto r = open(options());
  ASSERT_TRUE(r.ok());
  auto& s = *r;
  std::string diags = s->diagnostics_json();
  EXPECT_NE(diags.find(R"("line":3,"offset":)" + std::to_string(header_line().size() + l0.size() + 2) + R"(,"length":)" +
                       std::to_string(fragment.size()) + R"(,"code":"incomplete_tail")"),
            std::string::npos)
      << diags;
  std::string id;
  ASSERT_OK(s->append_message(kAssistant, &id));
  ASSERT_OK(s->append_custom("x", std::nullopt, &id));
  std::string a = line("message", ids_[0], "m1", 0, "\"message\":" + kAssistant);
  std::string c = line("custom", ids_[1], ids_[0], 1, R"("customType":"x")");
  EXPECT_EQ(content(), header_line() + "\n" + l0 + "\n" + fragment + "\n" + a + "\n" + c + "\n");
  ASSERT_OK(s->close());
  // Reopened: the fragment is an ordinary bad line now, and both new entries load.
  auto again = open(read_only());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->entry_count(), 3u);
  EXPECT_EQ((*again)->leaf_id(), ids_[1]);
}

TEST_P(SessionTest, CompleteLastLineWithoutNewlineGetsOneBeforeTheNextAppend) {
  std::string l0 = line("message", "m1", "", 1, "\"message\":" + kUser);
  put(header_line() + "\n" + l0);
  auto r = open(options());
  ASSERT_TRUE(r.ok());
  std::string id;
  ASSERT_OK((*r)->append_custom("x", std::nullopt, &id));
  EXPECT_EQ(content(), header_line() + "\n" + l0 + "\n" + line("custom", ids_[0], "m1", 0, R"("customType":"x")") + "\n");
}

TEST_P(SessionTest, ReadOnlyOpenNeverRepairsATornTail) {
  std::string fragment = "{\"type\":\"mess";
  put(header_line() + "\n" + fragment);
  auto r = open(read_only());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(content(), header_line() + "\n" + fragment);
  EXPECT_NE((*r)->diagnostics_json().find("incomplete_tail"), std::string::npos);
}

// DECISIONS.md "No silent data loss on a bad file".
TEST_P(SessionTest, HeaderlessFileIsPreservedThenReplacedOnWritableOpen) {
  const std::string original = R"({"type":"message","id":"x","message":{"role":"user"}})" "\nmore\n";
  put(original);
  // Read-only: an error, and nothing is touched.
  EXPECT_EQ(open(read_only()).status().code(), Code::kNoHeader);
  EXPECT_EQ(content(), original);
  EXPECT_EQ(names(), std::vector<std::string>{kFileName});
  // Writable: the bytes are kept beside it, then a fresh session takes the path.
  auto r = open(options());
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto& s = *r;
  std::string corrupt = path_ + ".corrupt-2026-02-16T10-20-30-000Z";
  EXPECT_EQ(content(corrupt), original);
  // The copy's stamp used the first clock tick; the fresh header the second.
  std::string fresh = R"({"type":"session","version":3,"id":"sess1","timestamp":")" + iso(1) + R"(","cwd":"/home/u/proj"})";
  EXPECT_EQ(content(), fresh + "\n");
  EXPECT_TRUE(s->persisted());
  EXPECT_EQ(s->entry_count(), 0u);
  std::string diags = s->diagnostics_json();
  EXPECT_NE(diags.find(R"("code":"corrupt_file_preserved")"), std::string::npos) << diags;
  EXPECT_NE(diags.find(corrupt), std::string::npos) << diags;
  EXPECT_EQ(names(), (std::vector<std::string>{kFileName, kFileName + ".corrupt-2026-02-16T10-20-30-000Z", kFileName + ".lock"}));
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  EXPECT_EQ(content(), fresh + "\n" + line("message", ids_[0], "", 2, "\"message\":" + kUser) + "\n");
  ASSERT_OK(s->close());
  // Reopening the recovered file keeps its id.
  auto again = open(read_only());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->header_info().id, "sess1");
}

TEST_P(SessionTest, SecondRecoveryWithTheSameStampGetsASuffix) {
  put("junk one\n");
  ASSERT_TRUE(open(options()).ok());
  put("junk two\n");
  ASSERT_TRUE(open(options()).ok());
  EXPECT_EQ(content(path_ + ".corrupt-2026-02-16T10-20-30-000Z"), "junk one\n");
  EXPECT_EQ(content(path_ + ".corrupt-2026-02-16T10-20-30-000Z-1"), "junk two\n");
}

TEST_P(SessionTest, EmptyFileGetsAFreshHeaderWithoutACopy) {
  put("");
  auto r = open(options());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(content(), header_line() + "\n");
  EXPECT_EQ(names(), (std::vector<std::string>{kFileName, kFileName + ".lock"}));
  EXPECT_EQ((*r)->diagnostics_json(), "[]");
}

const std::string kV1File =
    R"({"type":"session","id":"old","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w"})" "\n"
    R"({"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}})" "\n"
    "# not json\n"
    R"({"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"hookMessage","content":"h"}})" "\n";

std::string migrated_v1(const std::vector<std::string>& id) {
  return R"({"type":"session","id":"old","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w","version":3})" "\n"
         R"({"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"},"id":")" +
         id[0] + R"(","parentId":null})" "\n"
         "# not json\n"
         R"({"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"custom","content":"h"},"id":")" +
         id[1] + R"(","parentId":")" + id[0] + "\"}\n";
}

TEST_P(SessionTest, WritableOpenRewritesAMigratedFileAtOnce) {
  put(kV1File);
  uint64_t before = ino();
  auto r = open(options());
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(content(), migrated_v1(ids_));
  EXPECT_NE(ino(), before);
  EXPECT_EQ((*r)->header_info().version, 3);
  EXPECT_EQ(names(), (std::vector<std::string>{kFileName, kFileName + ".lock"}));
  std::string id;
  ASSERT_OK((*r)->append_custom("x", std::nullopt, &id));
  EXPECT_EQ(id, ids_[2]);
  EXPECT_EQ(content(), migrated_v1(ids_) + line("custom", ids_[2], ids_[1], 0, R"("customType":"x")") + "\n");
}

TEST_P(SessionTest, ReadOnlyOpenMigratesInMemoryOnly) {
  put(kV1File);
  auto r = open(read_only());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(content(), kV1File);
  std::string migrated = migrated_v1(ids_);
  EXPECT_EQ((*r)->header(), migrated.substr(0, migrated.find('\n')));
  EXPECT_EQ((*r)->entry_count(), 2u);
  EXPECT_EQ((*r)->leaf_id(), ids_[1]);
  auto ctx = (*r)->context(std::nullopt);
  ASSERT_TRUE(ctx.ok());
  EXPECT_EQ(*ctx, R"({"leafId":")" + ids_[1] +
                      R"(","messages":[{"role":"user","content":"hi"},{"role":"custom","content":"h"}],"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none"})");
}

TEST_P(SessionTest, MigratedV1CompactionKeepsItsRangeInTheContext) {
  put(R"({"type":"session","id":"old","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w"})" "\n"
      R"({"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"one"}})" "\n"
      R"({"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"user","content":"two"}})" "\n"
      R"({"type":"compaction","timestamp":"2025-01-01T00:00:03.000Z","summary":"S","firstKeptEntryIndex":2,"tokensBefore":9})" "\n"
      R"({"type":"message","timestamp":"2025-01-01T00:00:04.000Z","message":{"role":"user","content":"three"}})" "\n");
  auto r = open(read_only());
  ASSERT_TRUE(r.ok());
  auto ctx = (*r)->context(std::nullopt);
  ASSERT_TRUE(ctx.ok());
  EXPECT_EQ(*ctx, R"({"leafId":")" + ids_[3] +
                      R"(","messages":[{"role":"compactionSummary","summary":"S","tokensBefore":9,"timestamp":1735689603000},)"
                      R"({"role":"user","content":"two"},{"role":"user","content":"three"}],"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none"})");
}

// reference §3: `version >= 3` in JavaScript is true for the string "3": no migration, no rewrite.
TEST_P(SessionTest, StringVersionThreeIsNotMigrated) {
  std::string file = R"({"type":"session","version":"3","id":"sess1","timestamp":"t","cwd":"/"})" "\n" +
                     line("message", "m1", "", 1, "\"message\":" + kUser) + "\n" +
                     line("message", "m2", "m1", 2, "\"message\":" + kAssistant) + "\n" +
                     line("message", "m3", "m1", 3, "\"message\":" + kUser) + "\n";
  put(file);
  auto r = open(options());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(content(), file);
  auto branch = (*r)->branch_json(std::string_view("m3"));
  ASSERT_TRUE(branch.ok());
  EXPECT_EQ(*branch,
            "[" + line("message", "m1", "", 1, "\"message\":" + kUser) + "," +
                line("message", "m3", "m1", 3, "\"message\":" + kUser) + "]");
}

TEST_P(SessionTest, CurrentFileIsNotRewrittenOnOpen) {
  std::string file = header_line() + "\n" + line("message", "m1", "", 1, "\"message\":" + kUser) + "\n";
  put(file);
  uint64_t before = ino();
  auto r = open(options());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ino(), before);
  EXPECT_EQ(content(), file);
}

// --- temp files ------------------------------------------------------------------------------------

TEST_P(SessionTest, OnlyAWritableOpenRemovesOurStaleTemps) {
  put(header_line() + "\n");
  for (std::string name : {"." + kFileName + ".xs-tmp-dead", "." + kFileName + ".1234567.tmp", std::string(".other.jsonl.xs-tmp-beef")}) {
    test::put_file(*base_, dir_ + "/" + name, "x");
  }
  ASSERT_TRUE(open(read_only()).ok());
  EXPECT_EQ(names().size(), 4u);
  ASSERT_TRUE(open(options()).ok());
  EXPECT_EQ(names(), (std::vector<std::string>{"." + kFileName + ".1234567.tmp", ".other.jsonl.xs-tmp-beef", kFileName,
                                               kFileName + ".lock"}));
}

// --- sticky errors -------------------------------------------------------------------------------

TEST_P(SessionTest, WriteErrorPoisonsTheHandleUntilReopened) {
  auto s = create(options(false));
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  std::string good = content();
  fs_->fail(storage::FsOp::kAppend);
  EXPECT_EQ(s->append_message(kAssistant, &id).code(), Code::kIo);
  fs_->clear(storage::FsOp::kAppend);
  EXPECT_EQ(s->entry_count(), 1u);
  EXPECT_EQ(s->leaf_id(), ids_[0]);
  EXPECT_EQ(s->append_message(kAssistant, &id).code(), Code::kPoisoned);
  EXPECT_EQ(s->set_title("t").code(), Code::kPoisoned);
  EXPECT_EQ(s->flush().code(), Code::kPoisoned);
  EXPECT_EQ(s->close().code(), Code::kPoisoned);
  EXPECT_EQ(content(), good);
  s.reset();
  SessionOptions o = options();
  o.id_seed = 7;
  auto r = open(o);
  ASSERT_TRUE(r.ok());
  ASSERT_OK((*r)->append_message(kAssistant, &id));
  EXPECT_EQ((*r)->entry_count(), 2u);
}

TEST_P(SessionTest, TornWriteIsRecoveredOnReopen) {
  auto s = create(options(false));
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  fs_->fail(storage::FsOp::kAppend, Code::kIo, /*torn=*/true);
  EXPECT_EQ(s->append_message(kAssistant, &id).code(), Code::kIo);
  fs_->clear(storage::FsOp::kAppend);
  s.reset();
  SessionOptions o = options();
  o.id_seed = 7;
  auto r = open(o);
  ASSERT_TRUE(r.ok());
  EXPECT_NE((*r)->diagnostics_json().find("incomplete_tail"), std::string::npos);
  ASSERT_OK((*r)->append_custom("x", std::nullopt, &id));
  auto again = open(read_only());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->entry_count(), 2u);
  EXPECT_EQ((*again)->leaf_id(), id);
}

TEST_P(SessionTest, EveryAppendIsOneWrite) {
  auto s = create(options(false));
  std::string id;
  int before = static_cast<int>(fs_->count(storage::FsOp::kAppend));
  ASSERT_OK(s->append_message(kUser, &id));
  ASSERT_OK(s->append_message(kAssistant, &id));
  ASSERT_OK(s->append_custom("x", std::string_view(R"({"big":")" + std::string(100000, 'x') + "\"}"), &id));
  EXPECT_EQ(static_cast<int>(fs_->count(storage::FsOp::kAppend)), before + 3);
}

TEST_P(SessionTest, SyncDurabilityWritesTheSameBytes) {
  SessionOptions o = options(false);
  o.durability = Durability::kSync;
  auto s = create(o);
  std::string id;
  int syncs = static_cast<int>(fs_->count(storage::FsOp::kSync));
  ASSERT_OK(s->append_message(kUser, &id));
  ASSERT_OK(s->append_message(kAssistant, &id));
  EXPECT_EQ(static_cast<int>(fs_->count(storage::FsOp::kSync)), syncs + 2);
  EXPECT_EQ(content(), header_line() + "\n" + line("message", ids_[0], "", 1, "\"message\":" + kUser) + "\n" +
                           line("message", ids_[1], ids_[0], 2, "\"message\":" + kAssistant) + "\n");
}

TEST_P(SessionTest, FileStartingWithAByteOrderMarkOpensAsThatSession) {
  std::string l0 = line("message", "m1", "", 1, "\"message\":" + kUser);
  std::string file = "\xef\xbb\xbf" + header_line() + "\n" + l0 + "\n";
  put(file);
  auto r = open(options());
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)->header_info().id, "sess1");
  EXPECT_EQ((*r)->entry_count(), 1u);
  EXPECT_EQ(content(), file);
  EXPECT_FALSE(exists(path_ + ".corrupt-2026-02-16T10-20-30-000Z"));
  // A rewrite copies every unchanged byte, the mark included.
  ASSERT_OK((*r)->set_title("T"));
  EXPECT_EQ(content(), "\xef\xbb\xbf" + header_line(R"(,"title":"T")") + "\n" + l0 + "\n");
}

TEST_P(SessionTest, CreateNeverOverwritesAnExistingFile) {
  {
    auto first = create(options(false));
    ASSERT_TRUE(first);
    // Same id and clock: the same file name. The first writer still holds the lock.
    auto second = Session::create(fs_, dir_, options(false));
    EXPECT_EQ(second.status().code(), Code::kLocked);
    ASSERT_OK(first->close());
  }
  std::string before = content();
  auto third = Session::create(fs_, dir_, options(false));
  EXPECT_EQ(third.status().code(), Code::kConflict);
  EXPECT_EQ(content(), before);
  EXPECT_EQ(names(), (std::vector<std::string>{kFileName, kFileName + ".lock"}));
}

TEST_P(SessionTest, DistinctSessionsOnOneFsWorkFromManyThreads) {
  const int threads = 4, appends = 100;
  std::vector<std::thread> workers;
  std::vector<std::string> paths(threads);
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      SessionOptions o = options(false);
      o.session_id = "thread" + std::to_string(t);
      o.id_seed = static_cast<uint64_t>(100 + t);
      auto r = Session::create(fs_, dir_, o);
      ASSERT_TRUE(r.ok()) << r.status().message();
      paths[static_cast<size_t>(t)] = (*r)->path();
      std::string id;
      for (int i = 0; i < appends; ++i) {
        ASSERT_TRUE((*r)->append_message(i % 2 ? kAssistant : kUser, &id).ok());
      }
      ASSERT_TRUE((*r)->close().ok());
    });
  }
  for (auto& w : workers) w.join();
  for (const std::string& p : paths) {
    auto r = open(read_only(), p);
    ASSERT_TRUE(r.ok()) << p;
    EXPECT_EQ((*r)->entry_count(), static_cast<size_t>(appends));
    EXPECT_EQ((*r)->diagnostics_json(), "[]");
  }
}

// --- pi's session_info names and the title -------------------------------------------------------

TEST_P(SessionTest, TitleComesFromTheHeaderElseTheLastSessionInfoNameTrimmed) {
  std::string info1 = R"({"type":"session_info","id":"i1","parentId":null,"timestamp":"t","name":"  First  "})";
  std::string info2 = R"({"type":"session_info","id":"i2","parentId":"i1","timestamp":"t","name":"\u00a0Second\n"})";
  std::string cleared = R"({"type":"session_info","id":"i3","parentId":"i2","timestamp":"t","name":"   "})";
  put(header_line() + "\n" + info1 + "\n" + info2 + "\n");
  {
    auto r = open(read_only());
    ASSERT_TRUE(r.ok());
    EXPECT_EQ((*r)->title(), "Second");
    EXPECT_NE((*r)->info_json().find(R"("title":"Second")"), std::string::npos);
  }
  put(header_line() + "\n" + info1 + "\n" + info2 + "\n" + cleared + "\n");
  {
    auto r = open(read_only());
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE((*r)->title().has_value());  // an empty name clears it (pi)
  }
  put(header_line(R"(,"title":"From header")") + "\n" + info1 + "\n");
  {
    auto r = open(read_only());
    ASSERT_TRUE(r.ok());
    EXPECT_EQ((*r)->title(), "From header");
  }
}

// --- diagnostics from the tree ------------------------------------------------------------------

TEST_P(SessionTest, DuplicateIdsAndCyclesAreReportedWithLoaderDiagnostics) {
  std::string a = line("custom", "a", "", 1, R"("customType":"x")");
  std::string a2 = line("custom", "a", "", 2, R"("customType":"y")");
  std::string self = line("custom", "s", "s", 3, R"("customType":"z")");
  put(header_line() + "\n" + a + "\nbroken\n" + a2 + "\n" + self + "\n");
  auto r = open(read_only());
  ASSERT_TRUE(r.ok());
  std::string diags = (*r)->diagnostics_json();
  EXPECT_NE(diags.find(R"("line":3,)"), std::string::npos) << diags;
  EXPECT_NE(diags.find(R"("code":"invalid_json")"), std::string::npos) << diags;
  EXPECT_NE(diags.find(R"("line":4,"offset":)" + std::to_string(header_line().size() + a.size() + 9) + R"(,"length":)" +
                       std::to_string(a2.size()) + R"(,"code":"duplicate_id")"),
            std::string::npos)
      << diags;
  EXPECT_NE(diags.find(R"("line":5,)"), std::string::npos) << diags;
  EXPECT_NE(diags.find(R"("code":"parent_cycle")"), std::string::npos) << diags;
  EXPECT_NE((*r)->info_json().find(R"("diagnostics":3,"entryTypes":{"custom":3}})"), std::string::npos) << (*r)->info_json();
  EXPECT_EQ(val((*r)->entry_json("a")), a2);
}

// --- reload (DECISIONS.md "Reload") ------------------------------------------------------------

TEST_P(SessionTest, ReaderReloadPicksUpAppendedEntries) {
  auto writer = create(options(false));
  std::string id;
  ASSERT_OK(writer->append_message(kUser, &id));
  auto r = open(read_only());
  ASSERT_TRUE(r.ok());
  auto& reader = *r;
  EXPECT_EQ(reader->entry_count(), 1u);
  int64_t added = -1;
  uint64_t gen = reader->generation();
  ASSERT_OK(reader->reload(&added));
  EXPECT_EQ(added, 0);
  EXPECT_EQ(reader->generation(), gen);
  ASSERT_OK(writer->append_message(kAssistant, &id));
  ASSERT_OK(writer->append_custom("x", std::nullopt, &id));
  ASSERT_OK(reader->reload(&added));
  EXPECT_EQ(added, 2);
  EXPECT_EQ(reader->entries_json(), writer->entries_json());
  EXPECT_EQ(reader->leaf_id(), ids_[2]);
  EXPECT_EQ(val(reader->context(std::nullopt)), val(writer->context(std::nullopt)));
  // A writable handle is the file's only writer: it has nothing to reload.
  EXPECT_EQ(writer->reload(&added).code(), Code::kMisuse);
}

TEST_P(SessionTest, ReaderReportsButNeverRepairsALineStillBeingWritten) {
  auto writer = create(options(false));
  std::string id;
  ASSERT_OK(writer->append_message(kUser, &id));
  auto r = open(read_only());
  ASSERT_TRUE(r.ok());
  auto& reader = *r;
  std::string full = line("custom", "later", ids_[0], 9, R"("customType":"x")");
  test::append_file(*base_, path_, full.substr(0, 20));
  std::string before = content();
  int64_t added = -1;
  ASSERT_OK(reader->reload(&added));
  EXPECT_EQ(added, 0);
  EXPECT_EQ(content(), before);
  std::string diags = reader->diagnostics_json();
  EXPECT_NE(diags.find("incomplete_tail"), std::string::npos) << diags;
  test::append_file(*base_, path_, full.substr(20) + "\n");
  ASSERT_OK(reader->reload(&added));
  EXPECT_EQ(added, 1);
  EXPECT_EQ(reader->diagnostics_json(), "[]");
  EXPECT_EQ(val(reader->entry_json("later")), full);
  EXPECT_EQ(reader->leaf_id(), "later");
}

TEST_P(SessionTest, ReaderReloadAfterARewriteReadsTheWholeFileAgain) {
  auto writer = create(options(false));
  std::string id;
  ASSERT_OK(writer->append_message(kUser, &id));
  auto r = open(read_only());
  ASSERT_TRUE(r.ok());
  auto& reader = *r;
  ASSERT_OK(writer->set_title("renamed"));
  ASSERT_OK(writer->append_message(kAssistant, &id));
  int64_t added = -1;
  ASSERT_OK(reader->reload(&added));
  EXPECT_EQ(added, 1);
  EXPECT_EQ(reader->header(), writer->header());
  EXPECT_EQ(reader->title(), "renamed");
  EXPECT_EQ(reader->entries_json(), writer->entries_json());
}

INSTANTIATE_TEST_SUITE_P(Both, SessionTest, ::testing::Values("memory", "posix"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// --- POSIX only: permissions and real file handles ------------------------------------------------

TEST(SessionPosix, FilesAre0600AndDirectories0700) {
  test::TempDir tmp;
  auto fs = storage::make_posix_fs();
  std::string dir = tmp.path() + "/agent/sessions/--p--";
  auto r = Session::create(fs, dir, options(false));
  ASSERT_TRUE(r.ok());
  auto& s = *r;
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  ASSERT_OK(s->set_title("t"));
  EXPECT_EQ(test::file_mode(tmp.path() + "/agent"), 0700);
  EXPECT_EQ(test::file_mode(tmp.path() + "/agent/sessions"), 0700);
  EXPECT_EQ(test::file_mode(dir), 0700);
  EXPECT_EQ(test::file_mode(s->path()), 0600);
  EXPECT_EQ(test::file_mode(s->path() + ".lock"), 0600);
  EXPECT_EQ(test::list_dir(dir), (std::vector<std::string>{kFileName, kFileName + ".lock"}));
  // The preserved copy of a headerless file is private too.
  std::string bad = tmp.file("bad.jsonl");
  test::write_file(bad, "secret garbage\n");
  ::chmod(bad.c_str(), 0644);
  auto rec = Session::open(fs, bad, options());
  ASSERT_TRUE(rec.ok());
  EXPECT_EQ(test::file_mode(bad + ".corrupt-2026-02-16T10-20-30-000Z"), 0600);
  EXPECT_EQ(test::file_mode(bad), 0600);
}

TEST(SessionPosix, AppendAfterAForeignRenameWritesNothingAnywhere) {
  test::TempDir tmp;
  auto fs = storage::make_posix_fs();
  auto r = Session::create(fs, tmp.path(), options(false));
  ASSERT_TRUE(r.ok());
  auto& s = *r;
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  std::string path = s->path();
  // Keep a name for our inode so its bytes can be inspected after the foreign rename.
  ASSERT_EQ(::link(path.c_str(), tmp.file("ours").c_str()), 0);
  std::string ours = test::read_file(path);
  test::write_file(tmp.file("theirs.tmp"), "theirs\n");
  ASSERT_EQ(::rename(tmp.file("theirs.tmp").c_str(), path.c_str()), 0);
  EXPECT_EQ(s->append_message(kAssistant, &id).code(), Code::kConflict);
  EXPECT_EQ(test::read_file(path), "theirs\n");
  EXPECT_EQ(test::read_file(tmp.file("ours")), ours);
}

TEST(SessionPosix, SecondWriterInAnotherProcessIsLocked) {
  test::TempDir tmp;
  auto fs = storage::make_posix_fs();
  auto r = Session::create(fs, tmp.path(), options(false));
  ASSERT_TRUE(r.ok());
  std::string path = (*r)->path();
  pid_t pid = ::fork();
  if (pid == 0) {
    auto other = Session::open(storage::make_posix_fs(), path, options());
    ::_exit(other.ok() ? 0 : other.status().code() == Code::kLocked ? 10 : 20);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 10);
}

}  // namespace
}  // namespace xs::session
