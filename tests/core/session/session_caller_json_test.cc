// Session: caller JSON through the API, validated under the limits and stored minified, token for
// token (docs/format.md#caller-json); append_entry's envelope and the entries readers could not use.
#include <gtest/gtest.h>

#include <string>

#include "session_fixture.h"

namespace xs::session {
namespace {

using namespace fixture;

// --- caller JSON through the API, stored minified (docs/format.md#caller-json) -------------------

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
  // pi's form has no place in an omp session (docs/dialects.md): refused, nothing taken.
  EXPECT_EQ(s->append_entry(R"({"type":"model_change","provider":"google","modelId":"gemini"})", &id).code(),
            Code::kDialect);
  ASSERT_OK(s->append_entry(R"({"type":"model_change", "model":"google/gemini"})", &id));
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
      line("model_change", ids_[2], ids_[1], 3, R"("model":"google/gemini")") + "\n" +
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

}  // namespace
}  // namespace xs::session
