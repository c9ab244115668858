// A damaged gateway store imported (docs/import-hosts.md#bad-input): broken rows, a binary file,
// an index that is an array or has wrong field types, invalid UTF-8, a store lock held by another
// process. Each gives a report entry, never a crash, and the source stays byte for byte as it was.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "format/clock.h"
#include "gateway_test_util.h"
#include "import/gateway/importer.h"
#include "storage/faulty_fs.h"
#include "store/store.h"
#include "test_util.h"

namespace xs::import::gateway {
namespace {

const std::string kHeader =
    R"({"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"})";
std::string message(const std::string& id, const std::string& parent, const std::string& text) {
  return R"({"type":"message","id":")" + id + R"(","parentId":)" + (parent.empty() ? "null" : "\"" + parent + "\"") +
         R"(,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":")" + text +
         R"(","timestamp":1767225601000}})";
}

class GatewayBadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    fs_ = storage::make_posix_fs();
    dir_ = src_.path() + "/agents/main/sessions";
    auto s = store::Store::open(dst_.path());
    ASSERT_TRUE(s.ok());
    target_ = *s;
  }
  void put(const std::string& name, const std::string& bytes) { test::put_file(*fs_, dir_ + "/" + name, bytes); }
  ImportReport run(ImportOptions options = {}) {
    return testing::checked_import(src_.path(), [&] { return import_store(*fs_, src_.path(), *target_, options); });
  }
  static bool has_note(const ImportReport& r, const std::string& needle) { return testing::has_note(r, needle); }

  std::shared_ptr<storage::Fs> fs_;
  test::TempDir src_, dst_;
  std::string dir_;
  std::shared_ptr<store::Store> target_;
};

TEST_F(GatewayBadInput, ATruncatedRowIsSkippedAndItsChildStartsARoot) {
  std::string cut = message("a2", "a1", "two");
  put("s1.jsonl", kHeader + "\n" + message("a1", "", "one") + "\n" + cut.substr(0, cut.size() / 2) + "\n" +
                      message("a3", "a2", "three") + "\n");
  ImportReport r = run();
  ASSERT_EQ(r.sessions.size(), 1u);
  EXPECT_EQ(r.sessions[0].rows_read, 3u);
  EXPECT_EQ(r.sessions[0].imported, 2u);
  EXPECT_EQ(r.sessions[0].skipped, 1u);
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_EQ(r.skipped[0].file, dir_ + "/s1.jsonl");
  EXPECT_EQ(r.skipped[0].line, 3u);
  EXPECT_EQ(r.skipped[0].reason.rfind("not JSON: ", 0), 0u) << r.skipped[0].reason;
  EXPECT_TRUE(has_note(r, "line 4: parent a2 is not in this file"));
}

TEST_F(GatewayBadInput, ATornLastLineIsReadAgainByTheNextImport) {
  std::string last = message("a2", "a1", "two");
  put("s1.jsonl", kHeader + "\n" + message("a1", "", "one") + "\n" + last.substr(0, 20));
  ImportReport r = run();
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_EQ(r.skipped[0].line, 3u);
  EXPECT_NE(r.skipped[0].reason.find("still without its newline"), std::string::npos);
  put("s1.jsonl", kHeader + "\n" + message("a1", "", "one") + "\n" + last + "\n");
  ImportReport again = run();
  ASSERT_EQ(again.sessions.size(), 1u);
  EXPECT_EQ(again.sessions[0].already_imported, 1u);
  EXPECT_EQ(again.sessions[0].imported, 1u);
  EXPECT_TRUE(again.skipped.empty());
}

