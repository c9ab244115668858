// The workloads of the allocation-failure matrix (oom_test.cc, docs/guarantees.md#t5): C API
// operations, each with a setup (unarmed, must succeed) and the operation, whose library calls
// are armed through armed() (oom_hook.h). A run records what the library acknowledged (entry ids
// and their lines) and the operation's value, for the checks in oom_test.cc.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "capi_test_util.h"
#include "oom_hook.h"

namespace oom_test {

using namespace xstest;  // NOLINT: the C API tests' helpers

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
  std::string original;          // a header-less file's bytes, which every .corrupt-* copy must hold
  std::string file() const { return dir.path() + "/s.jsonl"; }
  std::string session_file() const { return path.empty() ? file() : path; }
  ~Trial() {
    if (s) xs_session_close(s);
    if (made) xs_session_close(made);
    if (st) xs_store_free(st);
  }
};

inline xs_session_options session_opts(uint32_t flags) {
  xs_session_options o;
  xs_session_options_init(&o, XS_SESSION_OPTIONS_VERSION);
  o.flags = flags | XS_SESSION_FIXED_CLOCK;
  o.clock_start_ms = kT0;
  o.clock_step_ms = kStep;
  o.id_seed = kSeed;
  o.cwd = "/work";
  return o;
}

inline std::string user(const std::string& text) { return R"({"role":"user","content":")" + text + "\"}"; }
inline std::string assistant(const std::string& text) {
  return R"({"role":"assistant","content":[{"type":"text","text":")" + text +
         R"("}],"provider":"p","model":"m","usage":{"input":1,"output":1},"stopReason":"stop","timestamp":1})";
}
inline std::string image_message() {
  std::string b64;
  for (int i = 0; i < 300; ++i) b64 += "QUJD";
  return R"({"role":"user","content":[{"type":"text","text":"look"},{"type":"image","data":")" + b64 +
         R"(","mimeType":"image/png"}]})";
}

// Notes an entry the library acknowledged (with memory back).
inline void ack(Trial& r, xs_session* s, const char* id) {
  r.acked.push_back(id);
  r.lines[id] = Entry(s, id);
}

// Every entry of a handle, as acknowledged.
inline void ack_all(Trial& r, xs_session* s) {
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

inline xs_status open_store(Trial& r) {
  r.st = xs_store_new();
  return xs_store_open(r.st, r.dir.path().c_str(), nullptr);
}

inline xs_status open_writable(Trial& r, uint32_t flags = 0) {
  xs_session_options o = session_opts(flags);
  return xs_session_open(r.st, r.file().c_str(), &o, &r.s);
}

// The open under test: only xs_session_open is armed.
inline xs_status open_armed(Trial& r, uint32_t flags = 0) {
  xs_session_options o = session_opts(flags);
  std::string path = r.file();
  return armed([&] { return xs_session_open(r.st, path.c_str(), &o, &r.s); });
}

// s.jsonl with a user question, an answer and a model change.
inline xs_status write_base(Trial& r) {
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

inline xs_status base_then_open(Trial& r, uint32_t flags = 0) {
  xs_status st = write_base(r);
  return st == XS_OK ? open_writable(r, flags) : st;
}

// An append through `call` on r.s (which arms its library call); its id is acknowledged when it
// returns OK.
inline Step appending(std::function<xs_status(xs_session*, char*)> call) {
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

inline xs_status opened(Trial& r, xs_status st) {
  if (st == XS_OK) r.value = Header(r.s) + "\n" + Entries(r.s);
  return st;
}

// A session of 9 MiB, large enough for the parallel loader (8 MiB and up): a share that runs out of
// memory must not end the process with its other thread unjoined (it did: JoinAll). Written once,
// shared by every run (they only read it); *ids gets its entries' ids.
inline const std::string& big_session(std::vector<std::string>* ids) {
  static TempDir dir;
  static std::string path;
  static std::vector<std::string> entry_ids;
  if (path.empty()) {
    xs_store* st = xs_store_new();
    xs_store_open(st, dir.path().c_str(), nullptr);
    xs_session_options o = session_opts(XS_SESSION_CREATE);
    xs_session* s = nullptr;
    std::string p = dir.path() + "/big.jsonl";
    if (xs_session_open(st, p.c_str(), &o, &s) == XS_OK) {
      std::string text(100000, 'x');
      for (int i = 0; i < 95; ++i) {
        std::string m = i % 2 ? assistant(text) : user(text);
        char id[XS_ID_BUFSIZE];
        if (xs_append_message(s, m.data(), m.size(), id) == XS_OK) entry_ids.push_back(id);
      }
      xs_session_close(s);
      path = p;
    }
    xs_store_free(st);
  }
  *ids = entry_ids;
  return path;
}

inline std::vector<Workload> workloads() {
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
                 r.original = "not a session\n";
                 WriteFile(r.file(), r.original);
                 return open_store(r);
               },
               [](Trial& r) { return opened(r, open_armed(r)); }});
  w.push_back({"open read-only: a 9 MiB file (parallel loader)",
               [](Trial& r) {
                 std::vector<std::string> ids;
                 r.path = big_session(&ids);
                 xs_status st = open_store(r);
                 xs_session_options o = session_opts(XS_SESSION_READ_ONLY);
                 xs_session* s = nullptr;
                 if (st == XS_OK) st = xs_session_open(r.st, r.path.c_str(), &o, &s);
                 if (st == XS_OK) ack_all(r, s);
                 xs_session_close(s);
                 return ids.size() == 95 ? st : XS_ERROR;
               },
               [](Trial& r) {
                 xs_session_options o = session_opts(XS_SESSION_READ_ONLY);
                 std::string path = r.path;
                 xs_status st = armed([&] { return xs_session_open(r.st, path.c_str(), &o, &r.s); });
                 if (st == XS_OK) r.value = std::to_string(Entries(r.s).size());
                 return st;
               }});
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
                 xs_status st = armed([&] { return xs_session_repair(r.s, 0, &buf[0], buf.size(), &n); });
                 if (st == XS_OK) r.value = buf.substr(0, n);
                 return st;
               },
               true});
  w.push_back({"repair with XS_REPAIR_QUARANTINE (garbage, invalid UTF-8, a torn tail)",
               [](Trial& r) {
                 xs_status st = write_base(r);
                 WriteFile(r.file(), ReadFile(r.file()) + "garbage\n{\"bad utf-8\":\"\xff\"}\n" +
                                         R"({"type":"message","id":"torn","mess)");
                 return st == XS_OK ? open_writable(r) : st;
               },
               [](Trial& r) {
                 std::string buf(1 << 16, '\0');
                 size_t n = 0;
                 xs_status st =
                     armed([&] { return xs_session_repair(r.s, XS_REPAIR_QUARANTINE, &buf[0], buf.size(), &n); });
                 if (st == XS_OK) r.value = buf.substr(0, n) + "\n" + ReadFile(r.file());
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

}  // namespace oom_test
