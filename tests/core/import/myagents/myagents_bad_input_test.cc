// A damaged MyAgents store imported (docs/import-hosts.md#bad-input): each fault is a report
// entry, never a crash, and the source stays byte for byte as it was.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "../gateway/gateway_test_util.h"
#include "import/myagents/importer.h"
#include "myagents_fixture.h"
#include "store/store.h"
#include "test_util.h"

namespace xs::import::myagents {
namespace {

using testing::kUnified;

class MyAgentsBadInput : public testing::MyAgentsStoreTest {
 protected:
  std::string jsonl(const std::string& id) const { return file(id, ".jsonl"); }
  static bool has_note(const ImportReport& r, const std::string& needle) { return testing::has_note(r, needle); }
};

TEST_F(MyAgentsBadInput, TruncatedAndInvalidUtf8RowsAreSkippedTheRestImported) {
  std::string rows = testing::unified_rows();
  size_t second = rows.find('\n') + 1;
  size_t third = rows.find('\n', second) + 1;
  std::string broken = rows.substr(0, second) + rows.substr(second, 40) + "\n" +
                       R"({"id":"bad","role":"user","content":"caf\xE9","timestamp":"2026-02-10T09:00:02.000Z"})" +
                       "\n" + rows.substr(third);
  test::put_file(*fs_, jsonl(kUnified), broken);
  ImportReport r = run();
  const ImportedSession* s = testing::session_of(r, jsonl(kUnified));
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->rows_read, 5u);
  EXPECT_EQ(s->imported, 3u);
  EXPECT_EQ(s->skipped, 2u);
  ASSERT_EQ(r.skipped.size(), 2u);
  EXPECT_EQ(r.skipped[0].line, 2u);
  EXPECT_EQ(r.skipped[1].line, 3u);
  EXPECT_EQ(r.skipped[0].reason.rfind("not JSON: ", 0), 0u);
  EXPECT_EQ(r.skipped[1].reason.rfind("not JSON: ", 0), 0u);
}

TEST_F(MyAgentsBadInput, ABinaryMessagesFileIsOneEntryAndItsIndexRowSkipped) {
  test::put_file(*fs_, jsonl(kUnified), std::string("SQLite format 3\0\x10\0\x01\x01", 21));
  ImportReport r = run();
  const ImportedSession* s = testing::session_of(r, jsonl(kUnified));
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->rows_read, 0u);
  EXPECT_EQ(r.skipped.size(), 2u);
  EXPECT_EQ(r.skipped[0].reason, "not imported: " + jsonl(kUnified) + ": binary file (a NUL byte at offset 15)");
  EXPECT_EQ(r.skipped[1].file, root_ + "/sessions.json");
  EXPECT_EQ(r.skipped[1].line, 2u);
  EXPECT_FALSE(target_->keys().get(key_for(kUnified)).ok());
}

TEST_F(MyAgentsBadInput, AnIndexThatIsAnObjectIsReportedAndTheFilesStillImported) {
  test::put_file(*fs_, root_ + "/sessions.json", R"({"sessions":[]})");
  ImportReport r = run();
  ASSERT_GE(r.skipped.size(), 1u);
  EXPECT_EQ(r.skipped[0].file, root_ + "/sessions.json");
  EXPECT_EQ(r.skipped[0].line, 0u);
  EXPECT_EQ(r.skipped[0].reason, "index is not a JSON array (of session metadata)");
  EXPECT_EQ(r.imported(), 4u + 2u + 1u);  // the messages (records of sessions no index row lists count in no row)
  EXPECT_EQ(testing::session_of(r, root_ + "/sessions.json")->rows_read, 0u);
  EXPECT_TRUE(target_->keys().get(key_for(kUnified)).ok());
  EXPECT_TRUE(has_note(r, "sessions/" + std::string(kUnified) + " is not in sessions.json"));
}

