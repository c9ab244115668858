// context/context_builder: the reference agents' buildSessionContext in oh-my-pi's output shape plus
// leafId (docs/context.md).
#include <gtest/gtest.h>

#include <string>

#include "context/context_builder.h"
#include "test_util.h"

namespace xs::context {
namespace {

using model::kNone;

const std::string kHeader = R"({"type":"session","version":3,"id":"s","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/"})";
constexpr int64_t kBase = 1735689600000;  // 2025-01-01T00:00:00.000Z

std::string ts(int sec) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "2025-01-01T00:%02d:%02d.000Z", sec / 60, sec % 60);
  return buf;
}
std::string ms(int sec) { return std::to_string(kBase + sec * 1000LL); }

std::string parent_json(const char* parent) { return parent ? "\"" + std::string(parent) + "\"" : "null"; }

// An entry with the envelope first and `payload` (members without braces) after it.
std::string entry(const std::string& type, const std::string& id, const char* parent, int sec, const std::string& payload = "") {
  return R"({"type":")" + type + R"(","id":")" + id + R"(","parentId":)" + parent_json(parent) + R"(,"timestamp":")" +
         ts(sec) + "\"" + (payload.empty() ? "" : "," + payload) + "}";
}

std::string user_msg(const std::string& text) { return R"({"role":"user","content":")" + text + R"(","timestamp":1})"; }
std::string asst_msg(const std::string& text, const std::string& provider = "anthropic", const std::string& model = "claude") {
  return R"({"role":"assistant","content":[{"type":"text","text":")" + text + R"("}],"provider":")" + provider +
         R"(","model":")" + model + R"(","usage":{"input":1}})";
}
std::string message(const std::string& id, const char* parent, int sec, const std::string& msg) {
  return entry("message", id, parent, sec, "\"message\":" + msg);
}

std::string file(std::initializer_list<std::string> lines) {
  std::string f = kHeader + "\n";
  for (const std::string& l : lines) f += l + "\n";
  return f;
}

// The context at `leaf` (nullptr: the session's leaf, the last entry).
std::string context_of(const std::string& bytes, const char* leaf = nullptr) {
  auto l = test::load(bytes);
  if (!l->status.ok()) return "<load: " + l->status.message() + ">";
  uint32_t at = leaf ? l->tree.find(leaf) : l->tree.leaf();
  if (leaf && at == kNone) return "<no entry " + std::string(leaf) + ">";
  return build_context(l->data, l->tree, at);
}

std::string ctx(const std::string& leaf, const std::string& messages, const std::string& rest = "") {
  return R"({"leafId":")" + leaf + R"(","messages":[)" + messages + "]" + rest + "}";
}
const std::string kDefaultState = R"(,"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none")";
std::string claude_state(const std::string& thinking = "off") {
  return R"(,"thinkingLevel":")" + thinking + R"(","models":{"default":"anthropic/claude"},"injectedTtsrRules":[],"mode":"none")";
}

TEST(ContextBuilder, EmptyContextForNoLeaf) {
  EXPECT_EQ(context_of(file({})),
            R"({"leafId":null,"messages":[],"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none"})");
  auto l = test::load(file({message("u1", nullptr, 1, user_msg("hi"))}));
  EXPECT_EQ(build_context(l->data, l->tree, kNone),
            R"({"leafId":null,"messages":[],"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none"})");
}

TEST(ContextBuilder, SimpleChatCopiesMessagesVerbatim) {
  std::string f = file({message("u1", nullptr, 1, user_msg("hello")), message("a1", "u1", 2, asst_msg("hi there"))});
  EXPECT_EQ(context_of(f), ctx("a1", user_msg("hello") + "," + asst_msg("hi there"), claude_state()));
}

TEST(ContextBuilder, MessageBytesAreEmittedExactlyAsStored) {
  std::string spaced = R"({ "role" : "user",  "content" : "a  b\u00e9 \ud83d", "n": 1.50e+3 })";
  std::string line = R"({"type":"message","id":"u1","parentId":null,"timestamp":")" + ts(1) + R"(","message": )" + spaced + " }";
  EXPECT_EQ(context_of(file({line})), ctx("u1", spaced, kDefaultState));
}

