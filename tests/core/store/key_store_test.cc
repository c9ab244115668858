// store/key_store: the keyed session store's document (docs/keyed-store.md): records kept verbatim
// and in order, every write published whole, bad input refused with the document untouched, and a
// damaged document moved aside instead of written over.
#include "store/key_store.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <optional>
#include <string>
#include <vector>

#include "storage/faulty_fs.h"
#include "test_util.h"

namespace xs::store {
namespace {

class KeyStoreTest : public ::testing::Test {
 protected:
  void SetUp() override { path_ = tmp_.path() + "/sessions.json"; }
  std::string doc() { return test::get_file(*fs_, path_); }
  bool exists(const std::string& p) { return fs_->stat(p).ok(); }

  test::TempDir tmp_;
  std::shared_ptr<storage::Fs> fs_ = storage::make_posix_fs();
  std::string path_;
  KeyStore store() { return KeyStore(fs_, path_); }
};

TEST_F(KeyStoreTest, PutGetListPatchRemove) {
  KeyStore k = store();
  EXPECT_EQ(k.get("agent:main:main").status().code(), Code::kNotFound);  // no document yet
  ASSERT_OK(k.put("agent:main:main", R"({ "sessionId": "s1", "updatedAt": 1.0e3, "x": {"keep": "\u00e9"} })"));
  ASSERT_OK(k.put("cron:nightly", R"({"sessionId":"s2"})"));
  EXPECT_EQ(doc(),
            "{\n  \"agent:main:main\": {\n    \"sessionId\": \"s1\",\n    \"updatedAt\": 1.0e3,\n"
            "    \"x\": {\n      \"keep\": \"\\u00e9\"\n    }\n  },\n  \"cron:nightly\": {\n"
            "    \"sessionId\": \"s2\"\n  }\n}\n");
  EXPECT_EQ(*k.get("agent:main:main"), R"({"sessionId":"s1","updatedAt":1.0e3,"x":{"keep":"\u00e9"}})");
  ASSERT_OK(k.patch("agent:main:main", R"({"updatedAt":2000,"title":"T","x":{"more":1}})"));
  EXPECT_EQ(*k.get("agent:main:main"), R"({"sessionId":"s1","updatedAt":2000,"x":{"keep":"\u00e9","more":1},"title":"T"})");
  auto all = k.list("");
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].key, "agent:main:main");
  EXPECT_EQ((*all)[1].key, "cron:nightly");
  auto crons = k.list("cron:");
  ASSERT_TRUE(crons.ok());
  ASSERT_EQ(crons->size(), 1u);
  EXPECT_EQ((*crons)[0].record, R"({"sessionId":"s2"})");
  ASSERT_OK(k.remove("agent:main:main"));
  EXPECT_EQ(k.remove("agent:main:main").code(), Code::kNotFound);
  EXPECT_EQ(doc(), "{\n  \"cron:nightly\": {\n    \"sessionId\": \"s2\"\n  }\n}\n");
  ASSERT_OK(k.patch("hook:1", R"({"sessionId":"s3","gone":null})"));  // a patch starts a missing record
  EXPECT_EQ(*k.get("hook:1"), R"({"sessionId":"s3"})");
}

TEST_F(KeyStoreTest, AHostsDocumentKeepsItsOtherMembersAndOrder) {
  test::put_file(*fs_, path_, R"({"b":{"sessionId":"1","skillsSnapshot":{"prompt":"…"}},"version":2,"a":{"sessionId":"2"}})");
  KeyStore k = store();
  ASSERT_OK(k.patch("a", R"({"cost":0.5})"));
  EXPECT_EQ(doc(),
            "{\n  \"b\": {\n    \"sessionId\": \"1\",\n    \"skillsSnapshot\": {\n      \"prompt\": \"…\"\n    }\n"
            "  },\n  \"version\": 2,\n  \"a\": {\n    \"sessionId\": \"2\",\n    \"cost\": 0.5\n  }\n}\n");
}