TEST_F(GatewayBadInput, ABinaryFileIsOneReportEntry) {
  put("s1.jsonl", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
  ImportReport r = run();
  ASSERT_EQ(r.sessions.size(), 1u);
  EXPECT_EQ(r.sessions[0].rows_read, 0u);
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_EQ(r.skipped[0].line, 0u);
  EXPECT_EQ(r.skipped[0].reason, dir_ + "/s1.jsonl: binary file (a NUL byte at offset 8)");
}

TEST_F(GatewayBadInput, InvalidUtf8MakesOnlyItsRowBad) {
  put("s1.jsonl", kHeader + "\n" + message("a1", "", "one") + "\n" + message("a2", "a1", "bad \xC3\x28 byte") + "\n" +
                      message("a3", "a1", "three") + "\n");
  ImportReport r = run();
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_EQ(r.skipped[0].line, 3u);
  EXPECT_EQ(r.sessions[0].imported, 2u);
}

TEST_F(GatewayBadInput, AnIndexThatIsAnArrayIsReportedAndTheTranscriptsStillImported) {
  put("sessions.json", R"([{"sessionId":"s1"}])");
  put("s1.jsonl", kHeader + "\n" + message("a1", "", "one") + "\n");
  ImportReport r = run();
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_EQ(r.skipped[0].file, dir_ + "/sessions.json");
  EXPECT_EQ(r.skipped[0].line, 0u);
  EXPECT_EQ(r.skipped[0].reason, "index is not a JSON object (sessionKey -> entry)");
  EXPECT_EQ(r.imported(), 1u);
  EXPECT_EQ(target_->keys().list("").value().size(), 0u);
}

TEST_F(GatewayBadInput, AnEmptyIndexIsReported) {
  put("sessions.json", "");
  ImportReport r = run();
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_EQ(r.skipped[0].line, 0u);
  EXPECT_EQ(r.skipped[0].reason.rfind("index is not JSON: ", 0), 0u) << r.skipped[0].reason;
}

TEST_F(GatewayBadInput, KeysWithWrongFieldTypesAreSkippedOneByOne) {
  put("sessions.json",
      "{\n  \"a\": {\"sessionId\": 5},\n  \"b\": {\"sessionId\": \"s1\", \"updatedAt\": \"yesterday\"},\n"
      "  \"c\": \"s1\",\n  \"d/e\": {\"sessionId\": \"s1\"},\n  \"f\": {\"sessionId\": \"s1\"}\n}\n");
  ImportReport r = run();
  const ImportedSession* index = testing::session_of(r, dir_ + "/sessions.json");
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(index->rows_read, 5u);
  EXPECT_EQ(index->imported, 1u);
  EXPECT_EQ(index->skipped, 4u);
  ASSERT_EQ(r.skipped.size(), 4u);
  EXPECT_EQ(r.skipped[0].line, 2u);
  EXPECT_EQ(r.skipped[0].reason, "a: entry has no string sessionId");
  EXPECT_EQ(r.skipped[1].line, 4u);
  EXPECT_EQ(r.skipped[1].reason, "c: entry is not a JSON object");
  EXPECT_EQ(r.skipped[2].line, 3u);
  EXPECT_EQ(r.skipped[2].reason.rfind("b: record refused: ", 0), 0u) << r.skipped[2].reason;
  EXPECT_EQ(r.skipped[3].line, 5u);
  EXPECT_EQ(r.skipped[3].reason.rfind("d/e: not a key of ours: ", 0), 0u) << r.skipped[3].reason;
  EXPECT_TRUE(target_->keys().get("f").ok());
}

// The gateway reads its index with JSON.parse: a key given three times has its last value, at
// the place the key first appears; the two earlier values are reported, one row each.
TEST_F(GatewayBadInput, AKeyGivenTwiceHasItsLastValueAtItsFirstPlace) {
  put("sessions.json",
      "{\n  \"k\": {\"sessionId\": \"old\"},\n  \"j\": {\"sessionId\": \"s1\"},\n"
      "  \"k\": {\"sessionId\": \"older\"},\n  \"k\": {\"sessionId\": \"s1\", \"title\": \"last\"}\n}\n");
  ImportReport r = run();
  const ImportedSession* index = testing::session_of(r, dir_ + "/sessions.json");
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(index->rows_read, 4u);
  EXPECT_EQ(index->imported, 2u);
  EXPECT_EQ(index->skipped, 2u);
  ASSERT_EQ(r.skipped.size(), 2u);
  EXPECT_EQ(r.skipped[0].line, 2u);
  EXPECT_EQ(r.skipped[0].reason, "k: superseded by the same key's later value (JSON.parse keeps the last)");
  EXPECT_EQ(r.skipped[1].line, 4u);
  auto keys = target_->keys().list("").value();
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].key, "k");  // the first place
  EXPECT_NE(keys[0].record.find("\"title\":\"last\""), std::string::npos) << keys[0].record;
  EXPECT_EQ(keys[1].key, "j");
}

