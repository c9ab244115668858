// Session: rewrites of the whole file (title, migration, the recovery of a file without a header)
// and what they keep byte for byte; a torn tail; our stale temp files.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "session_fixture.h"

namespace xs::session {
namespace {

using namespace fixture;

// --- rewrites: title, migration, recovery ------------------------------------------------------

TEST_P(SessionTest, SetTitleRewritesOnlyTheHeaderAtomically) {
  SessionOptions o = options(false);
  o.parent_session = "/p.jsonl";
  auto s = create(o);
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  std::string l0 = line("message", ids_[0], "", 1, "\"message\":" + kUser);
  uint64_t before = ino();
  uint64_t gen = s->generation();
  ASSERT_OK(s->set_title("First \"one\""));
  EXPECT_EQ(s->generation(), gen + 1);
  EXPECT_EQ(content(), header_line(R"(,"title":"First \"one\"","parentSession":"/p.jsonl")") + "\n" + l0 + "\n");
  EXPECT_NE(ino(), before);
  EXPECT_EQ(s->title(), "First \"one\"");
  ASSERT_OK(s->set_title("Second"));
  EXPECT_EQ(content(), header_line(R"(,"title":"Second","parentSession":"/p.jsonl")") + "\n" + l0 + "\n");
  ASSERT_OK(s->set_title(std::nullopt));
  EXPECT_EQ(content(), header_line(R"(,"parentSession":"/p.jsonl")") + "\n" + l0 + "\n");
  EXPECT_FALSE(s->title().has_value());
  EXPECT_EQ(s->set_title(std::string_view("\xff")).code(), Code::kInvalid);
  // Appends continue on the new file.
  ASSERT_OK(s->append_message(kAssistant, &id));
  EXPECT_EQ(content(), header_line(R"(,"parentSession":"/p.jsonl")") + "\n" + l0 + "\n" +
                           line("message", ids_[1], ids_[0], 2, "\"message\":" + kAssistant) + "\n");
  EXPECT_EQ(names(), (std::vector<std::string>{kFileName, kFileName + ".lock"}));
}

TEST_P(SessionTest, SkippedLinesSurviveARewriteByteForByte) {
  std::string l0 = line("message", "m1", "", 1, "\"message\":" + kUser);
  std::string bad = "{\"bad\": \"\xff\"}";
  std::string unknown = R"( { "type" : "omp_future" , "id" : "u1" , "parentId" : "m1" , "n" : 1.0e0 } )";
  put("garbage first\n" + header_line() + "\n" + l0 + "\n" + bad + "\n" + unknown + "\n[1,2]\n\n{\"torn");
  auto r = open(options());
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto& s = *r;
  ASSERT_OK(s->set_title("T"));
  EXPECT_EQ(content(), "garbage first\n" + header_line(R"(,"title":"T")") + "\n" + l0 + "\n" + bad + "\n" + unknown +
                           "\n[1,2]\n\n{\"torn\n");
  EXPECT_EQ(val(s->entry_json("u1")), unknown);
  std::string id;
  ASSERT_OK(s->append_custom("c", std::nullopt, &id));
  EXPECT_EQ(content(), "garbage first\n" + header_line(R"(,"title":"T")") + "\n" + l0 + "\n" + bad + "\n" + unknown +
                           "\n[1,2]\n\n{\"torn\n" + line("custom", ids_[0], "u1", 0, R"("customType":"c")") + "\n");
}

TEST_P(SessionTest, TornTailIsReportedAndTheNextAppendStartsOnAFreshLine) {
  std::string l0 = line("message", "m1", "", 1, "\"message\":" + kUser);
  std::string fragment = R"({"type":"message","id":"m2","parentId":"m1","time)";
  put(header_line() + "\n" + l0 + "\n" + fragment);
  auto r = open(options());
  ASSERT_TRUE(r.ok());
  auto& s = *r;
  std::string diags = s->diagnostics_json();
  EXPECT_NE(diags.find(R"("line":3,"offset":)" + std::to_string(header_line().size() + l0.size() + 2) + R"(,"length":)" +
                       std::to_string(fragment.size()) + R"(,"code":"incomplete_tail")"),
            std::string::npos)
      << diags;
  std::string id;
  ASSERT_OK(s->append_message(kAssistant, &id));
  ASSERT_OK(s->append_custom("x", std::nullopt, &id));
  std::string a = line("message", ids_[0], "m1", 0, "\"message\":" + kAssistant);
  std::string c = line("custom", ids_[1], ids_[0], 1, R"("customType":"x")");
  EXPECT_EQ(content(), header_line() + "\n" + l0 + "\n" + fragment + "\n" + a + "\n" + c + "\n");
  ASSERT_OK(s->close());
  // Reopened: the fragment is an ordinary bad line now, and both new entries load.
  auto again = open(read_only());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->entry_count(), 3u);
  EXPECT_EQ((*again)->leaf_id(), ids_[1]);
}

TEST_P(SessionTest, CompleteLastLineWithoutNewlineGetsOneBeforeTheNextAppend) {
  std::string l0 = line("message", "m1", "", 1, "\"message\":" + kUser);
  put(header_line() + "\n" + l0);
  auto r = open(options());
  ASSERT_TRUE(r.ok());
  std::string id;
  ASSERT_OK((*r)->append_custom("x", std::nullopt, &id));
  EXPECT_EQ(content(), header_line() + "\n" + l0 + "\n" + line("custom", ids_[0], "m1", 0, R"("customType":"x")") + "\n");
}

TEST_P(SessionTest, ReadOnlyOpenNeverRepairsATornTail) {
  std::string fragment = "{\"type\":\"mess";
  put(header_line() + "\n" + fragment);
  auto r = open(read_only());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(content(), header_line() + "\n" + fragment);
  EXPECT_NE((*r)->diagnostics_json().find("incomplete_tail"), std::string::npos);
}

// No silent data loss on a bad file (docs/decisions.md#1-no-silent-data-loss-on-a-bad-file).
TEST_P(SessionTest, HeaderlessFileIsPreservedThenReplacedOnWritableOpen) {
  const std::string original = R"({"type":"message","id":"x","message":{"role":"user"}})" "\nmore\n";
  put(original);
  // Read-only: an error, and nothing is touched.
  EXPECT_EQ(open(read_only()).status().code(), Code::kNoHeader);
  EXPECT_EQ(content(), original);
  EXPECT_EQ(names(), std::vector<std::string>{kFileName});
  // Writable: the bytes are kept beside it, then a fresh session takes the path.
  auto r = open(options());
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto& s = *r;
  std::string corrupt = path_ + ".corrupt-2026-02-16T10-20-30-000Z";
  EXPECT_EQ(content(corrupt), original);
  // The copy's stamp used the first clock tick; the fresh header the second.
  std::string fresh = R"({"type":"session","version":3,"id":"sess1","timestamp":")" + iso(1) + R"(","cwd":"/home/u/proj"})";
  EXPECT_EQ(content(), fresh + "\n");
  EXPECT_TRUE(s->persisted());
  EXPECT_EQ(s->entry_count(), 0u);
  std::string diags = s->diagnostics_json();
  EXPECT_NE(diags.find(R"("code":"corrupt_file_preserved")"), std::string::npos) << diags;
  EXPECT_NE(diags.find(corrupt), std::string::npos) << diags;
  EXPECT_EQ(names(), (std::vector<std::string>{kFileName, kFileName + ".corrupt-2026-02-16T10-20-30-000Z", kFileName + ".lock"}));
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  EXPECT_EQ(content(), fresh + "\n" + line("message", ids_[0], "", 2, "\"message\":" + kUser) + "\n");
  ASSERT_OK(s->close());
  // Reopening the recovered file keeps its id.
  auto again = open(read_only());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->header_info().id, "sess1");
}

