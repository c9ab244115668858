#include "import/claude/reader.h"

#include <gtest/gtest.h>

#include "claude_test_util.h"
#include "test_util.h"

namespace xs::import::claude {
namespace {

using testing::corpus;
using testing::spit;

const TranscriptInfo* find(const ProjectScan& scan, const std::string& file) {
  for (const SourceFile& f : scan.files) {
    if (f.info.file == file) return &f.info;
  }
  return nullptr;
}

bool has_note(const ProjectScan& scan, const std::string& text) {
  for (const std::string& n : scan.notes) {
    if (n == text) return true;
  }
  return false;
}

TEST(ClaudeReader, ListsTranscriptsSubagentsAndTheirFacts) {
  auto scan = scan_project(storage::make_posix_fs(), corpus("marot-spotter"));
  ASSERT_TRUE(scan.ok());
  ASSERT_EQ(scan->files.size(), 5u);
  EXPECT_FALSE(scan->has_index);
  const TranscriptInfo* main = find(*scan, "258c7280-ae70-4798-800f-63464d01a85d.jsonl");
  ASSERT_NE(main, nullptr);
  EXPECT_EQ(main->kind, FileKind::kSession);
  EXPECT_EQ(main->session_id, "258c7280-ae70-4798-800f-63464d01a85d");
  EXPECT_EQ(main->rows, 1863u);
  EXPECT_EQ(main->bad_rows, 0u);
  EXPECT_EQ(main->size, 2759678u);
  EXPECT_EQ(main->cwd, "/home/USER/projects/spotter-worktrees/spotter-gqc");
  EXPECT_FALSE(main->first_prompt.empty());
  EXPECT_FALSE(main->leaf_uuid.empty());
  const TranscriptInfo* sub = find(*scan, "258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-a881341.jsonl");
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(sub->kind, FileKind::kSubagent);
  EXPECT_EQ(sub->parent_session_id, "258c7280-ae70-4798-800f-63464d01a85d");
  EXPECT_EQ(sub->agent_id, "a881341");
  EXPECT_EQ(sub->rows, 10u);
  const TranscriptInfo* shrt = find(*scan, "short.jsonl");
  ASSERT_NE(shrt, nullptr);
  EXPECT_EQ(shrt->first_prompt, "mix phx.server doesnt seem to start");
  EXPECT_EQ(shrt->leaf_uuid, "c06a9fe4-ba05-44f2-b619-a057c18101e5");  // the last user row, not the /model rows after it
}

TEST(ClaudeReader, OlderAgentFilesAndCrossFileSummaries) {
  auto viewer = scan_project(storage::make_posix_fs(), corpus("claude-code-viewer"));
  ASSERT_TRUE(viewer.ok());
  const TranscriptInfo* agent = find(*viewer, "agent-test-hash-123.jsonl");
  ASSERT_NE(agent, nullptr);
  EXPECT_EQ(agent->kind, FileKind::kAgent);
  EXPECT_FALSE(agent->parent_session_id.empty());
  auto sniffly = scan_project(storage::make_posix_fs(), corpus("sniffly"));
  ASSERT_TRUE(sniffly.ok());
  const TranscriptInfo* target = find(*sniffly, "ba79134d-b6e9-4867-af0c-6941038c9e4b.jsonl");
  ASSERT_NE(target, nullptr);
  EXPECT_FALSE(target->summary.empty());  // from the summary row of ff71dbed-….jsonl
}

TEST(ClaudeReader, EveryProjectUnderARoot) {
  auto json = list_json(storage::make_posix_fs(), corpus("claudeless-v2.1.29"));
  ASSERT_TRUE(json.ok());
  EXPECT_EQ(json->rfind("{\"source\":\"claude\",\"root\":\"" + corpus("claudeless-v2.1.29") +
                            "\",\"projects\":[{\"dir\":",
                        0),
            0u);
  EXPECT_NE(json->find("\"file\":\"5c91b750-86c7-44d8-bb93-e5046ff2c302.jsonl\",\"kind\":\"session\""),
            std::string::npos);
  EXPECT_NE(json->find("\"file\":\"8aa54c1d-5030-4491-be42-e0c416424b8a/subagents/"
                       "agent-aprompt_suggestion-029c25.jsonl\",\"kind\":\"subagent\""),
            std::string::npos);
  EXPECT_EQ(list_json(storage::make_posix_fs(), corpus("nowhere")).status().code(), Code::kNotFound);
  // A project directory itself is one project.
  auto one = list_json(storage::make_posix_fs(), corpus("claudeless-v2.1.29/compact-command"));
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->rfind("{\"source\":\"claude\",\"root\":\"" + corpus("claudeless-v2.1.29/compact-command") +
                           "\",\"projects\":[{\"dir\":",
                       0),
            0u);
  EXPECT_EQ(one->find("{\"dir\":", one->find("{\"dir\":") + 1), std::string::npos);  // only one
}

TEST(ClaudeReader, TheIndexIsCheckedAgainstTheFiles) {
  test::TempDir dir;
  std::string a = testing::slurp(corpus("claudeless-v2.1.29/clear-command/5bd47723-950c-4c20-917e-77acb15dc4ea.jsonl"));
  spit(dir.file("5bd47723-950c-4c20-917e-77acb15dc4ea.jsonl"), a);
  spit(dir.file("unlisted.jsonl"), a);
  spit(dir.file("sessions-index.json"),
       R"({"version":1,"entries":[{"sessionId":"5bd47723-950c-4c20-917e-77acb15dc4ea","customTitle":"math"},)"
       R"({"sessionId":"gone"},{"sessionId":7},"x"],"originalPath":"/tmp/workspace"})");
  auto scan = scan_project(storage::make_posix_fs(), dir.path());
  ASSERT_TRUE(scan.ok());
  EXPECT_TRUE(scan->has_index);
  EXPECT_EQ(scan->original_path, "/tmp/workspace");
  const TranscriptInfo* listed = find(*scan, "5bd47723-950c-4c20-917e-77acb15dc4ea.jsonl");
  ASSERT_NE(listed, nullptr);
  EXPECT_TRUE(listed->in_index);
  EXPECT_EQ(listed->title, "math");
  ASSERT_NE(find(*scan, "unlisted.jsonl"), nullptr);  // files the index lacks are still listed
  EXPECT_TRUE(has_note(*scan, "unlisted.jsonl is not in sessions-index.json"));
  EXPECT_TRUE(has_note(*scan, "sessions-index.json lists gone, whose file gone.jsonl is not there"));
  EXPECT_TRUE(has_note(*scan, "sessions-index.json entry 2 has no string sessionId; ignored"));
  EXPECT_TRUE(has_note(*scan, "sessions-index.json entry 3 has no string sessionId; ignored"));
  std::string json = listing_json(*scan);
  EXPECT_NE(json.find("\"file\":\"unlisted.jsonl\",\"kind\":\"session\""), std::string::npos) << json;
}

TEST(ClaudeReader, AnIndexThatIsAnArrayIsANote) {
  test::TempDir dir;
  spit(dir.file("sessions-index.json"), "[{\"sessionId\":\"x\"}]");
  auto scan = scan_project(storage::make_posix_fs(), dir.path());
  ASSERT_TRUE(scan.ok());
  EXPECT_TRUE(has_note(*scan, "sessions-index.json is not an object; ignored"));
  spit(dir.file("sessions-index.json"), "{\"entries\":{}}");
  scan = scan_project(storage::make_posix_fs(), dir.path());
  EXPECT_TRUE(has_note(*scan, "sessions-index.json has no \"entries\" array; ignored"));
  spit(dir.file("sessions-index.json"), "\x01\x02\xff");
  scan = scan_project(storage::make_posix_fs(), dir.path());
  EXPECT_TRUE(has_note(*scan, "sessions-index.json is not JSON; ignored"));
}

TEST(ClaudeReader, BadRowsAreReportedWithLineAndReason) {
  test::TempDir dir;
  spit(dir.file("s.jsonl"),
       "\xEF\xBB\xBF{\"type\":\"user\",\"uuid\":\"u1\",\"parentUuid\":null,\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n"
       "\n"
       "{\"type\":\"user\",\"uuid\":\"u2\",\"parentUu\n"
       "\x01\x02\xfe binary\n"
       "{\"type\":\"user\",\"text\":\"\xc3\x28\"}\n"
       "{\"type\":\"user\",\"n\":NaN}\n"
       "[1,2]\n"
       "{\"no\":\"type\"}\n"
       "{\"type\":\"assistant\",\"uuid\":5,\"parentUuid\":[],\"message\":\"text\",\"isSidechain\":\"yes\"}\n"
       "{\"type\":\"user\",\"uuid\":\"u3\",\"parentUuid\":\"u1\",\"message\":{\"role\":\"user\",\"content\":\"again\"}}");
  auto scan = scan_project(storage::make_posix_fs(), dir.path());
  ASSERT_TRUE(scan.ok());
  const TranscriptInfo* s = find(*scan, "s.jsonl");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->rows, 9u);
  EXPECT_EQ(s->bad_rows, 6u);
  EXPECT_EQ(s->leaf_uuid, "u3");
  std::vector<std::pair<uint64_t, std::string>> got;
  for (const SkippedRow& r : scan->skipped) got.emplace_back(r.line, r.reason.substr(0, 8));
  EXPECT_EQ(got, (std::vector<std::pair<uint64_t, std::string>>{
                     {3, "not JSON"}, {4, "invalid "}, {5, "invalid "}, {6, "not JSON"}, {7, "not a JS"}, {8, "no strin"}}));
  // The row with wrong-typed fields is read, its fields treated as absent.
  const Row& odd = scan->files[0].transcript.rows[1];
  EXPECT_EQ(odd.line, 9u);
  EXPECT_TRUE(odd.uuid.empty());
  EXPECT_FALSE(odd.has_message);
  EXPECT_EQ(odd.type_problems.size(), 3u);
  EXPECT_TRUE(has_note(*scan, "s.jsonl line 9: uuid is not a string; read as absent"));
  EXPECT_TRUE(has_note(*scan, "s.jsonl line 9: message is not an object; read as absent"));
}

