// Allocation failure at every allocation of every C API call (docs/guarantees.md#t5, proving #g10
// and #g11; SQLite's OOM loop). The whole library is linked into this program (xsession_static),
// and this program replaces the global operator new: while a call is armed, the N-th allocation
// throws std::bad_alloc, once (transient) or from then on (persistent). For every workload the test
// counts the allocations its calls make in a fault-free run, then reruns it once per N and mode.
//
// Only the library calls of a workload are armed, never the test's own bookkeeping, so a failure
// always happens inside the library. Each run must show:
//  - the call returns XS_OK or XS_ENOMEM, nothing else (never a crash: an exception that crossed
//    the C boundary would end the program), and an OK result is exactly the fault-free one;
//  - a failed append (or flush, repair, reload) leaves the session as it was (xsession.h: "A failed
//    append leaves the session as it was"): the same entries and leaf; every handle still answers
//    every read;
//  - the handle stays usable: once memory is back it takes a new entry, which reads back;
//  - no leak: once every handle is gone, the count of live operator-new blocks and the open
//    descriptors are back at their baseline;
//  - the disk: reopened with memory back, the file holds every acknowledged entry once and byte for
//    byte, and no entry that was never acknowledged (a failed call left nothing behind); every blob
//    it names is intact (xs_session_verify); no temp file is left anywhere in the store, and every
//    preserved copy of a header-less file holds exactly its bytes.
// Scope: operator new in all its forms, so every std::string, container and node the engine makes
// and simdjson's nothrow-new parser buffers. Not failed here: malloc-family calls, which are
// RapidJSON's CrtAllocator and big_buffer (file images and arena blocks: malloc/posix_memalign,
// throwing bad_alloc itself when they fail).
//
// Environment: XS_OOM_STRIDE=k runs every k-th N (default 1, also under ASan: ~30 s).
// XS_OOM_TRACE=<operation>:<N> prints the stack of the refused allocation of that run (debugging).
//
// Files: oom_hook.h (the armed hook), oom_workloads.h (the operations), this file (the hook's
// definitions, the checks, the test).
#include <execinfo.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <new>
#include <string>

#include "oom_workloads.h"

// --- the allocation hook ------------------------------------------------------------------------

namespace oom {
std::atomic<bool> armed{false};
std::atomic<bool> persistent{false};
std::atomic<uint64_t> count{0};    // allocations made while armed
std::atomic<uint64_t> fail_at{0};  // 0: never fail
std::atomic<uint64_t> failed{0};   // allocations refused
std::atomic<int64_t> live{0};      // blocks from operator new not yet deleted
std::atomic<bool> trace{false};    // print the stack of each refused allocation (XS_OOM_TRACE)

bool refuse() {
  if (!armed.load(std::memory_order_relaxed)) return false;
  uint64_t n = count.fetch_add(1, std::memory_order_relaxed) + 1;
  uint64_t at = fail_at.load(std::memory_order_relaxed);
  if (at == 0 || n < at || (n > at && !persistent.load(std::memory_order_relaxed))) return false;
  failed.fetch_add(1, std::memory_order_relaxed);
  if (trace.load(std::memory_order_relaxed)) {
    void* frames[32];
    backtrace_symbols_fd(frames, backtrace(frames, 32), 2);  // no allocation: straight to stderr
  }
  return true;
}

void* allocate(size_t n, size_t align, bool nothrow) {
  void* p = nullptr;
  if (!refuse()) {
    if (align <= alignof(std::max_align_t)) {
      p = std::malloc(n ? n : 1);
    } else if (::posix_memalign(&p, align, n ? n : 1) != 0) {
      p = nullptr;
    }
  }
  if (!p) {
    if (nothrow) return nullptr;
    throw std::bad_alloc();
  }
  live.fetch_add(1, std::memory_order_relaxed);
  return p;
}

void release(void* p) {
  if (!p) return;
  live.fetch_sub(1, std::memory_order_relaxed);
  std::free(p);
}
}  // namespace oom