TEST_P(SessionTest, SecondRecoveryWithTheSameStampGetsASuffix) {
  put("junk one\n");
  ASSERT_TRUE(open(options()).ok());
  put("junk two\n");
  ASSERT_TRUE(open(options()).ok());
  EXPECT_EQ(content(path_ + ".corrupt-2026-02-16T10-20-30-000Z"), "junk one\n");
  EXPECT_EQ(content(path_ + ".corrupt-2026-02-16T10-20-30-000Z-1"), "junk two\n");
}

TEST_P(SessionTest, EmptyFileGetsAFreshHeaderWithoutACopy) {
  put("");
  auto r = open(options());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(content(), header_line() + "\n");
  EXPECT_EQ(names(), (std::vector<std::string>{kFileName, kFileName + ".lock"}));
  EXPECT_EQ((*r)->diagnostics_json(), "[]");
}

const std::string kV1File =
    R"({"type":"session","id":"old","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w"})" "\n"
    R"({"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}})" "\n"
    "# not json\n"
    R"({"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"hookMessage","content":"h"}})" "\n";

std::string migrated_v1(const std::vector<std::string>& id) {
  return R"({"type":"session","id":"old","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w","version":3})" "\n"
         R"({"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"},"id":")" +
         id[0] + R"(","parentId":null})" "\n"
         "# not json\n"
         R"({"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"custom","content":"h"},"id":")" +
         id[1] + R"(","parentId":")" + id[0] + "\"}\n";
}

