#include "session/arena.h"

#include <cstring>

namespace xs::session {

std::string_view Arena::store(std::string_view s, size_t padding) {
  size_t need = s.size() + padding;
  if (need == 0) return {};
  char* dst;
  if (need > kBlock / 4) {
    // Big lines get a block of their own so they do not waste the rest of a shared block.
    blocks_.emplace_back(new char[need]);
    dst = blocks_.back().get();
  } else {
    if (need > left_) {
      blocks_.emplace_back(new char[kBlock]);
      cur_ = blocks_.back().get();
      left_ = kBlock;
    }
    dst = cur_;
    cur_ += need;
    left_ -= need;
  }
  if (!s.empty()) std::memcpy(dst, s.data(), s.size());
  if (padding) std::memset(dst + s.size(), 0, padding);
  return {dst, s.size()};
}

}  // namespace xs::session
