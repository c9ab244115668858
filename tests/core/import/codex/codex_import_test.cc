// Codex rollouts imported into our store (docs/import-codex.md): the exact context Codex would
// resume from a small rollout, every row of every corpus file accounted for with the source left
// byte for byte as it was, a re-import that adds nothing, a grown rollout that adds only its new
// rows, and a compaction that replaces the history before it.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>

#include "codex_fixture.h"
#include "import/codex/importer.h"
#include "json/member_scanner.h"
#include "search/session_read.h"

namespace xs::import::codex {
namespace {

using testing::context_without_leaf;
using testing::kFixtureId;
using testing::kFixtureRel;
using testing::open_store;

const std::string kCorpus = XS_CODEX_CORPUS_DIR;
const std::string kLocalpush = kCorpus + "/localpush/sessions";
const std::string kSmall = "2026/02/23/rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl";
const std::string kLarge = "2026/02/23/rollout-2026-02-23T12-41-04-019c8a4d-8f45-7010-8b5d-7fad920aa6f9.jsonl";
const std::string kSample = kCorpus + "/claude-code-transcripts/sample_codex_session.jsonl";

class CodexImport : public ::testing::Test {
 protected:
  std::shared_ptr<storage::Fs> fs = storage::make_posix_fs();
  test::TempDir src, dst;
  std::shared_ptr<store::Store> target = open_store(dst.path());

