// model/migration: v1 -> v2 -> v3 exactly as the agents migrate (docs/format.md#migration), with our
// byte rules (keys keep their order, new keys at the end, untouched lines byte-identical).
#include <gtest/gtest.h>

#include <string>

#include "format/ids.h"
#include "model/loader.h"
#include "model/migration.h"
#include "test_util.h"

namespace xs::model {
namespace {

using test::joined_lines;

constexpr uint64_t kSeed = 7;

struct Migrated {
  std::unique_ptr<test::Loaded> loaded;
  Status status;
  bool changed = false;
};

Migrated migrate_bytes(std::string_view file, uint64_t seed = kSeed) {
  Migrated m;
  m.loaded = test::load(file);
  if (!m.loaded->status.ok()) {
    m.status = m.loaded->status;
    return m;
  }
  format::IdGenerator ids(seed);
  m.status = migrate(&m.loaded->data, ids, &m.changed);
  m.loaded->tree.build();
  return m;
}

std::string q(const std::string& s) { return "\"" + s + "\""; }

const std::string kV1Header = R"({"type":"session","id":"s1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w"})";

TEST(Migration, V1FileGetsIdsParentChainAndVersionExactly) {
  std::string file =
      kV1Header + "\n" +
      R"({"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}})" "\n"
      R"({"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"assistant","content":"yo"}})" "\n"
      "not json\n"
      R"({"type":"compaction","timestamp":"2025-01-01T00:00:03.000Z","summary":"s","firstKeptEntryIndex":2,"tokensBefore":10})" "\n"
      R"({"type":"message","timestamp":"2025-01-01T00:00:04.000Z","message":{"role":"hookMessage","customType":"x","content":"h","display":true}})" "\n";
  Migrated m = migrate_bytes(file);
  ASSERT_TRUE(m.status.ok()) << m.status.message();
  EXPECT_TRUE(m.changed);
  auto id = test::seeded_entry_ids(kSeed, 4);
  std::string expected =
      R"({"type":"session","id":"s1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w","version":3})" "\n"
      R"({"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"},"id":)" + q(id[0]) + R"(,"parentId":null})" "\n"
      R"({"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"assistant","content":"yo"},"id":)" + q(id[1]) + R"(,"parentId":)" + q(id[0]) + "}\n"
      "not json\n"
      // firstKeptEntryIndex counts the parsed values with the header as 0: index 2 is the second
      // message ("not json" does not parse, so it does not count).
      R"({"type":"compaction","timestamp":"2025-01-01T00:00:03.000Z","summary":"s","tokensBefore":10,"id":)" + q(id[2]) + R"(,"parentId":)" + q(id[1]) + R"(,"firstKeptEntryId":)" + q(id[1]) + "}\n"
      R"({"type":"message","timestamp":"2025-01-01T00:00:04.000Z","message":{"role":"custom","customType":"x","content":"h","display":true},"id":)" + q(id[3]) + R"(,"parentId":)" + q(id[2]) + "}\n";
  EXPECT_EQ(joined_lines(m.loaded->data), expected);
  const SessionData& d = m.loaded->data;
  EXPECT_EQ(d.header.version, 3);
  ASSERT_EQ(d.entries.size(), 4u);
  // The index follows the new bytes.
  EXPECT_EQ(d.entries[0].id, id[0]);
  EXPECT_FALSE(d.entries[0].has_parent_id);
  EXPECT_EQ(d.entries[1].parent_id, id[0]);
  EXPECT_EQ(d.entries[3].role, "custom");
  EXPECT_EQ(d.entries[3].message(), R"({"role":"custom","customType":"x","content":"h","display":true})");
  EXPECT_EQ(d.entries[2].type, format::EntryType::kCompaction);
  EXPECT_EQ(m.loaded->tree.leaf(), 3u);
  EXPECT_EQ(m.loaded->tree.path_to(3).size(), 4u);
}

std::string v1_with_compaction(const std::string& index_json, const std::string& extra_before = "") {
  return kV1Header + "\n" + extra_before +
         R"({"type":"message","timestamp":"t1","message":{"role":"user","content":"a"}})" "\n"
         R"({"type":"compaction","timestamp":"t2","summary":"s","firstKeptEntryIndex":)" + index_json +
         R"(,"tokensBefore":1})" "\n"
         R"({"type":"message","timestamp":"t3","message":{"role":"user","content":"b"}})" "\n";
}

std::string compaction_line(const Migrated& m) {
  for (const Entry& e : m.loaded->data.entries) {
    if (e.type == format::EntryType::kCompaction) return std::string(e.line);
  }
  return "<none>";
}

