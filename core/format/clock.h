// Time as the format writes it (ISO-8601 UTC with milliseconds) and as contexts read it back
// (Date.parse), plus an injectable clock so tests can assert exact file bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace xs::format {

class Clock {
 public:
  // A real clock (fixed == false), or a fixed one that answers start, start + step, ...
  static Clock Real() { return Clock(false, 0, 0); }
  static Clock Fixed(int64_t start_ms, int64_t step_ms) { return Clock(true, start_ms, step_ms); }

  int64_t now_ms();

 private:
  Clock(bool fixed, int64_t start, int64_t step) : fixed_(fixed), next_(start), step_(step) {}
  bool fixed_;
  int64_t next_;
  int64_t step_;
};

// "2026-02-16T10:20:30.000Z", as Date.prototype.toISOString writes it (years 0..9999).
std::string iso_from_ms(int64_t ms);

// Date.parse for the ISO-8601 forms session files carry: YYYY-MM-DD, optionally followed by
// THH:mm, :ss and .fraction, and by Z or ±hh:mm (no designator counts as UTC). Anything else is
// nullopt, which the context writes as null (JSON.stringify of NaN).
std::optional<int64_t> parse_iso_ms(std::string_view s);

}  // namespace xs::format
