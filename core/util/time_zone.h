// Local time in a time zone, for reset policies' "daily at hour H" (docs/reset-policies.md#time-zones).
//
// C++17 has no time zones, and localtime_r reads the process-wide TZ, which a library must not
// change. So this is a small reader of the zone database's compiled files (TZif, tzfile(5) /
// RFC 8536, versions 1-4) and of the POSIX TZ rule in their footer, which gives the offsets after
// the last listed transition (Debian's "slim" files list none after 2007). It parses bytes only:
// finding and reading the file is the caller's (store/reset_policy.cc, through the file-system seam).
//
// Times are seconds since the epoch (UTC); an offset is seconds east of UTC (+28800 for UTC+8).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace xs::util {

class TimeZone {
 public:
  // UTC: offset 0 always.
  TimeZone() = default;
  // A fixed offset: "+08:00", "-05:30", "+0800", "+08" (at most 18 hours); kInvalid otherwise.
  static Result<TimeZone> fixed(std::string_view text);
  // A POSIX TZ rule as tzset(3) reads it ("EST5EDT,M3.2.0,M11.1.0", "<+08>-8"); kInvalid otherwise.
  static Result<TimeZone> posix(std::string_view rule);
  // The bytes of a TZif file; kCorrupt for bytes that are not one.
  static Result<TimeZone> tzif(std::string_view bytes);

  // The offset in effect at `utc`.
  int32_t offset_at(int64_t utc) const;
  // The first instant after `utc` at which the offset changes; nullopt when it never does.
  std::optional<int64_t> next_change_after(int64_t utc) const;
  // The first instant at which the wall clock reads `local` or later (local = utc + offset):
  // `local` itself when it happens once; its first occurrence when clocks go back over it; the
  // moment the clocks jump when they skip it.
  int64_t first_instant_at_or_after(int64_t local) const;

 private:
  struct Change {
    int64_t at;
    int32_t offset;  // from `at` on
  };
  std::optional<int64_t> rule_change_after(int64_t utc) const;
  int32_t rule_offset_at(int64_t utc) const;

  int32_t initial_ = 0;          // before the first change (or always, without changes and rule)
  std::vector<Change> changes_;  // ascending, each a different offset from the one before
  // The POSIX rule (a TZif footer, or the whole zone) applies from rule_from_ on.
  bool has_rule_ = false;
  int64_t rule_from_ = INT64_MIN;
  int32_t std_offset_ = 0, dst_offset_ = 0;
  bool has_dst_ = false;
  struct When {
    char kind = 'M';  // 'J' (1-365, no Feb 29), 'D' (0-365), 'M' (month.week.day)
    int n = 0, month = 0, week = 0, day = 0;
    int32_t time = 7200;  // seconds after local midnight (may be negative or over 24 h)
  } start_, end_;
  static int64_t when_in_year(const When& w, int64_t year);  // local seconds since the epoch
  int64_t dst_start(int64_t year) const;                     // UTC
  int64_t dst_end(int64_t year) const;                       // UTC
};

// Calendar helpers (proleptic Gregorian, UTC): days since 1970-01-01 of a civil date, and back.
int64_t days_from_civil(int64_t y, unsigned m, unsigned d);
void civil_from_days(int64_t z, int64_t* y, unsigned* m, unsigned* d);
// Floor division, for times before the epoch.
inline int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

}  // namespace xs::util