TEST(ContextBuilder, LeafSelectsTheBranch) {
  std::string f = file({message("u1", nullptr, 1, user_msg("q")), message("a1", "u1", 2, asst_msg("one")),
                        message("a2", "u1", 3, asst_msg("two", "openai", "gpt"))});
  EXPECT_EQ(context_of(f, "a1"), ctx("a1", user_msg("q") + "," + asst_msg("one"), claude_state()));
  EXPECT_EQ(context_of(f),
            ctx("a2", user_msg("q") + "," + asst_msg("two", "openai", "gpt"),
                R"(,"thinkingLevel":"off","models":{"default":"openai/gpt"},"injectedTtsrRules":[],"mode":"none")"));
  EXPECT_EQ(context_of(f, "u1"), ctx("u1", user_msg("q"), kDefaultState));
}

TEST(ContextBuilder, OrphanPathStartsAtTheOrphan) {
  std::string f = file({message("u1", nullptr, 1, user_msg("root")), message("o", "gone", 2, user_msg("orphan"))});
  EXPECT_EQ(context_of(f), ctx("o", user_msg("orphan"), kDefaultState));
}

TEST(ContextBuilder, ThinkingLevelFollowsThePathAndNullMeansOff) {
  std::string f = file({entry("thinking_level_change", "t1", nullptr, 1, R"("thinkingLevel":"high")"),
                        message("u1", "t1", 2, user_msg("x")),
                        entry("thinking_level_change", "t2", "u1", 3, R"("thinkingLevel":null)"),
                        entry("thinking_level_change", "t3", "u1", 4, R"("thinkingLevel":"minimal")")});
  std::string tail = R"(,"models":{},"injectedTtsrRules":[],"mode":"none")";
  EXPECT_EQ(context_of(f, "u1"), ctx("u1", user_msg("x"), R"(,"thinkingLevel":"high")" + tail));
  EXPECT_EQ(context_of(f, "t2"), ctx("t2", user_msg("x"), R"(,"thinkingLevel":"off")" + tail));
  EXPECT_EQ(context_of(f, "t3"), ctx("t3", user_msg("x"), R"(,"thinkingLevel":"minimal")" + tail));
}

// docs/context.md#state: model_change and assistant replies override each other in path
// order; omp keeps one model per role, pi's {provider, modelId} form is read too.
TEST(ContextBuilder, ModelsFromModelChangesAndAssistantReplies) {
  std::string f = file({entry("model_change", "m1", nullptr, 1, R"("model":"openai/gpt-4")"),
                        message("u1", "m1", 2, user_msg("x")),
                        entry("model_change", "m2", "u1", 3, R"("model":"x/small","role":"smol")"),
                        message("a1", "m2", 4, asst_msg("y")),
                        entry("model_change", "m3", "a1", 5, R"("provider":"google","modelId":"gemini")"),
                        entry("model_change", "m4", "m3", 6, R"("model":"","role":"smol")"),
                        entry("model_change", "m5", "m4", 7, R"("model":"z/plan","role":null)")});
  auto state = [](const std::string& models) {
    return R"(,"thinkingLevel":"off","models":)" + models + R"(,"injectedTtsrRules":[],"mode":"none")";
  };
  std::string msgs = user_msg("x") + "," + asst_msg("y");
  EXPECT_EQ(context_of(f, "u1"), ctx("u1", user_msg("x"), state(R"({"default":"openai/gpt-4"})")));
  EXPECT_EQ(context_of(f, "m2"), ctx("m2", user_msg("x"), state(R"({"default":"openai/gpt-4","smol":"x/small"})")));
  EXPECT_EQ(context_of(f, "a1"), ctx("a1", msgs, state(R"({"default":"anthropic/claude","smol":"x/small"})")));
  EXPECT_EQ(context_of(f, "m3"), ctx("m3", msgs, state(R"({"default":"google/gemini","smol":"x/small"})")));
  // An empty model is ignored; a null role is the default role.
  EXPECT_EQ(context_of(f, "m4"), ctx("m4", msgs, state(R"({"default":"google/gemini","smol":"x/small"})")));
  EXPECT_EQ(context_of(f, "m5"), ctx("m5", msgs, state(R"({"default":"z/plan","smol":"x/small"})")));
}

