// MyAgents' store read and imported (docs/import-hosts.md#myagents), on a store built as its
// storage notes describe it (myagents_fixture.h).
#include <gtest/gtest.h>

#include <string>

#include "../gateway/gateway_test_util.h"
#include "import/myagents/importer.h"
#include "json/member_scanner.h"
#include "myagents_fixture.h"
#include "store/store.h"
#include "test_util.h"

namespace xs::import::myagents {
namespace {

using testing::kLegacyId;
using testing::kMigrating;
using testing::kUnified;

class MyAgents : public testing::MyAgentsStoreTest {
 protected:
  std::unique_ptr<session::Session> open(const std::string& path) {
    session::SessionOptions ro;
    ro.read_only = true;
    auto s = target_->open_session(path, ro);
    EXPECT_TRUE(s.ok()) << s.status().message();
    return s.ok() ? std::move(*s) : nullptr;
  }
};

TEST_F(MyAgents, TheReaderListsIndexFilesAndTheInterruptedMigration) {
  auto listing = list(*fs_, root_);
  ASSERT_TRUE(listing.ok()) << listing.status().message();
  EXPECT_EQ(listing->index_rows, 3u);
  ASSERT_EQ(listing->entries.size(), 3u);
  EXPECT_EQ(listing->entries[0].id, kUnified);
  EXPECT_EQ(listing->entries[0].line, 2u);
  EXPECT_EQ(*listing->entries[0].title, "修复构建 (fix the build)");
  EXPECT_EQ(*listing->entries[0].input_tokens, 1500);
  EXPECT_EQ(*listing->entries[0].cache_creation_tokens, 64);
  EXPECT_TRUE(listing->problems.empty());
  ASSERT_EQ(listing->sessions.size(), 3u);
  const SessionFiles& unified = listing->sessions[0];
  EXPECT_EQ(unified.id, kUnified);
  EXPECT_EQ(*unified.messages_file(), file(kUnified, ".jsonl"));
  const SessionFiles& migrating = listing->sessions[1];
  EXPECT_EQ(migrating.id, kMigrating);
  EXPECT_EQ(*migrating.messages_file(), file(kMigrating, ".jsonl"));  // the JSONL wins
  EXPECT_TRUE(migrating.legacy);
  const SessionFiles& legacy = listing->sessions[2];
  EXPECT_EQ(*legacy.messages_file(), file(kLegacyId, ".json"));
  EXPECT_EQ(listing->notes, std::vector<std::string>{"sessions/" + std::string(kMigrating) +
                                                     ".json: a legacy copy beside sessions/" + kMigrating +
                                                     ".jsonl (an interrupted migration); the JSONL is read, the "
                                                     "legacy file left in place"});
  Messages m;
  ASSERT_OK(read_messages(*fs_, legacy, &m));
  EXPECT_TRUE(m.legacy);
  ASSERT_EQ(m.source.rows.size(), 2u);
  EXPECT_EQ(m.source.rows[1].line, 2u);
  EXPECT_EQ(m.source.rows[1].text,
            R"({"id":"l2","role":"assistant","content":"hi there","timestamp":"2025-01-27T18:00:02.000Z"})");
}

TEST_F(MyAgents, TheListingAsJson) {
  auto listing = list(*fs_, root_);
  ASSERT_TRUE(listing.ok());
  const std::string dir = root_ + "/sessions/";
  EXPECT_EQ(
      listing_json(*listing),
      "{\"source\":\"myagents\",\"root\":\"" + root_ + "\",\"index\":\"" + root_ +
          "/sessions.json\",\"indexLock\":\"free\",\"indexRows\":3,\"sessions\":["
          "{\"id\":\"" +
          kUnified + "\",\"messagesFile\":\"" + dir + kUnified +
          ".jsonl\",\"legacyFile\":null,\"legacyBeside\":false,\"inIndex\":true,\"line\":2,\"title\":\"修复构建 "
          "(fix the build)\",\"agentDir\":\"/Users/zhihu/Documents/project/ai-max\",\"createdAt\":\"2026-02-10T09:"
          "00:00.000Z\",\"lastActiveAt\":\"2026-02-10T09:05:00.000Z\",\"stats\":{\"messageCount\":2,"
          "\"totalInputTokens\":1500,\"totalOutputTokens\":420,\"totalCacheReadTokens\":800,"
          "\"totalCacheCreationTokens\":64}},"
          "{\"id\":\"" +
          kMigrating + "\",\"messagesFile\":\"" + dir + kMigrating + ".jsonl\",\"legacyFile\":\"" + dir + kMigrating +
          ".json\",\"legacyBeside\":true,\"inIndex\":true,\"line\":14,\"title\":"
          "\"Migrating\",\"agentDir\":\"/Users/zhihu/p2\",\"createdAt\":\"2026-01-05T10:00:00.000Z\","
          "\"lastActiveAt\":\"2026-01-05T10:00:00.000Z\",\"stats\":{\"messageCount\":1,\"totalInputTokens\":0,"
          "\"totalOutputTokens\":0}},"
          "{\"id\":\"" +
          kLegacyId + "\",\"messagesFile\":\"" + dir + kLegacyId + ".json\",\"legacyFile\":\"" + dir + kLegacyId +
          ".json\",\"legacyBeside\":false,\"inIndex\":true,\"line\":13,\"title\":\"Old\","
          "\"agentDir\":\"/Users/zhihu/old\",\"createdAt\":\"2025-01-27T18:00:00.000Z\",\"lastActiveAt\":"
          "\"2025-01-27T18:00:02.000Z\",\"stats\":null}],\"problems\":[],\"notes\":[\"sessions/" +
          kMigrating + ".json: a legacy copy beside sessions/" + kMigrating +
          ".jsonl (an interrupted migration); the JSONL is read, the legacy file left in place\"]}");
}

TEST_F(MyAgents, EveryRowIsImportedAndTheLegacyFileLeftInPlace) {
  ImportReport r = run();
  EXPECT_TRUE(r.skipped.empty()) << r.to_json();
  const ImportedSession* unified = testing::session_of(r, file(kUnified, ".jsonl"));
  ASSERT_NE(unified, nullptr);
  EXPECT_EQ(unified->rows_read, 4u);
  EXPECT_EQ(unified->imported, 4u);
  EXPECT_EQ(unified->session_id, kUnified);
  EXPECT_TRUE(unified->created);
  const ImportedSession* legacy = testing::session_of(r, file(kLegacyId, ".json"));
  ASSERT_NE(legacy, nullptr);
  EXPECT_EQ(legacy->imported, 2u);
  const ImportedSession* migrating = testing::session_of(r, file(kMigrating, ".jsonl"));
  ASSERT_NE(migrating, nullptr);
  EXPECT_EQ(migrating->imported, 1u);
  EXPECT_EQ(testing::session_of(r, file(kMigrating, ".json")), nullptr);  // never read
  const ImportedSession* index = testing::session_of(r, root_ + "/sessions.json");
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(index->rows_read, 3u);
  EXPECT_EQ(index->imported, 3u);
  EXPECT_TRUE(test::file_exists(file(kMigrating, ".json")));
  auto s = open(unified->session_file);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->header_info().cwd, "/Users/zhihu/Documents/project/ai-max");
  EXPECT_EQ(s->header_info().timestamp, "2026-02-10T09:00:00.000Z");
  EXPECT_EQ(*s->title(), "修复构建 (fix the build)");
}

// The assistant row with structured content, usage and business metrics, entry member by member.
TEST_F(MyAgents, AnAssistantRowKeepsItsUsageAndMetrics) {
  ImportReport r = run();
  auto s = open(testing::session_of(r, file(kUnified, ".jsonl"))->session_file);
  ASSERT_TRUE(s);
  ASSERT_EQ(s->entry_count(), 4u);
  auto e = json::members_of(s->data().entries[1].line);
  EXPECT_EQ(json::find_member(e, "timestamp")->value, "\"2026-02-10T09:00:05.000Z\"");
  EXPECT_EQ(json::find_member(e, "parentId")->value, "\"" + std::string(s->data().entries[0].id) + "\"");
  EXPECT_EQ(
      json::find_member(e, "message")->value,
      R"({"role":"assistant","content":[{"type":"text","text":"Let me look."},{"type":"toolCall","id":"toolu_01",)"
      R"("name":"Bash","arguments":{"command":"make"}}],"usage":{"input":1000,"output":300,"cacheRead":800,)"
      R"("cacheWrite":64,"totalTokens":2164},"stopReason":"stop","timestamp":1770714005000})");
  EXPECT_EQ(json::find_member(e, "source")->value,
            R"({"kind":"myagents","id":"m2","fields":{"content":"[{\"type\":\"text\",\"text\":\"Let me look.\"},)"
            R"({\"type\":\"tool_use\",\"id\":\"toolu_01\",\"name\":\"Bash\",\"input\":{\"command\":\"make\"}}]",)"
            R"("usage":{"inputTokens":1000,"outputTokens":300,"cacheReadTokens":800,"cacheCreationTokens":64},)"
            R"("toolCount":1,"durationMs":4200}})");
  // A user row with plain text: the text is the message's; only its attachments stay in fields.
  auto user = json::members_of(s->data().entries[2].line);
  EXPECT_EQ(json::find_member(user, "message")->value,
            R"({"role":"user","content":[{"type":"text","text":"Thanks, and the tests?"}],"timestamp":1770714060000})");
  EXPECT_EQ(json::find_member(user, "source")->value,
            R"({"kind":"myagents","id":"m3","fields":{"attachments":[{"name":"log.txt","path":"attachments/)" +
                std::string(kUnified) + R"(/log.txt"}]}})");
  auto context = s->context(std::nullopt);
  ASSERT_TRUE(context.ok());
  EXPECT_NE(context->find("\"All green now.\""), std::string::npos);
}

