#include "format/ids.h"

#include <random>

namespace xs::format {

namespace {

std::string hex(uint64_t v, int digits) {
  static const char kHex[] = "0123456789abcdef";
  std::string s(static_cast<size_t>(digits), '0');
  for (int i = digits - 1; i >= 0; --i, v >>= 4) s[static_cast<size_t>(i)] = kHex[v & 0xF];
  return s;
}

}  // namespace

IdGenerator::IdGenerator(uint64_t seed) : state_(seed) {
  if (state_ == 0) {
    std::random_device rd;
    state_ = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  }
}

// splitmix64: tiny, fast, and good enough for ids that are checked for collisions anyway.
uint64_t IdGenerator::next() {
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::string IdGenerator::entry_id(const std::function<bool(std::string_view)>& taken) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string id = hex(next() >> 32, 8);
    if (!taken(id)) return id;
  }
  for (;;) {
    std::string id = hex(next(), 16);
    if (!taken(id)) return id;
  }
}

std::string IdGenerator::session_id() { return hex(next(), 16); }

std::string IdGenerator::uuid_v7(int64_t ms) {
  uint64_t time = static_cast<uint64_t>(ms) & 0xFFFFFFFFFFFFull;
  uint64_t rand_a = next() >> 52;
  uint64_t rand_b = (next() >> 2) | (uint64_t{2} << 62);  // the variant: 0b10
  std::string t = hex(time, 12);
  return t.substr(0, 8) + "-" + t.substr(8, 4) + "-7" + hex(rand_a, 3) + "-" + hex(rand_b >> 48, 4) + "-" +
         hex(rand_b & 0xFFFFFFFFFFFFull, 12);
}

bool is_valid_new_id(std::string_view id) {
  if (id.empty() || id.size() > kMaxNewIdLength) return false;
  for (char c : id) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace xs::format
