#include "session/arena.h"

#include <sys/mman.h>

#include <cstring>
#include <new>

namespace xs::session {

namespace {
constexpr size_t kHugePage = 2 * 1024 * 1024;
}

Arena::Block Arena::allocate(size_t size) {
  void* p = nullptr;
  if (size >= kHugePage && size % kHugePage == 0) {
    if (posix_memalign(&p, kHugePage, size) != 0) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    // Advice only: without transparent huge pages the block is simply made of small pages.
    madvise(p, size, MADV_HUGEPAGE);
#endif
  } else {
    p = std::malloc(size);
    if (!p) throw std::bad_alloc();
  }
  return Block(static_cast<char*>(p));
}

std::string_view Arena::store(std::string_view s, size_t padding) {
  size_t need = s.size() + padding;
  if (need == 0) return {};
  char* dst;
  if (need > next_block_ / 4) {
    // Big lines get a block of their own so they do not waste the rest of a shared block.
    blocks_.push_back(allocate(need));
    dst = blocks_.back().get();
  } else {
    if (need > left_) {
      blocks_.push_back(allocate(next_block_));
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

}  // namespace xs::session
