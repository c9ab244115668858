#include "store/reset_policy.h"

#include <cstdlib>

#include "storage/path.h"

namespace xs::store {

namespace {

constexpr int64_t kDayMs = 86400 * 1000LL;
constexpr int64_t kMaxIdleMinutes = 100LL * 366 * 24 * 60;
constexpr uint64_t kMaxZoneFileBytes = 1 << 20;

// An IANA name as the database spells its files: letters, digits, '_', '-', '+', '.', '/' between
// parts; no empty, "." or ".." part, so a name never leaves the database's directory.
bool is_zone_name(std::string_view name) {
  if (name.empty() || name.size() > 255) return false;
  size_t part = 0;
  for (size_t i = 0; i <= name.size(); ++i) {
    if (i == name.size() || name[i] == '/') {
      std::string_view p = name.substr(part, i - part);
      if (p.empty() || p == "." || p == "..") return false;
      part = i + 1;
      continue;
    }
    char c = name[i];
    bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
              c == '+' || c == '.';
    if (!ok) return false;
  }
  return true;
}

std::string zone_dir() {
  const char* dir = std::getenv("TZDIR");
  return dir && *dir ? dir : "/usr/share/zoneinfo";
}

Result<util::TimeZone> read_zone_file(storage::Fs& fs, const std::string& path, std::string_view name) {
  storage::PaddedBuffer bytes;
  Status st = fs.read_file(path, kMaxZoneFileBytes, &bytes);
  if (!st.ok()) return st;
  auto zone = util::TimeZone::tzif(bytes.view());
  if (!zone.ok())
    return Status::Invalid("\"" + std::string(name) + "\" is not a time zone (" + path + ": " +
                           zone.status().message() + ")");
  return zone;
}

Result<util::TimeZone> named_zone(storage::Fs& fs, std::string_view name) {
  if (!is_zone_name(name)) return Status::Invalid("\"" + std::string(name) + "\" is not a time zone name");
  std::string dir = zone_dir();
  std::string path = storage::join_path(dir, name);
  auto info = fs.stat(path);
  if (!info.ok() || !info->is_regular) {
    auto db = fs.stat(dir);
    if (!db.ok() || !db->is_dir) {
      return Status::NotFound("no time zone database at " + dir + " to find \"" + std::string(name) +
                              "\" (install tzdata, or set TZDIR)");
    }
    return Status::Invalid("unknown time zone \"" + std::string(name) + "\" (no file " + path + ")");
  }
  return read_zone_file(fs, path, name);
}

// The host's zone as localtime_r finds it: $TZ (":name", a name, or a POSIX rule; "" is UTC),
// else /etc/localtime, else UTC.
Result<util::TimeZone> host_zone(storage::Fs& fs) {
  const char* tz = std::getenv("TZ");
  if (tz) {
    std::string_view v = tz;
    if (v.empty()) return util::TimeZone();
    if (v.front() == ':') v.remove_prefix(1);
    if (!v.empty() && v.front() == '/') return read_zone_file(fs, std::string(v), v);
    if (is_zone_name(v)) {
      auto named = named_zone(fs, v);
      if (named.ok()) return named;
    }
    auto rule = util::TimeZone::posix(v);
    if (rule.ok()) return rule;
    return Status::Invalid("TZ=\"" + std::string(tz) + "\" names no time zone");
  }
  auto local = read_zone_file(fs, "/etc/localtime", "/etc/localtime");
  if (local.status().code() == Code::kNotFound) return util::TimeZone();
  return local;
}

}  // namespace

std::string_view reset_reason_name(ResetReason r) {
  switch (r) {
    case ResetReason::kContinued: return "continued";
    case ResetReason::kNew: return "new";
    case ResetReason::kDaily: return "daily";
    case ResetReason::kIdle: return "idle";
    case ResetReason::kForced: return "forced";
  }
  return "continued";
}

Result<util::TimeZone> load_time_zone(storage::Fs& fs, std::string_view name) {
  if (name.empty()) return host_zone(fs);
  if (name == "UTC") return util::TimeZone();
  if (name.front() == '+' || name.front() == '-') return util::TimeZone::fixed(name);
  return named_zone(fs, name);
}

Result<LoadedPolicy> load_policy(storage::Fs& fs, const ResetPolicy& policy) {
  if (policy.daily_hour && (*policy.daily_hour < 0 || *policy.daily_hour > 23)) {
    return Status::Invalid("a daily reset hour is 0-23, not " + std::to_string(*policy.daily_hour));
  }
  if (policy.idle_minutes && (*policy.idle_minutes <= 0 || *policy.idle_minutes > kMaxIdleMinutes)) {
    return Status::Invalid("idle minutes must be positive (and under a century), not " +
                           std::to_string(*policy.idle_minutes));
  }
  LoadedPolicy loaded{policy, util::TimeZone()};
  if (!policy.daily_hour) {
    if (!policy.time_zone.empty()) return Status::Invalid("a time zone is only for a daily reset hour");
    return loaded;
  }
  auto zone = load_time_zone(fs, policy.time_zone);
  if (!zone.ok()) return zone.status();
  loaded.zone = std::move(*zone);
  return loaded;
}

int64_t daily_boundary_at_or_before(const util::TimeZone& zone, int hour, int64_t now_ms) {
  int64_t now_s = util::floor_div(now_ms, 1000);
  int64_t day = util::floor_div(now_s + zone.offset_at(now_s), 86400);
  int64_t boundary = zone.first_instant_at_or_after(day * 86400 + hour * 3600) * 1000;
  if (boundary > now_ms) boundary = zone.first_instant_at_or_after((day - 1) * 86400 + hour * 3600) * 1000;
  return boundary;
}

int64_t daily_boundary_after(const util::TimeZone& zone, int hour, int64_t t_ms) {
  int64_t t_s = util::floor_div(t_ms, 1000);
  int64_t day = util::floor_div(t_s + zone.offset_at(t_s), 86400);
  for (int64_t d = day - 1; d <= day + 2; ++d) {
    int64_t boundary = zone.first_instant_at_or_after(d * 86400 + hour * 3600) * 1000;
    if (boundary > t_ms) return boundary;
  }
  return t_ms + kDayMs;  // unreachable: a day's boundary is within 26 hours of its wall clock
}

ResetReason expiry(const LoadedPolicy& p, std::optional<int64_t> last_ms, int64_t now_ms) {
  const ResetPolicy& rule = p.policy;
  if (!rule.daily_hour && !rule.idle_minutes) return ResetReason::kContinued;
  if (!last_ms) return rule.daily_hour ? ResetReason::kDaily : ResetReason::kIdle;
  bool daily = rule.daily_hour && *last_ms < daily_boundary_at_or_before(p.zone, *rule.daily_hour, now_ms);
  int64_t idle_ms = rule.idle_minutes ? *rule.idle_minutes * 60000 : 0;
  bool idle = rule.idle_minutes && *last_ms < now_ms - idle_ms;
  if (daily && idle) {
    int64_t daily_at = daily_boundary_after(p.zone, *rule.daily_hour, *last_ms);
    return *last_ms + idle_ms + 1 < daily_at ? ResetReason::kIdle : ResetReason::kDaily;  // first stale instants
  }
  if (daily) return ResetReason::kDaily;
  if (idle) return ResetReason::kIdle;
  return ResetReason::kContinued;
}

}  // namespace xs::store
