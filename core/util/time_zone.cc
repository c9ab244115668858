#include "util/time_zone.h"

#include <algorithm>
#include <cctype>

namespace xs::util {

namespace {

constexpr int64_t kDay = 86400;

// A cursor over text being parsed; every read checks the end.
struct Text {
  std::string_view s;
  size_t i = 0;
  bool done() const { return i >= s.size(); }
  char peek() const { return done() ? '\0' : s[i]; }
  bool take(char c) {
    if (peek() != c) return false;
    ++i;
    return true;
  }
  // A decimal number of 1 to `max_digits` digits.
  bool number(int max_digits, int* out) {
    int n = 0, digits = 0;
    while (!done() && std::isdigit(static_cast<unsigned char>(s[i])) && digits < max_digits) {
      n = n * 10 + (s[i++] - '0');
      ++digits;
    }
    *out = n;
    return digits > 0;
  }
};

// [+-]hh[:mm[:ss]] as seconds (hours up to max_hours); the sign is returned as read.
int sign_of(Text& t) {
  if (t.take('-')) return -1;
  t.take('+');
  return 1;
}

bool clock_time(Text& t, int max_hours, int32_t* out) {
  int sign = sign_of(t);
  int h = 0, m = 0, sec = 0;
  if (!t.number(3, &h) || h > max_hours) return false;
  if (t.take(':')) {
    if (!t.number(2, &m) || m > 59) return false;
    if (t.take(':') && (!t.number(2, &sec) || sec > 59)) return false;
  }
  *out = sign * (h * 3600 + m * 60 + sec);
  return true;
}

// A zone abbreviation: <...> or three or more letters.
bool abbreviation(Text& t) {
  if (t.take('<')) {
    size_t close = t.s.find('>', t.i);
    if (close == std::string_view::npos || close - t.i < 3) return false;
    t.i = close + 1;
    return true;
  }
  size_t from = t.i;
  while (!t.done() && std::isalpha(static_cast<unsigned char>(t.peek()))) ++t.i;
  return t.i - from >= 3;
}

uint32_t be32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}
int64_t be64(const unsigned char* p) { return static_cast<int64_t>((uint64_t{be32(p)} << 32) | be32(p + 4)); }

bool is_leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

}  // namespace

int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = floor_div(y, 400);
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

void civil_from_days(int64_t z, int64_t* y, unsigned* m, unsigned* d) {
  z += 719468;
  const int64_t era = floor_div(z, 146097);
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  *d = static_cast<unsigned>(doy - (153 * mp + 2) / 5 + 1);
  *m = static_cast<unsigned>(mp < 10 ? mp + 3 : mp - 9);
  *y = yoe + era * 400 + (*m <= 2);
}

Result<TimeZone> TimeZone::fixed(std::string_view text) {
  Text t{text};
  if (t.peek() != '+' && t.peek() != '-') return Status::Invalid("a fixed offset starts with + or -");
  int sign = sign_of(t);
  int h = 0, m = 0;
  size_t from = t.i;
  if (!t.number(2, &h) || t.i - from != 2) return Status::Invalid("a fixed offset is +HH:MM, +HHMM or +HH");
  if (!t.done()) {
    t.take(':');
    from = t.i;
    if (!t.number(2, &m) || t.i - from != 2 || m > 59) return Status::Invalid("a fixed offset is +HH:MM, +HHMM or +HH");
  }
  if (!t.done() || h * 60 + m > 18 * 60) return Status::Invalid("a fixed offset is +HH:MM, at most 18 hours");
  TimeZone z;
  z.initial_ = sign * (h * 3600 + m * 60);
  return z;
}

