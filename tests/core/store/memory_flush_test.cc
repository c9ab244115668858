// store/memory_flush: the memory flush decided and marked under the keyed store's lock
// (docs/compaction-planning.md#when): once per compaction cycle, whoever asks.
#include "store/memory_flush.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "format/clock.h"
#include "test_util.h"

namespace xs::store {
namespace {

class MemoryFlushTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = tmp_.path() + "/sessions.json";
    settings_.context_window = 200000;  // compacts above 180000; flushes above 176000
  }

  test::TempDir tmp_;
  std::shared_ptr<storage::Fs> fs_ = storage::make_posix_fs();
  std::string path_;
  compaction::Settings settings_;
};

TEST_F(MemoryFlushTest, OncePerCycleAndOnlyPastTheSoftThreshold) {
  KeyStore keys(fs_, path_);
  ASSERT_OK(keys.put("k", R"({"sessionId":"s","title":"T"})"));
  std::string before = test::get_file(*fs_, path_);
  EXPECT_FALSE(*claim_memory_flush(keys, "k", settings_, 176000, 7));
  EXPECT_EQ(test::get_file(*fs_, path_), before);  // a "no" writes nothing
  EXPECT_TRUE(*claim_memory_flush(keys, "k", settings_, 176001, 7));
  EXPECT_EQ(*keys.get("k"), R"({"sessionId":"s","title":"T","memoryFlushAt":7,"memoryFlushCompactionCount":0})");
  EXPECT_FALSE(*claim_memory_flush(keys, "k", settings_, 199999, 8));
  ASSERT_OK(keys.patch("k", R"({"compactionCount":1})"));
  EXPECT_TRUE(*claim_memory_flush(keys, "k", settings_, 176001, 9));
  EXPECT_EQ(*keys.get("k"),
            R"({"sessionId":"s","title":"T","memoryFlushAt":9,"memoryFlushCompactionCount":1,"compactionCount":1})");
}

TEST_F(MemoryFlushTest, ANullMarkIsNeverFlushed) {
  KeyStore keys(fs_, path_);
  ASSERT_OK(keys.put("k", R"({"sessionId":"s","compactionCount":0,"memoryFlushCompactionCount":null})"));
  EXPECT_TRUE(*claim_memory_flush(keys, "k", settings_, 180000, 1));
}

TEST_F(MemoryFlushTest, NowZeroIsTheSystemClock) {
  KeyStore keys(fs_, path_);
  ASSERT_OK(keys.put("k", R"({"sessionId":"s"})"));
  int64_t before = format::Clock::Real().now_ms();
  ASSERT_TRUE(*claim_memory_flush(keys, "k", settings_, 180000, 0));
  std::string record = *keys.get("k");
  size_t at = record.find("\"memoryFlushAt\":") + 16;
  int64_t stamped = std::stoll(record.substr(at));
  EXPECT_GE(stamped, before);
  EXPECT_LE(stamped, format::Clock::Real().now_ms());
}

TEST_F(MemoryFlushTest, BadRecordsAreRefusedAndLeftAlone) {
  KeyStore keys(fs_, path_);
  EXPECT_EQ(claim_memory_flush(keys, "none", settings_, 190000, 1).status().code(), Code::kNotFound);
  ASSERT_OK(keys.put("k", R"({"sessionId":"s","compactionCount":1e400})"));
  std::string before = test::get_file(*fs_, path_);
  auto r = claim_memory_flush(keys, "k", settings_, 190000, 1);
  EXPECT_EQ(r.status().code(), Code::kInvalid);
  EXPECT_EQ(r.status().message(), "record field \"compactionCount\" is not a whole number: 1e400");
  EXPECT_EQ(test::get_file(*fs_, path_), before);
  EXPECT_EQ(claim_memory_flush(keys, "bad/key", settings_, 190000, 1).status().code(), Code::kInvalid);
}

// Two stores of the same document (as two processes hold it) asking at once: one flush per cycle.
TEST_F(MemoryFlushTest, ConcurrentAsksGetOneYes) {
  ASSERT_OK(KeyStore(fs_, path_).put("k", R"({"sessionId":"s"})"));
  for (int cycle = 0; cycle < 20; ++cycle) {
    ASSERT_OK(KeyStore(fs_, path_).patch("k", "{\"compactionCount\":" + std::to_string(cycle) + "}"));
    std::atomic<int> yes{0};
    std::vector<std::thread> askers;
    for (int t = 0; t < 4; ++t) {
      askers.emplace_back([&] {
        KeyStore mine(fs_, path_);
        auto r = claim_memory_flush(mine, "k", settings_, 190000, 1 + cycle);
        EXPECT_TRUE(r.ok()) << r.status().message();
        if (r.ok() && *r) ++yes;
      });
    }
    for (auto& t : askers) t.join();
    EXPECT_EQ(yes.load(), 1) << "cycle " << cycle;
  }
}

}  // namespace
}  // namespace xs::store
