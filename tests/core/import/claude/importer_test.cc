#include "import/claude/importer.h"

#include <gtest/gtest.h>

#include <map>

#include "claude_test_util.h"
#include "storage/fs.h"
#include "test_util.h"

namespace xs::import::claude {
namespace {

using testing::context_tokens;
using testing::corpus;
using testing::memory_store;
using testing::open_imported;

const ImportedSession* session_of(const ImportReport& r, const std::string& source_file) {
  for (const ImportedSession& s : r.sessions) {
    if (s.source_file == source_file && !s.session_file.empty()) return &s;
  }
  return nullptr;
}

// Every row of every corpus file: rowsRead per file equals its non-blank lines, and each
// session's rows are imported, kept as custom, already imported or skipped.
TEST(ClaudeImport, EveryRowOfEveryCorpusFileIsAccountedFor) {
  for (const std::string& project : testing::corpus_projects()) {
    SCOPED_TRACE(project);
    auto st = memory_store();
    auto report = import_project(*st, storage::make_posix_fs(), corpus(project));
    ASSERT_TRUE(report.ok()) << report.status().message();
    std::map<std::string, uint64_t> read;
    for (const ImportedSession& s : report->sessions) {
      read[s.source_file] += s.rows_read;
      EXPECT_EQ(s.rows_read, s.imported + s.kept_as_custom + s.already_imported + s.skipped) << s.source_file;
      EXPECT_EQ(s.already_imported, 0u);
    }
    for (const std::string& file : testing::transcripts(corpus(project))) {
      EXPECT_EQ(read[file], testing::count_rows(testing::slurp(corpus(project) + "/" + file))) << file;
    }
    EXPECT_EQ(report->skipped_rows(), 0u) << report->to_json();
  }
}

TEST(ClaudeImport, NativeSessionIds) {
  EXPECT_EQ(native_session_id("-home-u-p/258c7280-ae70-4798-800f-63464d01a85d.jsonl"),
            "258c7280-ae70-4798-800f-63464d01a85d");
  std::string shrt = native_session_id("-home-u-p/short.jsonl");
  EXPECT_EQ(shrt.size(), 16u);
  EXPECT_EQ(shrt.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(native_session_id("-home-u-p/short.jsonl"), shrt);  // the same on every run
  EXPECT_NE(native_session_id("-home-u-q/short.jsonl"), shrt);  // not another project's
  EXPECT_NE(native_session_id("-home-u-p/258c7280-ae70-4798-800f-63464d01a85d.jsonl#u1"),
            "258c7280-ae70-4798-800f-63464d01a85d");
}

TEST(ClaudeImport, SpotterCountsByKind) {
  auto st = memory_store();
  auto report = import_project(*st, storage::make_posix_fs(), corpus("marot-spotter"));
  ASSERT_TRUE(report.ok());
  const ImportedSession* s = session_of(*report, "258c7280-ae70-4798-800f-63464d01a85d.jsonl");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->session_id, "258c7280-ae70-4798-800f-63464d01a85d");
  EXPECT_TRUE(s->created);
  // 192 user + 299 assistant + the compact boundary are messages or the compaction; the 1333
  // progress rows, 28 snapshots, 6 queue operations and 4 other system rows are custom entries.
  EXPECT_EQ(s->rows_read, 1863u);
  EXPECT_EQ(s->imported, 192u + 299u + 1u);
  EXPECT_EQ(s->kept_as_custom, 1333u + 28u + 6u + 4u);
}

// The context is what Claude Code resumes: after a manual /compact, the summary and the rows
// written after it (the /compact command's own rows included), nothing from before.
TEST(ClaudeImport, CompactCommandContextIsTheSummaryAndWhatFollows) {
  auto st = memory_store();
  auto report = import_project(*st, storage::make_posix_fs(), corpus("claudeless-v2.1.29/compact-command"));
  ASSERT_TRUE(report.ok());
  auto s = open_imported(*st, *session_of(*report, "8aa54c1d-5030-4491-be42-e0c416424b8a.jsonl"));
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(context_tokens(*s),
            (std::vector<std::string>{"C", "U:<local-command-caveat>Caveat: ", "U:<command-name>/compact</comman",
                                      "U:<local-command-stdout>\x1b[2mComp", "U:<local-command-caveat>Caveat: ",
                                      "U:<command-name>/exit</command-n", "U:<local-command-stdout>Bye!</lo"}));
  EXPECT_EQ(*s->leaf_id(), "4dfab873-c508-4f36-b9e2-71c1e7c416f7");
  EXPECT_EQ(s->header_info().timestamp, "2026-02-02T05:25:51.777Z");  // the conversation's start
  EXPECT_EQ(s->header_info().cwd, "/tmp/workspace");
  // The compaction hangs off the last row before it and keeps nothing before itself.
  auto compaction = s->entry_json("19fba157-e883-4444-8e5e-7495d80877ef");
  ASSERT_TRUE(compaction.ok());
  EXPECT_NE(compaction->find("\"type\":\"compaction\""), std::string::npos);
  EXPECT_NE(compaction->find("\"parentId\":\"e01f969f-e7e1-4f56-bd0d-faeb4ddc5822\""), std::string::npos) << *compaction;
  EXPECT_NE(compaction->find("\"firstKeptEntryId\":\"a206f0ea-7c3b-42ef-8a55-ec09c5a9e519\""), std::string::npos) << *compaction;
  EXPECT_NE(compaction->find("This session is being continued"), std::string::npos);
}

// Split replies merge into one message per API message; both parallel calls keep their results
// (Claude Code's own resume walk loses the first one).
TEST(ClaudeImport, ShortSessionContextHasEveryCallWithItsResult) {
  auto st = memory_store();
  auto report = import_project(*st, storage::make_posix_fs(), corpus("marot-spotter"));
  ASSERT_TRUE(report.ok());
  auto s = open_imported(*st, *session_of(*report, "short.jsonl"));
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(context_tokens(*s),
            (std::vector<std::string>{"U:mix phx.server doesnt seem to ", "A:msg_01MKH1ccEGrZGNPvu8pYiiQa",
                                      "R:toolu_0116Hyi5v8ut7Ffb7d8qV1Sc", "R:toolu_01FdQ8qTyVyZjE3Kw4dguQGx",
                                      "U:[Request interrupted by user f"}));
  auto ctx = s->context(std::nullopt);
  ASSERT_TRUE(ctx.ok());
  // One assistant message holding the five blocks of its five rows, in chain order.
  EXPECT_NE(ctx->find("{\"type\":\"text\",\"text\":\"\\n\\n\"},{\"type\":\"thinking\""), std::string::npos);
  EXPECT_NE(ctx->find("\"toolName\":\"Bash\""), std::string::npos) << *ctx;
}

TEST(ClaudeImport, ClearCommandGivesTwoSessions) {
  auto st = memory_store();
  auto report = import_project(*st, storage::make_posix_fs(), corpus("claudeless-v2.1.29/clear-command"));
  ASSERT_TRUE(report.ok());
  auto s = open_imported(*st, *session_of(*report, "5bd47723-950c-4c20-917e-77acb15dc4ea.jsonl"));
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(context_tokens(*s),
            (std::vector<std::string>{"U:what is 2 + 2?", "A:msg_01F3bwmEVWj2y3PZrgXvjnAP", "U:and 3 + 3?",
                                      "A:msg_01PLpGurx9JrvWSNyttvSJet"}));
  EXPECT_NE(session_of(*report, "5c91b750-86c7-44d8-bb93-e5046ff2c302.jsonl"), nullptr);
}

// Inline sidechains (1.0.x) and agent files (2.0.x) become sessions linked to their parent.
TEST(ClaudeImport, SidechainsBecomeLinkedSessions) {
  auto st = memory_store();
  auto report = import_project(*st, storage::make_posix_fs(), corpus("claude-code-viewer"));
  ASSERT_TRUE(report.ok());
  int linked = 0;
  for (const ImportedSession& s : report->sessions) {
    auto opened = open_imported(*st, s);
    ASSERT_NE(opened, nullptr) << s.source_file;
    if (opened->header_info().parent_session) {
      ++linked;
      EXPECT_EQ(*opened->header_info().parent_session, "5c0375b4-57a5-4f26-b12d-d022ee4e51b7");
    }
  }
  // Two inline sidechain roots (rows 16 and 26, 22 rows in all), and the agent file.
  EXPECT_EQ(linked, 3) << report->to_json();
  ASSERT_EQ(report->sessions.size(), 4u);
  EXPECT_EQ(report->sessions[1].rows_read + report->sessions[2].rows_read, 22u);
}

TEST(ClaudeImport, ACrossFileSummaryTitlesTheSessionItNames) {
  auto st = memory_store();
  auto report = import_project(*st, storage::make_posix_fs(), corpus("sniffly"));
  ASSERT_TRUE(report.ok());
  bool found = false;
  for (const ImportedSession& s : report->sessions) {
    if (s.source_file != "ff71dbed-a4f2-4284-a4fc-fe2fb90de929.jsonl") continue;
    found = true;
    EXPECT_EQ(s.session_id, "ba79134d-b6e9-4867-af0c-6941038c9e4b");
    EXPECT_EQ(s.rows_read, 1u);
    EXPECT_EQ(s.imported, 1u);
  }
  EXPECT_TRUE(found) << report->to_json();
  auto s = open_imported(*st, *session_of(*report, "ba79134d-b6e9-4867-af0c-6941038c9e4b.jsonl"));
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->title().has_value());
  EXPECT_NE(s->labels_json(), "[]");
}

// A subagent's session is linked from the Task call that started it, and the main session still
// resumes where Claude Code would (the link entry is a side branch).
TEST(ClaudeImport, TheTaskCallLinksToItsSubagentSession) {
  auto st = memory_store();
  auto report = import_project(*st, storage::make_posix_fs(), corpus("marot-spotter"));
  ASSERT_TRUE(report.ok());
  const ImportedSession* sub =
      session_of(*report, "258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-a881341.jsonl");
  ASSERT_NE(sub, nullptr);
  auto main = open_imported(*st, *session_of(*report, "258c7280-ae70-4798-800f-63464d01a85d.jsonl"));
  ASSERT_NE(main, nullptr);
  std::string entries = main->entries_json();
  std::string link = "\"customType\":\"claude-code/subagent\",\"data\":{\"sessionId\":\"" + sub->session_id +
                     "\",\"agentId\":\"a881341\",\"toolUseId\":\"toolu_01VmaERAwhb19LGUwu9GenaK\"}";
  EXPECT_NE(entries.find(link), std::string::npos);
  EXPECT_EQ(entries.find("\"agentId\":\"acompact-fffbd0\",\"toolUseId\""), std::string::npos);  // no Task call
  auto again = import_project(*st, storage::make_posix_fs(), corpus("marot-spotter"));
  ASSERT_TRUE(again.ok());
  auto reopened = open_imported(*st, *session_of(*report, "258c7280-ae70-4798-800f-63464d01a85d.jsonl"));
  EXPECT_EQ(reopened->entries_json(), entries);  // the link is not written twice
}

TEST(ClaudeImport, DanglingParentsAreReattachedAndReported) {
  auto st = memory_store();
  auto report = import_project(*st, storage::make_posix_fs(), corpus("marot-spotter"));
  ASSERT_TRUE(report.ok());
  bool noted = false;
  for (const std::string& n : report->notes) {
    noted = noted || n.rfind("258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-acompact-fffbd0.jsonl line 1: parent", 0) == 0;
  }
  EXPECT_TRUE(noted) << report->to_json();
}

TEST(ClaudeImport, EveryProjectUnderARoot) {
  auto st = memory_store();
  auto report = import_projects(*st, storage::make_posix_fs(), corpus("claudeless-v2.1.29"));
  ASSERT_TRUE(report.ok());
  std::vector<std::string> files;
  for (const ImportedSession& s : report->sessions) files.push_back(s.source_file);
  EXPECT_EQ(files, (std::vector<std::string>{
                       "clear-command/5bd47723-950c-4c20-917e-77acb15dc4ea.jsonl",
                       "clear-command/5c91b750-86c7-44d8-bb93-e5046ff2c302.jsonl",
                       "compact-command/8aa54c1d-5030-4491-be42-e0c416424b8a.jsonl",
                       "compact-command/8aa54c1d-5030-4491-be42-e0c416424b8a/subagents/agent-aprompt_suggestion-029c25.jsonl",
                       "compact-command/8aa54c1d-5030-4491-be42-e0c416424b8a/subagents/agent-aprompt_suggestion-e6d768.jsonl"}));
  EXPECT_EQ(report->rows_read(), 8u + 8u + 19u + 2u + 2u);
}

// A row the session refuses (nested deeper than a line may be) is reported; its child goes under
// its parent, and the rest of the import goes on.
TEST(ClaudeImport, ARowTheSessionRefusesIsSkippedAndItsChildReattached) {
  test::TempDir src;
  std::string deep = std::string(300, '[') + std::string(300, ']');
  testing::spit(src.file("s.jsonl"),
                "{\"type\":\"user\",\"uuid\":\"u1\",\"parentUuid\":null,\"cwd\":\"/w\",\"message\":{\"role\":\"user\","
                "\"content\":\"a\"}}\n{\"type\":\"progress\",\"uuid\":\"p1\",\"parentUuid\":\"u1\",\"data\":" +
                    deep +
                    "}\n{\"type\":\"user\",\"uuid\":\"u2\",\"parentUuid\":\"p1\",\"message\":{\"role\":\"user\","
                    "\"content\":\"b\"}}\n");
  auto st = memory_store();
  auto report = import_project(*st, storage::make_posix_fs(), src.path());
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->sessions.size(), 1u);
  EXPECT_EQ(report->sessions[0].imported, 2u);
  EXPECT_EQ(report->sessions[0].skipped, 1u);
  ASSERT_EQ(report->skipped.size(), 1u);
  EXPECT_EQ(report->skipped[0].line, 2u);
  EXPECT_EQ(report->skipped[0].reason.rfind("not importable: ", 0), 0u) << report->skipped[0].reason;
  auto s = open_imported(*st, report->sessions[0]);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(context_tokens(*s), (std::vector<std::string>{"U:a", "U:b"}));
}