// A host's document may spell a key with escapes and repeat a key: the key is the decoded text,
// and a repeated key has its last value at its first place, as JSON.parse reads it. The records
// point into the text read; a record patched, one added and one removed after many others grew
// the document leave every other record and key as they were.
TEST_F(KeyStoreTest, EscapedAndRepeatedKeysReadAsJsonParseReadsThem) {
  test::put_file(*fs_, path_,
                 "{\"agent:\\u00e9\\\"q\": {\"sessionId\": \"1\"}, \"b\": {\"sessionId\": \"2\"},\n"
                 " \"agent:\u00e9\\\"q\": {\"sessionId\": \"3\"}}");
  KeyStore k = store();
  EXPECT_EQ(*k.list_json(""),
            R"([{"key":"agent:é\"q","record":{"sessionId":"3"}},{"key":"b","record":{"sessionId":"2"}}])");
  EXPECT_EQ(*k.get("agent:é\"q"), R"({"sessionId":"3"})");
  for (int i = 0; i < 40; ++i) ASSERT_OK(k.put("k" + std::to_string(i), R"({"sessionId":"n"})"));
  ASSERT_OK(k.patch("b", R"({"n":1})"));
  ASSERT_OK(k.remove("k0"));
  auto all = k.list("");
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 41u);
  EXPECT_EQ((*all)[0].key, "agent:é\"q");
  EXPECT_EQ((*all)[0].record, R"({"sessionId":"3"})");
  EXPECT_EQ((*all)[1].record, R"({"sessionId":"2","n":1})");
  EXPECT_EQ((*all)[2].key, "k1");
  // Written in the house layout, the key token kept as the host spelled it.
  std::string head = "{\n  \"agent:\\u00e9\\\"q\": {\n    \"sessionId\": \"3\"\n  },\n  \"b\": {\n    \"sessionId\": \"2\",\n";
  EXPECT_EQ(doc().substr(0, head.size()), head);
}

// Each KeyStore keeps the document it last read or wrote; a change by another writer (another
// handle, process or tool) must be seen, never written over from the kept copy.
TEST_F(KeyStoreTest, AnotherWritersChangeIsSeenByAStoreThatKeptTheDocument) {
  KeyStore a = store(), b = store();
  ASSERT_OK(a.put("a", R"({"sessionId":"1"})"));
  ASSERT_OK(b.put("b", R"({"sessionId":"2"})"));
  ASSERT_OK(a.patch("a", R"({"n":1})"));
  EXPECT_EQ(*a.get("b"), R"({"sessionId":"2"})");
  test::put_file(*fs_, path_, R"({"a":{"sessionId":"1","n":1},"c":{"sessionId":"3"}})");  // a foreign tool
  ASSERT_OK(a.patch("a", R"({"n":2})"));
  EXPECT_EQ(doc(), "{\n  \"a\": {\n    \"sessionId\": \"1\",\n    \"n\": 2\n  },\n  \"c\": {\n"
                   "    \"sessionId\": \"3\"\n  }\n}\n");
}

TEST_F(KeyStoreTest, NoChangeWritesNothing) {
  KeyStore k = store();
  ASSERT_OK(k.put("k", R"({"sessionId":"s"})"));
  auto before = fs_->stat(path_);
  ASSERT_TRUE(before.ok());
  ASSERT_OK(k.patch("k", R"({"sessionId":"s"})"));
  ASSERT_OK(k.put("k", R"({ "sessionId" : "s" })"));
  EXPECT_EQ(fs_->stat(path_)->ino, before->ino);  // not replaced
}

