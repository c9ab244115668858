// util/time_zone: the TZif reader and POSIX rules give the offsets glibc's localtime_r gives with
// TZ set, hour by hour and at every change, for zones with DST in both hemispheres, half-hour DST,
// negative DST and none, from 1900 to 2100 (past 2037 from the files' footer rules).
// Single-threaded on purpose: localtime_r reads the process-wide TZ.
#include "util/time_zone.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>

namespace xs::util {
namespace {

const char kZoneDir[] = "/usr/share/zoneinfo";

std::string zone_bytes(const std::string& name) {
  std::ifstream in(std::string(kZoneDir) + "/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// What glibc says the offset is at `utc` with TZ=tz.
class Glibc {
 public:
  explicit Glibc(const std::string& tz) {
    const char* old = std::getenv("TZ");
    if (old) saved_ = old;
    had_ = old != nullptr;
    setenv("TZ", tz.c_str(), 1);
    tzset();
  }
  ~Glibc() {
    if (had_) {
      setenv("TZ", saved_.c_str(), 1);
    } else {
      unsetenv("TZ");
    }
    tzset();
  }
  static long offset(int64_t utc) {
    time_t t = static_cast<time_t>(utc);
    struct tm tm {};
    localtime_r(&t, &tm);
    return tm.tm_gmtoff;
  }

 private:
  std::string saved_;
  bool had_ = false;
};

int64_t utc(int64_t y, unsigned m, unsigned d, int h = 0, int min = 0) {
  return days_from_civil(y, m, d) * 86400 + h * 3600 + min * 60;
}

// Every 7 hours from `from` to `to`, and on both sides of every change the zone reports; how many
// changes it reported.
int expect_same_as_glibc(const TimeZone& z, const std::string& tz, int64_t from, int64_t to) {
  Glibc glibc(tz);
  int mismatches = 0;
  for (int64_t t = from; t < to && mismatches < 5; t += 7 * 3600) {
    if (z.offset_at(t) != Glibc::offset(t)) {
      ADD_FAILURE() << tz << " at " << t << ": ours " << z.offset_at(t) << ", glibc " << Glibc::offset(t);
      ++mismatches;
    }
  }
  int changes = 0;
  for (std::optional<int64_t> c = z.next_change_after(from); c && *c < to && mismatches < 5;
       c = z.next_change_after(*c)) {
    ++changes;
    EXPECT_NE(z.offset_at(*c - 1), z.offset_at(*c)) << tz << " reports a change at " << *c << " that changes nothing";
    for (int64_t t : {*c - 1, *c}) {
      if (z.offset_at(t) != Glibc::offset(t)) {
        ADD_FAILURE() << tz << " around the change at " << *c << ": ours " << z.offset_at(t) << ", glibc "
                      << Glibc::offset(t);
        ++mismatches;
      }
    }
  }
  return changes;
}

class ZoneFiles : public ::testing::TestWithParam<std::string> {};

TEST_P(ZoneFiles, AgreeWithGlibcFrom1900To2100) {
  std::string bytes = zone_bytes(GetParam());
  ASSERT_FALSE(bytes.empty()) << "tzdata is not installed (scripts/setup-deps)";
  auto z = TimeZone::tzif(bytes);
  ASSERT_TRUE(z.ok()) << z.status().message();
  int changes = expect_same_as_glibc(*z, GetParam(), utc(1900, 1, 1), utc(2100, 1, 1));
  if (GetParam() != "Etc/UTC") {
    EXPECT_GT(changes, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Zones, ZoneFiles,
                         ::testing::Values("America/New_York", "Asia/Shanghai", "Europe/London", "Europe/Dublin",
                                           "Australia/Sydney", "Australia/Lord_Howe", "America/Sao_Paulo",
                                           "Asia/Kolkata", "Pacific/Chatham", "America/Nuuk", "Africa/Casablanca",
                                           "Pacific/Apia", "Etc/UTC", "America/Santiago"),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           std::string n = param.param;
                           for (char& c : n) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return n;
                         });

TEST(PosixRules, AgreeWithGlibc) {
  for (const char* rule :
       {"EST5EDT,M3.2.0,M11.1.0", "CST-8", "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", "<-03>3<-02>,M3.5.0/-2,M10.5.0/-1",
        "IST-1GMT0,M10.5.0,M3.5.0/1", "AEST-10AEDT,M10.1.0,M4.1.0/3", "XXX3YYY,J60/2,J300/2", "XXX3YYY,59/2,299/2"}) {
    auto z = TimeZone::posix(rule);
    ASSERT_TRUE(z.ok()) << rule << ": " << z.status().message();
    expect_same_as_glibc(*z, rule, utc(1990, 1, 1), utc(2060, 1, 1));
  }
}

TEST(PosixRules, RefuseWhatIsNotOne) {
  for (const char* bad : {"", "E", "EST", "EST5EDT,M13.1.0,M11.1.0", "EST5EDT,M3.2.0", "EST5EDT,M3.6.0,M11.1.0",
                          "EST5EDT,J0,J100", "<+08", "EST99", "EST5EDT,M3.2.0,M11.1.0x"}) {
    EXPECT_EQ(TimeZone::posix(bad).status().code(), Code::kInvalid) << bad;
  }
}

TEST(TzifFiles, RefuseBytesThatAreNotOne) {
  std::string ny = zone_bytes("America/New_York");
  ASSERT_GT(ny.size(), 100u);
  for (std::string bad : {std::string(), std::string("TZif2"), std::string("not a zone file at all, really"),
                          ny.substr(0, 60), ny.substr(0, ny.size() / 2)}) {
    EXPECT_EQ(TimeZone::tzif(bad).status().code(), Code::kCorrupt) << bad.size();
  }
}

TEST(FixedOffsets, ParseAndRefuse) {
  EXPECT_EQ(TimeZone::fixed("+08:00")->offset_at(0), 8 * 3600);
  EXPECT_EQ(TimeZone::fixed("-05:30")->offset_at(0), -(5 * 3600 + 1800));
  EXPECT_EQ(TimeZone::fixed("+0545")->offset_at(0), 5 * 3600 + 45 * 60);
  EXPECT_EQ(TimeZone::fixed("-03")->offset_at(0), -3 * 3600);
  EXPECT_FALSE(TimeZone::fixed("+08:00")->next_change_after(0));
  for (const char* bad : {"", "08:00", "+8", "+08:0", "+08:60", "+19:00", "+08:00x", "+08-00", "UTC"}) {
    EXPECT_EQ(TimeZone::fixed(bad).status().code(), Code::kInvalid) << bad;
  }
}

TEST(LocalTimes, SkippedAndRepeatedWallClocks) {
  auto ny = TimeZone::tzif(zone_bytes("America/New_York"));
  ASSERT_TRUE(ny.ok());
  // 2026-03-08: 02:00 EST -> 03:00 EDT at 07:00Z. 02:00 and 02:30 never happen: the jump is first.
  EXPECT_EQ(ny->first_instant_at_or_after(utc(2026, 3, 8, 2)), utc(2026, 3, 8, 7));
  EXPECT_EQ(ny->first_instant_at_or_after(utc(2026, 3, 8, 2, 30)), utc(2026, 3, 8, 7));
  EXPECT_EQ(ny->first_instant_at_or_after(utc(2026, 3, 8, 3)), utc(2026, 3, 8, 7));
  EXPECT_EQ(ny->first_instant_at_or_after(utc(2026, 3, 8, 1)), utc(2026, 3, 8, 6));
  // 2026-11-01: 02:00 EDT -> 01:00 EST at 06:00Z. 01:00 happens twice: the first (EDT, 05:00Z).
  EXPECT_EQ(ny->first_instant_at_or_after(utc(2026, 11, 1, 1)), utc(2026, 11, 1, 5));
  EXPECT_EQ(ny->first_instant_at_or_after(utc(2026, 11, 1, 1, 30)), utc(2026, 11, 1, 5, 30));
  EXPECT_EQ(ny->first_instant_at_or_after(utc(2026, 11, 1, 2)), utc(2026, 11, 1, 7));
  auto shanghai = TimeZone::tzif(zone_bytes("Asia/Shanghai"));
  ASSERT_TRUE(shanghai.ok());
  EXPECT_EQ(shanghai->first_instant_at_or_after(utc(2026, 1, 15, 4)), utc(2026, 1, 14, 20));
}

TEST(Calendar, CivilDaysRoundTrip) {
  EXPECT_EQ(days_from_civil(1970, 1, 1), 0);
  EXPECT_EQ(days_from_civil(2000, 3, 1), 11017);
  EXPECT_EQ(days_from_civil(1969, 12, 31), -1);
  for (int64_t z = -800000; z < 800000; z += 997) {
    int64_t y;
    unsigned m, d;
    civil_from_days(z, &y, &m, &d);
    ASSERT_EQ(days_from_civil(y, m, d), z);
  }
}

}  // namespace
}  // namespace xs::util