TEST_F(MyAgents, StatsAndMetadataGoToTheKeyedStore) {
  ImportReport r = run();
  const ImportedSession* unified = testing::session_of(r, file(kUnified, ".jsonl"));
  auto record = target_->keys().get(key_for(kUnified));
  ASSERT_TRUE(record.ok()) << record.status().message();
  EXPECT_EQ(*record,
            "{\"sessionId\":\"" + std::string(kUnified) + "\",\"sessionFile\":\"" + unified->session_file +
                "\",\"updatedAt\":1770714120000,\"inputTokens\":1500,\"outputTokens\":420,\"cacheRead\":800,"
                "\"cacheWrite\":64,\"totalTokens\":2784,\"contextTokens\":620,\"cost\":0,\"compactionCount\":0,"
                "\"messageCounts\":{\"user\":2,\"assistant\":2},\"toolCalls\":1,\"title\":\"修复构建 (fix the build)\","
                "\"cwd\":\"/Users/zhihu/Documents/project/ai-max\",\"createdAt\":1770714000000,\"importedFrom\":{"
                "\"kind\":\"myagents\",\"id\":\"" +
                kUnified +
                "\",\"metadata\":{\"id\":\"3f1c2a4e-8b7d-4e21-9a35-0c6f1d2b7e90\",\"agentDir\":\"/Users/zhihu/"
                "Documents/project/ai-max\",\"title\":\"修复构建 (fix the build)\",\"createdAt\":\"2026-02-10T09:00:"
                "00.000Z\",\"lastActiveAt\":\"2026-02-10T09:05:00.000Z\",\"sdkSessionId\":\"3f1c2a4e-8b7d-4e21-9a35-"
                "0c6f1d2b7e90\",\"unifiedSession\":true,\"stats\":{\"messageCount\":2,\"totalInputTokens\":1500,"
                "\"totalOutputTokens\":420,\"totalCacheReadTokens\":800,\"totalCacheCreationTokens\":64}}}}");
}

