#include "format/clock.h"

#include <chrono>
#include <cstdio>

namespace xs::format {

namespace {

// Howard Hinnant's days_from_civil / civil_from_days (proleptic Gregorian, UTC).
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

void civil_from_days(int64_t z, int64_t* y, unsigned* m, unsigned* d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = static_cast<int64_t>(yoe) + era * 400 + (*m <= 2);
}

bool digits(std::string_view s, size_t pos, size_t n, int* out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = 0; i < n; ++i) {
    char c = s[pos + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

bool leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

unsigned days_in_month(int64_t y, unsigned m) {
  static const unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && leap(y) ? 29 : kDays[m - 1];
}

}  // namespace

int64_t Clock::now_ms() {
  if (fixed_) {
    int64_t t = next_;
    next_ += step_;
    return t;
  }
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::string iso_from_ms(int64_t ms) {
  int64_t days = ms >= 0 ? ms / 86400000 : -((-ms + 86399999) / 86400000);
  int64_t rem = ms - days * 86400000;
  int64_t y;
  unsigned mo, d;
  civil_from_days(days, &y, &mo, &d);
  if (y < 0 || y > 9999) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02lld:%02lld:%02lld.%03lldZ", static_cast<long long>(y), mo, d,
                  static_cast<long long>(rem / 3600000), static_cast<long long>(rem / 60000 % 60),
                  static_cast<long long>(rem / 1000 % 60), static_cast<long long>(rem % 1000));
    return buf;
  }
  // Every appended entry takes a timestamp; snprintf was a twentieth of an append.
  std::string out = "0000-00-00T00:00:00.000Z";
  auto put = [&out](size_t at, size_t width, int64_t v) {
    for (size_t i = width; i-- > 0; v /= 10) out[at + i] = static_cast<char>('0' + v % 10);
  };
  put(0, 4, y);
  put(5, 2, mo);
  put(8, 2, d);
  put(11, 2, rem / 3600000);
  put(14, 2, rem / 60000 % 60);
  put(17, 2, rem / 1000 % 60);
  put(20, 3, rem % 1000);
  return out;
}

std::optional<int64_t> parse_iso_ms(std::string_view s) {
  int year, month, day;
  if (!digits(s, 0, 4, &year) || s.size() < 10 || s[4] != '-' || !digits(s, 5, 2, &month) || s[7] != '-' ||
      !digits(s, 8, 2, &day)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || static_cast<unsigned>(day) > days_in_month(year, month)) {
    return std::nullopt;
  }
  int64_t ms = days_from_civil(year, month, day) * 86400000;
  size_t pos = 10;
  if (pos == s.size()) return ms;
  if (s[pos] != 'T') return std::nullopt;
  int hh, mm, ss = 0;
  if (!digits(s, pos + 1, 2, &hh) || pos + 3 >= s.size() || s[pos + 3] != ':' || !digits(s, pos + 4, 2, &mm)) {
    return std::nullopt;
  }
  pos += 6;
  int64_t frac_ms = 0;
  if (pos < s.size() && s[pos] == ':') {
    if (!digits(s, pos + 1, 2, &ss)) return std::nullopt;
    pos += 3;
    if (pos < s.size() && s[pos] == '.') {
      size_t n = 0;
      int64_t scale = 100;
      while (pos + 1 + n < s.size() && s[pos + 1 + n] >= '0' && s[pos + 1 + n] <= '9') {
        frac_ms += (s[pos + 1 + n] - '0') * scale;  // digits past the millisecond are dropped
        scale /= 10;
        ++n;
      }
      if (n == 0) return std::nullopt;
      pos += 1 + n;
    }
  }
  if (hh > 24 || mm > 59 || ss > 59 || (hh == 24 && (mm || ss || frac_ms))) return std::nullopt;
  ms += ((hh * 60 + mm) * 60 + ss) * 1000LL + frac_ms;
  if (pos == s.size()) return ms;
  if (s[pos] == 'Z' && pos + 1 == s.size()) return ms;
  if ((s[pos] == '+' || s[pos] == '-') && pos + 6 == s.size() && s[pos + 3] == ':') {
    int oh, om;
    if (!digits(s, pos + 1, 2, &oh) || !digits(s, pos + 4, 2, &om) || oh > 23 || om > 59) {
      return std::nullopt;
    }
    int64_t offset = (oh * 60 + om) * 60000LL;
    return s[pos] == '+' ? ms - offset : ms + offset;
  }
  return std::nullopt;
}

}  // namespace xs::format
