// store/reset_policy: when a key's session has expired, to the millisecond (docs/reset-policies.md):
// daily at 04:00 in Asia/Shanghai, daily across both DST changes of America/New_York, idle after
// 60 minutes, both (whichever first), and the policies and zones that are refused.
#include "store/reset_policy.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "test_util.h"

namespace xs::store {
namespace {

int64_t utc_ms(int64_t y, unsigned m, unsigned d, int h = 0, int min = 0, int s = 0, int ms = 0) {
  return (util::days_from_civil(y, m, d) * 86400 + h * 3600 + min * 60 + s) * 1000 + ms;
}

LoadedPolicy loaded(std::optional<int> hour, std::string zone, std::optional<int64_t> idle) {
  auto fs = storage::make_posix_fs();
  auto p = load_policy(*fs, ResetPolicy{hour, std::move(zone), idle});
  EXPECT_TRUE(p.ok()) << p.status().message();
  return p.ok() ? *p : LoadedPolicy{};
}

TEST(ResetPolicy, DailyAtFourInShanghai) {
  LoadedPolicy p = loaded(4, "Asia/Shanghai", std::nullopt);
  // 04:00 in Shanghai (UTC+8) is 20:00Z the day before.
  const int64_t four = utc_ms(2026, 1, 14, 20);
  EXPECT_EQ(daily_boundary_at_or_before(p.zone, 4, four), four);
  EXPECT_EQ(daily_boundary_at_or_before(p.zone, 4, four - 1), four - 86400000);
  EXPECT_EQ(daily_boundary_after(p.zone, 4, four - 1), four);
  EXPECT_EQ(daily_boundary_after(p.zone, 4, four), four + 86400000);
  // Active at 03:59:59.999, asked at 04:00:00.000: a new day.
  EXPECT_EQ(expiry(p, four - 1, four), ResetReason::kDaily);
  // Active at 04:00 exactly (the boundary is not before it), asked a day minus 1 ms later: the same.
  EXPECT_EQ(expiry(p, four, four + 86400000 - 1), ResetReason::kContinued);
  EXPECT_EQ(expiry(p, four, four + 86400000), ResetReason::kDaily);
  // Active at 23:00, asked at 03:59 the next morning: still the same day's session.
  EXPECT_EQ(expiry(p, utc_ms(2026, 1, 14, 15), four - 60000), ResetReason::kContinued);
  EXPECT_EQ(expiry(p, std::nullopt, four), ResetReason::kDaily);  // no known activity
}

TEST(ResetPolicy, DailyAcrossNewYorksDaylightSavingChanges) {
  LoadedPolicy p = loaded(4, "America/New_York", std::nullopt);
  // 04:00 EST (UTC-5) on March 7 is 09:00Z; 04:00 EDT (UTC-4) on March 8 is 08:00Z: 23 hours apart.
  EXPECT_EQ(daily_boundary_at_or_before(p.zone, 4, utc_ms(2026, 3, 8, 7, 59, 59, 999)), utc_ms(2026, 3, 7, 9));
  EXPECT_EQ(daily_boundary_at_or_before(p.zone, 4, utc_ms(2026, 3, 8, 8)), utc_ms(2026, 3, 8, 8));
  EXPECT_EQ(expiry(p, utc_ms(2026, 3, 8, 7, 59), utc_ms(2026, 3, 8, 8)), ResetReason::kDaily);
  EXPECT_EQ(expiry(p, utc_ms(2026, 3, 7, 9), utc_ms(2026, 3, 8, 7, 59)), ResetReason::kContinued);
  // On November 1 clocks go back (02:00 EDT -> 01:00 EST): 04:00 EDT on Oct 31 is 08:00Z, 04:00 EST on
  // Nov 1 is 09:00Z, 25 hours apart.
  EXPECT_EQ(daily_boundary_at_or_before(p.zone, 4, utc_ms(2026, 11, 1, 8, 59)), utc_ms(2026, 10, 31, 8));
  EXPECT_EQ(daily_boundary_at_or_before(p.zone, 4, utc_ms(2026, 11, 1, 9)), utc_ms(2026, 11, 1, 9));
  // Hour 2 on the day 02:00 is skipped: the boundary is the jump (07:00Z); hour 1 on the day it repeats:
  // its first occurrence (05:00Z, EDT).
  EXPECT_EQ(daily_boundary_at_or_before(loaded(2, "America/New_York", {}).zone, 2, utc_ms(2026, 3, 8, 12)),
            utc_ms(2026, 3, 8, 7));
  EXPECT_EQ(daily_boundary_at_or_before(loaded(1, "America/New_York", {}).zone, 1, utc_ms(2026, 11, 1, 12)),
            utc_ms(2026, 11, 1, 5));
  // Past 2037 the file's footer rule decides: 04:00 EDT on 2040-03-11 (second Sunday) is 08:00Z.
  EXPECT_EQ(daily_boundary_at_or_before(p.zone, 4, utc_ms(2040, 3, 11, 12)), utc_ms(2040, 3, 11, 8));
}

TEST(ResetPolicy, FixedOffsetsAndUtc) {
  EXPECT_EQ(daily_boundary_at_or_before(loaded(4, "+08:00", {}).zone, 4, utc_ms(2026, 1, 14, 20)),
            utc_ms(2026, 1, 14, 20));
  EXPECT_EQ(daily_boundary_at_or_before(loaded(0, "UTC", {}).zone, 0, utc_ms(2026, 1, 14, 20)), utc_ms(2026, 1, 14));
  EXPECT_EQ(daily_boundary_at_or_before(loaded(23, "-05:30", {}).zone, 23, utc_ms(2026, 1, 15, 4, 30)),
            utc_ms(2026, 1, 15, 4, 30));
}

TEST(ResetPolicy, IdleAfterSixtyMinutes) {
  LoadedPolicy p = loaded(std::nullopt, "", 60);
  const int64_t last = utc_ms(2026, 5, 1, 12);
  EXPECT_EQ(expiry(p, last, last + 3600000), ResetReason::kContinued);  // exactly 60 minutes: not yet
  EXPECT_EQ(expiry(p, last, last + 3600001), ResetReason::kIdle);
  EXPECT_EQ(expiry(p, last + 5000, last), ResetReason::kContinued);  // activity "after" now (clock skew)
  EXPECT_EQ(expiry(p, std::nullopt, last), ResetReason::kIdle);
}

TEST(ResetPolicy, BothWhicheverComesFirst) {
  LoadedPolicy p = loaded(4, "Asia/Shanghai", 60);
  const int64_t four = utc_ms(2026, 1, 14, 20);
  // Last active 03:30: the day ends at 04:00 before the idle hour does (04:30).
  EXPECT_EQ(expiry(p, four - 1800000, four + 7200000), ResetReason::kDaily);
  // Last active 01:00: idle at 02:00, before the day ends.
  EXPECT_EQ(expiry(p, four - 3 * 3600000, four + 7200000), ResetReason::kIdle);
  // Only idle has expired yet (active 01:00, asked 03:00).
  EXPECT_EQ(expiry(p, four - 3 * 3600000, four - 3600000), ResetReason::kIdle);
  // Only daily (active 03:59, asked 04:01).
  EXPECT_EQ(expiry(p, four - 60000, four + 60000), ResetReason::kDaily);
  // Neither (active 04:10, asked 04:50).
  EXPECT_EQ(expiry(p, four + 600000, four + 3000000), ResetReason::kContinued);
  // Active 02:59:59.999: the idle rule's first stale instant is 04:00:00.000, the day's too; a tie: daily.
  EXPECT_EQ(expiry(p, four - 3600001, four + 3600000), ResetReason::kDaily);
  // Active 02:59:59.998: idle first (04:00:00.000 minus 1 ms).
  EXPECT_EQ(expiry(p, four - 3600002, four + 3600000), ResetReason::kIdle);
}

TEST(ResetPolicy, NoRuleNeverExpires) {
  LoadedPolicy p = loaded(std::nullopt, "", std::nullopt);
  EXPECT_EQ(expiry(p, 0, utc_ms(2100, 1, 1)), ResetReason::kContinued);
  EXPECT_EQ(expiry(p, std::nullopt, utc_ms(2100, 1, 1)), ResetReason::kContinued);
}

TEST(ResetPolicy, BadPoliciesAndZones) {
  auto fs = storage::make_posix_fs();
  auto code = [&](ResetPolicy p) { return load_policy(*fs, p).status().code(); };
  EXPECT_EQ(code({24, "UTC", {}}), Code::kInvalid);
  EXPECT_EQ(code({-1, "UTC", {}}), Code::kInvalid);
  EXPECT_EQ(code({{}, "", 0}), Code::kInvalid);
  EXPECT_EQ(code({{}, "", -5}), Code::kInvalid);
  EXPECT_EQ(code({{}, "Asia/Shanghai", 30}), Code::kInvalid);  // a zone without a daily hour
  EXPECT_EQ(code({4, "Mars/Olympus_Mons", {}}), Code::kInvalid);
  EXPECT_EQ(code({4, "../../etc/passwd", {}}), Code::kInvalid);
  EXPECT_EQ(code({4, "/etc/localtime", {}}), Code::kInvalid);
  EXPECT_EQ(code({4, "America", {}}), Code::kInvalid);   // a directory of the database
  EXPECT_EQ(code({4, "zone.tab", {}}), Code::kInvalid);  // a file of it that is not a zone
  EXPECT_EQ(code({4, "+25:00", {}}), Code::kInvalid);
  auto unknown = load_policy(*fs, {4, "Mars/Olympus_Mons", {}});
  EXPECT_NE(unknown.status().message().find("unknown time zone \"Mars/Olympus_Mons\""), std::string::npos)
      << unknown.status().message();
  EXPECT_EQ(reset_reason_name(ResetReason::kForced), "forced");
}

TEST(ResetPolicy, MissingDatabaseAndTheHostsZone) {
  // Single-threaded: TZDIR and TZ are process-wide.
  auto fs = storage::make_posix_fs();
  setenv("TZDIR", "/nonexistent/zoneinfo", 1);
  auto missing = load_policy(*fs, {4, "Asia/Shanghai", {}});
  unsetenv("TZDIR");
  EXPECT_EQ(missing.status().code(), Code::kNotFound);
  EXPECT_NE(missing.status().message().find("no time zone database at /nonexistent/zoneinfo"), std::string::npos);
  const char* old = std::getenv("TZ");
  std::string saved = old ? old : "";
  setenv("TZ", "Asia/Shanghai", 1);
  auto host = load_time_zone(*fs, "");
  setenv("TZ", "<+0330>-3:30", 1);
  auto rule = load_time_zone(*fs, "");
  old ? setenv("TZ", saved.c_str(), 1) : unsetenv("TZ");
  ASSERT_TRUE(host.ok());
  EXPECT_EQ(host->offset_at(utc_ms(2026, 1, 1) / 1000), 8 * 3600);
  ASSERT_TRUE(rule.ok());
  EXPECT_EQ(rule->offset_at(0), 3 * 3600 + 1800);
}

}  // namespace
}  // namespace xs::store