void* operator new(size_t n) { return oom::allocate(n, 0, false); }
void* operator new[](size_t n) { return oom::allocate(n, 0, false); }
void* operator new(size_t n, const std::nothrow_t&) noexcept { return oom::allocate(n, 0, true); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept { return oom::allocate(n, 0, true); }
void* operator new(size_t n, std::align_val_t a) { return oom::allocate(n, static_cast<size_t>(a), false); }
void* operator new[](size_t n, std::align_val_t a) { return oom::allocate(n, static_cast<size_t>(a), false); }
void* operator new(size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return oom::allocate(n, static_cast<size_t>(a), true);
}
void* operator new[](size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return oom::allocate(n, static_cast<size_t>(a), true);
}
void operator delete(void* p) noexcept { oom::release(p); }
void operator delete[](void* p) noexcept { oom::release(p); }
void operator delete(void* p, size_t) noexcept { oom::release(p); }
void operator delete[](void* p, size_t) noexcept { oom::release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { oom::release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { oom::release(p); }
void operator delete(void* p, std::align_val_t) noexcept { oom::release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { oom::release(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { oom::release(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { oom::release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { oom::release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { oom::release(p); }

namespace {

using namespace oom_test;  // NOLINT: the matrix's own vocabulary

// --- the checks -----------------------------------------------------------------------------------

struct Tally {
  size_t runs = 0, failed_calls = 0, ok_compared = 0, reopened = 0, acked_refound = 0;
  std::map<std::string, size_t> allocations;  // per workload, in the fault-free run
};

// A value with the run's directory (which differs from run to run) written as <root>.
std::string relative(std::string value, const std::string& root) {
  for (size_t p = value.find(root); p != std::string::npos; p = value.find(root, p)) value.replace(p, root.size(), "<root>");
  return value;
}

// After the run, memory back: everything a handle must still show and do.
std::string check_run(const Workload& w, Trial& r, xs_status st, const std::string& clean_value,
                      const std::string& before, Tally& t) {
  r.value = relative(r.value, r.dir.path());
  if (st != XS_OK && st != XS_ENOMEM) return std::string("the call returned ") + xs_status_str(st);
  if (st == XS_OK) {
    if (r.value != clean_value) {
      size_t i = 0;
      while (i < r.value.size() && i < clean_value.size() && r.value[i] == clean_value[i]) ++i;
      return "OK, but not the fault-free result: at byte " + std::to_string(i) + " got \"" +
             r.value.substr(i, 120) + "\", want \"" + clean_value.substr(i, 120) + "\"";
    }
    ++t.ok_compared;
  } else {
    ++t.failed_calls;
  }
  if (r.s) {
    r.path = PathOf(r.s);
    std::string now = Entries(r.s) + "\n" + Leaf(r.s);
    if (w.unchanged && st != XS_OK && now != before) return "a failed call changed the session";
    if (Context(r.s).empty() || Tree(r.s).empty() || Header(r.s).empty()) return "the handle stopped answering reads";
    std::string info = Info(r.s);
    if (info.find("\"readOnly\":false") != std::string::npos || info.find("\"readOnly\"") == std::string::npos) {
      char id[XS_ID_BUFSIZE];
      // An assistant message: a deferred session writes its file for it, so it is on disk.
      std::string m = assistant("after the allocation failure");
      xs_status a = xs_append_message(r.s, m.data(), m.size(), id);
      if (a != XS_OK) return std::string("the handle refuses an append with memory back: ") + xs_status_str(a);
      ack(r, r.s, id);
    }
  }
  return std::string();
}

// Leftovers anywhere under `dir`: a temp file (no unlink fails in these runs: none may be left), or
// a preserved copy of a header-less file that does not hold exactly its bytes.
std::string leftovers(const std::string& dir, const std::string& original) {
  for (const std::string& name : ListDir(dir)) {
    std::string path = dir + "/" + name;
    if (name.find(".xs-tmp-") != std::string::npos) return "a temp file survived: " + path;
    if (name.find(".corrupt-") != std::string::npos && (original.empty() || ReadFile(path) != original)) {
      return "a preserved copy does not hold the original bytes: " + path;
    }
    struct stat st;
    if (::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      std::string inner = leftovers(path, original);
      if (!inner.empty()) return inner;
    }
  }
  return std::string();
}

// The file reopened: every acknowledged entry once and exact, nothing else.
std::string check_disk(Trial& r, Tally& t) {
  std::string path = r.session_file();
  if (!Exists(path)) return r.acked.empty() ? std::string() : "the session file is gone: " + path;
  xs_session_options o = session_opts(0);
  xs_session* s = nullptr;
  xs_status st = xs_session_open(r.st, path.c_str(), &o, &s);
  if (st != XS_OK) return std::string("the file does not reopen for writing: ") + xs_status_str(st);
  std::string entries = Entries(s);
  std::string problem;
  for (const std::string& id : r.acked) {
    if (Count(entries, "\"id\":\"" + id + "\"") != 1 || Entry(s, id) != r.lines[id]) {
      problem = "acknowledged entry " + id + " is missing, doubled or changed";
      break;
    }
    ++t.acked_refound;
  }
  std::string report = Fetch([s](char* b, size_t c, size_t* n) { return xs_session_verify(s, b, c, n); });
  if (problem.empty() && (report.find("missing_blob") != std::string::npos ||
                          report.find("corrupt_blob") != std::string::npos)) {
    problem = "a blob the session names is missing or damaged: " + report.substr(0, 300);
  }
  size_t total = Count(entries, "\"parentId\":");
  if (problem.empty() && total != r.acked.size()) {
    problem = std::to_string(total) + " entries in the file, " + std::to_string(r.acked.size()) +
              " acknowledged: a failed call left an entry behind";
  }
  xs_session_close(s);
  if (problem.empty()) problem = leftovers(r.dir.path(), r.original);
  ++t.reopened;
  return problem;
}

size_t stride() {
  const char* v = std::getenv("XS_OOM_STRIDE");
  return v && std::atoi(v) > 0 ? static_cast<size_t>(std::atoi(v)) : 1;
}

TEST(OutOfMemory, EveryAllocationOfEveryCall) {
  const size_t step = stride();
  Tally t;
  size_t failures = 0;
  std::map<std::string, size_t> failures_by_kind;
  for (const Workload& w : workloads()) {
    // The fault-free run: the value an OK result must give, and how many allocations to fail.
    std::string clean_value;
    uint64_t total = 0;
    for (int warm = 0; warm < 2; ++warm) {  // the first run fills the library's lazy statics
      Trial r;
      ASSERT_EQ(w.setup ? w.setup(r) : XS_OK, XS_OK) << w.name << ": setup";
      oom::count = 0;
      oom::fail_at = 0;
      ASSERT_EQ(w.op(r), XS_OK) << w.name << ": the operation fails without a fault";
      clean_value = relative(r.value, r.dir.path());
      total = oom::count;
    }
    t.allocations[w.name] = total;  // 0: it cannot run out of memory (flush allocates nothing)
    for (int mode = 0; mode < 2; ++mode) {
      for (uint64_t n = 1 + (mode ? step / 2 : 0); n <= total; n += step) {
        int64_t live_before = oom::live;
        int fds_before = 0;
        std::string problem;
        {
          Trial r;
          fds_before = static_cast<int>(ListDir("/proc/self/fd").size());
          if ((w.setup ? w.setup(r) : XS_OK) != XS_OK) {
            problem = "setup failed";
          } else {
            std::string before = r.s ? Entries(r.s) + "\n" + Leaf(r.s) : "";
            oom::count = 0;
            oom::failed = 0;
            oom::persistent = mode == 1;
            oom::fail_at = n;
            const char* tr = std::getenv("XS_OOM_TRACE");
            oom::trace = tr && std::string(tr) == w.name + ":" + std::to_string(n);
            xs_status st = w.op(r);
            oom::trace = false;
            oom::fail_at = 0;
            ++t.runs;
            problem = oom::failed == 0 ? "the failure was never reached" : check_run(w, r, st, clean_value, before, t);
            if (r.s) xs_session_close(r.s);
            if (r.made) xs_session_close(r.made);
            r.s = r.made = nullptr;
            if (problem.empty()) problem = check_disk(r, t);
          }
        }
        if (problem.empty() && oom::live != live_before) {
          problem = std::to_string(oom::live - live_before) + " allocations leaked";
        }
        int fds = static_cast<int>(ListDir("/proc/self/fd").size());
        if (problem.empty() && fds != fds_before) problem = std::to_string(fds - fds_before) + " descriptors leaked";
        if (!problem.empty()) {
          // A few examples of each kind of problem per operation (one bug fails many N).
          std::string kind = w.name + (mode ? " (from then on)" : " (once)") + ": " + problem.substr(0, 40);
          if (++failures_by_kind[kind] <= 2) {
            ADD_FAILURE() << "[" << w.name << "] allocation " << n << " of " << total
                          << (mode ? " and every later one" : "") << " failed: " << problem;
          }
          ++failures;
        }
      }
    }
  }
  std::string none;
  uint64_t sum = 0;
  for (const auto& [name, n] : t.allocations) {
    sum += n;
    if (n == 0) none += (none.empty() ? "" : ", ") + name;
  }
  std::printf("out of memory: %zu runs over %zu operations (%llu allocations in their fault-free runs; stride %zu, "
              "once and from then on): %zu calls failed with XS_ENOMEM, %zu OK results compared; %zu files reopened, "
              "%zu acknowledged entries found again; %zu violations; allocating nothing: %s\n",
              t.runs, t.allocations.size(), static_cast<unsigned long long>(sum), step, t.failed_calls,
              t.ok_compared, t.reopened, t.acked_refound, failures, none.empty() ? "-" : none.c_str());
  EXPECT_EQ(failures, 0u);
}

}  // namespace