// Rows of types the importer does not know are kept whole: the row, byte for byte, is the custom
// entry's data, and the chain goes on through it.
TEST(ClaudeImport, UnknownRowsAreKeptByteForByte) {
  test::TempDir src;
  std::string attachment =
      "{\"type\":\"attachment\",\"uuid\":\"a1\",\"parentUuid\":\"u1\",\"attachment\":{\"type\":\"queued_command\","
      "\"prompt\":\"later\",\"n\":1.50}}";
  testing::spit(src.file("s.jsonl"),
                "{\"type\":\"user\",\"uuid\":\"u1\",\"parentUuid\":null,\"cwd\":\"/w\",\"timestamp\":\"2026-01-02T03:04:05.006Z\","
                "\"message\":{\"role\":\"user\",\"content\":\"a\"}}\n" +
                    attachment +
                    "\n{\"type\":\"pr-link\",\"url\":\"https://x\"}\n"
                    "{\"type\":\"user\",\"uuid\":\"u2\",\"parentUuid\":\"a1\",\"message\":{\"role\":\"user\","
                    "\"content\":\"b\"}}\n");
  auto st = memory_store();
  auto report = import_project(*st, storage::make_posix_fs(), src.path());
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->kept_as_custom(), 2u);
  auto s = open_imported(*st, report->sessions[0]);
  ASSERT_NE(s, nullptr);
  auto a1 = s->entry_json("a1");
  ASSERT_TRUE(a1.ok());
  EXPECT_EQ(*a1, "{\"type\":\"custom\",\"customType\":\"claude-code/attachment\",\"data\":" + attachment +
                     ",\"sourceRows\":[{\"file\":\"s.jsonl\",\"line\":2,\"uuid\":\"a1\"}],\"id\":\"a1\",\"parentId\":\"u1\","
                     "\"timestamp\":\"2026-01-02T03:04:05.006Z\"}");  // the row before it's: this row has none
  EXPECT_NE(s->entries_json().find("\"customType\":\"claude-code/pr-link\",\"data\":{\"type\":\"pr-link\",\"url\":\"https://x\"}"),
            std::string::npos);
  EXPECT_EQ(context_tokens(*s), (std::vector<std::string>{"U:a", "U:b"}));
}