// A row appended after a write that lost its newline: the torn row and the whole one are two
// rows of that line, and two whole rows on one line are both read.
TEST(ClaudeReader, GluedRowsAreSalvaged) {
  test::TempDir dir;
  spit(dir.file("s.jsonl"),
       "{\"type\":\"user\",\"uuid\":\"u1\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n"
       "{\"type\":\"user\",\"uuid\":\"u2\",\"message\":{\"role\":\"us"
       "{\"type\":\"summary\",\"summary\":\"S\",\"leafUuid\":\"u1\"}\n"
       "{\"type\":\"queue-operation\",\"sessionId\":\"x\"}{\"type\":\"queue-operation\",\"sessionId\":\"y\"}\n");
  auto scan = scan_project(storage::make_posix_fs(), dir.path());
  ASSERT_TRUE(scan.ok());
  const Transcript& t = scan->files[0].transcript;
  ASSERT_EQ(t.rows.size(), 4u);
  EXPECT_EQ(t.rows[1].type, "summary");
  EXPECT_EQ(t.rows[1].line, 2u);
  EXPECT_EQ(t.rows[1].offset, 117u);
  EXPECT_EQ(t.rows[3].session_id, "y");
  ASSERT_EQ(t.bad.size(), 1u);
  EXPECT_EQ(t.bad[0].reason, "torn row, glued to the row at byte 117");
  EXPECT_EQ(scan->files[0].info.rows, 5u);
  EXPECT_EQ(scan->files[0].info.summary, "S");
  EXPECT_TRUE(has_note(*scan, "s.jsonl line 2: two rows on one line, the second from byte 117"));
}

