// Archiving under faults (docs/retention.md#archiving): a power loss after any step (the power-loss
// model of storage/crash_fs.h: durable, complete and sampled states) and an I/O error at any call
// (storage/faulty_fs.h) leave the session whole: its .jsonl with the original bytes, or its
// archive inflating to them, never neither and never a damaged archive taken for whole. From every
// such state a listing shows the session once, it opens with its entries, and the next run finishes.
#include <gtest/gtest.h>

#include <string>

#include "discovery/finder.h"
#include "retention/retention.h"
#include "storage/crash_fs.h"
#include "storage/faulty_fs.h"
#include "storage/gzip.h"
#include "storage/path.h"
#include "store/store.h"
#include "test_util.h"

namespace xs::retention {
namespace {

constexpr const char* kRoot = "/r";
constexpr const char* kDir = "/r/sessions/--w--";
constexpr const char* kPath = "/r/sessions/--w--/2026-01-01T00-00-00-000Z_s1.jsonl";
constexpr int64_t kNow = 1767225600000 + 40 * 86400000LL;

std::string session_bytes() {
  std::string s = R"({"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"})"
                  "\n";
  std::string parent = "null";
  for (int i = 0; i < 300; ++i) {  // a few KiB: several sectors, so torn writes have room
    std::string id = "e" + std::to_string(i);
    s += R"({"type":"message","id":")" + id + R"(","parentId":)" + parent +
         R"(,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"message )" + std::to_string(i) +
         "\"}}\n";
    parent = "\"" + id + "\"";
  }
  return s;
}

// The session written durably through `fs`: synced file, synced directories.
void write_durably(storage::Fs& fs, const std::string& bytes) {
  ASSERT_TRUE(fs.make_dirs(kDir).ok());
  auto f = fs.create_new(kPath);
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->append(bytes).ok());
  ASSERT_TRUE((*f)->sync().ok());
  ASSERT_TRUE((*f)->close().ok());
  ASSERT_TRUE(fs.sync_dir(kDir).ok());
}

ArchiveOptions options() {
  ArchiveOptions o;
  o.now_ms = kNow;
  o.older_than_ms = 30 * 86400000LL;
  return o;
}

std::string inflated(const std::string& gz) {
  storage::PaddedBuffer out;
  Status st = storage::gunzip(gz, storage::kMaxInflatedBytes, &out);
  return st.ok() ? std::string(out.view()) : "<" + st.message() + ">";
}

// What a store over `fs` makes of the session now, and after one more archiving run.
void expect_recoverable(const std::shared_ptr<storage::Fs>& fs, const std::string& original, const std::string& entries,
                        const std::string& where) {
  store::StoreOptions so;
  so.fs = fs;
  auto st = store::Store::open(kRoot, so);
  ASSERT_TRUE(st.ok());
  auto listed = (*st)->list({});
  ASSERT_TRUE(listed.ok()) << where;
  ASSERT_EQ(listed->size(), 1u) << where;
  session::SessionOptions ro;
  ro.read_only = true;
  auto s = (*st)->open_session("s1", ro);
  ASSERT_TRUE(s.ok()) << where << ": " << s.status().message();
  EXPECT_EQ((*s)->entries_json(), entries) << where;
  auto again = (*st)->archive(options());
  ASSERT_TRUE(again.ok()) << where;
  ASSERT_TRUE(again->skipped.empty()) << where << ": " << again->skipped[0].detail;
  // A crash after the original went but before its lock file did leaves that (empty) lock file.
  std::vector<std::string> names = test::fs_list(*fs, kDir);
  if (names.size() == 2 && names[1] == storage::base_name(kPath) + ".lock") {
    EXPECT_EQ(test::get_file(*fs, std::string(kPath) + ".lock"), "") << where;
    names.pop_back();
  }
  EXPECT_EQ(names, (std::vector<std::string>{storage::base_name(kPath) + ".gz"})) << where;
  EXPECT_EQ(inflated(test::get_file(*fs, std::string(kPath) + ".gz")), original) << where;
}

