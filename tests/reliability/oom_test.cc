// Allocation failure at every allocation of every C API call (reliability.md T5, G10, G11; SQLite's
// OOM loop). The whole library is linked into this program (xsession_static), and this program
// replaces the global operator new: while a call is armed, the N-th allocation throws
// std::bad_alloc, once (transient) or from then on (persistent). For every workload the test counts
// the allocations its calls make in a fault-free run, then reruns it once per N and mode.
//
// Only the library calls of a workload are armed, never the test's own bookkeeping, so a failure
// always happens inside the library. Each run must show:
//  - the call returns XS_OK or XS_ENOMEM, nothing else (never a crash: an exception that crossed
//    the C boundary would end the program), and an OK result is exactly the fault-free one;
//  - a failed append leaves the session as it was (xsession.h: "A failed append leaves the session
//    as it was"): the same entries and leaf, and the handle still answers every read;
//  - the handle stays usable: once memory is back it takes a new entry, which reads back;
//  - no leak: once every handle is gone, the count of live operator-new blocks and the open
//    descriptors are back at their baseline;
//  - the disk: reopened with memory back, the file holds every acknowledged entry once and byte for
//    byte, and no entry that was never acknowledged (a failed call left nothing behind); no temp
//    file survives the next writable open.
// Scope: operator new (every std::string, container and node the engine makes). malloc-family
// calls (RapidJSON's CrtAllocator, simdjson's padded buffers, big_buffer's posix_memalign, which
// throws bad_alloc itself) are not failed here.
//
// Environment: XS_OOM_STRIDE=k runs every k-th N (default 1; the ASan run uses more).
// XS_OOM_TRACE=<operation>:<N> prints the stack of the refused allocation of that run (debugging).
#include <execinfo.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <new>
#include <set>
#include <string>
#include <vector>

#include "capi_test_util.h"

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

using namespace xstest;  // NOLINT: the C API tests' helpers

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

// One run: a store over its own directory and the session the workload works on.
struct Trial {
  TempDir dir;
  xs_store* st = nullptr;
  xs_session* s = nullptr;       // the handle the operation works on (may be made by it)
  xs_session* made = nullptr;    // a handle the operation made besides (fork)
  std::vector<std::string> acked;  // ids of entries acknowledged in the file, template included
  std::map<std::string, std::string> lines;  // id -> its line as acknowledged
  std::string value;             // what the operation returned, for comparing OK results
  std::string path;              // the session's file, when the operation made it elsewhere
  std::string file() const { return dir.path() + "/s.jsonl"; }
  std::string session_file() const { return path.empty() ? file() : path; }
  ~Trial() {
    if (s) xs_session_close(s);
    if (made) xs_session_close(made);
    if (st) xs_store_free(st);
  }
};

xs_session_options session_opts(uint32_t flags) {
  xs_session_options o;
  xs_session_options_init(&o, XS_SESSION_OPTIONS_VERSION);
  o.flags = flags | XS_SESSION_FIXED_CLOCK;
  o.clock_start_ms = kT0;
  o.clock_step_ms = kStep;
  o.id_seed = kSeed;
  o.cwd = "/work";
  return o;
}

std::string user(const std::string& text) { return R"({"role":"user","content":")" + text + "\"}"; }
std::string assistant(const std::string& text) {
  return R"({"role":"assistant","content":[{"type":"text","text":")" + text +
         R"("}],"provider":"p","model":"m","usage":{"input":1,"output":1},"stopReason":"stop","timestamp":1})";
}
std::string image_message() {
  std::string b64;
  for (int i = 0; i < 300; ++i) b64 += "QUJD";
  return R"({"role":"user","content":[{"type":"text","text":"look"},{"type":"image","data":")" + b64 +
         R"(","mimeType":"image/png"}]})";
}

// Notes an entry the library acknowledged (with memory back).
void ack(Trial& r, xs_session* s, const char* id) {
  r.acked.push_back(id);
  r.lines[id] = Entry(s, id);
}

// Every entry of a handle, as acknowledged.
void ack_all(Trial& r, xs_session* s) {
  std::string all = Entries(s);
  for (size_t p = all.find("\"id\":\""); p != std::string::npos; p = all.find("\"id\":\"", p + 1)) {
    std::string id = all.substr(p + 6, all.find('"', p + 6) - p - 6);
    if (!r.lines.count(id)) ack(r, s, id.c_str());
  }
}

