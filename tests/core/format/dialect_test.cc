#include "format/dialect.h"

#include <gtest/gtest.h>

#include "format/ids.h"

namespace xs::format {
namespace {

TEST(Dialect, Names) {
  EXPECT_EQ(dialect_name(Dialect::kOmp), "omp");
  EXPECT_EQ(dialect_name(Dialect::kPi), "pi");
}

TEST(Dialect, OmpOnlyTypesAreTheFiveOmpWrites) {
  int n = 0;
  for (int t = 0; t <= static_cast<int>(EntryType::kMcpToolSelection); ++t) n += omp_only(static_cast<EntryType>(t));
  EXPECT_EQ(n, 5);
  EXPECT_TRUE(omp_only(EntryType::kTtsrInjection));
  EXPECT_FALSE(omp_only(EntryType::kSessionInfo));
}

TEST(Dialect, UuidShape) {
  EXPECT_TRUE(is_uuid_shaped("019424f8-7410-70f4-a995-bfaf6656e553"));
  EXPECT_TRUE(is_uuid_shaped("FFAE836B-9420-4060-AC13-7745215F90FF"));
  EXPECT_FALSE(is_uuid_shaped("019424f8-7410-70f4-a995-bfaf6656e55"));   // 35
  EXPECT_FALSE(is_uuid_shaped("019424f8_7410-70f4-a995-bfaf6656e553"));  // separator
  EXPECT_FALSE(is_uuid_shaped("019424f8-7410-70f4-a995-bfaf6656e55g"));  // not hex
  EXPECT_FALSE(is_uuid_shaped("0a1b2c3d4e5f6071"));
}

// The layout docs/dialects.md fixes (and tests/conformance/tools/casekit.py re-implements): the
// time, version 7, the top 12 bits of one draw, variant 0b10, the top 62 bits of the next.
TEST(Dialect, UuidV7FromASeededSequence) {
  IdGenerator a(7), b(7);
  std::string id = a.uuid_v7(0x0194a1b27410);
  ASSERT_TRUE(is_uuid_shaped(id)) << id;
  EXPECT_EQ(id.substr(0, 14), "0194a1b2-7410-");
  EXPECT_EQ(id[14], '7');
  EXPECT_NE(std::string("89ab").find(id[19]), std::string::npos) << id;
  EXPECT_EQ(b.uuid_v7(0x0194a1b27410), id);  // reproducible
  EXPECT_NE(a.uuid_v7(0x0194a1b27410), id);  // and the sequence moves on
}

}  // namespace
}  // namespace xs::format