TEST(ContextBuilder, CompactionKeepsFromFirstKeptEntryThenTheRest) {
  std::string f = file({message("u1", nullptr, 1, user_msg("one")), message("a1", "u1", 2, asst_msg("r1")),
                        message("u2", "a1", 3, user_msg("two")), message("a2", "u2", 4, asst_msg("r2")),
                        entry("compaction", "c", "a2", 5, R"("summary":"S","firstKeptEntryId":"u2","tokensBefore":100)"),
                        message("u3", "c", 6, user_msg("three")), message("a3", "u3", 7, asst_msg("r3"))});
  std::string summary = R"({"role":"compactionSummary","summary":"S","tokensBefore":100,"timestamp":)" + ms(5) + "}";
  EXPECT_EQ(context_of(f), ctx("a3", summary + "," + user_msg("two") + "," + asst_msg("r2") + "," + user_msg("three") +
                                         "," + asst_msg("r3"),
                               claude_state()));
  // The leaf on the compaction itself: summary and kept range only.
  EXPECT_EQ(context_of(f, "c"), ctx("c", summary + "," + user_msg("two") + "," + asst_msg("r2"), claude_state()));
}

TEST(ContextBuilder, CompactionCanKeepFromTheFirstMessage) {
  std::string f = file({message("u1", nullptr, 1, user_msg("one")), message("a1", "u1", 2, asst_msg("r1")),
                        entry("compaction", "c", "a1", 3, R"("summary":"S","firstKeptEntryId":"u1","tokensBefore":7)")});
  std::string summary = R"({"role":"compactionSummary","summary":"S","tokensBefore":7,"timestamp":)" + ms(3) + "}";
  EXPECT_EQ(context_of(f), ctx("c", summary + "," + user_msg("one") + "," + asst_msg("r1"), claude_state()));
}

TEST(ContextBuilder, CompactionSummaryCarriesShortSummary) {
  std::string f = file({message("u1", nullptr, 1, user_msg("one")),
                        entry("compaction", "c", "u1", 2,
                              R"("summary":"Long","shortSummary":"short","firstKeptEntryId":"u1","tokensBefore":5,"details":{"x":1},"fromExtension":true)")});
  std::string summary =
      R"({"role":"compactionSummary","summary":"Long","shortSummary":"short","tokensBefore":5,"timestamp":)" + ms(2) + "}";
  EXPECT_EQ(context_of(f), ctx("c", summary + "," + user_msg("one"), kDefaultState));
}

// docs/context.md#compaction: a firstKeptEntryId that is not on the path keeps nothing before the
// compaction.
TEST(ContextBuilder, BogusFirstKeptEntryIdKeepsNothing) {
  std::string f = file({message("u1", nullptr, 1, user_msg("one")), message("a1", "u1", 2, asst_msg("r1")),
                        entry("compaction", "c", "a1", 3, R"("summary":"S","firstKeptEntryId":"nope","tokensBefore":9)"),
                        message("u2", "c", 4, user_msg("two"))});
  std::string summary = R"({"role":"compactionSummary","summary":"S","tokensBefore":9,"timestamp":)" + ms(3) + "}";
  EXPECT_EQ(context_of(f), ctx("u2", summary + "," + user_msg("two"), claude_state()));
}

TEST(ContextBuilder, FirstKeptEntryOnAnotherBranchKeepsNothing) {
  std::string f = file({message("u1", nullptr, 1, user_msg("one")), message("side", "u1", 2, user_msg("side")),
                        message("a1", "u1", 3, asst_msg("r1")),
                        entry("compaction", "c", "a1", 4, R"("summary":"S","firstKeptEntryId":"side","tokensBefore":9)")});
  std::string summary = R"({"role":"compactionSummary","summary":"S","tokensBefore":9,"timestamp":)" + ms(4) + "}";
  EXPECT_EQ(context_of(f), ctx("c", summary, claude_state()));
}

