// A MyAgents store as its storage notes describe it (docs/import-hosts.md#myagents): there is no
// real one to copy, so the tests build it. `sessions.json` (SessionMetadata[] with stats),
// `sessions/<id>.jsonl` (flat messages; assistant rows with usage, toolCount, durationMs and a
// content that is a JSON string of blocks), a legacy `sessions/<id>.json`, an interrupted
// migration (both files of one id), and `attachments/<id>/`.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "../gateway/gateway_test_util.h"
#include "import/myagents/importer.h"
#include "storage/fs.h"
#include "store/store.h"
#include "test_util.h"

namespace xs::import::testing {

constexpr const char* kUnified = "3f1c2a4e-8b7d-4e21-9a35-0c6f1d2b7e90";    // v0.1.11+: a UUID
constexpr const char* kLegacyId = "session-1738000000000";                  // before: not a UUID
constexpr const char* kMigrating = "7d2e9b10-4c3a-4f5e-8d61-2b9a0e3c4f17";  // both files

inline std::string unified_metadata() {
  return R"json({
    "id": "3f1c2a4e-8b7d-4e21-9a35-0c6f1d2b7e90",
    "agentDir": "/Users/zhihu/Documents/project/ai-max",
    "title": "修复构建 (fix the build)",
    "createdAt": "2026-02-10T09:00:00.000Z",
    "lastActiveAt": "2026-02-10T09:05:00.000Z",
    "sdkSessionId": "3f1c2a4e-8b7d-4e21-9a35-0c6f1d2b7e90",
    "unifiedSession": true,
    "stats": {"messageCount": 2, "totalInputTokens": 1500, "totalOutputTokens": 420, "totalCacheReadTokens": 800,
              "totalCacheCreationTokens": 64}
  })json";
}

// The unified session's rows, one per line.
inline std::string unified_rows() {
  return R"({"id":"m1","role":"user","content":"The build fails on CI.","timestamp":"2026-02-10T09:00:01.000Z"})"
         "\n"
         R"({"id":"m2","role":"assistant","content":"[{\"type\":\"text\",\"text\":\"Let me look.\"},{\"type\":\"tool_use\",\"id\":\"toolu_01\",\"name\":\"Bash\",\"input\":{\"command\":\"make\"}}]","timestamp":"2026-02-10T09:00:05.000Z","usage":{"inputTokens":1000,"outputTokens":300,"cacheReadTokens":800,"cacheCreationTokens":64},"toolCount":1,"durationMs":4200})"
         "\n"
         R"({"id":"m3","role":"user","content":"Thanks, and the tests?","timestamp":"2026-02-10T09:01:00.000Z","attachments":[{"name":"log.txt","path":"attachments/3f1c2a4e-8b7d-4e21-9a35-0c6f1d2b7e90/log.txt"}]})"
         "\n"
         R"({"id":"m4","role":"assistant","content":"All green now.","timestamp":"2026-02-10T09:02:00.000Z","usage":{"inputTokens":500,"outputTokens":120},"toolCount":0,"durationMs":1800})"
         "\n";
}

inline std::string legacy_file() {
  return R"({"id":"session-1738000000000","messages":[
  {"id":"l1","role":"user","content":"hello","timestamp":"2025-01-27T18:00:00.000Z"},
  {"id":"l2","role":"assistant","content":"hi there","timestamp":"2025-01-27T18:00:02.000Z"}
]})";
}

inline void build_myagents_store(storage::Fs& fs, const std::string& root) {
  test::put_file(fs, root + "/sessions.json",
                 "[\n  " + unified_metadata() +
                     ",\n  {\"id\": \"session-1738000000000\", \"agentDir\": \"/Users/zhihu/old\", \"title\": \"Old\", "
                     "\"createdAt\": \"2025-01-27T18:00:00.000Z\", \"lastActiveAt\": \"2025-01-27T18:00:02.000Z\"},\n"
                     "  {\"id\": \"7d2e9b10-4c3a-4f5e-8d61-2b9a0e3c4f17\", \"agentDir\": \"/Users/zhihu/p2\", "
                     "\"title\": \"Migrating\", \"createdAt\": \"2026-01-05T10:00:00.000Z\", "
                     "\"lastActiveAt\": \"2026-01-05T10:00:00.000Z\", \"stats\": {\"messageCount\": 1, "
                     "\"totalInputTokens\": 0, \"totalOutputTokens\": 0}}\n]\n");
  test::put_file(fs, root + "/sessions/" + std::string(kUnified) + ".jsonl", unified_rows());
  test::put_file(fs, root + "/sessions/" + std::string(kLegacyId) + ".json", legacy_file());
  test::put_file(fs, root + "/sessions/" + std::string(kMigrating) + ".jsonl",
                 R"({"id":"n1","role":"user","content":"migrated","timestamp":"2026-01-05T10:00:00.000Z"})"
                 "\n");
  test::put_file(
      fs, root + "/sessions/" + std::string(kMigrating) + ".json",
      R"({"messages":[{"id":"n1","role":"user","content":"not migrated yet","timestamp":"2026-01-05T10:00:00.000Z"}]})");
  test::put_file(fs, root + "/attachments/" + std::string(kUnified) + "/log.txt", "make: *** [all] Error 1\n");
}

// A test with that store under <tmp>/.myagents and an empty store of ours to import into.
class MyAgentsStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs_ = storage::make_posix_fs();
    root_ = src_.path() + "/.myagents";
    build_myagents_store(*fs_, root_);
    auto s = store::Store::open(dst_.path());
    ASSERT_TRUE(s.ok());
    target_ = *s;
  }
  ImportReport run(myagents::ImportOptions options = {}) {
    return checked_import(src_.path(), [&] { return myagents::import_store(*fs_, root_, *target_, options); });
  }
  std::string file(const std::string& id, const char* ext) const { return root_ + "/sessions/" + id + ext; }

  std::shared_ptr<storage::Fs> fs_;
  test::TempDir src_, dst_;
  std::string root_;
  std::shared_ptr<store::Store> target_;
};

}  // namespace xs::import::testing
