// retention/: archive (exact .gz, verified; skips a live writer; dry run = real run), archived
// sessions listed marked and opened read-only with the same entries and context, prune (archives
// only, dry run = real run), and blob GC over archives. A store on the disk in a temp dir, so
// mtimes can be set (tests/core/retention/archive_crash_test.cc has the crash points).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "retention/retention.h"
#include "storage/gzip.h"
#include "storage/path.h"
#include "store/store.h"
#include "test_util.h"

namespace xs::retention {
namespace {

using session::Session;
using session::SessionOptions;
using V = std::vector<std::string>;

constexpr int64_t kStart = 1767225600000;  // 2026-01-01, the sessions' fixed clock
constexpr int64_t kDay = 86400000;
constexpr const char* kUser = R"({"role":"user","content":"hello"})";
constexpr const char* kAssistant =
    R"({"role":"assistant","provider":"p","model":"m","content":[{"type":"text","text":"hi"}]})";

SessionOptions written(const std::string& id, int64_t start) {
  SessionOptions o;
  o.defer_until_assistant = false;
  o.session_id = id;
  o.clock = format::Clock::Fixed(start, 1000);
  o.id_seed = 7;
  return o;
}

std::string paths(const std::vector<Archived>& v) {
  std::string out;
  for (const Archived& a : v) out += storage::base_name(a.path) + " ";
  return out;
}

class ArchiveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = store::Store::open(tmp_.path());
    ASSERT_TRUE(s.ok()) << s.status().message();
    store_ = *s;
  }
  // A session of `cwd` whose entries are stamped from `start` on; its path.
  std::string make(const std::string& id, int64_t start, const std::string& cwd = "/w") {
    auto s = store_->create_session(cwd, written(id, start));
    EXPECT_TRUE(s.ok()) << s.status().message();
    if (!s.ok()) return "";
    EXPECT_TRUE((*s)->append_message(kUser, nullptr).ok());
    EXPECT_TRUE((*s)->append_message(kAssistant, nullptr).ok());
    std::string path = (*s)->path();
    EXPECT_TRUE((*s)->close().ok());
    return path;
  }
  Result<ArchiveReport> archive(bool dry_run, int64_t now = kStart + 31 * kDay) {
    ArchiveOptions o;
    o.now_ms = now;
    o.older_than_ms = 30 * kDay;
    o.dry_run = dry_run;
    return store_->archive(o);
  }
  std::unique_ptr<Session> open(const std::string& what, bool read_only = true) {
    SessionOptions o;
    o.read_only = read_only;
    auto s = store_->open_session(what, o);
    EXPECT_TRUE(s.ok()) << s.status().message();
    return s.ok() ? std::move(*s) : nullptr;
  }
  V dir_names(const std::string& cwd = "/w") { return test::list_dir(store_->session_dir(cwd)); }

  test::TempDir tmp_;
  std::shared_ptr<store::Store> store_;
};

TEST_F(ArchiveTest, ArchivesIdleSessionsToTheExactBytes) {
  std::string old_path = make("old", kStart);
  std::string young_path = make("young", kStart + 20 * kDay);
  std::string old_bytes = test::read_file(old_path);
  std::string young_bytes = test::read_file(young_path);
  auto r = archive(false);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->archived.size(), 1u);
  EXPECT_TRUE(r->skipped.empty());
  EXPECT_EQ(r->archived[0].path, old_path);
  EXPECT_EQ(r->archived[0].bytes, old_bytes.size());
  std::string gz = test::read_file(old_path + ".gz");
  EXPECT_EQ(r->archived[0].gz_bytes, gz.size());
  storage::PaddedBuffer back;
  ASSERT_TRUE(storage::gunzip(gz, storage::kMaxInflatedBytes, &back).ok());
  EXPECT_EQ(std::string(back.view()), old_bytes);
  EXPECT_FALSE(test::file_exists(old_path));
  EXPECT_EQ(test::read_file(young_path), young_bytes);
  // Nothing else is left: no temp file, no lock file of the archived session (the live one keeps
  // the lock file its writer left).
  EXPECT_EQ(dir_names(), (V{storage::base_name(old_path) + ".gz", storage::base_name(young_path),
                            storage::base_name(young_path) + ".lock"}));
  EXPECT_EQ(archive_report_json(*r), R"({"dryRun":false,"archived":[{"path":")" + old_path + R"(","bytes":)" +
                                         std::to_string(old_bytes.size()) + R"(,"gzBytes":)" +
                                         std::to_string(gz.size()) + R"(}],"skipped":[]})");
  // Run again: nothing more is old enough.
  auto again = archive(false);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->archived.empty());
}