// docs/context.md#compaction: only the latest compaction on the path counts; an earlier one inside
// the kept range vanishes, summary and all.
TEST(ContextBuilder, OnlyTheLatestCompactionOnThePathCounts) {
  std::string f = file({message("u1", nullptr, 1, user_msg("one")), message("a1", "u1", 2, asst_msg("r1")),
                        entry("compaction", "c1", "a1", 3, R"("summary":"first summary","firstKeptEntryId":"u1","tokensBefore":1)"),
                        message("u2", "c1", 4, user_msg("two")), message("a2", "u2", 5, asst_msg("r2")),
                        entry("compaction", "c2", "a2", 6, R"("summary":"second summary","firstKeptEntryId":"a1","tokensBefore":2)"),
                        message("u3", "c2", 7, user_msg("three"))});
  std::string summary = R"({"role":"compactionSummary","summary":"second summary","tokensBefore":2,"timestamp":)" + ms(6) + "}";
  EXPECT_EQ(context_of(f), ctx("u3",
                               summary + "," + asst_msg("r1") + "," + user_msg("two") + "," + asst_msg("r2") + "," +
                                   user_msg("three"),
                               claude_state()));
}

TEST(ContextBuilder, LeafBeforeTheCompactionSeesTheFullHistory) {
  std::string f = file({message("u1", nullptr, 1, user_msg("one")), message("a1", "u1", 2, asst_msg("r1")),
                        entry("compaction", "c", "a1", 3, R"("summary":"S","firstKeptEntryId":"a1","tokensBefore":1)"),
                        message("u2", "c", 4, user_msg("two")), message("alt", "a1", 5, user_msg("alt"))});
  EXPECT_EQ(context_of(f, "alt"), ctx("alt", user_msg("one") + "," + asst_msg("r1") + "," + user_msg("alt"), claude_state()));
}

// Kept range includes custom messages and branch summaries (docs/context.md#compaction); state
// comes from the whole path, including entries before firstKeptEntryId.
TEST(ContextBuilder, KeptRangeEmitsConstructedMessagesAndStateUsesTheWholePath) {
  std::string f = file({entry("thinking_level_change", "t", nullptr, 1, R"("thinkingLevel":"high")"),
                        message("u1", "t", 2, user_msg("one")),
                        entry("custom_message", "cm", "u1", 3,
                              R"("customType":"note","content":"c","display":true)"),
                        entry("branch_summary", "bs", "cm", 4, R"("fromId":"u1","summary":"went away")"),
                        entry("compaction", "c", "bs", 5, R"("summary":"S","firstKeptEntryId":"cm","tokensBefore":3)")});
  std::string expected = R"({"role":"compactionSummary","summary":"S","tokensBefore":3,"timestamp":)" + ms(5) + "}," +
                         R"({"role":"custom","customType":"note","content":"c","display":true,"timestamp":)" + ms(3) + "}," +
                         R"({"role":"branchSummary","summary":"went away","fromId":"u1","timestamp":)" + ms(4) + "}";
  EXPECT_EQ(context_of(f), ctx("c", expected, R"(,"thinkingLevel":"high","models":{},"injectedTtsrRules":[],"mode":"none")"));
}

// omp: preserveData.openaiRemoteCompaction replaces the kept range with a provider payload.
TEST(ContextBuilder, RemoteCompactionAddsProviderPayloadAndSkipsTheKeptRange) {
  std::string f = file({message("u1", nullptr, 1, user_msg("one")), message("a1", "u1", 2, asst_msg("r1")),
                        entry("compaction", "c", "a1", 3,
                              R"("summary":"S","shortSummary":"s","firstKeptEntryId":"u1","tokensBefore":4,"preserveData":{"openaiRemoteCompaction":{"provider":"openai","replacementHistory":[{"type":"message","id":"x"}]}})"),
                        message("u2", "c", 4, user_msg("two"))});
  std::string summary =
      R"({"role":"compactionSummary","summary":"S","shortSummary":"s","tokensBefore":4,"providerPayload":{"type":"openaiResponsesHistory","provider":"openai","items":[{"type":"message","id":"x"}]},"timestamp":)" +
      ms(3) + "}";
  EXPECT_EQ(context_of(f), ctx("u2", summary + "," + user_msg("two"), claude_state()));
}