// JSON.stringify writes a string cut inside an emoji as a lone surrogate escape: JSON.parse reads
// it, so the row is read, the half character as U+FFFD; a well-formed pair stays as it is.
TEST(ClaudeReader, LoneSurrogateEscapesAreReadAsReplacementCharacters) {
  test::TempDir dir;
  spit(dir.file("s.jsonl"),
       "{\"type\":\"user\",\"uuid\":\"u1\",\"message\":{\"role\":\"user\",\"content\":\"cut \\ud83d\"}}\n"
       "{\"type\":\"user\",\"uuid\":\"u2\",\"message\":{\"role\":\"user\",\"content\":\"ok \\ud83d\\ude00\"}}\n");
  auto scan = scan_project(storage::make_posix_fs(), dir.path());
  ASSERT_TRUE(scan.ok());
  const Transcript& t = scan->files[0].transcript;
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_TRUE(t.bad.empty());
  EXPECT_EQ(t.rows[0].prompt_text, "cut \xEF\xBF\xBD");
  EXPECT_EQ(t.rows[1].prompt_text, "ok \xF0\x9F\x98\x80");
  EXPECT_TRUE(has_note(*scan, "s.jsonl line 1: lone surrogate escapes read as U+FFFD"));
}

}  // namespace
}  // namespace xs::import::claude
