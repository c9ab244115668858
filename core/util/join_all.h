// Joins every joinable thread of a vector when it goes out of scope. A std::thread destroyed while
// still joinable ends the process, so a scope that starts threads and can throw afterwards (the
// next thread fails to start, the caller's own share runs out of memory) holds one of these.
#pragma once

#include <thread>
#include <vector>

namespace xs {

struct JoinAll {
  std::vector<std::thread>& threads;
  ~JoinAll() {
    for (std::thread& t : threads) {
      if (t.joinable()) t.join();
    }
  }
};

}  // namespace xs