TEST(ContextBuilder, InvalidRemoteCompactionPayloadIsIgnored) {
  for (std::string preserve : {R"({"openaiRemoteCompaction":{"provider":"","replacementHistory":[]}})",
                               R"({"openaiRemoteCompaction":{"provider":"openai","replacementHistory":{}}})",
                               R"({"openaiRemoteCompaction":{"replacementHistory":[]}})", R"({"other":1})"}) {
    std::string f = file({message("u1", nullptr, 1, user_msg("one")),
                          entry("compaction", "c", "u1", 3,
                                R"("summary":"S","firstKeptEntryId":"u1","tokensBefore":4,"preserveData":)" + preserve)});
    std::string summary = R"({"role":"compactionSummary","summary":"S","tokensBefore":4,"timestamp":)" + ms(3) + "}";
    EXPECT_EQ(context_of(f), ctx("c", summary + "," + user_msg("one"), kDefaultState)) << preserve;
  }
}

TEST(ContextBuilder, BranchSummaryWithEmptySummaryIsSkipped) {
  std::string f = file({message("u1", nullptr, 1, user_msg("one")),
                        entry("branch_summary", "b1", "u1", 2, R"("fromId":"u1","summary":"")"),
                        entry("branch_summary", "b2", "b1", 3, R"("fromId":"root","summary":"back","details":{"f":1},"fromExtension":false)"),
                        entry("branch_summary", "b3", "b2", 4, R"("fromId":"b2")")});
  EXPECT_EQ(context_of(f), ctx("b3",
                               user_msg("one") + R"(,{"role":"branchSummary","summary":"back","fromId":"root","timestamp":)" +
                                   ms(3) + "}",
                               kDefaultState));
}

TEST(ContextBuilder, CustomMessagesAreEmittedEvenWhenNotDisplayed) {
  std::string f = file({entry("custom_message", "c1", nullptr, 1,
                              R"("customType":"note","content":"hello","display":false,"details":{"k":[1]},"attribution":"user")"),
                        entry("custom_message", "c2", "c1", 2,
                              R"("customType":"img","content":[{"type":"text","text":"x"}],"display":true)")});
  EXPECT_EQ(context_of(f),
            ctx("c2",
                R"({"role":"custom","customType":"note","content":"hello","display":false,"details":{"k":[1]},"attribution":"user","timestamp":)" +
                    ms(1) + R"(},{"role":"custom","customType":"img","content":[{"type":"text","text":"x"}],"display":true,"timestamp":)" +
                    ms(2) + "}",
                kDefaultState));
}

// docs/context.md#constructed-messages: Date.parse of an invalid timestamp is NaN, which
// JSON.stringify writes as null.
TEST(ContextBuilder, UnparseableTimestampBecomesNull) {
  std::string cm = R"({"type":"custom_message","customType":"n","content":"c","display":true,"id":"c1","parentId":null,"timestamp":"yesterday"})";
  std::string cm2 = R"({"type":"custom_message","customType":"n","content":"c","display":true,"id":"c2","parentId":"c1"})";
  EXPECT_EQ(context_of(file({cm, cm2})),
            ctx("c2",
                R"({"role":"custom","customType":"n","content":"c","display":true,"timestamp":null},)"
                R"({"role":"custom","customType":"n","content":"c","display":true,"timestamp":null})",
                kDefaultState));
}

TEST(ContextBuilder, NonMessageEntriesContributeNothing) {
  std::string f = file({message("u1", nullptr, 1, user_msg("one")),
                        entry("custom", "x1", "u1", 2, R"("customType":"state","data":{"a":1})"),
                        entry("label", "x2", "x1", 3, R"("targetId":"u1","label":"L")"),
                        entry("session_init", "x3", "x2", 4, R"("systemPrompt":"p","task":"t","tools":["a"])"),
                        entry("session_info", "x4", "x3", 5, R"("name":"n")"),
                        entry("some_future_type", "x5", "x4", 6, R"("message":{"role":"user","content":"hidden"})"),
                        entry("thinking_level_change", "x6", "x5", 7, R"("thinkingLevel":"low")")});
  EXPECT_EQ(context_of(f), ctx("x6", user_msg("one"), R"(,"thinkingLevel":"low","models":{},"injectedTtsrRules":[],"mode":"none")"));
}