// --- the workloads --------------------------------------------------------------------------------

using Step = std::function<xs_status(Trial&)>;

struct Workload {
  std::string name;
  Step setup;  // unarmed, must succeed (may be empty)
  Step op;     // its library calls are armed through armed()
  bool unchanged = false;  // a failed op must leave the handle's entries and leaf as they were
};

xs_status open_store(Trial& r) {
  r.st = xs_store_new();
  return xs_store_open(r.st, r.dir.path().c_str(), nullptr);
}

xs_status open_writable(Trial& r, uint32_t flags = 0) {
  xs_session_options o = session_opts(flags);
  return xs_session_open(r.st, r.file().c_str(), &o, &r.s);
}

// The open under test: only xs_session_open is armed.
xs_status open_armed(Trial& r, uint32_t flags = 0) {
  xs_session_options o = session_opts(flags);
  std::string path = r.file();
  return armed([&] { return xs_session_open(r.st, path.c_str(), &o, &r.s); });
}

// s.jsonl with a user question, an answer and a model change.
xs_status write_base(Trial& r) {
  xs_status st = open_store(r);
  if (st != XS_OK) return st;
  st = open_writable(r, XS_SESSION_CREATE);
  char id[XS_ID_BUFSIZE];
  std::string u = user("base question"), a = assistant("base answer");
  if (st == XS_OK) st = xs_append_message(r.s, u.data(), u.size(), id);
  if (st == XS_OK) st = xs_append_message(r.s, a.data(), a.size(), id);
  if (st == XS_OK) st = xs_append_model_change(r.s, "p/m", nullptr, id);
  if (st == XS_OK) ack_all(r, r.s);
  xs_session_close(r.s);
  r.s = nullptr;
  return st;
}

xs_status base_then_open(Trial& r, uint32_t flags = 0) {
  xs_status st = write_base(r);
  return st == XS_OK ? open_writable(r, flags) : st;
}

// An append through `call` on r.s (which arms its library call); its id is acknowledged when it
// returns OK.
Step appending(std::function<xs_status(xs_session*, char*)> call) {
  return [call](Trial& r) {
    char id[XS_ID_BUFSIZE] = "";
    xs_status st = call(r.s, id);
    if (st == XS_OK) {
      ack(r, r.s, id);
      r.value = std::string(id) + "\n" + Entries(r.s);
    }
    return st;
  };
}

xs_status opened(Trial& r, xs_status st) {
  if (st == XS_OK) r.value = Header(r.s) + "\n" + Entries(r.s);
  return st;
}