TEST_P(SessionTest, WritableOpenRewritesAMigratedFileAtOnce) {
  put(kV1File);
  uint64_t before = ino();
  auto r = open(options());
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(content(), migrated_v1(ids_));
  EXPECT_NE(ino(), before);
  EXPECT_EQ((*r)->header_info().version, 3);
  EXPECT_EQ(names(), (std::vector<std::string>{kFileName, kFileName + ".lock"}));
  std::string id;
  ASSERT_OK((*r)->append_custom("x", std::nullopt, &id));
  EXPECT_EQ(id, ids_[2]);
  EXPECT_EQ(content(), migrated_v1(ids_) + line("custom", ids_[2], ids_[1], 0, R"("customType":"x")") + "\n");
}

TEST_P(SessionTest, ReadOnlyOpenMigratesInMemoryOnly) {
  put(kV1File);
  auto r = open(read_only());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(content(), kV1File);
  std::string migrated = migrated_v1(ids_);
  EXPECT_EQ((*r)->header(), migrated.substr(0, migrated.find('\n')));
  EXPECT_EQ((*r)->entry_count(), 2u);
  EXPECT_EQ((*r)->leaf_id(), ids_[1]);
  auto ctx = (*r)->context(std::nullopt);
  ASSERT_TRUE(ctx.ok());
  EXPECT_EQ(*ctx, R"({"leafId":")" + ids_[1] +
                      R"(","messages":[{"role":"user","content":"hi"},{"role":"custom","content":"h"}],"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none"})");
}

TEST_P(SessionTest, MigratedV1CompactionKeepsItsRangeInTheContext) {
  put(R"({"type":"session","id":"old","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w"})" "\n"
      R"({"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"one"}})" "\n"
      R"({"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"user","content":"two"}})" "\n"
      R"({"type":"compaction","timestamp":"2025-01-01T00:00:03.000Z","summary":"S","firstKeptEntryIndex":2,"tokensBefore":9})" "\n"
      R"({"type":"message","timestamp":"2025-01-01T00:00:04.000Z","message":{"role":"user","content":"three"}})" "\n");
  auto r = open(read_only());
  ASSERT_TRUE(r.ok());
  auto ctx = (*r)->context(std::nullopt);
  ASSERT_TRUE(ctx.ok());
  EXPECT_EQ(*ctx, R"({"leafId":")" + ids_[3] +
                      R"(","messages":[{"role":"compactionSummary","summary":"S","tokensBefore":9,"timestamp":1735689603000},)"
                      R"({"role":"user","content":"two"},{"role":"user","content":"three"}],"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none"})");
}

// The agents test `version >= 3` in JavaScript, true for the string "3": no migration, no rewrite
// (docs/format.md#the-header).
TEST_P(SessionTest, StringVersionThreeIsNotMigrated) {
  std::string file = R"({"type":"session","version":"3","id":"sess1","timestamp":"t","cwd":"/"})" "\n" +
                     line("message", "m1", "", 1, "\"message\":" + kUser) + "\n" +
                     line("message", "m2", "m1", 2, "\"message\":" + kAssistant) + "\n" +
                     line("message", "m3", "m1", 3, "\"message\":" + kUser) + "\n";
  put(file);
  auto r = open(options());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(content(), file);
  auto branch = (*r)->path_json(std::string_view("m3"));
  ASSERT_TRUE(branch.ok());
  EXPECT_EQ(*branch,
            "[" + line("message", "m1", "", 1, "\"message\":" + kUser) + "," +
                line("message", "m3", "m1", 3, "\"message\":" + kUser) + "]");
}

TEST_P(SessionTest, CurrentFileIsNotRewrittenOnOpen) {
  std::string file = header_line() + "\n" + line("message", "m1", "", 1, "\"message\":" + kUser) + "\n";
  put(file);
  uint64_t before = ino();
  auto r = open(options());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ino(), before);
  EXPECT_EQ(content(), file);
}

// --- temp files ------------------------------------------------------------------------------------

TEST_P(SessionTest, OnlyAWritableOpenRemovesOurStaleTemps) {
  put(header_line() + "\n");
  for (std::string name : {"." + kFileName + ".xs-tmp-dead", "." + kFileName + ".1234567.tmp", std::string(".other.jsonl.xs-tmp-beef")}) {
    test::put_file(*base_, dir_ + "/" + name, "x");
  }
  ASSERT_TRUE(open(read_only()).ok());
  EXPECT_EQ(names().size(), 4u);
  ASSERT_TRUE(open(options()).ok());
  EXPECT_EQ(names(), (std::vector<std::string>{"." + kFileName + ".1234567.tmp", ".other.jsonl.xs-tmp-beef", kFileName,
                                               kFileName + ".lock"}));
}

}  // namespace
}  // namespace xs::session
