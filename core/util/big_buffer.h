// Memory for big buffers: whole session files read at open and the arena's blocks. From 2 MiB up
// it is 2 MiB-aligned and advised into transparent huge pages, so the first touch costs one page
// fault per 2 MiB instead of one per 4 KiB (measured: bench/README.md). The advice is only
// advice: without transparent huge pages (or on macOS) the memory is ordinary pages.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>

namespace xs {

struct FreeBytes {
  void operator()(char* p) const { std::free(p); }
};
using BigBytes = std::unique_ptr<char[], FreeBytes>;

// Throws std::bad_alloc like new[] when memory is short.
BigBytes allocate_big(size_t size);

}  // namespace xs