TEST_F(MyAgents, ReimportAddsNothingAndWritesNothing) {
  ImportReport first = run();
  auto ours = testing::tree_picture(dst_.path());
  ImportReport again = run();
  EXPECT_EQ(again.imported(), 0u);
  EXPECT_EQ(again.kept_as_custom(), 0u);
  EXPECT_EQ(again.already_imported(), first.rows_read());
  for (const ImportedSession& s : again.sessions) EXPECT_FALSE(s.created) << s.source_file;
  EXPECT_EQ(testing::tree_picture(dst_.path()), ours);
}

TEST_F(MyAgents, AGrownSessionImportsOnlyItsNewRowsAndItsRecordFollows) {
  ImportReport first = run();
  test::append_file(*fs_, file(kUnified, ".jsonl"),
                    R"({"id":"m5","role":"user","content":"one more","timestamp":"2026-02-10T09:03:00.000Z"})"
                    "\n"
                    R"({"id":"m6","role":"system","content":"compacted","timestamp":"2026-02-10T09:03:01.000Z"})"
                    "\n");
  ImportReport again = run();
  const ImportedSession* unified = testing::session_of(again, file(kUnified, ".jsonl"));
  ASSERT_NE(unified, nullptr);
  EXPECT_EQ(unified->already_imported, 4u);
  EXPECT_EQ(unified->imported, 1u);
  EXPECT_EQ(unified->kept_as_custom, 1u);  // a role MyAgents' notes do not name: the row kept whole
  EXPECT_EQ(unified->session_file, testing::session_of(first, file(kUnified, ".jsonl"))->session_file);
  auto s = open(unified->session_file);
  ASSERT_TRUE(s);
  auto custom = json::members_of(s->data().entries.back().line);
  EXPECT_EQ(json::find_member(custom, "customType")->value, "\"myagents/message\"");
  EXPECT_EQ(json::find_member(custom, "data")->value,
            R"({"id":"m6","role":"system","content":"compacted","timestamp":"2026-02-10T09:03:01.000Z"})");
  const ImportedSession* index = testing::session_of(again, root_ + "/sessions.json");
  EXPECT_EQ(index->imported, 1u);  // the unified session's record: its stats changed
  EXPECT_EQ(index->already_imported, 2u);
  std::string text = target_->keys().get(key_for(kUnified)).value();
  auto record = json::members_of(text);
  EXPECT_EQ(json::find_member(record, "messageCounts")->value,
            R"({"user":3,"assistant":2})");  // custom entries are not messages
}

TEST_F(MyAgents, ARemovedRecordDoesNotMakeASecondCopy) {
  ImportReport first = run();
  ASSERT_OK(target_->keys().remove(key_for(kUnified)));
  ImportReport again = run();
  const ImportedSession* unified = testing::session_of(again, file(kUnified, ".jsonl"));
  ASSERT_NE(unified, nullptr);
  EXPECT_FALSE(unified->created);
  EXPECT_EQ(unified->already_imported, 4u);
  EXPECT_EQ(unified->session_file, testing::session_of(first, file(kUnified, ".jsonl"))->session_file);
  EXPECT_TRUE(target_->keys().get(key_for(kUnified)).ok());  // written again
}

TEST_F(MyAgents, ADryRunCountsAndWritesNothing) {
  ImportOptions dry;
  dry.dry_run = true;
  ImportReport r = run(dry);
  EXPECT_EQ(r.imported(), 7u + 3u);  // 4 + 2 + 1 messages, 3 records
  EXPECT_TRUE(test::list_dir(dst_.path()).empty());
}

}  // namespace
}  // namespace xs::import::myagents