TEST(ContextBuilder, InjectedTtsrRulesAreUniqueInFirstSeenOrderAlongThePath) {
  std::string f = file({entry("ttsr_injection", "r1", nullptr, 1, R"("injectedRules":["a","b"])"),
                        entry("ttsr_injection", "r2", "r1", 2, R"("injectedRules":["b","q\"x","a","c"])"),
                        entry("ttsr_injection", "side", "r1", 3, R"("injectedRules":["z"])"),
                        entry("ttsr_injection", "r3", "r2", 4, R"("injectedRules":[])")});
  EXPECT_EQ(context_of(f, "r3"),
            ctx("r3", "", R"(,"thinkingLevel":"off","models":{},"injectedTtsrRules":["a","b","q\"x","c"],"mode":"none")"));
  EXPECT_EQ(context_of(f, "side"),
            ctx("side", "", R"(,"thinkingLevel":"off","models":{},"injectedTtsrRules":["a","b","z"],"mode":"none")"));
}

TEST(ContextBuilder, ModeAndModeData) {
  std::string f = file({entry("mode_change", "m1", nullptr, 1, R"("mode":"plan","data":{"step":1,"list":[1,2]})"),
                        entry("mode_change", "m2", "m1", 2, R"("mode":"none")"),
                        entry("mode_change", "m3", "m2", 3, R"("mode":"review","data":"raw")")});
  std::string head = R"(,"thinkingLevel":"off","models":{},"injectedTtsrRules":[])";
  EXPECT_EQ(context_of(f, "m1"), ctx("m1", "", head + R"(,"mode":"plan","modeData":{"step":1,"list":[1,2]})"));
  EXPECT_EQ(context_of(f, "m2"), ctx("m2", "", head + R"(,"mode":"none")"));
  EXPECT_EQ(context_of(f, "m3"), ctx("m3", "", head + R"(,"mode":"review","modeData":"raw")"));
}

TEST(ContextBuilder, ServiceTierAndMcpToolSelection) {
  std::string f = file({entry("service_tier_change", "s1", nullptr, 1, R"("serviceTier":"priority")"),
                        entry("mcp_tool_selection", "t1", "s1", 2, R"("selectedToolNames":["fs.read","web"])"),
                        entry("service_tier_change", "s2", "t1", 3, R"("serviceTier":null)")});
  std::string head = R"(,"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none")";
  EXPECT_EQ(context_of(f, "s1"), ctx("s1", "", head + R"(,"serviceTier":"priority")"));
  EXPECT_EQ(context_of(f, "t1"),
            ctx("t1", "", head + R"(,"serviceTier":"priority","selectedMCPToolNames":["fs.read","web"],"hasPersistedMCPToolSelection":true)"));
  EXPECT_EQ(context_of(f, "s2"),
            ctx("s2", "", head + R"(,"selectedMCPToolNames":["fs.read","web"],"hasPersistedMCPToolSelection":true)"));
}

TEST(ContextBuilder, LoneSurrogatesAndHugeNumbersInMessagesPassThrough) {
  std::string msg = R"({"role":"user","content":"cut \ud83d","n":18446744073709551616})";
  EXPECT_EQ(context_of(file({message("u1", nullptr, 1, msg)})), ctx("u1", msg, kDefaultState));
}

TEST(ContextBuilder, OtherRolesAreMessagesToo) {
  std::string tool = R"({"role":"toolResult","toolCallId":"t1","content":[{"type":"text","text":"ok"}],"isError":false})";
  std::string bash = R"({"role":"bashExecution","command":"ls","output":"a"})";
  std::string f = file({message("t", nullptr, 1, tool), message("b", "t", 2, bash)});
  EXPECT_EQ(context_of(f), ctx("b", tool + "," + bash, kDefaultState));
}

}  // namespace
}  // namespace xs::context
