// An import's progress (import/import_progress.h): source bytes handled of the transcripts' sizes,
// from 0 to the total, never backwards, about a thousand calls at most, for each importer.
#include "import/import_progress.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <utility>
#include <vector>

#include "claude/claude_test_util.h"
#include "import/claude/importer.h"
#include "import/gateway/importer.h"
#include "import/gateway/reader.h"
#include "myagents/myagents_fixture.h"
#include "test_util.h"

namespace xs::import {
namespace {

using Calls = std::vector<std::pair<uint64_t, uint64_t>>;

ImportProgressFn recorder(Calls* calls) {
  return [calls](uint64_t done, uint64_t total) { calls->push_back({done, total}); };
}

// 0 of total first, total of total last, `done` never going back, the total never changing.
void expect_whole_run(const Calls& calls, uint64_t total) {
  ASSERT_GE(calls.size(), 2u);
  EXPECT_EQ(calls.front(), std::make_pair(uint64_t{0}, total));
  EXPECT_EQ(calls.back(), std::make_pair(total, total));
  EXPECT_LE(calls.size(), 1002u);
  for (size_t i = 1; i < calls.size(); ++i) {
    EXPECT_GE(calls[i].first, calls[i - 1].first) << "call " << i;
    EXPECT_EQ(calls[i].second, total) << "call " << i;
  }
}

TEST(ProgressMeter, CallsOncePerThousandthPlusTheFirstAndTheLast) {
  Calls calls;
  ProgressMeter m(recorder(&calls));
  m.start(10000);
  for (int i = 0; i < 10000; ++i) m.add(1);
  m.finish();
  // 10, 20, ..., 9990 (10000 itself is finish()'s call), plus 0 and the end.
  ASSERT_EQ(calls.size(), 1001u);
  EXPECT_EQ(calls[1], std::make_pair(uint64_t{10}, uint64_t{10000}));
  EXPECT_EQ(calls[999], std::make_pair(uint64_t{9990}, uint64_t{10000}));
  expect_whole_run(calls, 10000);
}

TEST(ProgressMeter, DoneStopsAtTheTotalAndAnEmptyMeterIsQuiet) {
  Calls calls;
  ProgressMeter m(recorder(&calls));
  m.start(100);
  m.add(70);
  m.add(70);  // a file that grew while we read it
  m.finish();
  EXPECT_EQ(calls, (Calls{{0, 100}, {70, 100}, {100, 100}}));

  ProgressMeter none(nullptr);
  none.start(5);
  none.add(5);
  none.finish();  // no function: nothing to call, nothing to crash
}

TEST(ImportProgress, ClaudeCountsEveryTranscriptOfTheProject) {
  const std::string dir = claude::testing::corpus("marot-spotter");
  uint64_t total = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().extension() == ".jsonl") total += e.file_size();
  }
  ASSERT_GT(total, 1000000u);
  Calls calls;
  claude::ImportOptions o;
  o.progress = recorder(&calls);
  auto st = claude::testing::memory_store();
  ASSERT_TRUE(claude::import_project(*st, storage::make_posix_fs(), dir, o).ok());
  expect_whole_run(calls, total);
  EXPECT_GT(calls.size(), 100u) << "one large transcript moves the bar as its rows are written";

  Calls dry;
  o.dry_run = true;
  o.progress = recorder(&dry);
  ASSERT_TRUE(claude::import_project(*claude::testing::memory_store(), storage::make_posix_fs(), dir, o).ok());
  expect_whole_run(dry, total);
}

TEST(ImportProgress, GatewayCountsItsTranscripts) {
  const std::string root = std::string(XS_GATEWAY_CORPUS_DIR) + "/linux2010-state";
  auto fs = storage::make_posix_fs();
  auto listing = gateway::list(*fs, root);
  ASSERT_TRUE(listing.ok());
  uint64_t total = 0;
  for (const gateway::Agent& a : listing->agents) {
    for (const gateway::Transcript& t : a.transcripts) total += t.size;
  }
  ASSERT_GT(total, 0u);
  test::TempDir ours;
  auto into = store::Store::open(ours.path());
  ASSERT_TRUE(into.ok());
  Calls calls;
  ImportOptions o;
  o.progress = recorder(&calls);
  ASSERT_TRUE(gateway::import_store(*fs, root, **into, o).ok());
  expect_whole_run(calls, total);
}

class MyAgentsProgress : public testing::MyAgentsStoreTest {};

TEST_F(MyAgentsProgress, CountsTheMessageFilesItReads) {
  // The interrupted migration's legacy file is not read (its JSONL is), so it is not counted.
  uint64_t total = std::filesystem::file_size(file(testing::kUnified, ".jsonl")) +
                   std::filesystem::file_size(file(testing::kLegacyId, ".json")) +
                   std::filesystem::file_size(file(testing::kMigrating, ".jsonl"));
  Calls calls;
  ImportOptions o;
  o.progress = recorder(&calls);
  run(o);
  expect_whole_run(calls, total);
}

}  // namespace
}  // namespace xs::import