Result<TimeZone> TimeZone::posix(std::string_view rule) {
  Text t{rule};
  auto bad = [&] { return Status::Invalid("not a POSIX TZ rule: \"" + std::string(rule) + "\""); };
  TimeZone z;
  int32_t west = 0;
  if (!abbreviation(t) || !clock_time(t, 24, &west)) return bad();
  z.std_offset_ = -west;
  z.has_rule_ = true;
  if (!t.done()) {
    if (!abbreviation(t)) return bad();
    z.has_dst_ = true;
    z.dst_offset_ = z.std_offset_ + 3600;
    if (!t.done() && t.peek() != ',') {
      if (!clock_time(t, 24, &west)) return bad();
      z.dst_offset_ = -west;
    }
    // Without dates, the US rules (what glibc assumes too).
    z.start_ = {'M', 0, 3, 2, 0, 7200};
    z.end_ = {'M', 0, 11, 1, 0, 7200};
    if (t.take(',')) {
      for (When* w : {&z.start_, &z.end_}) {
        if (w == &z.end_ && !t.take(',')) return bad();
        *w = When{};
        if (t.take('J')) {
          w->kind = 'J';
          if (!t.number(3, &w->n) || w->n < 1 || w->n > 365) return bad();
        } else if (t.take('M')) {
          w->kind = 'M';
          if (!t.number(2, &w->month) || !t.take('.') || !t.number(1, &w->week) || !t.take('.') ||
              !t.number(1, &w->day) || w->month < 1 || w->month > 12 || w->week < 1 || w->week > 5 || w->day > 6) {
            return bad();
          }
        } else {
          w->kind = 'D';
          if (!t.number(3, &w->n) || w->n > 365) return bad();
        }
        if (t.take('/') && !clock_time(t, 167, &w->time)) return bad();
      }
    }
    if (z.dst_offset_ == z.std_offset_) z.has_dst_ = false;
  }
  if (!t.done()) return bad();
  z.initial_ = z.std_offset_;
  return z;
}

Result<TimeZone> TimeZone::tzif(std::string_view bytes) {
  auto bad = [](const char* why) { return Status::Corrupt(std::string("not a TZif file: ") + why); };
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  size_t size = bytes.size(), at = 0;
  // One header and its data block; `wide` for the 64-bit block of version 2 and later.
  struct Counts {
    uint32_t isut, isstd, leap, time, type, chars;
  } c{};
  auto header = [&](Counts* out) {
    if (size - at < 44 || bytes.compare(at, 4, "TZif") != 0) return false;
    const unsigned char* h = p + at + 20;
    *out = {be32(h), be32(h + 4), be32(h + 8), be32(h + 12), be32(h + 16), be32(h + 20)};
    at += 44;
    return true;
  };
  auto block_size = [](const Counts& k, size_t time_size) {
    return uint64_t{k.time} * (time_size + 1) + uint64_t{k.type} * 6 + k.chars + uint64_t{k.leap} * (time_size + 4) +
           k.isstd + k.isut;
  };
  if (!header(&c)) return bad("no TZif header");
  char version = bytes[4];
  size_t time_size = 4;
  if (version >= '2') {
    if (block_size(c, 4) > size - at) return bad("truncated");
    at += block_size(c, 4);
    if (!header(&c)) return bad("no second header");
    time_size = 8;
  }
  if (c.type == 0 || block_size(c, time_size) > size - at) return bad("truncated, or no local time types");
  const unsigned char* times = p + at;
  const unsigned char* indices = times + size_t{c.time} * time_size;
  const unsigned char* types = indices + c.time;
  TimeZone z;
  auto offset_of = [&](uint32_t type) { return static_cast<int32_t>(be32(types + size_t{type} * 6)); };
  z.initial_ = offset_of(0);  // RFC 8536 3.2: type 0 before the first transition
  int32_t last = z.initial_;
  for (uint32_t i = 0; i < c.time; ++i) {
    int64_t when = time_size == 8 ? be64(times + size_t{i} * 8) : static_cast<int32_t>(be32(times + size_t{i} * 4));
    if (indices[i] >= c.type) return bad("a transition names an unknown type");
    if (!z.changes_.empty() && when <= z.changes_.back().at) return bad("transitions out of order");
    int32_t offset = offset_of(indices[i]);
    if (offset != last) z.changes_.push_back({when, offset});
    last = offset;
    z.rule_from_ = when;
  }
  at += block_size(c, time_size);
  if (time_size == 8 && at < size && bytes[at] == '\n') {
    size_t end = bytes.find('\n', at + 1);
    if (end == std::string_view::npos) return bad("unterminated footer");
    std::string_view footer = bytes.substr(at + 1, end - at - 1);
    if (!footer.empty()) {
      auto rule = posix(footer);
      if (!rule.ok()) return bad("its footer is not a POSIX TZ rule");
      int64_t from = z.rule_from_;
      std::vector<Change> changes = std::move(z.changes_);
      int32_t initial = z.initial_;
      z = std::move(*rule);
      z.changes_ = std::move(changes);
      z.initial_ = initial;
      z.rule_from_ = from;
    }
  }
  return z;
}

