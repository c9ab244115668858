// Entry and session ids: generation (random, or seeded for byte-exact tests) and validation of
// ids that callers supply.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace xs::format {

class IdGenerator {
 public:
  // seed == 0: seeded from the OS's randomness; any other value: a fixed, reproducible sequence.
  explicit IdGenerator(uint64_t seed);

  // 8 lowercase hex chars, retried while `taken` says the candidate is in use (100 tries, as the
  // reference), then 16 hex chars.
  std::string entry_id(const std::function<bool(std::string_view)>& taken);
  // 16 lowercase hex chars (the seed's example session id has this shape).
  std::string session_id();
  // pi's session ids: a UUIDv7 (RFC 9562) whose first 48 bits are `ms`, then version 7, the top
  // 12 bits of one draw, variant 0b10 and the top 62 bits of a second draw; lowercase, hyphenated.
  std::string uuid_v7(int64_t ms);

 private:
  uint64_t next();
  uint64_t state_;
};

// Ids callers choose for new sessions and entries (and terminal ids): [A-Za-z0-9_-], 1..64 chars.
// Anything else could escape a directory (`/`, `..`) or be unprintable.
bool is_valid_new_id(std::string_view id);

constexpr size_t kMaxNewIdLength = 64;

}  // namespace xs::format