// Many keys, one lock and one rewrite: each key decided in order (a repeated key sees what the
// first made), a bad key, a failing function and a refused record left alone with their own
// statuses, the others written.
TEST_F(KeyStoreTest, UpdateManyDecidesEachKeyAndPublishesOnce) {
  auto counting = std::make_shared<storage::FaultyFs>(fs_);
  KeyStore k(counting, path_);
  ASSERT_OK(k.put("old", R"({"sessionId":"o"})"));
  uint64_t renames = counting->calls_of(storage::op_mask({storage::FsOp::kRename}));
  std::vector<std::string> keys = {"a", "bad/key", "fails", "refused", "a", "old"};
  std::vector<std::optional<std::string>> seen;
  std::vector<Status> results;
  ASSERT_OK(k.update_many(
      keys,
      [&](std::string_view key, std::optional<std::string_view> current) -> Result<std::optional<std::string>> {
        seen.push_back(current ? std::optional<std::string>(std::string(*current)) : std::nullopt);
        if (key == "fails") return Status::Invalid("no");
        if (key == "refused") return std::optional<std::string>(R"({"sessionId":7})");
        if (key == "old") return std::optional<std::string>();  // removed
        return std::optional<std::string>(current ? R"({"sessionId":"a2"})" : R"({"sessionId":"a1"})");
      },
      &results));
  ASSERT_EQ(results.size(), keys.size());
  EXPECT_TRUE(results[0].ok()) << results[0].message();
  EXPECT_EQ(results[1].code(), Code::kInvalid);  // not a key: its function is not called
  EXPECT_EQ(results[2].code(), Code::kInvalid);
  EXPECT_EQ(results[2].message(), "no");
  EXPECT_EQ(results[3].code(), Code::kInvalid);
  EXPECT_TRUE(results[4].ok()) << results[4].message();
  EXPECT_TRUE(results[5].ok()) << results[5].message();
  ASSERT_EQ(seen.size(), 5u);
  EXPECT_EQ(seen[0], std::nullopt);
  EXPECT_EQ(seen[3], std::optional<std::string>(R"({"sessionId":"a1"})"));  // the second "a"
  EXPECT_EQ(seen[4], std::optional<std::string>(R"({"sessionId":"o"})"));
  EXPECT_EQ(doc(), "{\n  \"a\": {\n    \"sessionId\": \"a2\"\n  }\n}\n");
  EXPECT_EQ(counting->calls_of(storage::op_mask({storage::FsOp::kRename})), renames + 1) << "one rewrite";

  // Nothing to change: nothing is written.
  ASSERT_OK(k.update_many(
      {"a"},
      [](std::string_view, std::optional<std::string_view> current) -> Result<std::optional<std::string>> {
        return std::optional<std::string>(std::string(*current));
      },
      &results));
  EXPECT_EQ(counting->calls_of(storage::op_mask({storage::FsOp::kRename})), renames + 1);
}

// A call that fails as a whole (here: its directory cannot be made) gives every key that status,
// so no caller counts a key as written.
TEST_F(KeyStoreTest, UpdateManyThatFailsGivesEveryKeyItsStatus) {
  test::put_file(*fs_, tmp_.path() + "/not-a-dir", "x");
  KeyStore k(fs_, tmp_.path() + "/not-a-dir/sessions.json");
  std::vector<Status> results;
  Status st = k.update_many(
      {"a", "b"},
      [](std::string_view, std::optional<std::string_view>) -> Result<std::optional<std::string>> {
        return std::optional<std::string>(R"({"sessionId":"s"})");
      },
      &results);
  ASSERT_FALSE(st.ok());
  ASSERT_EQ(results.size(), 2u);
  for (const Status& r : results) EXPECT_EQ(r.code(), st.code()) << r.message();
}

TEST_F(KeyStoreTest, BadInputIsRefusedAndTheDocumentIsUnchanged) {
  KeyStore k = store();
  ASSERT_OK(k.put("k", R"({"sessionId":"s"})"));
  std::string before = doc();
  for (std::string key : {std::string(), std::string("a/b"), std::string("a\\b"), std::string("tab\there"),
                          std::string("nul\0x", 5), std::string(257, 'k'), std::string("\xff")}) {
    EXPECT_EQ(k.put(key, R"({"sessionId":"s"})").code(), Code::kInvalid) << key;
  }
  for (const char* record : {"", "[1]", "{", R"({"sessionId":1})", R"({"updatedAt":"now","sessionId":"s"})",
                             R"({"inputTokens":true,"sessionId":"s"})", R"({"title":"no id"})", "{\"a\":\"\xff\"}"}) {
    EXPECT_EQ(k.put("k", record).code(), Code::kInvalid) << record;
  }
  EXPECT_EQ(k.patch("k", "[]").code(), Code::kInvalid);
  EXPECT_EQ(k.patch("k", R"({"sessionId":null})").code(), Code::kInvalid);  // a record keeps its id
  EXPECT_EQ(k.patch("k", R"({"cost":"free"})").code(), Code::kInvalid);
  std::string deep(300, '[');
  EXPECT_EQ(k.put("k", "{\"sessionId\":\"s\",\"d\":" + deep + "}").code(), Code::kLimit);
  EXPECT_EQ(doc(), before);
}

