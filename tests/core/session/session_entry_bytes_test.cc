// Session: the exact line every typed append writes, in oh-my-pi's key order (docs/format.md#entries),
// and the arguments each refuses without taking an id.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "session_fixture.h"

namespace xs::session {
namespace {

using namespace fixture;

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
  minimal.first_kept_entry_id = "bogus";  // not validated (neither agent checks it)
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

}  // namespace
}  // namespace xs::session