  ImportReport run(const std::string& root, const ImportOptions& options = {}) {
    return testing::checked_import(root, [&] { return import_sessions(*fs, root, *target, options); });
  }
  std::vector<std::string> entry_types(const std::string& id) {
    auto s = target->open_session(id, {});
    EXPECT_TRUE(s.ok());
    std::vector<std::string> out;
    for (const model::Entry& e : (*s)->data().entries) {
      auto m = json::members_of(e.line);
      std::string t = json::string_value(json::find_member(m, "type")).value_or("?");
      if (t == "custom") t += ":" + json::string_value(json::find_member(m, "customType")).value_or("?");
      out.push_back(t);
    }
    return out;
  }
};

TEST_F(CodexImport, TheContextIsWhatCodexWouldResume) {
  test::put_file(*fs, src.path() + "/" + kFixtureRel, testing::fixture_rollout());
  ImportReport r = run(src.path());
  ASSERT_EQ(r.sessions.size(), 1u);
  const ImportedSession& s = r.sessions[0];
  EXPECT_EQ(s.source_file, kFixtureRel);
  EXPECT_EQ(s.session_id, kFixtureId);
  EXPECT_TRUE(s.created);
  EXPECT_EQ(s.rows_read, 15u);
  EXPECT_EQ(s.imported, 9u);        // developer, turn_context, user, reasoning, call, 2 counts, output, answer
  EXPECT_EQ(s.kept_as_custom, 6u);  // meta, 4 UI events, the repeated count
  EXPECT_EQ(s.skipped, 0u);
  EXPECT_EQ(context_without_leaf(*target, kFixtureId),
            R"({"messages":[)"
            R"({"role":"developer","content":[{"type":"text","text":"<permissions>workspace-write</permissions>"}],"timestamp":1772359200001},)"
            R"({"role":"user","content":[{"type":"text","text":"List the files"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}],"timestamp":1772359201000},)"
            R"({"role":"assistant","content":[{"type":"thinking","thinking":"Plan: run ls","thinkingSignature":"{\"type\":\"reasoning\",\"summary\":[{\"type\":\"summary_text\",\"text\":\"Plan: run ls\"}],\"content\":null,\"encrypted_content\":\"gAAAAB==\"}"},)"
            R"({"type":"toolCall","id":"call_1","name":"shell","arguments":{"command":["ls"]}}],)"
            R"("api":"openai-responses","provider":"openai","model":"gpt-5-codex",)"
            R"("usage":{"input":800,"output":50,"cacheRead":200,"cacheWrite":0,"totalTokens":1050,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},)"
            R"("stopReason":"toolUse","timestamp":1772359202000},)"
            R"({"role":"toolResult","toolCallId":"call_1","toolName":"shell","content":[{"type":"text","text":"a.txt\nb.txt"}],"isError":false,"timestamp":1772359204000},)"
            R"({"role":"assistant","content":[{"type":"text","text":"Two files: a.txt and b.txt."}],)"
            R"("api":"openai-responses","provider":"openai","model":"gpt-5-codex",)"
            R"("usage":{"input":200,"output":10,"cacheRead":900,"cacheWrite":0,"totalTokens":1110,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},)"
            R"("stopReason":"stop","timestamp":1772359205000}],)"
            R"("thinkingLevel":"high","models":{"default":"openai/gpt-5-codex"},"injectedTtsrRules":[],"mode":"none"})");
  // The UI's events of a response follow its message; the turn_context is kept after its changes.
  EXPECT_EQ(entry_types(kFixtureId),
            (std::vector<std::string>{"custom:codex/session_meta", "message", "model_change", "thinking_level_change",
                                      "custom:codex/turn_context", "message", "custom:codex/event_msg/user_message",
                                      "custom:codex/event_msg/agent_reasoning", "message", "message",
                                      "custom:codex/event_msg/token_count", "custom:codex/event_msg/agent_message",
                                      "message", "custom:codex/event_msg/task_complete"}));
  auto session = target->open_session(kFixtureId, {});
  ASSERT_TRUE(session.ok());
  EXPECT_EQ((*session)->header_info().cwd, "/home/u/proj");
  EXPECT_EQ((*session)->header_info().timestamp, "2026-03-01T10:00:00.000Z");
  EXPECT_EQ((*session)->diagnostic_count(), 0u);
  // Each entry names its rows; a custom entry holds its row byte for byte.
  std::string last((*session)->data().entries.back().line);
  std::string rows = testing::fixture_rollout();
  std::string task_row = rows.substr(rows.rfind("{\"timestamp\""));
  task_row.pop_back();
  EXPECT_NE(last.find("\"data\":" + task_row), std::string::npos) << last;
  EXPECT_NE(last.find(R"("sourceRows":[{"file":")" + std::string(kFixtureRel) + R"(","line":15}])"), std::string::npos);
}

TEST_F(CodexImport, EveryRowOfEveryCorpusFileIsAccountedFor) {
  // The sample is a rollout's head under another name: a copy of it with a rollout's name.
  test::put_file(*fs, src.path() + "/2025/12/28/rollout-2025-12-28T12-18-30-019b64e5-57fa-7463-b644-fba7e456f905.jsonl",
                 test::read_file(kSample));
  for (const std::string& root : {kLocalpush, src.path()}) {
    ImportReport r = run(root);
    EXPECT_TRUE(r.skipped.empty()) << r.to_json();
    EXPECT_TRUE(r.notes.empty()) << r.to_json();
    for (const ImportedSession& s : r.sessions) {
      EXPECT_EQ(s.rows_read, testing::rows_in(root + "/" + s.source_file)) << s.source_file;
      EXPECT_EQ(s.skipped, 0u);
      EXPECT_TRUE(s.created);
      auto session = target->open_session(s.session_id, {});
      ASSERT_TRUE(session.ok()) << s.session_id;
      EXPECT_EQ((*session)->diagnostic_count(), 0u) << s.session_id;
    }
  }
  ImportReport all = run(kLocalpush);
  ASSERT_EQ(all.sessions.size(), 2u);
  EXPECT_EQ(all.already_imported(), all.rows_read());
  // By hand from the small file's 63 rows: 29 response items, the 6 counts that end a response and
  // the first turn_context (model and effort) imported; the meta, 21 events and 5 turn_contexts kept.
  const ImportedSession* small = testing::session_of(all, kSmall);
  ASSERT_NE(small, nullptr);
  test::TempDir fresh;
  auto into = open_store(fresh.path());
  auto again = import_sessions(*fs, kLocalpush, *into);
  ASSERT_TRUE(again.ok());
  const ImportedSession* first = testing::session_of(*again, kSmall);
  EXPECT_EQ(first->imported, 36u);
  EXPECT_EQ(first->kept_as_custom, 27u);
  EXPECT_EQ(testing::session_of(*again, kLarge)->rows_read, 417u);
}

TEST_F(CodexImport, CorpusToolCallsArePairedWithTheirResults) {
  ImportReport r = run(kLocalpush);
  auto s = target->open_session("019c8bfe-ec25-79e0-97d7-bda6a9c575ff", {});
  ASSERT_TRUE(s.ok());
  auto context = (*s)->context(std::nullopt);
  ASSERT_TRUE(context.ok());
  // 4 developer and 3 user messages, 6 responses, 5 results, each right after its call.
  simdjson::dom::parser parser;
  simdjson::dom::array messages = parser.parse(*context)["messages"].get_array();
  std::vector<std::string> roles;
  std::string pending;
  for (simdjson::dom::element m : messages) {
    std::string role(m["role"].get_string().value());
    roles.push_back(role);
    if (role == "toolResult") {
      EXPECT_EQ(std::string(m["toolCallId"].get_string().value()), pending);
    }
    pending.clear();
    if (role != "assistant") continue;
    for (simdjson::dom::element b : m["content"].get_array()) {
      if (std::string_view(b["type"].get_string().value()) == "toolCall") pending = b["id"].get_string().value();
    }
  }
  EXPECT_EQ(roles, (std::vector<std::string>{"developer", "developer", "user", "user", "developer", "developer", "user",
                                             "assistant", "toolResult", "assistant", "toolResult", "assistant",
                                             "toolResult", "assistant", "toolResult", "assistant", "toolResult",
                                             "assistant"}));
  EXPECT_NE(context->find(R"("thinkingLevel":"medium","models":{"default":"openai/gpt-5.3-codex"})"),
            std::string::npos);
}

TEST_F(CodexImport, AGrownRolloutGetsOnlyItsNewRows) {
  std::string rel = "2026/02/23/rollout-x.jsonl";
  std::string whole = test::read_file(kLocalpush + "/" + kSmall);
  size_t cut = 0;
  for (int line = 0; line < 19; ++line) cut = whole.find('\n', cut) + 1;  // after the first tool's output
  test::put_file(*fs, src.path() + "/" + rel, whole.substr(0, cut));
  ImportReport first = run(src.path());
  ASSERT_EQ(first.sessions.size(), 1u);
  EXPECT_EQ(first.sessions[0].rows_read, 19u);
  test::append_file(*fs, src.path() + "/" + rel, whole.substr(cut));
  ImportReport second = run(src.path());
  ASSERT_EQ(second.sessions.size(), 1u);
  EXPECT_FALSE(second.sessions[0].created);
  EXPECT_EQ(second.sessions[0].already_imported, 19u);
  EXPECT_EQ(second.sessions[0].imported + second.sessions[0].kept_as_custom, 63u - 19u);
  // The same session as an import of the whole file at once.
  test::TempDir other;
  auto whole_store = open_store(other.path());
  ASSERT_TRUE(import_sessions(*fs, kLocalpush, *whole_store).ok());
  std::string id = "019c8bfe-ec25-79e0-97d7-bda6a9c575ff";
  EXPECT_EQ(context_without_leaf(*target, id), context_without_leaf(*whole_store, id));
  EXPECT_EQ(entry_types(id).size(), 48u);
}

TEST_F(CodexImport, ACompactionReplacesTheHistoryBeforeIt) {
  std::string history =
      R"([{"type":"message","role":"user","content":[{"type":"input_text","text":"List the files"}]},)"
      R"({"type":"compaction","encrypted_content":"enc=="}])";
  test::put_file(*fs, src.path() + "/" + kFixtureRel,
                 testing::fixture_rollout() +
                     testing::row("07.000", "compacted",
                                  R"({"message":"Listed two files.","replacement_history":)" + history + "}") +
                     testing::row("08.000", "response_item",
                                  R"({"type":"message","role":"user","content":[{"type":"input_text","text":"Thanks"}]})"));
  ImportReport r = run(src.path());
  ASSERT_EQ(r.sessions.size(), 1u);
  EXPECT_EQ(r.sessions[0].imported, 11u);
  EXPECT_EQ(context_without_leaf(*target, kFixtureId),
            R"({"messages":[{"role":"compactionSummary","summary":"Listed two files.","tokensBefore":1110,)"
            R"("providerPayload":{"type":"openaiResponsesHistory","provider":"openai","items":)" +
                history + R"(},"timestamp":1772359207000},)"
                          R"({"role":"user","content":[{"type":"text","text":"Thanks"}],"timestamp":1772359208000}],)"
                          R"("thinkingLevel":"high","models":{"default":"openai/gpt-5-codex"},"injectedTtsrRules":[],"mode":"none"})");
}

TEST_F(CodexImport, ADryRunWritesNothing) {
  test::put_file(*fs, src.path() + "/" + kFixtureRel, testing::fixture_rollout());
  ImportOptions o;
  o.dry_run = true;
  ImportReport r = run(src.path(), o);
  ASSERT_EQ(r.sessions.size(), 1u);
  EXPECT_TRUE(r.sessions[0].created);
  EXPECT_EQ(r.sessions[0].session_file, "");
  EXPECT_EQ(r.sessions[0].imported, 9u);
  EXPECT_FALSE(fs->stat(dst.path() + "/sessions").ok());
  ImportReport real = run(src.path());
  ImportReport dry = run(src.path(), o);
  EXPECT_EQ(dry.sessions[0].already_imported, 15u);
  EXPECT_EQ(dry.sessions[0].session_file, real.sessions[0].session_file);
}

TEST_F(CodexImport, TheSessionIndexNamesCodexAsTheSource) {
  test::put_file(*fs, src.path() + "/" + kFixtureRel, testing::fixture_rollout());
  ImportReport r = run(src.path());
  ASSERT_EQ(r.sessions.size(), 1u);
  auto info = fs->stat(r.sessions[0].session_file);
  ASSERT_TRUE(info.ok());
  auto read = search::read_whole(fs, r.sessions[0].session_file, *info);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->row.source_agent, std::optional<std::string>("codex"));
}

}  // namespace
}  // namespace xs::import::codex
