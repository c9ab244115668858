// format/clock: toISOString, Date.parse for the ISO forms session files carry, injectable clock.
#include <gtest/gtest.h>

#include <chrono>

#include "format/clock.h"

namespace xs::format {
namespace {

constexpr int64_t kT0 = 1771237230000;  // 2026-02-16T10:20:30.000Z

TEST(IsoFromMs, WritesToIsoStringForm) {
  EXPECT_EQ(iso_from_ms(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(iso_from_ms(kT0), "2026-02-16T10:20:30.000Z");
  EXPECT_EQ(iso_from_ms(kT0 + 7), "2026-02-16T10:20:30.007Z");
  EXPECT_EQ(iso_from_ms(1735689600000), "2025-01-01T00:00:00.000Z");
  EXPECT_EQ(iso_from_ms(1709208000000), "2024-02-29T12:00:00.000Z");
  EXPECT_EQ(iso_from_ms(951782400000), "2000-02-29T00:00:00.000Z");
  EXPECT_EQ(iso_from_ms(1735689599999), "2024-12-31T23:59:59.999Z");
  EXPECT_EQ(iso_from_ms(253402300799999), "9999-12-31T23:59:59.999Z");
}

TEST(IsoFromMs, BeforeTheEpoch) {
  EXPECT_EQ(iso_from_ms(-1), "1969-12-31T23:59:59.999Z");
  EXPECT_EQ(iso_from_ms(-86400000), "1969-12-31T00:00:00.000Z");
  EXPECT_EQ(iso_from_ms(-62167219200000), "0000-01-01T00:00:00.000Z");
}

TEST(ParseIsoMs, ParsesWhatIsoFromMsWrites) {
  for (int64_t ms : {int64_t{0}, kT0, kT0 + 999, int64_t{1709208000000}, int64_t{-1}, int64_t{253402300799999}}) {
    auto parsed = parse_iso_ms(iso_from_ms(ms));
    ASSERT_TRUE(parsed.has_value()) << ms;
    EXPECT_EQ(*parsed, ms);
  }
}

TEST(ParseIsoMs, DateOnlyAndPartialTimes) {
  EXPECT_EQ(parse_iso_ms("2026-02-16"), 1771200000000);
  EXPECT_EQ(parse_iso_ms("2026-02-16T10:20Z"), 1771237200000);
  EXPECT_EQ(parse_iso_ms("2026-02-16T10:20:30Z"), kT0);
}

TEST(ParseIsoMs, FractionsKeepMillisecondsOnly) {
  EXPECT_EQ(parse_iso_ms("2026-02-16T10:20:30.5Z"), kT0 + 500);
  EXPECT_EQ(parse_iso_ms("2026-02-16T10:20:30.12Z"), kT0 + 120);
  EXPECT_EQ(parse_iso_ms("2026-02-16T10:20:30.123Z"), kT0 + 123);
  EXPECT_EQ(parse_iso_ms("2026-02-16T10:20:30.123999Z"), kT0 + 123);
}

TEST(ParseIsoMs, Offsets) {
  EXPECT_EQ(parse_iso_ms("2026-02-16T11:20:30.000+01:00"), kT0);
  EXPECT_EQ(parse_iso_ms("2026-02-16T04:50:30.000-05:30"), kT0);
  EXPECT_EQ(parse_iso_ms("2026-02-16T10:20:30.000+00:00"), kT0);
}

TEST(ParseIsoMs, MidnightAsHour24) {
  EXPECT_EQ(parse_iso_ms("2026-02-16T24:00:00.000Z"), 1771286400000);  // 2026-02-17T00:00Z
  EXPECT_FALSE(parse_iso_ms("2026-02-16T24:00:01Z").has_value());
}

TEST(ParseIsoMs, InvalidTextIsNullopt) {
  for (std::string_view s : {"", "garbage", "2026", "2026-02", "2026-13-01", "2026-00-10", "2026-02-30",
                             "2025-02-29", "2026-02-16T", "2026-02-16T25:00Z", "2026-02-16T10:60Z",
                             "2026-02-16T10:20:61Z", "2026-02-16T10:20:30.Z", "2026-02-16T10:20:30.000Zjunk",
                             "2026-02-16T10:20:30.000+1:00", "2026-02-16T10:20:30.000+24:00",
                             "2026-02-16x10:20:30Z", "  2026-02-16"}) {
    EXPECT_FALSE(parse_iso_ms(s).has_value()) << s;
  }
  EXPECT_TRUE(parse_iso_ms("2024-02-29").has_value());  // leap year
}

TEST(Clock, FixedClockSteps) {
  Clock c = Clock::Fixed(1000, 5);
  EXPECT_EQ(c.now_ms(), 1000);
  EXPECT_EQ(c.now_ms(), 1005);
  EXPECT_EQ(c.now_ms(), 1010);
  Clock still = Clock::Fixed(kT0, 0);
  EXPECT_EQ(still.now_ms(), kT0);
  EXPECT_EQ(still.now_ms(), kT0);
  // A copy continues independently from where the original was.
  Clock copy = c;
  EXPECT_EQ(copy.now_ms(), 1015);
  EXPECT_EQ(c.now_ms(), 1015);
}

TEST(Clock, RealClockFollowsSystemTime) {
  using namespace std::chrono;
  int64_t before = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
  int64_t now = Clock::Real().now_ms();
  int64_t after = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
  EXPECT_GE(now, before);
  EXPECT_LE(now, after);
}

}  // namespace
}  // namespace xs::format
