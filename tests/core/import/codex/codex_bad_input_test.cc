// Damaged Codex rollouts imported (docs/import-codex.md#bad-input): rows that are not JSON or not
// objects, a binary file, a lone surrogate, a last line still being written, unknown row types, a
// rollout without its session_meta. Each gives a report entry, never a crash; the source stays
// byte for byte as it was.
#include <gtest/gtest.h>

#include <string>

#include "codex_fixture.h"
#include "import/codex/importer.h"
#include "import/codex/reader.h"

namespace xs::import::codex {
namespace {

using testing::open_store;
using testing::row;

class CodexBadInput : public ::testing::Test {
 protected:
  std::shared_ptr<storage::Fs> fs = storage::make_posix_fs();
  test::TempDir src, dst;
  std::shared_ptr<store::Store> target = open_store(dst.path());

  void put(const std::string& rel, const std::string& bytes) { test::put_file(*fs, src.path() + "/" + rel, bytes); }
  ImportReport run(const ImportOptions& options = {}) {
    return testing::checked_import(src.path(), [&] { return import_sessions(*fs, src.path(), *target, options); });
  }
};

const std::string kMeta =
    row("00.000", "session_meta", R"({"id":"s-1","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/w"})");
const std::string kUser =
    row("01.000", "response_item", R"({"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]})");

TEST_F(CodexBadInput, BrokenRowsAreSkippedWithTheirLinesAndOddOnesKept) {
  put("rollout-a.jsonl", kMeta + "not json\n" + "[1,2]\n" + kUser + "\n   \n" +
                             R"({"timestamp":"2026-03-01T10:00:02.000Z","type":"mystery","payload":{"x":1}})" "\n" +
                             R"({"timestamp":"2026-03-01T10:00:03.000Z","type":"response_item","payload":"text"})" "\n" +
                             row("04.000", "response_item", R"({"type":"web_search_call","status":"completed"})") +
                             R"({"timestamp":"2026-03-01T10:00:05.000Z","type":"event_msg","payload":{"type":"agen)");
  ImportReport r = run();
  ASSERT_EQ(r.sessions.size(), 1u);
  const ImportedSession& s = r.sessions[0];
  EXPECT_EQ(s.rows_read, 8u);  // the blank line is not a row
  EXPECT_EQ(s.skipped, 3u);
  EXPECT_EQ(s.imported, 1u);
  EXPECT_EQ(s.kept_as_custom, 4u);  // the meta, the unknown type, the payload that is no object, the search call
  ASSERT_EQ(r.skipped.size(), 3u);
  EXPECT_EQ(r.skipped[0].file, "rollout-a.jsonl");
  EXPECT_EQ(r.skipped[0].line, 2u);
  EXPECT_EQ(r.skipped[0].reason.rfind("not JSON: ", 0), 0u) << r.skipped[0].reason;
  EXPECT_EQ(r.skipped[1].line, 3u);
  EXPECT_EQ(r.skipped[1].reason, "not a JSON object");
  EXPECT_EQ(r.skipped[2].line, 10u);
  EXPECT_NE(r.skipped[2].reason.find("(the last line, still without its newline: the next import reads it again)"),
            std::string::npos);
  // Once the line is whole, the next import takes it (and only it).
  test::append_file(*fs, src.path() + "/rollout-a.jsonl", "t_message\",\"message\":\"done\"}}\n");
  ImportReport again = run();
  EXPECT_EQ(again.sessions[0].already_imported, 5u);
  EXPECT_EQ(again.sessions[0].kept_as_custom, 1u);
  EXPECT_EQ(again.sessions[0].skipped, 2u);
}

TEST_F(CodexBadInput, ABinaryOrUnreadableFileIsReportedAsAWhole) {
  put("rollout-bin.jsonl", std::string("{\"a\":\0}\n", 8));
  put("rollout-good.jsonl", kMeta + kUser);
  ImportReport r = run();
  ASSERT_EQ(r.sessions.size(), 2u);
  EXPECT_EQ(r.sessions[0].source_file, "rollout-bin.jsonl");
  EXPECT_EQ(r.sessions[0].rows_read, 0u);
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_EQ(r.skipped[0].line, 0u);
  EXPECT_NE(r.skipped[0].reason.find("binary file (a NUL byte at offset 5)"), std::string::npos) << r.skipped[0].reason;
  EXPECT_EQ(r.sessions[1].imported, 1u);
}

