// model/arena: views stay valid and exact while the arena grows through its block sizes,
// including lines bigger than a block and the huge-page sized blocks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/arena.h"

namespace xs::model {
namespace {

TEST(Arena, KeepsEveryStoredCopyExactWhileGrowing) {
  Arena a;
  std::vector<std::pair<std::string, std::string_view>> kept;
  // ~12 MiB in pieces of many sizes: crosses the 64 KiB .. 4 MiB blocks and their doubling.
  size_t total = 0;
  for (size_t i = 0; total < (12u << 20); ++i) {
    size_t len = (i * 7919) % 70000 + (i % 50 == 0 ? 1200000 : 0);
    std::string s(len, static_cast<char>('a' + i % 26));
    if (!s.empty()) s.front() = '<', s.back() = '>';
    total += len;
    kept.emplace_back(s, a.store(s));
  }
  for (const auto& [want, view] : kept) ASSERT_EQ(view, want);
}

TEST(Arena, PaddingIsZeroBytesAfterTheCopy) {
  Arena a;
  std::string_view v = a.store("abc", 8);
  ASSERT_EQ(v, "abc");
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(v.data()[3 + i], '\0');
}

TEST(Arena, EmptyStringsGiveEmptyViews) {
  Arena a;
  EXPECT_TRUE(a.store("").empty());
  EXPECT_EQ(a.store("", 4).size(), 0u);
}

}  // namespace
}  // namespace xs::model