// A row whose fields have the wrong JSON types is kept whole as a custom entry, and noted.
TEST(ClaudeImport, WrongFieldTypesAreKeptAsCustomAndNoted) {
  test::TempDir src;
  testing::spit(src.file("s.jsonl"),
                "{\"type\":\"user\",\"uuid\":\"u1\",\"parentUuid\":null,\"cwd\":\"/w\",\"timestamp\":\"2026-01-01T00:00:00.000Z\","
                "\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n"
                "{\"type\":\"assistant\",\"uuid\":5,\"parentUuid\":\"u1\",\"message\":\"text\"}\n"
                "{\"type\":\"user\",\"uuid\":\"u2\",\"parentUuid\":\"u1\",\"message\":{\"role\":\"user\",\"content\":7}}\n");
  auto st = memory_store();
  auto report = import_project(*st, storage::make_posix_fs(), src.path());
  ASSERT_TRUE(report.ok());
  ASSERT_EQ(report->sessions.size(), 1u);
  EXPECT_EQ(report->sessions[0].imported, 2u);
  EXPECT_EQ(report->sessions[0].kept_as_custom, 1u);
  EXPECT_NE(report->to_json().find("s.jsonl line 2: uuid is not a string; read as absent"), std::string::npos);
  auto s = open_imported(*st, report->sessions[0]);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(context_tokens(*s), (std::vector<std::string>{"U:hi", "U:"}));
}

}  // namespace
}  // namespace xs::import::claude