TEST_F(KeyStoreTest, UpdateRunsUnderTheLockAndMayCancel) {
  KeyStore k = store();
  ASSERT_OK(k.put("k", R"({"sessionId":"s","n":1})"));
  std::string seen;
  ASSERT_OK(k.update("k", [&](std::optional<std::string_view> cur) -> Result<std::optional<std::string>> {
    seen = std::string(cur.value_or("none"));
    // Another writer cannot get in while this runs.
    auto other = fs_->try_lock(path_ + ".lock");
    EXPECT_EQ(other.status().code(), Code::kLocked);
    return std::optional<std::string>(R"({"sessionId":"s","n":2})");
  }));
  EXPECT_EQ(seen, R"({"sessionId":"s","n":1})");
  std::string before = doc();
  Status cancelled = k.update("k", [](std::optional<std::string_view>) -> Result<std::optional<std::string>> {
    return Status(Code::kError, "changed my mind");
  });
  EXPECT_EQ(cancelled.code(), Code::kError);
  EXPECT_EQ(cancelled.message(), "changed my mind");
  EXPECT_EQ(doc(), before);
  ASSERT_OK(k.update("k", [](std::optional<std::string_view>) -> Result<std::optional<std::string>> {
    return std::optional<std::string>();  // remove
  }));
  EXPECT_EQ(doc(), "{}\n");
}

TEST_F(KeyStoreTest, ADamagedDocumentIsMovedAsideNeverWrittenOver) {
  const std::string damaged = "{\"k\":{\"sessionId\":\"s\"";  // truncated, as a write without a rename leaves it
  test::put_file(*fs_, path_, damaged);
  KeyStore k = store();
  EXPECT_EQ(k.get("k").status().code(), Code::kCorrupt);  // a reader only reports
  EXPECT_EQ(doc(), damaged);
  Status st = k.put("k", R"({"sessionId":"new"})");
  EXPECT_EQ(st.code(), Code::kCorrupt);
  EXPECT_NE(st.message().find(".corrupt-"), std::string::npos) << st.message();
  EXPECT_FALSE(exists(path_));
  std::vector<std::string> names = test::fs_list(*fs_, tmp_.path());
  std::string copy;
  for (const std::string& n : names) {
    if (n.rfind("sessions.json.corrupt-", 0) == 0) copy = n;
  }
  ASSERT_FALSE(copy.empty());
  EXPECT_EQ(test::get_file(*fs_, tmp_.path() + "/" + copy), damaged);
  ASSERT_OK(k.put("k", R"({"sessionId":"new"})"));  // the next write starts an empty document
  EXPECT_EQ(*k.get("k"), R"({"sessionId":"new"})");
  test::put_file(*fs_, path_, "[1,2]");  // JSON, but not an object
  EXPECT_EQ(k.patch("k", R"({"n":1})").code(), Code::kCorrupt);
}

TEST_F(KeyStoreTest, ALockFileThatIsADirectoryIsAClearError) {
  ASSERT_EQ(mkdir((path_ + ".lock").c_str(), 0700), 0);
  KeyStore k = store();
  Status st = k.put("k", R"({"sessionId":"s"})");
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("sessions.json.lock"), std::string::npos) << st.message();
  EXPECT_FALSE(exists(path_));
}

}  // namespace
}  // namespace xs::store