int64_t TimeZone::when_in_year(const When& w, int64_t year) {
  int64_t jan1 = days_from_civil(year, 1, 1);
  int64_t day;
  if (w.kind == 'J') {
    day = jan1 + w.n - 1 + (is_leap(year) && w.n >= 60 ? 1 : 0);
  } else if (w.kind == 'D') {
    day = jan1 + w.n;
  } else {
    int64_t first = days_from_civil(year, static_cast<unsigned>(w.month), 1);
    int64_t next =
        w.month == 12 ? days_from_civil(year + 1, 1, 1) : days_from_civil(year, static_cast<unsigned>(w.month + 1), 1);
    int64_t weekday = ((first + 4) % 7 + 7) % 7;  // 1970-01-01 was a Thursday (4)
    day = first + (w.day - weekday + 7) % 7 + int64_t{w.week - 1} * 7;
    while (day >= next) day -= 7;  // week 5: the last such day of the month
  }
  return day * kDay + w.time;
}

int64_t TimeZone::dst_start(int64_t year) const { return when_in_year(start_, year) - std_offset_; }
int64_t TimeZone::dst_end(int64_t year) const { return when_in_year(end_, year) - dst_offset_; }

int32_t TimeZone::rule_offset_at(int64_t utc) const {
  if (!has_dst_) return std_offset_;
  int64_t y;
  unsigned m, d;
  civil_from_days(floor_div(utc + std_offset_, kDay), &y, &m, &d);
  int64_t s = dst_start(y), e = dst_end(y);
  bool dst = s < e ? (s <= utc && utc < e) : !(e <= utc && utc < s);
  return dst ? dst_offset_ : std_offset_;
}

std::optional<int64_t> TimeZone::rule_change_after(int64_t utc) const {
  if (!has_dst_) return std::nullopt;
  int64_t y;
  unsigned m, d;
  civil_from_days(floor_div(utc + std_offset_, kDay), &y, &m, &d);
  std::optional<int64_t> best;
  for (int64_t year = y - 1; year <= y + 1; ++year) {
    for (int64_t at : {dst_start(year), dst_end(year)}) {
      if (at > utc && (!best || at < *best)) best = at;
    }
  }
  return best;
}

int32_t TimeZone::offset_at(int64_t utc) const {
  if (has_rule_ && utc >= rule_from_) return rule_offset_at(utc);
  auto after =
      std::upper_bound(changes_.begin(), changes_.end(), utc, [](int64_t t, const Change& c) { return t < c.at; });
  return after == changes_.begin() ? initial_ : std::prev(after)->offset;
}

std::optional<int64_t> TimeZone::next_change_after(int64_t utc) const {
  auto after =
      std::upper_bound(changes_.begin(), changes_.end(), utc, [](int64_t t, const Change& c) { return t < c.at; });
  if (after != changes_.end() && (!has_rule_ || after->at <= rule_from_)) return after->at;
  if (!has_rule_) return std::nullopt;
  return rule_change_after(std::max(utc, rule_from_));
}

int64_t TimeZone::first_instant_at_or_after(int64_t local) const {
  // Offsets stay within +-26 hours (RFC 8536), so 27 hours before, the wall clock reads less than
  // `local`; walk the stretches of constant offset from there.
  int64_t from = local - 27 * 3600;
  int32_t offset = offset_at(from);
  for (int i = 0; i < 64; ++i) {
    if (local < from + offset) return from;  // the clocks jumped over `local` at `from`
    std::optional<int64_t> next = next_change_after(from);
    if (!next || local < *next + offset) return local - offset;
    from = *next;
    offset = offset_at(from);
  }
  return local - offset;
}

}  // namespace xs::util
