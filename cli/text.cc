#include "text.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <iterator>

#include <CLI/CLI.hpp>

namespace xs::cli {

int64_t now_ms() {
  if (const char* fixed = std::getenv("XS_NOW_MS")) return std::strtoll(fixed, nullptr, 10);
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::string relative_time(int64_t ms, int64_t now) {
  int64_t s = (now - ms) / 1000;
  if (s < 0) s = 0;
  if (s < 10) return "just now";
  if (s < 60) return std::to_string(s) + "s ago";
  if (s < 3600) return std::to_string(s / 60) + "m ago";
  if (s < 86400) return std::to_string(s / 3600) + "h ago";
  if (s < 30 * 86400) return std::to_string(s / 86400) + "d ago";
  time_t t = static_cast<time_t>(ms / 1000);
  struct tm tm;
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

std::string human_size(uint64_t bytes) {
  static const char* kUnits[] = {"B", "K", "M", "G", "T"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  if (u == 0) {
    std::snprintf(buf, sizeof buf, "%lluB", static_cast<unsigned long long>(bytes));
  } else if (v < 10) {
    std::snprintf(buf, sizeof buf, "%.1f%s", v, kUnits[u]);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f%s", v, kUnits[u]);
  }
  return buf;
}

namespace {
// Length of the UTF-8 sequence starting with byte c (1 for an invalid lead byte).
size_t seq_len(unsigned char c) {
  if (c >= 0xF0 && c <= 0xF4) return 4;
  if (c >= 0xE0) return c <= 0xEF ? 3 : 1;
  if (c >= 0xC2) return 2;
  return 1;
}
}  // namespace

std::string one_line(std::string_view text, size_t max_chars) {
  std::string out;
  size_t chars = 0;
  bool space = false;
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = !out.empty();
      ++i;
      continue;
    }
    if (c < 0x20 || c == 0x7F) {
      ++i;
      continue;
    }
    size_t n = std::min(seq_len(c), text.size() - i);
    if (chars + (space ? 1 : 0) >= max_chars) {
      out += "…";
      return out;
    }
    if (space) {
      out += ' ';
      ++chars;
      space = false;
    }
    out.append(text.substr(i, n));
    ++chars;
    i += n;
  }
  return out;
}

size_t display_width(std::string_view s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); i += seq_len(static_cast<unsigned char>(s[i]))) ++n;
  return n;
}

std::string counted(uint64_t n, std::string_view noun) {
  return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

std::string argument_or_stdin(const std::string& arg) {
  if (arg != "-") return arg;
  std::string in(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>{});
  while (!in.empty() && (in.back() == '\n' || in.back() == '\r')) in.pop_back();
  return in;
}

int64_t parse_age(const std::string& text, const std::string& option) {
  size_t used = 0;
  long long n = -1;
  try {
    n = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  std::string unit = text.substr(used);
  const int64_t units[] = {86400000, 3600000, 60000, 1000};
  const char* names[] = {"d", "h", "m", "s"};
  for (size_t i = 0; i < 4; ++i) {
    if (used > 0 && n >= 0 && unit == names[i] && n <= INT64_MAX / units[i]) return n * units[i];
  }
  throw CLI::ValidationError(option, "\"" + text + "\" is not an age like 30d, 12h, 45m or 90s");
}

int64_t parse_moment(const std::string& text, const std::string& option) {
  try {
    if (!text.empty() && text.find('-') == std::string::npos) return now_ms() - parse_age(text, option);
  } catch (const CLI::ValidationError&) {
    // neither form: said below
  }
  for (const char* format : {"%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%d"}) {
    std::tm tm{};
    const char* end = strptime(text.c_str(), format, &tm);
    if (end && *end == '\0') return static_cast<int64_t>(timegm(&tm)) * 1000;
  }
  throw CLI::ValidationError(option, "\"" + text +
                                         "\" is neither an age like 7d nor a date like 2026-11-01 or "
                                         "2026-11-01T14:30:00Z");
}

std::string entries_text(int64_t n) { return std::to_string(n) + (n == 1 ? " entry" : " entries"); }

}  // namespace xs::cli
