// format/ids: entry and session ids (docs/format.md#ids).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "format/ids.h"

namespace xs::format {
namespace {

bool lower_hex(const std::string& s) {
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

const auto kNeverTaken = [](std::string_view) { return false; };

TEST(IdGenerator, EntryIdsAreEightLowercaseHex) {
  IdGenerator g(42);
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    std::string id = g.entry_id(kNeverTaken);
    ASSERT_EQ(id.size(), 8u) << id;
    ASSERT_TRUE(lower_hex(id)) << id;
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(IdGenerator, SessionIdsAreSixteenLowercaseHex) {
  IdGenerator g(7);
  std::string a = g.session_id(), b = g.session_id();
  EXPECT_EQ(a.size(), 16u);
  EXPECT_TRUE(lower_hex(a));
  EXPECT_TRUE(lower_hex(b));
  EXPECT_NE(a, b);
}

TEST(IdGenerator, SameSeedSameSequence) {
  IdGenerator a(123), b(123), c(124);
  for (int i = 0; i < 50; ++i) {
    std::string x = a.entry_id(kNeverTaken);
    EXPECT_EQ(x, b.entry_id(kNeverTaken));
    if (i == 0) {
      EXPECT_NE(x, c.entry_id(kNeverTaken));
    }
  }
  EXPECT_EQ(a.session_id(), b.session_id());
}

TEST(IdGenerator, SeedZeroIsRandom) {
  IdGenerator a(0), b(0);
  EXPECT_NE(a.session_id(), b.session_id());
}

TEST(IdGenerator, RetriesWhileTakenWithTheNextCandidate) {
  IdGenerator twin(99);
  std::string first = twin.entry_id(kNeverTaken);
  std::string second = twin.entry_id(kNeverTaken);
  IdGenerator g(99);
  int calls = 0;
  std::string id = g.entry_id([&](std::string_view c) {
    ++calls;
    return c == first;
  });
  EXPECT_EQ(id, second);
  EXPECT_EQ(calls, 2);
}

// Reference: 100 tries at 8 hex chars, then a longer id (omp: 16 hex).
TEST(IdGenerator, FallsBackToSixteenHexAfterOneHundredCollisions) {
  IdGenerator g(5);
  int eight = 0;
  std::string id = g.entry_id([&](std::string_view c) {
    if (c.size() == 8) {
      ++eight;
      return true;
    }
    return false;
  });
  EXPECT_EQ(eight, 100);
  EXPECT_EQ(id.size(), 16u);
  EXPECT_TRUE(lower_hex(id));
}

TEST(IsValidNewId, AllowsOnlyTheSafeAlphabetUpTo64Chars) {
  EXPECT_TRUE(is_valid_new_id("a"));
  EXPECT_TRUE(is_valid_new_id("Az09_-"));
  EXPECT_TRUE(is_valid_new_id("1f9d2a6b9c0d1234"));
  EXPECT_TRUE(is_valid_new_id("019424f8-7410-70f4-a995-bfaf6656e553"));
  EXPECT_TRUE(is_valid_new_id(std::string(64, 'x')));
  EXPECT_FALSE(is_valid_new_id(std::string(65, 'x')));
  EXPECT_FALSE(is_valid_new_id(""));
  for (std::string_view bad : {"a/b", "..", ".", "a b", "a.b", "caf\xc3\xa9", "a\\b", "a:b", "a\nb", "\"q\""}) {
    EXPECT_FALSE(is_valid_new_id(bad)) << bad;
  }
  EXPECT_FALSE(is_valid_new_id(std::string("a\0b", 3)));
  EXPECT_EQ(kMaxNewIdLength, 64u);
}

}  // namespace
}  // namespace xs::format