TEST(Migration, FirstKeptEntryIndexOnTheHeaderKeepsNothing) {
  Migrated m = migrate_bytes(v1_with_compaction("0"));
  ASSERT_TRUE(m.status.ok());
  auto id = test::seeded_entry_ids(kSeed, 3);
  EXPECT_EQ(compaction_line(m), R"({"type":"compaction","timestamp":"t2","summary":"s","tokensBefore":1,"id":)" +
                                    q(id[1]) + R"(,"parentId":)" + q(id[0]) + "}");
}

TEST(Migration, FirstKeptEntryIndexPointingAtAnEarlierEntry) {
  Migrated m = migrate_bytes(v1_with_compaction("1"));
  ASSERT_TRUE(m.status.ok());
  auto id = test::seeded_entry_ids(kSeed, 3);
  EXPECT_EQ(compaction_line(m), R"({"type":"compaction","timestamp":"t2","summary":"s","tokensBefore":1,"id":)" +
                                    q(id[1]) + R"(,"parentId":)" + q(id[0]) + R"(,"firstKeptEntryId":)" + q(id[0]) + "}");
}

TEST(Migration, FirstKeptEntryIndexPastTheEndOrNotEarlierKeepsNothing) {
  auto id = test::seeded_entry_ids(kSeed, 3);
  const std::string none = R"({"type":"compaction","timestamp":"t2","summary":"s","tokensBefore":1,"id":)" + q(id[1]) +
                           R"(,"parentId":)" + q(id[0]) + "}";
  for (std::string index : {"3", "99", "-1", "1.5"}) {  // 3: a later entry
    Migrated m = migrate_bytes(v1_with_compaction(index));
    ASSERT_TRUE(m.status.ok()) << index;
    EXPECT_EQ(compaction_line(m), none) << index;
  }
}

// Only a numeric index is converted (and removed); anything else is left as it is.
TEST(Migration, NonNumericFirstKeptEntryIndexIsLeftAlone) {
  Migrated m = migrate_bytes(v1_with_compaction("\"1\""));
  ASSERT_TRUE(m.status.ok());
  auto id = test::seeded_entry_ids(kSeed, 3);
  EXPECT_EQ(compaction_line(m),
            R"({"type":"compaction","timestamp":"t2","summary":"s","firstKeptEntryIndex":"1","tokensBefore":1,"id":)" +
                q(id[1]) + R"(,"parentId":)" + q(id[0]) + "}");
}

// Every value JSON.parse accepts is an element of the reference's array, objects or not; blank
// and unparseable lines are not.
TEST(Migration, FirstKeptEntryIndexCountsEveryParsedValue) {
  Migrated m = migrate_bytes(v1_with_compaction("2", "[1]\n\nbroken\n"));
  ASSERT_TRUE(m.status.ok());
  auto id = test::seeded_entry_ids(kSeed, 3);
  EXPECT_EQ(compaction_line(m), R"({"type":"compaction","timestamp":"t2","summary":"s","tokensBefore":1,"id":)" +
                                    q(id[1]) + R"(,"parentId":)" + q(id[0]) + R"(,"firstKeptEntryId":)" + q(id[0]) + "}");
  // The unparsed and non-entry lines are still there, byte for byte.
  EXPECT_EQ(m.loaded->data.lines[1].bytes, "[1]");
  EXPECT_EQ(m.loaded->data.lines[2].bytes, "");
  EXPECT_EQ(m.loaded->data.lines[3].bytes, "broken");
}

TEST(Migration, ExistingIdAndParentIdAreOverwrittenInPlace) {
  std::string file = kV1Header + "\n" +
                     R"({"type":"message","id":"old1","parentId":"zzz","timestamp":"t","message":{"role":"user"}})" "\n"
                     R"({"type":"message","parentId":"old1","timestamp":"t","message":{"role":"user"},"id":"old2"})" "\n";
  Migrated m = migrate_bytes(file);
  ASSERT_TRUE(m.status.ok());
  auto id = test::seeded_entry_ids(kSeed, 2);
  EXPECT_EQ(m.loaded->data.entries[0].line,
            R"({"type":"message","id":)" + q(id[0]) + R"(,"parentId":null,"timestamp":"t","message":{"role":"user"}})");
  EXPECT_EQ(m.loaded->data.entries[1].line, R"({"type":"message","parentId":)" + q(id[0]) +
                                                R"(,"timestamp":"t","message":{"role":"user"},"id":)" + q(id[1]) + "}");
}

TEST(Migration, ExplicitVersionOneIsReplacedInPlace) {
  std::string file = R"({"type":"session","version":1,"id":"s","timestamp":"t","cwd":"/"})" "\n";
  Migrated m = migrate_bytes(file);
  ASSERT_TRUE(m.status.ok());
  EXPECT_TRUE(m.changed);
  EXPECT_EQ(joined_lines(m.loaded->data), R"({"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"})" "\n");
}

