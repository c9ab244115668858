// The session index's rows: rebuild from the files, refresh by what changed (the tail of a grown
// file only), verify, the current path after a branch, a damaged file, threads at once.
#include "search/session_index.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "search_fixture.h"
#include "storage/gzip.h"
#include "storage/path.h"

namespace xs::search {
namespace {

// Session A: a turn with a tool call and its result, a model change (no text), a label.
std::string session_a() {
  return header("aaaa000000000001", "/src/a", "Parser work") + msg("a1", "", 1, "user", "\"fix the tokenizer crash\"") +
         msg("a2", "a1", 2, "assistant",
             "[{\"type\":\"text\",\"text\":\"Reading the tokenizer.\"},{\"type\":\"toolCall\",\"id\":\"c1\",\"name\":"
             "\"read\",\"arguments\":{\"path\":\"tok.c\"}}]",
             ",\"usage\":{\"input\":100,\"output\":20,\"cost\":{\"total\":0.5}}") +
         msg("a3", "a2", 3, "toolResult", "[{\"type\":\"text\",\"text\":\"int next(void);\"}]",
             ",\"toolName\":\"read\"") +
         "{\"type\":\"model_change\",\"id\":\"a4\",\"parentId\":\"a3\",\"timestamp\":\"2026-01-01T00:00:04.000Z\","
         "\"model\":\"anthropic/claude\"}\n"
         "{\"type\":\"label\",\"id\":\"a5\",\"parentId\":\"a4\",\"timestamp\":\"2026-01-01T00:00:05.000Z\","
         "\"targetId\":\"a2\",\"label\":\"diagnosis\"}\n";
}

// Session B: an injected first prompt, then a branch from b1 with a summary; the leaf is b5.
std::string session_b() {
  return header("bbbb000000000002", "/src/b") + msg("b1", "", 1, "user", "\"<command-name>/init</command-name>\"") +
         msg("b2", "b1", 2, "user", "\"make the parser faster\"") +
         msg("b3", "b2", 3, "assistant", "[{\"type\":\"text\",\"text\":\"profiling the parser\"}]") +
         "{\"type\":\"branch_summary\",\"id\":\"b4\",\"parentId\":\"b1\",\"timestamp\":\"2026-01-01T00:00:04.000Z\","
         "\"fromId\":\"b1\",\"summary\":\"abandoned the lexer rewrite\"}\n" +
         msg("b5", "b4", 5, "user", "\"try the lexer cache\"");
}

constexpr const char* kEntries =
    "SELECT s.id, e.entry_id, e.parent_id, e.role, e.kind, e.ts - 1767225600000, e.on_path, e.text "
    "FROM entries e JOIN sessions s ON s.rowid = e.session_rowid ORDER BY e.rowid";
constexpr const char* kSessions =
    "SELECT rowid, id, cwd, title, first_prompt, created, updated, entries, messages, input_tokens, output_tokens, "
    "cost, dialect, source_agent, parent_session, archived, indexed_bytes = file_size, leaf_id FROM sessions "
    "ORDER BY rowid";

class SessionIndexTest : public SearchFixture {};

TEST_F(SessionIndexTest, RebuildIndexesEveryFileOldestFirstWithExactRows) {
  put("/src/b", "bbbb000000000002", session_b(), kDay + 2000);
  put("/src/a", "aaaa000000000001", session_a(), kDay + 1000);
  auto x = open_index();
  auto r = x->rebuild();
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(report_json(*r),
            "{\"files\":2,\"unchanged\":0,\"appended\":0,\"reindexed\":0,\"added\":2,\"removed\":0,\"unreadable\":0,"
            "\"raced\":0,\"entries\":10}");
  EXPECT_EQ(
      rows(kSessions),
      "1|aaaa000000000001|/src/a|Parser work|fix the tokenizer crash|1767225600000|1767225605000|5|3|100|20|0.5|"
      "omp|-|-|0|1|a5\n"
      "2|bbbb000000000002|/src/b|-|make the parser faster|1767225600000|1767225605000|5|4|0|0|0.0|omp|-|-|0|1|b5\n");
  EXPECT_EQ(rows(kEntries),
            "aaaa000000000001|a1|-|user|message|1000|1|fix the tokenizer crash\n"
            "aaaa000000000001|a2|a1|assistant|message|2000|1|Reading the tokenizer. read {\"path\":\"tok.c\"}\n"
            "aaaa000000000001|a3|a2|tool|message|3000|1|read int next(void);\n"
            "aaaa000000000001|a4|a3|-|model_change|4000|1|\n"
            "aaaa000000000001|a5|a4|label|label|5000|1|diagnosis\n"
            "bbbb000000000002|b1|-|user|message|1000|1|<command-name>/init</command-name>\n"
            "bbbb000000000002|b2|b1|user|message|2000|0|make the parser faster\n"
            "bbbb000000000002|b3|b2|assistant|message|3000|0|profiling the parser\n"
            "bbbb000000000002|b4|b1|summary|branch_summary|4000|1|abandoned the lexer rewrite\n"
            "bbbb000000000002|b5|b4|user|message|5000|1|try the lexer cache\n");
  // The FTS index holds the rows with text only.
  EXPECT_EQ(rows("SELECT count(*) FROM entries_fts"), "10\n");
  EXPECT_EQ(rows("SELECT count(*) FROM entries_fts WHERE entries_fts MATCH 'lexer'"), "2\n");
}

TEST_F(SessionIndexTest, ArchivesAreIndexedAndMarked) {
  std::string live = put("/src/a", "aaaa000000000001", session_a(), kDay);
  auto gz = storage::gzip_compress(session_a(), 1);
  ASSERT_TRUE(gz.ok());
  test::put_file(*fs_, live + ".gz", gz->view());
  // An archive beside its live original is the leftover of an archiving run: the live file counts.
  auto x = open_index();
  ASSERT_TRUE(x->rebuild().ok());
  EXPECT_EQ(rows("SELECT archived, entries FROM sessions"), "0|5\n");
  fs_->unlink(live);
  EXPECT_EQ(refresh(*x).removed, 1u);
  EXPECT_EQ(rows("SELECT archived, entries, substr(path, -9) FROM sessions"), "1|5|.jsonl.gz\n");
}

// A file system that records every read of session files: what refresh reads of them.
class CountingFs : public storage::Fs {
 public:
  explicit CountingFs(std::shared_ptr<storage::Fs> base) : base_(std::move(base)) {}
  std::string reads() {
    std::lock_guard<std::mutex> lock(mu_);
    std::string out;
    out.swap(reads_);
    return out;
  }
  Status read_file(const std::string& path, uint64_t max_bytes, storage::PaddedBuffer* out,
                   storage::FileInfo* info) override {
    note("file " + storage::base_name(path));
    return base_->read_file(path, max_bytes, out, info);
  }
  Status read_range(const std::string& path, uint64_t offset, uint64_t max, storage::PaddedBuffer* out,
                    storage::FileInfo* info) override {
    note("range " + storage::base_name(path) + " " + std::to_string(offset) + "+" + std::to_string(max));
    return base_->read_range(path, offset, max, out, info);
  }
  Result<std::unique_ptr<storage::WritableFile>> open_append(const std::string& p) override {
    return base_->open_append(p);
  }
  Result<std::unique_ptr<storage::WritableFile>> create_new(const std::string& p) override {
    return base_->create_new(p);
  }
  Status rename(const std::string& a, const std::string& b) override { return base_->rename(a, b); }
  Status rename_noreplace(const std::string& a, const std::string& b) override { return base_->rename_noreplace(a, b); }
  Status unlink(const std::string& p) override { return base_->unlink(p); }
  Status make_dirs(const std::string& p) override { return base_->make_dirs(p); }
  Status sync_dir(const std::string& p) override { return base_->sync_dir(p); }
  Result<storage::FileInfo> stat(const std::string& p) override { return base_->stat(p); }
  Status touch(const std::string& p) override { return base_->touch(p); }
  Result<std::vector<std::string>> list_dir(const std::string& p) override { return base_->list_dir(p); }
  Result<std::unique_ptr<storage::FileLock>> try_lock(const std::string& p) override { return base_->try_lock(p); }
  Result<std::unique_ptr<storage::FileLock>> lock(const std::string& p, std::chrono::milliseconds t) override {
    return base_->lock(p, t);
  }

