#include "util/big_buffer.h"

#include <sys/mman.h>

#include <new>

namespace xs {

namespace {
constexpr size_t kHugePage = 2 * 1024 * 1024;
}

BigBytes allocate_big(size_t size) {
  void* p = nullptr;
  if (size >= kHugePage) {
    if (posix_memalign(&p, kHugePage, size) != 0) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    madvise(p, size / kHugePage * kHugePage, MADV_HUGEPAGE);
#endif
  } else {
    p = std::malloc(size > 0 ? size : 1);
    if (!p) throw std::bad_alloc();
  }
  return BigBytes(static_cast<char*>(p));
}

}  // namespace xs