TEST_F(ArchiveTest, TheLastEntrysTimestampDecidesNotTheMtime) {
  std::string path = make("copied", kStart);
  ASSERT_TRUE(test::set_mtime(path, kStart + 31 * kDay));  // copied yesterday: the content is old
  std::string headerless = store_->session_dir("/w") + "/2026-01-01T00-00-00-000Z_x.jsonl";
  test::write_file(headerless, "not a session\n");  // not listed, so never archived
  ASSERT_TRUE(test::set_mtime(headerless, kStart));
  auto r = archive(false);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(paths(r->archived), storage::base_name(path) + " ");
  EXPECT_TRUE(test::file_exists(headerless));
  auto fs = storage::make_posix_fs();
  auto stat = fs->stat(headerless);
  ASSERT_TRUE(stat.ok());
  EXPECT_EQ(last_activity_ms(*fs, headerless, *stat), kStart);  // no timestamp: the mtime
}

TEST_F(ArchiveTest, ArchivedSessionsOpenReadOnlyWithTheSameEntries) {
  std::string path = make("abcdef123", kStart);
  std::string entries, context, tree;
  {
    auto s = open(path);
    ASSERT_TRUE(s);
    entries = s->entries_json();
    context = *s->context(std::nullopt);
    tree = s->tree_json();
  }
  ASSERT_TRUE(archive(false).ok());
  std::string gz_path = path + ".gz";
  for (const std::string& what : {gz_path, std::string("abcdef123"), std::string("abcd")}) {
    for (bool read_only : {true, false}) {
      auto s = open(what, read_only);
      ASSERT_TRUE(s) << what;
      EXPECT_EQ(s->path(), gz_path);
      EXPECT_TRUE(s->read_only());
      EXPECT_TRUE(s->archived());
      EXPECT_EQ(s->entries_json(), entries);
      EXPECT_EQ(*s->context(std::nullopt), context);
      EXPECT_EQ(s->tree_json(), tree);
      EXPECT_NE(s->info_json().find(R"("readOnly":true,"archived":true,)"), std::string::npos) << s->info_json();
      Status st = s->append_message(kUser, nullptr);
      EXPECT_EQ(st.code(), Code::kReadOnly);
      EXPECT_EQ(st.message(), gz_path + " is an archived session (read-only; docs/retention.md)");
      EXPECT_EQ(s->set_title("t").code(), Code::kReadOnly);
      int64_t added = -1;
      EXPECT_TRUE(s->reload(&added).ok());
      EXPECT_EQ(added, 0);
    }
  }
  EXPECT_FALSE(test::file_exists(path + ".lock"));  // a writable open of an archive locks nothing
}

TEST_F(ArchiveTest, ListingsMarkArchivesAndContinueNeverPicksOne) {
  std::string old_path = make("old", kStart);
  ASSERT_TRUE(archive(false).ok());
  std::string young_path = make("young", kStart + 29 * kDay);
  ASSERT_TRUE(test::set_mtime(young_path, kStart));  // older than the archive, so listed after it
  auto all = store_->list({});
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].path, old_path + ".gz");
  EXPECT_TRUE((*all)[0].archived);
  EXPECT_EQ((*all)[0].id, "old");
  EXPECT_EQ((*all)[0].first_message, "hello");
  EXPECT_FALSE((*all)[1].archived);
  std::string json = discovery::summary_json((*all)[0]);
  EXPECT_NE(json.find(R"("corruptCopies":0,"archived":true,"firstMessage":"hello")"), std::string::npos) << json;
  discovery::ListQuery full;
  full.full = true;
  auto counted = store_->list(full);
  ASSERT_TRUE(counted.ok());
  EXPECT_EQ((*counted)[0].entry_count, 2u);
  discovery::ListQuery live;
  live.archived = false;
  EXPECT_EQ(store_->list(live)->size(), 1u);
  EXPECT_EQ(*store_->resolve("old", std::nullopt), old_path + ".gz");
  // The only session of cwd "/v" is archived: continue starts a new one.
  std::string v_path = make("vonly", kStart, "/v");
  ASSERT_TRUE(archive(false).ok());
  auto s = store_->continue_recent("/v", std::nullopt, SessionOptions());
  ASSERT_TRUE(s.ok());
  EXPECT_NE((*s)->path(), v_path + ".gz");
  EXPECT_FALSE((*s)->read_only());
}