 private:
  void note(const std::string& what) {
    if (what.find(".jsonl") == std::string::npos) return;
    std::lock_guard<std::mutex> lock(mu_);
    reads_ += what + "\n";
  }
  std::shared_ptr<storage::Fs> base_;
  std::mutex mu_;
  std::string reads_;
};

class CountingIndexTest : public SearchFixture {
 protected:
  void SetUp() override {
    counting_ = std::make_shared<CountingFs>(storage::make_posix_fs());
    options_.fs = counting_;
    SearchFixture::SetUp();
  }
  std::shared_ptr<CountingFs> counting_;
};

TEST_F(CountingIndexTest, AnAppendByAnotherWriterIsReadFromTheLastIndexedByte) {
  std::string a = session_a();
  std::string path = put("/src/a", "aaaa000000000001", a, kDay);
  put("/src/b", "bbbb000000000002", session_b(), kDay);
  auto x = open_index();
  ASSERT_TRUE(x->rebuild().ok());
  counting_->reads();
  RefreshReport r = refresh(*x);
  EXPECT_EQ(report_json(r),
            "{\"files\":2,\"unchanged\":2,\"appended\":0,\"reindexed\":0,\"added\":0,\"removed\":0,\"unreadable\":0,"
            "\"raced\":0,\"entries\":0}");
  EXPECT_EQ(counting_->reads(), "");  // unchanged files are not read at all

  // Another writer appends a whole line and half of the next one.
  std::string more = msg("a6", "a5", 6, "user", "\"now the lexer\"");
  std::string half = "{\"type\":\"message\",\"id\":\"a7\"";
  test::append_file(*fs_, path, more + half);
  r = refresh(*x);
  EXPECT_EQ(r.appended, 1u);
  EXPECT_EQ(r.entries, 1u);
  std::string name = storage::base_name(path);
  EXPECT_EQ(counting_->reads(),
            "range " + name + " " + std::to_string(a.size()) + "+" + std::to_string(more.size() + half.size()) + "\n");
  EXPECT_EQ(rows("SELECT entries, messages, leaf_id, indexed_bytes, file_size FROM sessions WHERE id = "
                 "'aaaa000000000001'"),
            "6|4|a6|" + std::to_string(a.size() + more.size()) + "|" +
                std::to_string(a.size() + more.size() + half.size()) + "\n");

  // The rest of the line: read from where the whole lines ended.
  std::string rest = msg("a7", "a6", 7, "user", "\"and the cache\"").substr(half.size());
  test::append_file(*fs_, path, rest);
  r = refresh(*x);
  EXPECT_EQ(r.appended, 1u);
  EXPECT_EQ(counting_->reads(), "range " + name + " " + std::to_string(a.size() + more.size()) + "+" +
                                    std::to_string(half.size() + rest.size()) + "\n");
  EXPECT_EQ(rows("SELECT entry_id, on_path, text FROM entries WHERE entry_id IN ('a6', 'a7') ORDER BY rowid"),
            "a6|1|now the lexer\na7|1|and the cache\n");
}

// While an index is open, the store's listings take each unchanged file's summary from it and read
// only the files that changed since they were indexed; the result is the file scan's, byte for byte.
TEST_F(CountingIndexTest, ListingsReadOnlyTheFilesChangedSinceTheyWereIndexed) {
  std::string a = put("/src/a", "aaaa000000000001", session_a(), kDay + 1000);
  std::string b = put("/src/b", "bbbb000000000002", session_b(), kDay + 2000);
  test::put_file(*fs_, a + ".corrupt-2026-01-01T00-00-00-000Z", "{");
  discovery::Finder scan(fs_, root_);  // no summary source: reads every file
  discovery::ListQuery all, in_a, newest;
  in_a.cwd = "/src/a";
  newest.limit = 1;
  auto same_as_scan = [&](const discovery::ListQuery& q) {
    auto listed = store_->list(q);
    auto scanned = scan.list(q);
    ASSERT_TRUE(listed.ok() && scanned.ok());
    EXPECT_EQ(discovery::summaries_json(*listed), discovery::summaries_json(*scanned));
  };
  auto x = open_index();
  ASSERT_TRUE(x->rebuild().ok());
  counting_->reads();
  for (const auto& q : {all, in_a, newest}) same_as_scan(q);
  EXPECT_EQ(counting_->reads(), "");
  EXPECT_EQ(scan.list(all)->front().corrupt_copies, 0u);  // b is newest
  EXPECT_EQ(scan.list(in_a)->front().corrupt_copies, 1u);

  // Another writer appends to a, and b is only touched: both are read again, nothing else.
  test::append_file(*fs_, a, msg("a6", "a5", 6, "user", "\"more\""));
  ASSERT_TRUE(test::set_mtime(a, kDay + 3000));
  ASSERT_TRUE(test::set_mtime(b, kDay + 2500));
  same_as_scan(all);
  EXPECT_EQ(counting_->reads(),
            "range " + storage::base_name(a) + " 0+4096\nrange " + storage::base_name(b) + " 0+4096\n");
  // A refresh brings them back into the index.
  refresh(*x);
  counting_->reads();
  same_as_scan(all);
  EXPECT_EQ(counting_->reads(), "");

  // Full listings count whole files: the index has no such summary.
  discovery::ListQuery full;
  full.full = true;
  same_as_scan(full);
  EXPECT_NE(counting_->reads(), "");
  // Once the index is closed, listings read every file again.
  x.reset();
  same_as_scan(all);
  EXPECT_EQ(counting_->reads(),
            "range " + storage::base_name(a) + " 0+4096\nrange " + storage::base_name(b) + " 0+4096\n");
}

// An index made by schema version 1 has no summaries: opening migrates it, and the next refresh
// reads the prefix of each unchanged file to keep one (not the whole file again).
TEST_F(CountingIndexTest, AVersion1IndexGetsItsSummariesAtTheNextRefresh) {
  std::string a = put("/src/a", "aaaa000000000001", session_a(), kDay + 1000);
  auto x = open_index();
  ASSERT_TRUE(x->rebuild().ok());
  x.reset();
  rows("ALTER TABLE sessions DROP COLUMN summary");
  rows("PRAGMA user_version = 1");
  x = open_index();
  EXPECT_EQ(rows("PRAGMA user_version"), "2\n");
  EXPECT_EQ(rows("SELECT count(*) FROM sessions WHERE summary IS NULL"), "1\n");
  counting_->reads();
  EXPECT_EQ(report_json(refresh(*x)),
            "{\"files\":1,\"unchanged\":1,\"appended\":0,\"reindexed\":0,\"added\":0,\"removed\":0,\"unreadable\":0,"
            "\"raced\":0,\"entries\":0}");
  EXPECT_EQ(counting_->reads(), "range " + storage::base_name(a) + " 0+4096\n");
  auto listed = store_->list({});
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(counting_->reads(), "");
  EXPECT_EQ(rows("SELECT summary FROM sessions"), discovery::summary_json(listed->front()) + "\n");
}

TEST_F(SessionIndexTest, ABranchInTheTailMovesTheCurrentPath) {
  std::string path = put("/src/a", "aaaa000000000001", session_a(), kDay);
  auto x = open_index();
  ASSERT_TRUE(x->rebuild().ok());
  // A new entry under a1: the leaf moves there, a2..a5 leave the current path.
  test::append_file(*fs_, path, msg("a6", "a1", 6, "user", "\"start over\""));
  EXPECT_EQ(refresh(*x).appended, 1u);
  EXPECT_EQ(rows("SELECT entry_id, on_path FROM entries ORDER BY rowid"), "a1|1\na2|0\na3|0\na4|0\na5|0\na6|1\n");
  EXPECT_EQ(rows("SELECT leaf_id FROM sessions"), "a6\n");
  // And back under a5.
  test::append_file(*fs_, path, msg("a7", "a5", 7, "user", "\"go on\""));
  EXPECT_EQ(refresh(*x).appended, 1u);
  EXPECT_EQ(rows("SELECT entry_id, on_path FROM entries ORDER BY rowid"), "a1|1\na2|1\na3|1\na4|1\na5|1\na6|0\na7|1\n");
}

TEST_F(SessionIndexTest, ARewriteIsReindexedWholeAndADeleteRemovesTheRows) {
  std::string path = put("/src/a", "aaaa000000000001", session_a(), kDay);
  std::string b = put("/src/b", "bbbb000000000002", session_b(), kDay);
  auto x = open_index();
  ASSERT_TRUE(x->rebuild().ok());
  // A rewrite (a migration or a compaction copy replaces the file): new inode, fewer entries.
  std::string shorter = header("aaaa000000000001", "/src/a", "Parser work") + msg("n1", "", 1, "user", "\"only this\"");
  test::put_file(*fs_, path, shorter);
  fs_->unlink(b);
  RefreshReport r = refresh(*x);
  EXPECT_EQ(report_json(r),
            "{\"files\":1,\"unchanged\":0,\"appended\":0,\"reindexed\":1,\"added\":0,\"removed\":1,\"unreadable\":0,"
            "\"raced\":0,\"entries\":1}");
  EXPECT_EQ(rows("SELECT s.id, e.entry_id, e.text FROM entries e JOIN sessions s ON s.rowid = e.session_rowid"),
            "aaaa000000000001|n1|only this\n");
  EXPECT_EQ(rows("SELECT count(*) FROM entries_fts WHERE entries_fts MATCH 'lexer OR tokenizer'"), "0\n");
  // A file that shrank in place is read whole too.
  test::write_file(path, header("aaaa000000000001", "/src/a"));
  r = refresh(*x);
  EXPECT_EQ(r.reindexed, 1u);
  EXPECT_EQ(rows("SELECT entries, title IS NULL FROM sessions"), "0|1\n");
}

TEST_F(SessionIndexTest, VerifyReportsEveryDifferenceAndChangesNothing) {
  std::string a = put("/src/a", "aaaa000000000001", session_a(), kDay);
  std::string b = put("/src/b", "bbbb000000000002", session_b(), kDay);
  auto x = open_index();
  ASSERT_TRUE(x->rebuild().ok());
  auto v = x->verify();
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(report_json(*v), "{\"ok\":true,\"files\":2,\"indexed\":2,\"missing\":[],\"extra\":[],\"stale\":[]}");
  test::append_file(*fs_, a, msg("a6", "a5", 6, "user", "\"more\""));
  fs_->unlink(b);
  std::string c = put("/src/c", "cccc000000000003", header("cccc000000000003", "/src/c"), kDay);
  v = x->verify();
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(report_json(*v), "{\"ok\":false,\"files\":2,\"indexed\":2,\"missing\":[\"" + c + "\"],\"extra\":[\"" + b +
                                 "\"],\"stale\":[\"" + a + "\"]}");
  v = x->verify();
  EXPECT_EQ(v->stale.size(), 1u);  // nothing was changed
  EXPECT_EQ(report_json(refresh(*x)),
            "{\"files\":2,\"unchanged\":0,\"appended\":1,\"reindexed\":0,\"added\":1,\"removed\":1,\"unreadable\":0,"
            "\"raced\":0,\"entries\":1}");
  EXPECT_TRUE(x->verify()->ok());
}

TEST_F(SessionIndexTest, AFileThatIsNoSessionIsNotIndexed) {
  put("/src/a", "aaaa000000000001", "not json\n", kDay);
  auto x = open_index();
  auto r = x->rebuild();
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->unreadable, 1u);
  EXPECT_EQ(rows("SELECT count(*) FROM sessions"), "0\n");
}

TEST_F(SessionIndexTest, ADamagedIndexIsRenamedAsideAndBuiltAgain) {
  put("/src/a", "aaaa000000000001", session_a(), kDay);
  test::put_file(*fs_, root_ + "/index.db", "this is not a database, but it is evidence\n");
  auto x = open_index();
  ASSERT_TRUE(x);
  const std::string& kept = x->damaged().preserved_path;
  std::string prefix = root_ + "/index.db.damaged-2";  // a UTC stamp follows: 2026...
  EXPECT_EQ(kept.compare(0, prefix.size(), prefix), 0) << kept;
  EXPECT_EQ(x->damaged().reason, "not a SQLite database (the file's first 16 bytes are not its header)");
  EXPECT_EQ(test::read_file(kept), "this is not a database, but it is evidence\n");
  EXPECT_EQ(refresh(*x).added, 1u);
  EXPECT_EQ(search(*x, "tokenizer", {}).substr(0, 32), "[{\"sessionId\":\"aaaa000000000001\"");
}

TEST_F(SessionIndexTest, TwoThreadsRefreshAndSearchAtOnce) {
  std::string path = put("/src/a", "aaaa000000000001", header("aaaa000000000001", "/src/a"), kDay);
  auto x = open_index();
  ASSERT_TRUE(x->rebuild().ok());
  std::atomic<bool> done{false};
  std::atomic<int> failures{0};
  std::thread searcher([&] {
    while (!done) {
      auto r = x->search_json("word*", {});
      if (!r.ok()) ++failures;
    }
  });
  std::string parent;
  for (int i = 0; i < 200; ++i) {
    std::string id = "e" + std::to_string(i);
    test::append_file(*fs_, path, msg(id, parent, i % 3600, "user", "\"word" + std::to_string(i) + "\""));
    parent = id;
    if (i % 10 == 9 && !x->refresh().ok()) ++failures;
  }
  done = true;
  searcher.join();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(rows("SELECT count(*), sum(on_path) FROM entries"), "200|200\n");
  EXPECT_EQ(search(*x, "word199").substr(0, 32), "[{\"sessionId\":\"aaaa000000000001\"");
}

}  // namespace
}  // namespace xs::search
