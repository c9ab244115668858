// The allocation hook of the allocation-failure matrix (oom_test.cc, docs/guarantees.md#t5): the
// test program replaces operator new, and while a library call is armed the N-th allocation
// throws std::bad_alloc (nothrow forms return NULL), once or from then on. Defined in oom_test.cc.
#pragma once

#include <atomic>
#include <cstdint>

namespace oom {
extern std::atomic<bool> armed;
extern std::atomic<bool> persistent;
extern std::atomic<uint64_t> count;    // allocations made while armed
extern std::atomic<uint64_t> fail_at;  // 0: never fail
extern std::atomic<uint64_t> failed;   // allocations refused
extern std::atomic<int64_t> live;      // blocks from operator new not yet deleted
extern std::atomic<bool> trace;        // print the stack of each refused allocation (XS_OOM_TRACE)
}  // namespace oom

// Runs one library call armed: its allocations count, and the N-th may fail. The arguments are
// made before (the test's own allocations are never failed); the guard disarms even if something
// throws through, so the test reports it instead of failing its own allocations from then on.
template <class F>
auto armed(F&& call) {
  struct Disarm {
    ~Disarm() { oom::armed.store(false); }
  } disarm;
  oom::armed.store(true);
  return call();
}