// A key whose record has no sessionFile and a field the gateway left null: a re-import writes
// nothing and the null stays; a changed source sets its fields one by one, so the null still stays
// and a field our host added since is kept.
TEST_F(GatewayBadInput, NullsOfTheSourceSurviveReimports) {
  put("sessions.json", "{\"k\": {\"sessionId\": \"s1\", \"label\": null, \"title\": \"one\"}}\n");
  ImportReport first = run();
  const ImportedSession* index = testing::session_of(first, dir_ + "/sessions.json");
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(index->imported, 1u);
  std::string written = target_->keys().get("k").value();
  EXPECT_NE(written.find("\"label\":null"), std::string::npos) << written;
  ImportReport again = run();
  index = testing::session_of(again, dir_ + "/sessions.json");
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(index->imported, 0u);
  EXPECT_EQ(index->already_imported, 1u);
  EXPECT_EQ(target_->keys().get("k").value(), written);
  ASSERT_OK(target_->keys().patch("k", R"({"inputTokens":5})"));
  put("sessions.json", "{\"k\": {\"sessionId\": \"s1\", \"label\": null, \"title\": \"two\"}}\n");
  ImportReport changed = run();
  index = testing::session_of(changed, dir_ + "/sessions.json");
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(index->imported, 1u);
  std::string record = target_->keys().get("k").value();
  EXPECT_NE(record.find("\"label\":null"), std::string::npos) << record;
  EXPECT_NE(record.find("\"title\":\"two\""), std::string::npos) << record;
  EXPECT_NE(record.find("\"inputTokens\":5"), std::string::npos) << record;
}

TEST_F(GatewayBadInput, AKeyOfThisStoresOwnIsLeftAlone) {
  ASSERT_OK(target_->keys().put("f", R"({"sessionId":"mine"})"));
  put("sessions.json", R"({"f":{"sessionId":"s1","updatedAt":1}})");
  ImportReport r = run();
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_EQ(r.skipped[0].reason, "f: the key is this store's own (not from an import): left as it is");
  EXPECT_EQ(target_->keys().get("f").value(), R"({"sessionId":"mine"})");
}

TEST_F(GatewayBadInput, AHeldStoreLockIsWaitedForThenReported) {
  put("sessions.json", R"({"f":{"sessionId":"s1","updatedAt":1}})");
  put("sessions.json.lock", R"({"pid":1,"createdAt":")" + format::iso_from_ms(1'800'000'000'000) + "\"}");
  ImportOptions o;
  o.read.lock_wait = std::chrono::milliseconds(60);
  o.read.now_ms = 1'800'000'001'000;  // the lock is 1 s old: live
  auto start = std::chrono::steady_clock::now();
  ImportReport r = run(o);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(60));
  EXPECT_TRUE(has_note(r, "sessions.json.lock is held by another process (waited "));
  EXPECT_TRUE(has_note(r, "; read the published sessions.json (the gateway replaces it whole)"));
  EXPECT_EQ(r.imported(), 1u);  // the published document was read
}