TEST_F(ArchiveTest, SkipsASessionAnotherWriterHasOpen) {
  std::string path = make("busy", kStart);
  std::string bytes = test::read_file(path);
  auto writer = open(path, false);
  ASSERT_TRUE(writer);
  for (bool dry_run : {true, false}) {
    auto r = archive(dry_run);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->archived.empty());
    ASSERT_EQ(r->skipped.size(), 1u);
    EXPECT_EQ(r->skipped[0].path, path);
    EXPECT_EQ(r->skipped[0].reason, "writer");
  }
  EXPECT_EQ(test::read_file(path), bytes);
  EXPECT_FALSE(test::file_exists(path + ".gz"));
  writer.reset();
  EXPECT_EQ(archive(false)->archived.size(), 1u);
}

TEST_F(ArchiveTest, ADryRunListsExactlyWhatARealRunArchives) {
  std::vector<std::string> made = {make("a1", kStart), make("a2", kStart + 5 * kDay, "/x"),
                                   make("a3", kStart + 10 * kDay), make("young", kStart + 25 * kDay)};
  auto busy = open(made[2], false);
  V before = dir_names();
  auto dry = archive(true);
  ASSERT_TRUE(dry.ok());
  EXPECT_TRUE(dry->dry_run);
  EXPECT_EQ(dir_names(), before);  // nothing changed
  EXPECT_EQ(test::read_file(made[0]).empty(), false);
  std::vector<uint64_t> calls;
  ArchiveOptions o;
  o.now_ms = kStart + 41 * kDay;
  o.older_than_ms = 30 * kDay;
  o.progress = [&](uint64_t done, uint64_t total) { calls.push_back(done * 100 + total); };
  dry = archive(true, o.now_ms);
  auto real = store_->archive(o);
  ASSERT_TRUE(real.ok());
  EXPECT_EQ(paths(dry->archived), paths(real->archived));
  EXPECT_EQ(paths(real->archived), storage::base_name(made[0]) + " " + storage::base_name(made[1]) + " ");
  ASSERT_EQ(real->skipped.size(), 1u);
  EXPECT_EQ(dry->skipped[0].path, real->skipped[0].path);
  EXPECT_EQ(calls, (std::vector<uint64_t>{3, 103, 203, 303}));
  for (const Archived& a : dry->archived) EXPECT_EQ(a.gz_bytes, 0u);
}

TEST_F(ArchiveTest, AnArchiveWithOtherContentIsNeverReplaced) {
  std::string path = make("s", kStart);
  std::string bytes = test::read_file(path);
  auto other = storage::gzip_compress("someone else's\n", 1);
  test::write_file(path + ".gz", std::string(other->view()));
  auto r = archive(false);
  ASSERT_EQ(r->skipped.size(), 1u);
  EXPECT_EQ(r->skipped[0].reason, "archive-exists");
  EXPECT_EQ(test::read_file(path), bytes);
  EXPECT_EQ(test::read_file(path + ".gz"), std::string(other->view()));
  // An earlier archive of the same session (a run that stopped before removing it) is replaced.
  auto earlier = storage::gzip_compress(bytes.substr(0, 100), 1);
  test::write_file(path + ".gz", std::string(earlier->view()));
  auto listed = store_->list({});
  ASSERT_EQ(listed->size(), 1u);  // the live file, not the leftover archive beside it
  EXPECT_FALSE((*listed)[0].archived);
  EXPECT_EQ(*store_->resolve("s", std::nullopt), path);
  r = archive(false);
  ASSERT_EQ(r->archived.size(), 1u);
  storage::PaddedBuffer back;
  ASSERT_TRUE(storage::gunzip(test::read_file(path + ".gz"), storage::kMaxInflatedBytes, &back).ok());
  EXPECT_EQ(std::string(back.view()), bytes);
}

TEST_F(ArchiveTest, AHostileArchiveIsCorruptNotASession) {
  std::string dir = store_->session_dir("/w");
  std::string good = make("good", kStart);
  ASSERT_TRUE(archive(false).ok());
  std::string gz = test::read_file(good + ".gz");
  test::write_file(dir + "/2026-01-02T00-00-00-000Z_plain.jsonl.gz", "plain text\n");
  test::write_file(dir + "/2026-01-02T00-00-00-000Z_cut.jsonl.gz", gz.substr(0, gz.size() / 2));
  auto zeros = storage::gzip_compress(std::string(8u << 20, '\n'), 9);
  test::write_file(dir + "/2026-01-02T00-00-00-000Z_blank.jsonl.gz", std::string(zeros->view()));
  for (const char* name : {"plain", "cut"}) {
    auto s = store_->open_session(dir + "/2026-01-02T00-00-00-000Z_" + name + ".jsonl.gz", SessionOptions());
    EXPECT_EQ(s.status().code(), Code::kCorrupt) << name;
  }
  auto s = store_->open_session(dir + "/2026-01-02T00-00-00-000Z_cut.jsonl.gz", SessionOptions());
  EXPECT_EQ(s.status().message(),
            dir + "/2026-01-02T00-00-00-000Z_cut.jsonl.gz: gzip data cut short (no end of stream)");
  s = store_->open_session(dir + "/2026-01-02T00-00-00-000Z_blank.jsonl.gz", SessionOptions());
  EXPECT_EQ(s.status().code(), Code::kNoHeader);
  auto listed = store_->list({});
  ASSERT_EQ(listed->size(), 1u);  // only the good archive: the others are not sessions
  EXPECT_EQ((*listed)[0].path, good + ".gz");
}