std::vector<Workload> workloads() {
  std::vector<Workload> w;
  const char kV1[] = R"({"type":"session","id":"legacy1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w"}
{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"old"}}
garbage kept byte for byte
{"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"assistant","content":[]}}
)";
  w.push_back({"open writable: existing file", write_base,
               [](Trial& r) { return opened(r, open_armed(r)); }});
  w.push_back({"open read-only: existing file", write_base,
               [](Trial& r) { return opened(r, open_armed(r, XS_SESSION_READ_ONLY)); }});
  w.push_back({"open writable: v1 file (migration rewrite)",
               [kV1](Trial& r) {
                 WriteFile(r.file(), kV1);
                 xs_status st = open_store(r);
                 // The file's entries, with the ids a migration with this seed gives them: they
                 // are in the file before the operation, whether it migrates it or fails.
                 if (st == XS_OK) st = open_writable(r, XS_SESSION_READ_ONLY);
                 if (st == XS_OK) ack_all(r, r.s);
                 xs_session_close(r.s);
                 r.s = nullptr;
                 return st;
               },
               [](Trial& r) {
                 xs_status st = opened(r, open_armed(r));
                 if (st == XS_OK) ack_all(r, r.s);  // the migrated entries are the file's now
                 return st;
               }});
  w.push_back({"open writable: header-less file (preserved)",
               [](Trial& r) {
                 WriteFile(r.file(), "not a session\n");
                 return open_store(r);
               },
               [](Trial& r) { return opened(r, open_armed(r)); }});
  w.push_back({"create, no deferral (first write)", open_store, [](Trial& r) {
                 xs_session_options o = session_opts(XS_SESSION_NO_DEFER);
                 return opened(r, armed([&] { return xs_session_create(r.st, "/work", &o, &r.s); }));
               }});
  w.push_back({"append_message (buffered)", [](Trial& r) { return base_then_open(r); },
               appending([](xs_session* s, char* id) {
                 std::string m = user("more");
                 return armed([&] { return xs_append_message(s, m.data(), m.size(), id); });
               }),
               true});
  w.push_back({"append_message (sync)", [](Trial& r) { return base_then_open(r, XS_SESSION_SYNC); },
               appending([](xs_session* s, char* id) {
                 std::string m = assistant("synced");
                 return armed([&] { return xs_append_message(s, m.data(), m.size(), id); });
               }),
               true});
  w.push_back({"append (raw entry with its own id)", [](Trial& r) { return base_then_open(r); },
               appending([](xs_session* s, char* id) {
                 std::string e = R"({"type":"custom","id":"a-caller-chosen-id-longer-than-sso","customType":"raw",)"
                                 R"("data":{"n":1.50,"s":"é"}})";
                 return armed([&] { return xs_append(s, e.data(), e.size(), id); });
               }),
               true});
  w.push_back({"append_label", [](Trial& r) { return base_then_open(r); },
               appending([](xs_session* s, char* id) {
                 std::string leaf = Leaf(s);  // unarmed: the test's own read
                 return armed([&] { return xs_append_label(s, leaf.c_str(), "checkpoint", id); });
               }),
               true});
  w.push_back({"append_compaction", [](Trial& r) { return base_then_open(r); },
               appending([](xs_session* s, char* id) {
                 std::string leaf = Leaf(s);
                 xs_compaction c;
                 xs_compaction_init(&c, XS_COMPACTION_VERSION);
                 c.summary = "summary";
                 c.summary_len = 7;
                 c.first_kept_entry_id = leaf.c_str();
                 c.tokens_before = 1234;
                 return armed([&] { return xs_append_compaction(s, &c, id); });
               }),
               true});
  w.push_back({"append with an image (blob put)", [](Trial& r) { return base_then_open(r); },
               appending([](xs_session* s, char* id) {
                 std::string m = image_message();
                 return armed([&] { return xs_append_message(s, m.data(), m.size(), id); });
               }),
               true});
  w.push_back({"branch_with_summary", [](Trial& r) { return base_then_open(r); },
               appending([](xs_session* s, char* id) {
                 return armed([&] {
                   return xs_session_branch_with_summary(s, nullptr, "went back", 9, nullptr, 0, XS_UNSET, id);
                 });
               }),
               true});
  w.push_back({"first write of a deferred session",
               [](Trial& r) {
                 xs_status st = open_store(r);
                 xs_session_options o = session_opts(0);
                 if (st == XS_OK) st = xs_session_create(r.st, "/work", &o, &r.s);
                 char id[XS_ID_BUFSIZE];
                 std::string m = user("deferred question");
                 if (st == XS_OK) st = xs_append_message(r.s, m.data(), m.size(), id);
                 if (st == XS_OK) ack(r, r.s, id);  // acknowledged; written with the first answer
                 return st;
               },
               [](Trial& r) {
                 char id[XS_ID_BUFSIZE] = "";
                 std::string m = assistant("first answer");
                 xs_status st = armed([&] { return xs_append_message(r.s, m.data(), m.size(), id); });
                 if (st == XS_OK) {
                   ack_all(r, r.s);  // the deferred question is written with it
                   r.value = Entries(r.s);
                 }
                 return st;
               },
               true});
  w.push_back({"set_title (rewrite)", [](Trial& r) { return base_then_open(r); }, [](Trial& r) {
                 xs_status st = armed([&] { return xs_session_set_title(r.s, "a title ✓", 11); });
                 if (st == XS_OK) r.value = Header(r.s);
                 return st;
               }});
  w.push_back({"fork", [](Trial& r) { return base_then_open(r); }, [](Trial& r) {
                 xs_session_options o = session_opts(0);
                 o.id_seed = 777;
                 return armed([&] { return xs_session_fork(r.s, &o, &r.made); });
               }});
  w.push_back({"flush", [](Trial& r) {
                 xs_status st = base_then_open(r);
                 char id[XS_ID_BUFSIZE];
                 std::string m = user("to flush");
                 if (st == XS_OK) st = xs_append_message(r.s, m.data(), m.size(), id);
                 if (st == XS_OK) ack(r, r.s, id);
                 return st;
               },
               [](Trial& r) { return armed([&] { return xs_session_flush(r.s); }); }, true});
  w.push_back({"repair (a torn tail)",
               [](Trial& r) {
                 xs_status st = write_base(r);
                 std::string bytes = ReadFile(r.file()) + R"({"type":"message","id":"torn","mess)";
                 WriteFile(r.file(), bytes);
                 return st == XS_OK ? open_writable(r) : st;
               },
               [](Trial& r) {
                 std::string buf(1 << 16, '\0');
                 size_t n = 0;
                 xs_status st = armed([&] { return xs_session_repair(r.s, &buf[0], buf.size(), &n); });
                 if (st == XS_OK) r.value = buf.substr(0, n);
                 return st;
               },
               true});
  w.push_back({"reload (read-only, after another writer appended)",
               [](Trial& r) {
                 xs_status st = write_base(r);
                 xs_session* writer = nullptr;
                 if (st == XS_OK) st = open_writable(r, XS_SESSION_READ_ONLY);
                 if (st == XS_OK) {
                   xs_session_options o = session_opts(0);
                   o.id_seed = 99;
                   st = xs_session_open(r.st, r.file().c_str(), &o, &writer);
                 }
                 char id[XS_ID_BUFSIZE];
                 std::string m = assistant("from another writer");
                 if (st == XS_OK) st = xs_append_message(writer, m.data(), m.size(), id);
                 if (st == XS_OK) ack(r, writer, id);
                 if (writer) xs_session_close(writer);
                 return st;
               },
               [](Trial& r) {
                 int64_t added = 0;
                 xs_status st = armed([&] { return xs_session_reload(r.s, &added); });
                 if (st == XS_OK) r.value = std::to_string(added) + "\n" + Entries(r.s);
                 return st;
               },
               true});
  w.push_back({"move_to", [](Trial& r) { return base_then_open(r); }, [](Trial& r) {
                 xs_status st = armed([&] { return xs_session_move_to(r.s, "/elsewhere"); });
                 if (st == XS_OK) r.value = PathOf(r.s) + "\n" + Entries(r.s);
                 return st;
               }});
  w.push_back({"create_branched", [](Trial& r) { return base_then_open(r); }, [](Trial& r) {
                 xs_session_options o = session_opts(0);
                 o.id_seed = 777;
                 std::string leaf = Leaf(r.s);
                 xs_status st = armed([&] { return xs_session_create_branched(r.s, leaf.c_str(), &o, &r.made); });
                 if (st == XS_OK) r.value = Entries(r.made);
                 return st;
               }});
  w.push_back({"fork_from (store)", write_base, [](Trial& r) {
                 xs_session_options o = session_opts(0);
                 o.id_seed = 777;
                 std::string from = r.file();
                 xs_status st = armed([&] { return xs_session_fork_from(r.st, from.c_str(), "/other", &o, &r.made); });
                 if (st == XS_OK) r.value = Entries(r.made);
                 return st;
               }});
  w.push_back({"continue_recent (store, writes a breadcrumb)",
               [](Trial& r) {
                 xs_status st = open_store(r);
                 xs_session_options o = session_opts(XS_SESSION_NO_DEFER);
                 if (st == XS_OK) st = xs_session_create(r.st, "/work", &o, &r.s);
                 char id[XS_ID_BUFSIZE];
                 std::string m = assistant("in the store");
                 if (st == XS_OK) st = xs_append_message(r.s, m.data(), m.size(), id);
                 if (st == XS_OK) ack_all(r, r.s);
                 if (st == XS_OK) r.path = PathOf(r.s);
                 xs_session_close(r.s);
                 r.s = nullptr;
                 return st;
               },
               [](Trial& r) {
                 xs_session_options o = session_opts(0);
                 xs_status st = armed([&] { return xs_session_continue_recent(r.st, "/work", "term-1", &o, &r.s); });
                 if (st == XS_OK) r.value = PathOf(r.s) + "\n" + Entries(r.s);
                 return st;
               }});
  w.push_back({"blob put (store)", open_store, [](Trial& r) {
                 std::string data(5000, 'b');
                 char hash[XS_HASH_BUFSIZE] = "";
                 xs_status st = armed([&] { return xs_blob_put(r.st, data.data(), data.size(), hash); });
                 if (st == XS_OK) r.value = hash;
                 return st;
               }});
  w.push_back({"blob gc and store list (store)",
               [](Trial& r) {
                 xs_status st = base_then_open(r);
                 char id[XS_ID_BUFSIZE], hash[XS_HASH_BUFSIZE];
                 std::string m = image_message(), orphan(3000, 'o');
                 if (st == XS_OK) st = xs_append_message(r.s, m.data(), m.size(), id);
                 if (st == XS_OK) ack(r, r.s, id);
                 if (st == XS_OK) st = xs_blob_put(r.st, orphan.data(), orphan.size(), hash);
                 xs_session_close(r.s);
                 r.s = nullptr;
                 return st;
               },
               [](Trial& r) {
                 xs_gc_options g;
                 xs_gc_options_init(&g, XS_GC_OPTIONS_VERSION);
                 g.grace_ms = 0;
                 g.now_ms = kT0 + 365LL * 86400000;
                 std::string buf(1 << 16, '\0');
                 size_t n = 0;
                 xs_status st = armed([&] { return xs_blob_gc(r.st, &g, &buf[0], buf.size(), &n); });
                 if (st != XS_OK) return st;
                 r.value = buf.substr(0, n);
                 xs_list_options l;
                 xs_list_options_init(&l, XS_LIST_OPTIONS_VERSION);
                 st = armed([&] { return xs_store_list(r.st, &l, &buf[0], buf.size(), &n); });
                 if (st == XS_OK) r.value += "\n" + std::to_string(Count(buf.substr(0, n), "\"path\":"));
                 return st;
               }});
  auto reads = std::vector<std::pair<const char*, std::function<xs_status(xs_session*, char*, size_t, size_t*)>>>{
      {"build_context", [](xs_session* s, char* b, size_t c, size_t* n) { return xs_build_context(s, nullptr, b, c, n); }},
      {"entries", [](xs_session* s, char* b, size_t c, size_t* n) { return xs_session_entries(s, 0, b, c, n); }},
      {"tree", [](xs_session* s, char* b, size_t c, size_t* n) { return xs_session_tree(s, 0, b, c, n); }},
      {"verify", [](xs_session* s, char* b, size_t c, size_t* n) { return xs_session_verify(s, b, c, n); }},
      {"info", [](xs_session* s, char* b, size_t c, size_t* n) { return xs_session_info(s, b, c, n); }},
  };
  for (auto& [name, read] : reads) {
    auto f = read;
    w.push_back({std::string("read: ") + name,
                 [](Trial& r) {
                   xs_status st = base_then_open(r);
                   char id[XS_ID_BUFSIZE];
                   std::string m = image_message();  // a blob to resolve
                   if (st == XS_OK) st = xs_append_message(r.s, m.data(), m.size(), id);
                   if (st == XS_OK) ack(r, r.s, id);
                   return st;
                 },
                 [f](Trial& r) {
                   // A caller with a buffer large enough: one call computes and copies.
                   std::string buf(1 << 20, '\0');
                   size_t n = 0;
                   xs_status st = armed([&] { return f(r.s, &buf[0], buf.size(), &n); });
                   if (st == XS_OK) r.value = buf.substr(0, n);
                   return st;
                 }});
  }
  return w;
}

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

// Temp files anywhere under `dir` (no failed unlink in these runs: none may be left).
std::string temp_files(const std::string& dir) {
  for (const std::string& name : ListDir(dir)) {
    std::string path = dir + "/" + name;
    if (name.find(".xs-tmp-") != std::string::npos) return "a temp file survived: " + path;
    struct stat st;
    if (::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      std::string inner = temp_files(path);
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
  if (problem.empty()) problem = temp_files(r.dir.path());
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