TEST(Migration, V2FileOnlyRenamesHookMessagesAndBumpsTheVersion) {
  std::string m1 =
      R"({"type":"message","id":"m1","parentId":null,"timestamp":"t","message":{"customType":"x","role":"hookMessage","content":"h"}})";
  std::string m2 = R"({"type":"message","id":"m2","parentId":"m1","timestamp":"t","message":{"role":"user","content":"hookMessage"}})";
  std::string c = R"({"type":"custom","customType":"hookMessage","id":"c","parentId":"m2","timestamp":"t"})";
  std::string file = R"({"type":"session","version":2,"id":"s2","timestamp":"t","cwd":"/w"})" "\n" + m1 + "\n" + m2 +
                     "\n" + c + "\n";
  Migrated m = migrate_bytes(file);
  ASSERT_TRUE(m.status.ok());
  EXPECT_TRUE(m.changed);
  EXPECT_EQ(joined_lines(m.loaded->data),
            R"({"type":"session","version":3,"id":"s2","timestamp":"t","cwd":"/w"})" "\n"
            R"({"type":"message","id":"m1","parentId":null,"timestamp":"t","message":{"customType":"x","role":"custom","content":"h"}})" "\n" +
                m2 + "\n" + c + "\n");
  EXPECT_EQ(m.loaded->data.entries[0].role, "custom");
  EXPECT_EQ(m.loaded->data.entries[0].id, "m1");
}

TEST(Migration, V3FileIsUntouched) {
  std::string file = R"({"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"})" "\n"
                     R"({"type":"message","id":"m","parentId":null,"timestamp":"t","message":{"role":"hookMessage"}})" "\n"
                     "junk\n";
  Migrated m = migrate_bytes(file);
  ASSERT_TRUE(m.status.ok());
  EXPECT_FALSE(m.changed);
  EXPECT_EQ(joined_lines(m.loaded->data), file);
  EXPECT_EQ(m.loaded->data.entries[0].role, "hookMessage");
}

TEST(Migration, IsIdempotent) {
  std::string file = kV1Header + "\n" + R"({"type":"message","timestamp":"t","message":{"role":"hookMessage"}})" "\n";
  Migrated m = migrate_bytes(file);
  ASSERT_TRUE(m.status.ok());
  ASSERT_TRUE(m.changed);
  std::string once = joined_lines(m.loaded->data);
  format::IdGenerator ids(99);
  bool changed = true;
  ASSERT_TRUE(migrate(&m.loaded->data, ids, &changed).ok());
  EXPECT_FALSE(changed);
  EXPECT_EQ(joined_lines(m.loaded->data), once);
  // And loading the migrated bytes again finds nothing to do.
  Migrated again = migrate_bytes(once, 1234);
  ASSERT_TRUE(again.status.ok());
  EXPECT_FALSE(again.changed);
  EXPECT_EQ(joined_lines(again.loaded->data), once);
}

TEST(Migration, GarbageBeforeTheHeaderAndATornTailSurviveByteForByte) {
  std::string file = "garbage\n" + kV1Header + "\n" +
                     R"({"type":"message","timestamp":"t","message":{"role":"user"}})" "\n" + "{\"torn";
  Migrated m = migrate_bytes(file);
  ASSERT_TRUE(m.status.ok());
  auto id = test::seeded_entry_ids(kSeed, 1);
  const SessionData& d = m.loaded->data;
  ASSERT_EQ(d.lines.size(), 4u);
  EXPECT_EQ(d.lines[0].bytes, "garbage");
  EXPECT_EQ(d.lines[1].bytes,
            R"({"type":"session","id":"s1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w","version":3})");
  EXPECT_EQ(d.lines[2].bytes,
            R"({"type":"message","timestamp":"t","message":{"role":"user"},"id":)" + q(id[0]) + R"(,"parentId":null})");
  EXPECT_EQ(d.lines[3].bytes, "{\"torn");
}

TEST(Migration, LoneSurrogatesAndBigNumbersInMigratedLinesKeepTheirBytes) {
  std::string file = kV1Header + "\n" +
                     R"({"type":"message","timestamp":"t","message":{"role":"user","content":"\ud83d","n":18446744073709551616}})" "\n";
  Migrated m = migrate_bytes(file);
  ASSERT_TRUE(m.status.ok()) << m.status.message();
  auto id = test::seeded_entry_ids(kSeed, 1);
  EXPECT_EQ(m.loaded->data.entries[0].line,
            R"({"type":"message","timestamp":"t","message":{"role":"user","content":"\ud83d","n":18446744073709551616},"id":)" +
                q(id[0]) + R"(,"parentId":null})");
}

}  // namespace
}  // namespace xs::model
