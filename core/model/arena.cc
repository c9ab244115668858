#include "model/arena.h"

#include <cstring>

namespace xs::model {

std::string_view Arena::store(std::string_view s, size_t padding) {
  size_t need = s.size() + padding;
  if (need == 0) return {};
  char* dst;
  if (need > next_block_ / 4) {
    // Big lines get a block of their own so they do not waste the rest of a shared block.
    blocks_.push_back(allocate_big(need));
    dst = blocks_.back().get();
  } else {
    if (need > left_) {
      blocks_.push_back(allocate_big(next_block_));
      cur_ = blocks_.back().get();
      left_ = next_block_;
      if (next_block_ < kMaxBlock) next_block_ *= 2;
    }
    dst = cur_;
    cur_ += need;
    left_ -= need;
  }
  if (!s.empty()) std::memcpy(dst, s.data(), s.size());
  if (padding) std::memset(dst + s.size(), 0, padding);
  return {dst, s.size()};
}

}  // namespace xs::model