TEST_F(GatewayBadInput, AStaleStoreLockIsNotWaitedFor) {
  put("sessions.json", R"({"f":{"sessionId":"s1","updatedAt":1}})");
  put("sessions.json.lock", R"({"pid":1,"createdAt":")" + format::iso_from_ms(1'800'000'000'000) + "\"}");
  ImportOptions o;
  o.read.lock_wait = std::chrono::seconds(30);
  o.read.now_ms = 1'800'000'045'000;
  auto start = std::chrono::steady_clock::now();
  ImportReport r = run(o);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_TRUE(has_note(r, "sessions.json.lock is stale (45 s old; its writer is gone)"));
}

TEST_F(GatewayBadInput, AStoreLockReleasedWhileWaitingIsNoted) {
  put("sessions.json", R"({"f":{"sessionId":"s1","updatedAt":1}})");
  put("sessions.json.lock", "{}");  // no createdAt: its mtime, now
  ImportOptions o;
  o.read.lock_wait = std::chrono::seconds(10);
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_OK(fs_->unlink(dir_ + "/sessions.json.lock"));
  });
  auto r = import_store(*fs_, src_.path(), *target_, o);
  writer.join();
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(has_note(*r, "sessions.json.lock was released after "));
}

// Every line of every corpus file cut in half (and each index cut in half): every row skipped with
// its line, nothing imported, nothing crashes.
TEST_F(GatewayBadInput, EveryCorpusFileWithEachLineTruncated) {
  const std::string corpus = std::string(XS_GATEWAY_CORPUS_DIR) + "/linux2010-state";
  auto listing = list(*fs_, corpus);
  ASSERT_TRUE(listing.ok());
  uint64_t lines = 0;
  for (const Agent& agent : listing->agents) {
    for (const Transcript& t : agent.transcripts) {
      std::string bytes = test::read_file(t.path), cut;
      for (size_t pos = 0; pos < bytes.size();) {
        size_t nl = bytes.find('\n', pos);
        size_t end = nl == std::string::npos ? bytes.size() : nl;
        cut += bytes.substr(pos, (end - pos) / 2) + "\n";
        ++lines;
        pos = end + 1;
      }
      put(agent.id + "-" + t.file, cut);
    }
    if (agent.has_index) {
      std::string index = test::read_file(agent.index_path);
      put("sessions.json", index.substr(0, index.size() / 2));
    }
  }
  ImportReport r = run();
  EXPECT_EQ(r.rows_read(), lines);
  EXPECT_EQ(r.skipped_rows(), lines);
  EXPECT_EQ(r.imported() + r.kept_as_custom(), 0u);
  EXPECT_EQ(r.skipped.size(), lines + 1);  // and the index, as a whole
}

// An index of a thousand keys is one update of our keyed store: one rewrite of sessions.json, not
// a thousand fsynced rewrites of a growing document.
TEST(GatewayKeys, AThousandKeyIndexIsOneRewrite) {
  test::TempDir src, dst;
  auto posix = storage::make_posix_fs();
  std::string index = "{";
  for (int i = 0; i < 1000; ++i) {
    index += (i ? ",\n" : "\n") + std::string("  \"agent:main:k") + std::to_string(i) + "\": {\"sessionId\": \"s" +
             std::to_string(i) + "\"}";
  }
  index += "\n}\n";
  test::put_file(*posix, src.path() + "/agents/main/sessions/sessions.json", index);
  auto counting = std::make_shared<storage::FaultyFs>(posix);
  store::StoreOptions o;
  o.fs = counting;
  auto target = store::Store::open(dst.path(), o);
  ASSERT_TRUE(target.ok());
  auto r = import_store(*posix, src.path(), **target);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->imported(), 1000u);
  EXPECT_EQ(counting->calls_of(storage::op_mask({storage::FsOp::kRename, storage::FsOp::kRenameNoReplace})), 1u);
  auto listed = (*target)->keys().list("agent:main:");
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(listed->size(), 1000u);
}

}  // namespace
}  // namespace xs::import::gateway