TEST_F(CodexBadInput, ARowWithALoneSurrogateIsKeptVerbatim) {
  put("rollout-s.jsonl",
      kMeta + row("01.000", "response_item",
                  R"({"type":"message","role":"user","content":[{"type":"input_text","text":"a\ud800b"}]})"));
  ImportReport r = run();
  ASSERT_EQ(r.sessions.size(), 1u);
  EXPECT_EQ(r.sessions[0].skipped, 0u);
  EXPECT_EQ(r.sessions[0].kept_as_custom, 2u);
  auto s = target->open_session("s-1", {});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ((*s)->diagnostic_count(), 0u);
  std::string last((*s)->data().entries.back().line);
  EXPECT_EQ(last.rfind(R"({"type":"custom","customType":"codex/row","data":{"timestamp")", 0), 0u) << last;
  EXPECT_NE(last.find(R"("text":"a\ud800b")"), std::string::npos) << last;
}

TEST_F(CodexBadInput, ARolloutWithoutItsMetaGetsAnIdFromItsNameAndTheFallbackCwd) {
  put("x/rollout-nometa.jsonl", kUser);
  ImportOptions o;
  o.fallback_cwd = "/fallback";
  ImportReport r = run(o);
  ASSERT_EQ(r.sessions.size(), 1u);
  EXPECT_EQ(r.sessions[0].session_id.rfind("codex-", 0), 0u);
  EXPECT_EQ(r.sessions[0].session_id.size(), 22u);
  auto s = target->open_session(r.sessions[0].session_id, {});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ((*s)->header_info().cwd, "/fallback");
  s->reset();  // an open handle holds the session's lock
  // The same id on the next run: nothing new.
  EXPECT_EQ(run(o).sessions[0].already_imported, 1u);
}

TEST_F(CodexBadInput, TwoFilesOfOneSessionIdAreTwoSessions) {
  put("rollout-1.jsonl", kMeta + kUser);
  put("rollout-2.jsonl", kMeta + kUser);
  ImportReport r = run();
  ASSERT_EQ(r.sessions.size(), 2u);
  EXPECT_EQ(r.sessions[0].session_id, "s-1");
  EXPECT_EQ(r.sessions[1].session_id.rfind("codex-", 0), 0u);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0], "rollout-2.jsonl: session s-1 is also an earlier file's: imported as its own");
}

TEST_F(CodexBadInput, OnlyRolloutFilesAreReadAndAMissingRootIsNotFound) {
  put("history.jsonl", kUser);
  put("sessions/notes.txt", "x");
  ImportReport r = run();
  EXPECT_TRUE(r.sessions.empty());
  EXPECT_EQ(r.to_json(), "{\"source\":\"codex\",\"root\":\"" + src.path() +
                             "\",\"dryRun\":false,\"rowsRead\":0,\"imported\":0,\"keptAsCustom\":0,"
                             "\"alreadyImported\":0,\"skipped\":0,\"sessions\":[],\"skippedRows\":[],\"notes\":[]}");
  auto missing = import_sessions(*fs, src.path() + "/nope", *target);
  EXPECT_EQ(missing.status().code(), Code::kNotFound);
  auto listing = list_json(*fs, src.path() + "/nope");
  EXPECT_EQ(listing.status().code(), Code::kNotFound);
}

TEST_F(CodexBadInput, TheListingNamesEachRolloutAndItsProblems) {
  put("2026/03/01/rollout-a.jsonl", kMeta + "oops\n" + testing::fixture_rollout());
  auto listing = list_json(*fs, src.path());
  ASSERT_TRUE(listing.ok());
  auto info = fs->stat(src.path() + "/2026/03/01/rollout-a.jsonl");
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(*listing, "{\"source\":\"codex\",\"root\":\"" + src.path() +
                          "\",\"sessions\":[{\"file\":\"2026/03/01/rollout-a.jsonl\",\"sessionId\":\"s-1\","
                          "\"cwd\":\"/w\",\"started\":\"2026-03-01T10:00:00.000Z\",\"cliVersion\":\"\","
                          "\"originator\":\"\",\"model\":\"gpt-5-codex\",\"firstPrompt\":\"List the files\","
                          "\"rows\":17,\"badRows\":1,\"size\":" +
                          std::to_string(info->size) + ",\"mtime\":" + std::to_string(info->mtime_ms) +
                          "}],\"problems\":[{\"file\":\"2026/03/01/rollout-a.jsonl\",\"line\":2,"
                          "\"reason\":\"not JSON: invalid JSON at byte 0: Invalid value.\"}],\"notes\":[]}");
}

}  // namespace
}  // namespace xs::import::codex