TEST_F(MyAgentsBadInput, IndexEntriesWithWrongTypesOrUnsafeIdsAreReported) {
  test::put_file(*fs_, root_ + "/sessions.json",
                 "[\n  {\"id\": 7},\n  {\"id\": \"../../etc/passwd\"},\n  \"a string\",\n"
                 "  {\"id\": \"" +
                     std::string(kUnified) +
                     "\", \"title\": 42, \"stats\": \"many\"},\n  {\"id\": \"ghost-1\", \"title\": \"Ghost\"}\n]\n");
  ImportReport r = run();
  const ImportedSession* index = testing::session_of(r, root_ + "/sessions.json");
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(index->rows_read, 5u);
  EXPECT_EQ(index->imported, 1u);  // the unified session's record
  EXPECT_EQ(index->skipped, 4u);
  std::vector<std::string> reasons;
  for (const SkippedRow& s : r.skipped) reasons.push_back(std::to_string(s.line) + " " + s.reason);
  EXPECT_EQ(reasons, (std::vector<std::string>{
                         "2 sessions.json entry 1: no string id",
                         "3 sessions.json entry 2: id \"../../etc/passwd\" is not a MyAgents session id",
                         "4 sessions.json entry 3: not a JSON object",
                         "6 session ghost-1: no messages file",
                     }));
  EXPECT_TRUE(has_note(r, "sessions.json entry 4 (" + std::string(kUnified) + "): title is not a string; left out"));
  EXPECT_TRUE(has_note(r, "sessions.json entry 4 (" + std::string(kUnified) + "): stats is not an object; left out"));
}

TEST_F(MyAgentsBadInput, AHeldLockIsWaitedForBoundedThenReported) {
  ASSERT_OK(fs_->make_dirs(root_ + "/sessions.lock"));
  ImportOptions o;
  o.read.lock_wait = std::chrono::milliseconds(80);
  auto start = std::chrono::steady_clock::now();
  ImportReport r = run(o);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(80));
  EXPECT_TRUE(has_note(r, "sessions.lock/ is held by another process (waited "));
  EXPECT_TRUE(has_note(r, "; sessions.json read while it is held"));
  EXPECT_EQ(testing::session_of(r, root_ + "/sessions.json")->imported, 3u);  // it was whole
}

TEST_F(MyAgentsBadInput, AHeldLockOverAHalfWrittenIndexSaysSo) {
  ASSERT_OK(fs_->make_dirs(root_ + "/sessions.lock"));
  std::string index = test::read_file(root_ + "/sessions.json");
  test::put_file(*fs_, root_ + "/sessions.json", index.substr(0, index.size() / 2));
  ImportOptions o;
  o.read.lock_wait = std::chrono::milliseconds(20);
  ImportReport r = run(o);
  ASSERT_GE(r.skipped.size(), 1u);
  EXPECT_EQ(r.skipped[0].line, 0u);
  EXPECT_NE(r.skipped[0].reason.find("(sessions.lock/ was held: another process may be writing it)"), std::string::npos)
      << r.skipped[0].reason;
}

TEST_F(MyAgentsBadInput, AStaleLockIsNotWaitedFor) {
  ASSERT_OK(fs_->make_dirs(root_ + "/sessions.lock"));
  ImportOptions o;
  o.read.lock_wait = std::chrono::seconds(30);
  o.read.now_ms = fs_->stat(root_ + "/sessions.lock")->mtime_ms + 60'000;
  auto start = std::chrono::steady_clock::now();
  ImportReport r = run(o);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_TRUE(has_note(r, "sessions.lock/ is stale (60 s old; its writer is gone)"));
}

TEST_F(MyAgentsBadInput, NotAStoreIsNotFound) {
  auto r = import_store(*fs_, src_.path() + "/nothing", *target_);
  EXPECT_EQ(r.status().code(), Code::kNotFound);
}

}  // namespace
}  // namespace xs::import::myagents