std::string entries_of(const std::string& bytes) {
  auto fs = storage::make_memory_fs();
  write_durably(*fs, bytes);
  session::SessionOptions ro;
  ro.read_only = true;
  auto s = session::Session::open(fs, kPath, ro);
  EXPECT_TRUE(s.ok());
  return s.ok() ? (*s)->entries_json() : "";
}

TEST(ArchiveCrash, EveryPowerLossLeavesTheSessionWhole) {
  const std::string original = session_bytes();
  const std::string entries = entries_of(original);
  auto fs = std::make_shared<storage::CrashFs>();
  write_durably(*fs, original);
  size_t start = fs->ops();
  auto r = archive(fs, discovery::Finder(fs, kRoot), options());
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->archived.size(), 1u);
  storage::CrashStates states(*fs);
  ASSERT_GT(states.ops(), start + 5);
  const std::string gz_path = std::string(kPath) + ".gz";
  int both = 0, archived_only = 0, original_only = 0;
  for (size_t k = start; k <= states.ops(); ++k) {
    for (int variant = 0; variant < 12; ++variant) {
      storage::CrashState state = variant == 0   ? states.durable(k)
                                  : variant == 1 ? states.complete(k)
                                                 : states.sample(k, variant * 7919 + k);
      std::string where = "crash point " + std::to_string(k) + ", variant " + std::to_string(variant);
      bool has_original = state.files.count(kPath) > 0;
      bool has_archive = state.files.count(gz_path) > 0;
      ASSERT_TRUE(has_original || has_archive) << where << ": neither file";
      if (has_original) {
        ASSERT_EQ(state.files.at(kPath), original) << where;
      }
      // A name for the archive only ever appears with its whole, synced bytes.
      if (has_archive) {
        ASSERT_EQ(inflated(state.files.at(gz_path)), original) << where;
      }
      both += has_original && has_archive;
      archived_only += !has_original;
      original_only += !has_archive;
      if (variant < 3) {
        auto mem = storage::make_memory_fs();
        ASSERT_TRUE(state.install(*mem).ok());
        expect_recoverable(mem, original, entries, where);
      }
    }
  }
  EXPECT_GT(both, 0);  // the states between the rename and the removal were reached
  EXPECT_GT(archived_only, 0);
  EXPECT_GT(original_only, 0);
}

TEST(ArchiveCrash, AnErrorAtAnyCallKeepsTheSession) {
  const std::string original = session_bytes();
  const std::string entries = entries_of(original);
  uint64_t clean_calls = 0;
  {
    auto fs = std::make_shared<storage::FaultyFs>(storage::make_memory_fs());
    write_durably(*fs, original);
    uint64_t before = fs->calls();
    ASSERT_EQ(archive(fs, discovery::Finder(fs, kRoot), options())->archived.size(), 1u);
    clean_calls = fs->calls() - before;
  }
  ASSERT_GT(clean_calls, 10u);
  int archived = 0, kept = 0;
  for (uint64_t n = 1; n <= clean_calls; ++n) {
    for (bool persistent : {false, true}) {
      auto fs = std::make_shared<storage::FaultyFs>(storage::make_memory_fs());
      write_durably(*fs, original);
      std::string where = "fault at call " + std::to_string(n) + (persistent ? " on" : "");
      fs->arm({fs->calls() + n, Code::kIo, persistent, false, 0});
      auto r = archive(fs, discovery::Finder(fs, kRoot), options());
      fs->disarm();
      auto jsonl = fs->stat(kPath);
      if (r.ok() && r->archived.size() == 1) {
        ++archived;
        EXPECT_FALSE(jsonl.ok()) << where;
        EXPECT_EQ(inflated(test::get_file(*fs, std::string(kPath) + ".gz")), original) << where;
      } else {
        ++kept;
        ASSERT_TRUE(jsonl.ok()) << where;
        EXPECT_EQ(test::get_file(*fs, kPath), original) << where;
      }
      expect_recoverable(fs, original, entries, where);
    }
  }
  EXPECT_GT(archived, 0);
  EXPECT_GT(kept, 0);
}

}  // namespace
}  // namespace xs::retention
