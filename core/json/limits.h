// Input limits: what keeps a hostile or broken line from exhausting memory or the stack.
#pragma once

#include <cstddef>
#include <cstdint>

namespace xs::json {

// Bytes of readable padding every buffer handed to the JSON layer must have after its end:
// simdjson reads up to 64 bytes past the input (SIMDJSON_PADDING) without using them.
constexpr size_t kPadding = 64;

struct Limits {
  // Longest line (or API input) accepted, in bytes, excluding the newline.
  uint64_t max_line_bytes = 64ull << 20;
  // Deepest value accepted. The root value is at depth 1 and every value inside a container is
  // one deeper, so {"a":[1]} has depth 3. Deeper input is refused before it can recurse.
  uint32_t max_depth = 256;
};

// Hard ceilings on what callers may configure: a depth beyond this would let recursive code
// (RapidJSON's Writer and CopyFrom) overflow the stack.
constexpr uint32_t kMaxConfigurableDepth = 4096;
// Line spans are kept as 32-bit offsets, and no real transcript line comes near this.
constexpr uint64_t kMaxConfigurableLineBytes = 1ull << 30;

// Limits for text the engine built or already validated (edits, rescans): the ceilings.
inline Limits internal_limits() {
  Limits l;
  l.max_line_bytes = kMaxConfigurableLineBytes;
  l.max_depth = kMaxConfigurableDepth;
  return l;
}

}  // namespace xs::json
