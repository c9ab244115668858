// When a session key's current session has expired (docs/reset-policies.md): a daily reset at hour
// H of a time zone's local time and/or an idle expiry after N minutes; with both, whichever comes
// first. Pure decisions over times the caller passes, so every rule is testable to the millisecond;
// only load_policy reads anything (the time zone database).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "storage/fs.h"
#include "util/status.h"
#include "util/time_zone.h"

namespace xs::store {

struct ResetPolicy {
  std::optional<int> daily_hour;        // 0-23: expired once the wall clock passed H:00 since
  std::string time_zone;                // of daily_hour; "" = the host's (docs/reset-policies.md#time-zones)
  std::optional<int64_t> idle_minutes;  // > 0: expired after this long without activity
};

// What session_for_key did: kept the key's session, or started one, and why.
enum class ResetReason { kContinued, kNew, kDaily, kIdle, kForced };
// "continued", "new", "daily", "idle", "forced".
std::string_view reset_reason_name(ResetReason r);

// A policy whose time zone has been read.
struct LoadedPolicy {
  ResetPolicy policy;
  util::TimeZone zone;
};

// kInvalid for an hour outside 0-23, idle minutes <= 0 (or over a century), or a zone that is not
// one; kNotFound when the zone database is missing. `fs` reads the database (the real disk's,
// also for a store in memory).
Result<LoadedPolicy> load_policy(storage::Fs& fs, const ResetPolicy& policy);

// A time zone by name: "UTC", a fixed offset ("+08:00"), an IANA name ("Asia/Shanghai") read from
// $TZDIR or /usr/share/zoneinfo, or "" for the host's ($TZ, else /etc/localtime, else UTC).
Result<util::TimeZone> load_time_zone(storage::Fs& fs, std::string_view name);

// The latest instant at or before now_ms at which the zone's wall clock read hour:00 (the first
// such instant of a day whose clocks go back; the jump itself when they skip it). Milliseconds.
int64_t daily_boundary_at_or_before(const util::TimeZone& zone, int hour, int64_t now_ms);
// The first such instant after t_ms.
int64_t daily_boundary_after(const util::TimeZone& zone, int hour, int64_t t_ms);

// kContinued, kDaily or kIdle for a session last active at last_ms (nullopt: unknown, which any
// rule counts as expired), asked at now_ms. Expired by the daily rule: last activity before the
// latest boundary at or before now; by the idle rule: last activity before now - idle. When both
// have expired, the one that expired first names the reason (a tie: daily).
ResetReason expiry(const LoadedPolicy& p, std::optional<int64_t> last_ms, int64_t now_ms);

}  // namespace xs::store