TEST_F(ArchiveTest, PruneDeletesOnlyOldArchivesAndADryRunListsExactlyThem) {
  std::string a = make("a", kStart), b = make("b", kStart), live = make("live", kStart + 29 * kDay);
  ASSERT_EQ(archive(false)->archived.size(), 2u);
  ASSERT_TRUE(test::set_mtime(a + ".gz", kStart + 31 * kDay));
  ASSERT_TRUE(test::set_mtime(b + ".gz", kStart + 100 * kDay));
  ASSERT_TRUE(test::set_mtime(live, kStart));  // a live file, however old, is never pruned
  PruneOptions o;
  o.now_ms = kStart + 122 * kDay;
  o.older_than_ms = 90 * kDay;
  o.dry_run = true;
  V before = dir_names();
  auto dry = store_->prune(o);
  ASSERT_TRUE(dry.ok());
  EXPECT_EQ(dir_names(), before);
  ASSERT_EQ(dry->pruned.size(), 1u);
  EXPECT_EQ(dry->pruned[0].path, a + ".gz");
  EXPECT_EQ(dry->pruned[0].archived_ms, kStart + 31 * kDay);
  EXPECT_EQ(prune_report_json(*dry), R"({"dryRun":true,"pruned":[{"path":")" + a + R"(.gz","gzBytes":)" +
                                         std::to_string(dry->pruned[0].gz_bytes) + R"(,"archivedMs":)" +
                                         std::to_string(kStart + 31 * kDay) + "}]}");
  o.dry_run = false;
  auto real = store_->prune(o);
  ASSERT_TRUE(real.ok());
  ASSERT_EQ(real->pruned.size(), 1u);
  EXPECT_EQ(real->pruned[0].path, dry->pruned[0].path);
  EXPECT_EQ(dir_names(),
            (V{storage::base_name(b) + ".gz", storage::base_name(live), storage::base_name(live) + ".lock"}));
  o.older_than_ms = 0;  // everything archived goes; the live file stays
  EXPECT_EQ(store_->prune(o)->pruned.size(), 1u);
  EXPECT_EQ(dir_names(), (V{storage::base_name(live), storage::base_name(live) + ".lock"}));
  o.older_than_ms = -1;
  EXPECT_EQ(store_->prune(o).status().code(), Code::kInvalid);
}

TEST_F(ArchiveTest, BlobGcKeepsWhatOnlyAnArchiveNames) {
  std::string hash;
  ASSERT_TRUE(store_->blobs().put("image bytes", &hash).ok());
  std::string path;
  {
    auto s = store_->create_session("/w", written("withblob", kStart));
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE((*s)->append_custom("ref", R"({"image":"blob:sha256:)" + hash + R"("})", nullptr).ok());
    path = (*s)->path();
  }
  ASSERT_EQ(archive(false)->archived.size(), 1u);
  blobs::GcOptions gc;
  gc.grace_ms = 0;
  gc.now_ms = kStart + 365 * kDay;
  auto r = store_->collect_garbage(gc);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->referenced, 1u);
  EXPECT_TRUE(r->deleted.empty());
  std::string bytes;
  EXPECT_TRUE(store_->blobs().get(hash, &bytes).ok());
  // A damaged archive stops the collection: nothing is deleted on an incomplete mark.
  std::string gz = test::read_file(path + ".gz");
  test::write_file(path + ".gz", gz.substr(0, gz.size() - 3));
  r = store_->collect_garbage(gc);
  EXPECT_EQ(r.status().code(), Code::kCorrupt);
  EXPECT_TRUE(store_->blobs().get(hash, &bytes).ok());
  // Once the archive is pruned, the blob goes.
  PruneOptions p;
  p.now_ms = kStart + 365 * kDay * 10;
  test::write_file(path + ".gz", gz);
  ASSERT_EQ(store_->prune(p)->pruned.size(), 1u);
  r = store_->collect_garbage(gc);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->deleted.size(), 1u);
}

}  // namespace
}  // namespace xs::retention
