// Session: the write path. A failed write poisons the handle until it is reopened; every append is
// one write, synced in sync mode; a session deferred until persist is written whole when closed; a
// byte-order mark survives a rewrite; create never overwrites; distinct sessions work from many
// threads.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "session_fixture.h"

namespace xs::session {
namespace {

using namespace fixture;

// --- sticky errors (docs/decisions.md#sticky-errors) ---------------------------------------------

TEST_P(SessionTest, WriteErrorPoisonsTheHandleUntilReopened) {
  auto s = create(options(false));
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  std::string good = content();
  fs_->fail(storage::FsOp::kAppend);
  EXPECT_EQ(s->append_message(kAssistant, &id).code(), Code::kIo);
  fs_->clear(storage::FsOp::kAppend);
  EXPECT_EQ(s->entry_count(), 1u);
  EXPECT_EQ(s->leaf_id(), ids_[0]);
  EXPECT_EQ(s->append_message(kAssistant, &id).code(), Code::kPoisoned);
  EXPECT_EQ(s->set_title("t").code(), Code::kPoisoned);
  EXPECT_EQ(s->flush().code(), Code::kPoisoned);
  EXPECT_EQ(s->close().code(), Code::kPoisoned);
  EXPECT_EQ(content(), good);
  s.reset();
  SessionOptions o = options();
  o.id_seed = 7;
  auto r = open(o);
  ASSERT_TRUE(r.ok());
  ASSERT_OK((*r)->append_message(kAssistant, &id));
  EXPECT_EQ((*r)->entry_count(), 2u);
}

TEST_P(SessionTest, TornWriteIsRecoveredOnReopen) {
  auto s = create(options(false));
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  fs_->fail(storage::FsOp::kAppend, Code::kIo, /*torn=*/true);
  EXPECT_EQ(s->append_message(kAssistant, &id).code(), Code::kIo);
  fs_->clear(storage::FsOp::kAppend);
  s.reset();
  SessionOptions o = options();
  o.id_seed = 7;
  auto r = open(o);
  ASSERT_TRUE(r.ok());
  EXPECT_NE((*r)->diagnostics_json().find("incomplete_tail"), std::string::npos);
  ASSERT_OK((*r)->append_custom("x", std::nullopt, &id));
  auto again = open(read_only());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->entry_count(), 2u);
  EXPECT_EQ((*again)->leaf_id(), id);
}

// --- one write per append, sync mode, a byte-order mark, no overwrite, threads --------------------

TEST_P(SessionTest, EveryAppendIsOneWrite) {
  auto s = create(options(false));
  std::string id;
  int before = static_cast<int>(fs_->count(storage::FsOp::kAppend));
  ASSERT_OK(s->append_message(kUser, &id));
  ASSERT_OK(s->append_message(kAssistant, &id));
  ASSERT_OK(s->append_custom("x", std::string_view(R"({"big":")" + std::string(100000, 'x') + "\"}"), &id));
  EXPECT_EQ(static_cast<int>(fs_->count(storage::FsOp::kAppend)), before + 3);
}

TEST_P(SessionTest, DeferredUntilPersistIsWrittenWholeWhenClosed) {
  SessionOptions o = options(false);
  o.defer_until_persist = true;
  auto s = create(o);
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  ASSERT_OK(s->append_message(kAssistant, &id));  // the first reply does not write it either
  EXPECT_FALSE(s->persisted());
  EXPECT_FALSE(base_->stat(path_).ok());
  ASSERT_OK(s->close());
  EXPECT_EQ(content(), header_line() + "\n" + line("message", ids_[0], "", 1, "\"message\":" + kUser) + "\n" +
                           line("message", ids_[1], ids_[0], 2, "\"message\":" + kAssistant) + "\n");
  EXPECT_EQ(static_cast<int>(fs_->count(storage::FsOp::kOpenAppend)), 0);  // one atomic write
}

TEST_P(SessionTest, SyncDurabilityWritesTheSameBytes) {
  SessionOptions o = options(false);
  o.durability = Durability::kSync;
  auto s = create(o);
  std::string id;
  int syncs = static_cast<int>(fs_->count(storage::FsOp::kSync));
  ASSERT_OK(s->append_message(kUser, &id));
  ASSERT_OK(s->append_message(kAssistant, &id));
  EXPECT_EQ(static_cast<int>(fs_->count(storage::FsOp::kSync)), syncs + 2);
  EXPECT_EQ(content(), header_line() + "\n" + line("message", ids_[0], "", 1, "\"message\":" + kUser) + "\n" +
                           line("message", ids_[1], ids_[0], 2, "\"message\":" + kAssistant) + "\n");
}

TEST_P(SessionTest, FileStartingWithAByteOrderMarkOpensAsThatSession) {
  std::string l0 = line("message", "m1", "", 1, "\"message\":" + kUser);
  std::string file = "\xef\xbb\xbf" + header_line() + "\n" + l0 + "\n";
  put(file);
  auto r = open(options());
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)->header_info().id, "sess1");
  EXPECT_EQ((*r)->entry_count(), 1u);
  EXPECT_EQ(content(), file);
  EXPECT_FALSE(exists(path_ + ".corrupt-2026-02-16T10-20-30-000Z"));
  // A rewrite copies every unchanged byte, the mark included.
  ASSERT_OK((*r)->set_title("T"));
  EXPECT_EQ(content(), "\xef\xbb\xbf" + header_line(R"(,"title":"T")") + "\n" + l0 + "\n");
}

TEST_P(SessionTest, CreateNeverOverwritesAnExistingFile) {
  {
    auto first = create(options(false));
    ASSERT_TRUE(first);
    // Same id and clock: the same file name. The first writer still holds the lock.
    auto second = Session::create(fs_, dir_, options(false));
    EXPECT_EQ(second.status().code(), Code::kLocked);
    ASSERT_OK(first->close());
  }
  std::string before = content();
  auto third = Session::create(fs_, dir_, options(false));
  EXPECT_EQ(third.status().code(), Code::kConflict);
  EXPECT_EQ(content(), before);
  EXPECT_EQ(names(), (std::vector<std::string>{kFileName, kFileName + ".lock"}));
}

TEST_P(SessionTest, DistinctSessionsOnOneFsWorkFromManyThreads) {
  const int threads = 4, appends = 100;
  std::vector<std::thread> workers;
  std::vector<std::string> paths(threads);
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      SessionOptions o = options(false);
      o.session_id = "thread" + std::to_string(t);
      o.id_seed = static_cast<uint64_t>(100 + t);
      auto r = Session::create(fs_, dir_, o);
      ASSERT_TRUE(r.ok()) << r.status().message();
      paths[static_cast<size_t>(t)] = (*r)->path();
      std::string id;
      for (int i = 0; i < appends; ++i) {
        ASSERT_TRUE((*r)->append_message(i % 2 ? kAssistant : kUser, &id).ok());
      }
      ASSERT_TRUE((*r)->close().ok());
    });
  }
  for (auto& w : workers) w.join();
  for (const std::string& p : paths) {
    auto r = open(read_only(), p);
    ASSERT_TRUE(r.ok()) << p;
    EXPECT_EQ((*r)->entry_count(), static_cast<size_t>(appends));
    EXPECT_EQ((*r)->diagnostics_json(), "[]");
  }
}

}  // namespace
}  // namespace xs::session
