// The workloads of the fault matrix (docs/guarantees.md#t4, proving #g9 and #g11): every public
// operation of Session that touches the disk, and the blob store's upkeep. Shared by
// fault_injection_test.cc (a seam call fails) and short_write_test.cc (a write(2) is interrupted,
// short, or writes nothing).
//
// A workload has three steps. prepare() builds a template directory once, through a healthy seam;
// every run starts from a fresh copy of it. setup() brings the run up to the operation (opens the
// session, appends what the operation needs) through the run's seam with no fault armed. op() is
// the one operation under test: the harness counts its calls in a fault-free run, then fails each
// of them in turn. Every handle has a fixed clock and id seed, so two runs that succeed write the
// same bytes and an OK result can be compared with the fault-free one, byte for byte.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "blobs/blob_store.h"
#include "blobs/blob_upkeep.h"
#include "reliability_util.h"
#include "session/forks.h"
#include "storage/faulty_fs.h"

namespace xs::test::faults {

using session::Session;
using session::SessionOptions;

constexpr uint64_t kSeed = 4242;                    // ids of the prepared sessions and their handles
constexpr uint64_t kForkSeed = 7777;                // files made from them (fork...): other ids
constexpr int64_t kClockStart = 1767225600000;      // 2026-01-01T00:00:00Z
constexpr int64_t kGcNow = kClockStart + 86400000;  // the collector's "now", a day later
constexpr int64_t kHourMs = 3600 * 1000;

// An entry the API acknowledged: found again, once and byte for byte, after any fault.
struct Ack {
  std::string session_id;  // the header id of its session (a moved file keeps it)
  std::string id;
  std::string line;
};

// What the op changes: the handle's own file (a failed write poisons it), a new file made from
// the handle (fork...: the source must stay usable), or only the blob store / nothing.
enum class Target { kSession, kNewFile, kNone };

// One execution of a workload, in its own directory.
struct Trial {
  std::shared_ptr<storage::FaultyFs> fs;
  std::string root;
  std::shared_ptr<blobs::BlobStore> blobs;  // at <root>/blobs, over fs (workloads that use blobs)
  std::unique_ptr<Session> s;               // the handle the operation works on
  std::unique_ptr<Session> made;            // a handle the operation made (fork...)
  bool closed = false;                      // the operation was close()
  std::vector<Ack> acked;                   // the prepared entries, then what the run appended
  std::vector<Ack> pending;                 // appended while the session was not on disk yet
  std::string value;                        // what the operation returned (on OK)
  int fds_before = 0;                       // open descriptors before the run's seam existed
  std::string file() const { return root + "/s.jsonl"; }
};

using Op = std::function<Status(Trial&)>;

struct Workload {
  std::string name;
  std::function<void(Trial&)> prepare;  // the template, through a healthy seam (may be empty)
  Op setup;                             // through the run's seam, unarmed; must succeed (may be empty)
  Op op;                                // the operation under test
  Target target = Target::kSession;
  bool reads_only = false;  // after a failure, the same call on a healthy seam gives the fault-free value
  bool blobs = false;       // the run has a blob store
};

inline SessionOptions opts(const Trial& r, bool create = false, bool defer = false, uint64_t seed = kSeed) {
  SessionOptions o;
  o.create_if_missing = create;
  o.defer_until_assistant = defer;
  o.cwd = "/work";
  o.clock = format::Clock::Fixed(kClockStart, 1000);
  o.id_seed = seed;
  o.blobs = r.blobs;
  return o;
}

inline SessionOptions read_opts(const Trial& r) {
  SessionOptions o = opts(r);
  o.read_only = true;
  return o;
}

// Everything a handle shows of its session: compared with the fault-free run.
inline std::string state(const Session& s) {
  return std::string(s.header()) + "\n" + s.entries_json() + "\n" + s.diagnostics_json();
}

// Entries appended while the session is deferred are promised only once it is on disk.
inline void settle(Trial& r, const Session& s) {
  if (!s.persisted()) return;
  for (Ack& a : r.pending) {
    if (a.session_id == s.header_info().id) r.acked.push_back(std::move(a));
  }
  r.pending.erase(std::remove_if(r.pending.begin(), r.pending.end(),
                                 [&](const Ack& a) { return a.session_id == s.header_info().id; }),
                  r.pending.end());
}

inline void note_append(Trial& r, Session& s, const Status& st, const std::string& id) {
  if (!st.ok()) return;
  auto line = s.entry_json(id);
  r.pending.push_back({s.header_info().id, id, line.ok() ? *line : "<" + line.status().message() + ">"});
  settle(r, s);
}

// Runs one append on r.s and records what it acknowledged.
inline Status append(Trial& r, const std::function<Status(Session&, std::string*)>& f) {
  std::string id;
  Status st = f(*r.s, &id);
  note_append(r, *r.s, st, id);
  if (st.ok()) r.value = id + "\n" + state(*r.s);
  return st;
}

inline Status append_text(Trial& r, const std::string& message) {
  return append(r, [&](Session& s, std::string* id) { return s.append_message(message, id); });
}

inline Status keep(Trial& r, Result<std::unique_ptr<Session>> opened, std::unique_ptr<Session>* slot) {
  if (!opened.ok()) return opened.status();
  *slot = std::move(*opened);
  r.value = (*slot)->path() + "\n" + state(**slot);
  return Status::Ok();
}

// A file made from a session (fork...) is written whole before the call returns: all of its
// entries are acknowledged, as the new handle shows them.
inline Status keep_made(Trial& r, Result<std::unique_ptr<Session>> made) {
  XS_RETURN_IF_ERROR(keep(r, std::move(made), &r.made));
  auto l = load(read_file(r.made->path()));
  for (const model::Entry& e : l->data.entries) {
    auto line = r.made->entry_json(e.id);
    r.acked.push_back({r.made->header_info().id, std::string(e.id), line.ok() ? *line : "<missing>"});
  }
  return Status::Ok();
}

inline Status open_session(Trial& r, SessionOptions o) { return keep(r, Session::open(r.fs, r.file(), o), &r.s); }
inline Status open_base(Trial& r) { return open_session(r, opts(r)); }

// --- the template files ---

// The bytes of the image below, which the store keeps under their hash.
inline std::string image_bytes() {
  std::string b;
  for (int i = 0; i < 300; ++i) b += "ABC";
  return b;
}

// An image block large enough to go to the blob store ("ABC" x 300 as base64).
inline std::string image_message() {
  std::string b64;
  for (int i = 0; i < 300; ++i) b64 += "QUJD";
  return R"({"role":"user","content":[{"type":"text","text":"look"},{"type":"image","data":")" + b64 +
         R"(","mimeType":"image/png"}]})";
}

// s.jsonl: a user message, an assistant answer and a model change, written by the engine.
inline void write_base(Trial& t, bool image = false) {
  auto s = Session::open(t.fs, t.file(), opts(t, /*create=*/true));
  ASSERT_TRUE(s.ok()) << s.status().message();
  std::string id;
  ASSERT_TRUE((*s)->append_message(user_message("base question"), &id).ok());
  ASSERT_TRUE((*s)->append_message(assistant_message("base answer"), &id).ok());
  ASSERT_TRUE((*s)->append_model_change("p/m", std::nullopt, &id).ok());
  if (image) {
    ASSERT_TRUE((*s)->append_message(image_message(), &id).ok());
  }
  ASSERT_TRUE((*s)->close().ok());
}

inline void write_torn(Trial& t) {
  write_base(t);
  append_file(*t.fs, t.file(), R"({"type":"message","id":"torn","mess)");
}

inline void set_mtime(const std::string& path, int64_t ms) {
  struct timespec ts[2];
  ts[0].tv_sec = ts[1].tv_sec = ms / 1000;
  ts[0].tv_nsec = ts[1].tv_nsec = (ms % 1000) * 1000000;
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), ts, 0), 0) << path;
}

// A store for the collector: s.jsonl references the image blob; one blob is unreferenced and
// old, one unreferenced and young, and an old put left a temp file behind.
inline void write_gc_store(Trial& t) {
  write_base(t, /*image=*/true);
  std::string old_hash, young_hash;
  ASSERT_TRUE(t.blobs->put("an unreferenced old blob", &old_hash).ok());
  ASSERT_TRUE(t.blobs->put("an unreferenced young blob", &young_hash).ok());
  std::string leftover = t.blobs->dir() + "/." + blobs::sha256_hex("interrupted") + ".xs-tmp-0123456789abcdef";
  write_file(leftover, "interr");
  for (const std::string& name : test::list_dir(t.blobs->dir())) {
    set_mtime(t.blobs->dir() + "/" + name, kGcNow - 2 * kHourMs);
  }
  set_mtime(t.blobs->path_of(young_hash), kGcNow - kHourMs / 6);
}

// A v1 file (no ids; a line the loader skips, which the rewrite keeps) and a v2 file (a hookMessage,
// which v3 calls a custom message).
constexpr char kV1File[] = R"({"type":"session","id":"legacy1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w"}
{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"old"}}
garbage kept byte for byte
{"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"assistant","content":[]}}
)";
constexpr char kV2File[] = R"({"type":"session","version":2,"id":"legacy2","timestamp":"2025-01-01T00:00:00Z",)"
                           R"("cwd":"/w"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2025-01-01T00:00:01Z","message":{"role":"hookMessage",)"
                           R"("content":"h"}}
{"type":"message","id":"a2","parentId":"a1","timestamp":"2025-01-01T00:00:02Z","message":{"role":"user","content":"u"}}
)";

// A read whose blob could not be read leaves the ref in place and reports it: an error, told
// apart from a wrong result by the report naming the injected failure.
inline Status degraded_read(const Session& s, const std::string& out) {
  if (out.find("blob:sha256:") == std::string::npos) return Status::Ok();
  if (s.diagnostics_json().find("injected fault") != std::string::npos) {
    return Status::Io("a blob ref was left in place and reported");
  }
  return Status::Internal("a blob ref was left in place without a report");
}

inline std::vector<Workload> workloads() {
  std::vector<Workload> w;
  auto base = [](Trial& t) { write_base(t); };

  // --- opening for writing ---
  w.push_back({"open writable: new file, deferral off", nullptr, nullptr,
               [](Trial& r) { return open_session(r, opts(r, true, false)); }});
  w.push_back({"open writable: new file, deferred (nothing written)", nullptr, nullptr,
               [](Trial& r) { return open_session(r, opts(r, true, true)); }});
  w.push_back({"create: new session in a new directory, deferral off", nullptr, nullptr, [](Trial& r) {
                 return keep(r, Session::create(r.fs, r.root + "/sessions/--work--", opts(r, true, false)), &r.s);
               }});
  w.push_back({"open writable: existing file", base, nullptr, open_base});
  w.push_back({"open writable: existing file and a leftover temp file",
               [](Trial& t) {
                 write_base(t);
                 write_file(t.root + "/.s.jsonl.xs-tmp-0123456789abcdef", "half a rewrite");
               },
               nullptr, open_base});
  w.push_back({"open writable: v1 file (migration rewrite)", [](Trial& t) { write_file(t.file(), kV1File); }, nullptr,
               open_base});
  w.push_back({"open writable: v2 file (migration rewrite)", [](Trial& t) { write_file(t.file(), kV2File); }, nullptr,
               open_base});
  w.push_back({"open writable: header-less file (preserved, then replaced)",
               [](Trial& t) { write_file(t.file(), "not a session\n{\"half\":"); }, nullptr, open_base});
  w.push_back({"open writable: torn tail", write_torn, nullptr, open_base});

  // --- the first write of a deferred session ---
  w.push_back({"first write: the first assistant message", nullptr,
               [](Trial& r) {
                 XS_RETURN_IF_ERROR(open_session(r, opts(r, true, true)));
                 return append_text(r, user_message("deferred question"));
               },
               [](Trial& r) { return append_text(r, assistant_message("first answer")); }});
  w.push_back({"persist of a deferred session", nullptr,
               [](Trial& r) {
                 XS_RETURN_IF_ERROR(open_session(r, opts(r, true, true)));
                 return append_text(r, user_message("deferred question"));
               },
               [](Trial& r) {
                 Status st = r.s->persist();
                 settle(r, *r.s);
                 if (st.ok()) r.value = state(*r.s);
                 return st;
               }});

  // --- every append kind, on an open session with a file ---
  using AppendFn = std::function<Status(Session&, std::string*)>;
  auto appends = std::vector<std::pair<const char*, AppendFn>>{
      {"append_message", [](Session& s, std::string* id) { return s.append_message(user_message("more"), id); }},
      {"append_entry", [](Session& s, std::string* id) {
         return s.append_entry(R"({"type":"custom","customType":"raw","data":{"n":1.50}})", id);
       }},
      {"append_thinking_level", [](Session& s, std::string* id) { return s.append_thinking_level("high", id); }},
      {"append_model_change", [](Session& s, std::string* id) { return s.append_model_change("q/n", "smol", id); }},
      {"append_compaction", [](Session& s, std::string* id) {
         session::CompactionArgs a;
         a.summary = "summary";
         std::string kept(*s.leaf_id());
         a.first_kept_entry_id = kept;
         a.tokens_before = 1234;
         a.details_json = R"({"files":["a"]})";
         return s.append_compaction(a, id);
       }},
      {"append_custom", [](Session& s, std::string* id) { return s.append_custom("ext", R"({"k":[1,2]})", id); }},
      {"append_custom_message", [](Session& s, std::string* id) {
         session::CustomMessageArgs a;
         a.custom_type = "note";
         a.content_json = R"("hello")";
         return s.append_custom_message(a, id);
       }},
      {"append_label", [](Session& s, std::string* id) {
         std::string target(*s.leaf_id());
         return s.append_label(target, std::string_view("checkpoint"), id);
       }},
      {"append_ttsr_injection",
       [](Session& s, std::string* id) { return s.append_ttsr_injection(R"(["r1","r2"])", id); }},
      {"append_session_init", [](Session& s, std::string* id) {
         session::SessionInitArgs a;
         a.system_prompt = "be brief";
         a.task = "t";
         a.tools_json = R"(["read","write"])";
         return s.append_session_init(a, id);
       }},
      {"append_mode_change",
       [](Session& s, std::string* id) { return s.append_mode_change("plan", R"({"x":true})", id); }},
      {"branch_with_summary", [](Session& s, std::string* id) {
         std::string from(*s.leaf_id());
         XS_RETURN_IF_ERROR(s.set_leaf(std::nullopt));
         return s.branch_with_summary(from, "went back", std::nullopt, true, id);
       }},
  };
  for (auto& [name, fn] : appends) {
    AppendFn f = fn;
    w.push_back({std::string(name) + " (buffered)", base, open_base, [f](Trial& r) { return append(r, f); }});
  }
  w.push_back({"append_message (sync durability)", base,
               [](Trial& r) {
                 SessionOptions o = opts(r);
                 o.durability = session::Durability::kSync;
                 return open_session(r, o);
               },
               [](Trial& r) { return append_text(r, user_message("synced")); }});
  w.push_back({"append_message after a torn tail (newline first)", write_torn, open_base,
               [](Trial& r) { return append_text(r, user_message("after the fragment")); }});
  w.push_back({"append_message with an image (blob put, new blob)", base, open_base,
               [](Trial& r) { return append_text(r, image_message()); }, Target::kSession, false, true});
  w.push_back({"append_message with an image already stored (blob touched)",
               [](Trial& t) {
                 write_base(t);
                 std::string hash;
                 ASSERT_TRUE(t.blobs->put(image_bytes(), &hash).ok());
               },
               open_base, [](Trial& r) { return append_text(r, image_message()); }, Target::kSession, false, true});

  // --- rewrites, persistence, closing ---
  w.push_back({"set_title (atomic rewrite)", base,
               [](Trial& r) {
                 XS_RETURN_IF_ERROR(open_base(r));
                 return append_text(r, user_message("before the title"));  // an append descriptor is open
               },
               [](Trial& r) {
                 Status st = r.s->set_title(std::string_view("renamed"));
                 if (st.ok()) r.value = state(*r.s);
                 return st;
               }});
  w.push_back({"flush after buffered appends", base,
               [](Trial& r) {
                 XS_RETURN_IF_ERROR(open_base(r));
                 return append_text(r, user_message("buffered"));
               },
               [](Trial& r) {
                 r.value = state(*r.s);
                 return r.s->flush();
               }});
  w.push_back({"close after buffered appends", base,
               [](Trial& r) {
                 XS_RETURN_IF_ERROR(open_base(r));
                 return append_text(r, user_message("buffered"));
               },
               [](Trial& r) {
                 r.closed = true;
                 r.value = state(*r.s);
                 return r.s->close();
               }});
  w.push_back({"repair: the newline a torn tail lacks", write_torn, open_base, [](Trial& r) {
                 auto done = r.s->repair();
                 if (!done.ok()) return done.status();
                 r.value = *done + "\n" + state(*r.s);
                 return Status::Ok();
               }});
  w.push_back({"repair: quarantine of the lines that are not JSON (quarantine file, then a rewrite)",
               [](Trial& t) {
                 write_base(t);
                 append_file(*t.fs, t.file(), "garbage\n{\"bad utf-8\":\"\xff\"}\n" R"({"type":"message","id":"torn","mess)");
               },
               open_base, [](Trial& r) {
                 auto done = r.s->repair(session::RepairMode::kQuarantine);
                 if (!done.ok()) return done.status();
                 r.value = *done + "\n" + state(*r.s);
                 return Status::Ok();
               }});

  // --- new files from a session, and moving it ---
  w.push_back({"fork", base, open_base,
               [](Trial& r) { return keep_made(r, session::fork_session(*r.s, opts(r, false, false, kForkSeed))); },
               Target::kNewFile});
  w.push_back({"create_branched (a label on the path)",
               [](Trial& t) {
                 write_base(t);
                 auto s = Session::open(t.fs, t.file(), opts(t));
                 ASSERT_TRUE(s.ok());
                 std::string target(*(*s)->leaf_id()), id;
                 ASSERT_TRUE((*s)->append_label(target, std::string_view("here"), &id).ok());
                 ASSERT_TRUE((*s)->append_message(user_message("after the label"), &id).ok());
                 ASSERT_TRUE((*s)->close().ok());
               },
               open_base,
               [](Trial& r) {
                 return keep_made(r, session::create_branched(*r.s, std::nullopt, opts(r, false, false, kForkSeed)));
               },
               Target::kNewFile});
  w.push_back({"fork_from (into another directory)", base, nullptr,
               [](Trial& r) {
                 SessionOptions o = opts(r, false, false, kForkSeed);
                 o.cwd = "/elsewhere";
                 return keep_made(r, session::fork_from(r.fs, r.file(), r.root + "/other", o));
               },
               Target::kNewFile});
  w.push_back({"move_to another directory (with the artifacts directory)",
               [](Trial& t) {
                 write_base(t);
                 ASSERT_EQ(::mkdir((t.root + "/s").c_str(), 0700), 0);
                 write_file(t.root + "/s/artifact.txt", "an artifact");
               },
               open_base, [](Trial& r) {
                 XS_RETURN_IF_ERROR(r.s->move_to(r.root + "/moved", "/moved"));
                 r.value = r.s->path() + "\n" + state(*r.s);
                 return Status::Ok();
               }});
  w.push_back({"move_to the same directory (cwd only)", base, open_base, [](Trial& r) {
                 XS_RETURN_IF_ERROR(r.s->move_to(r.root, "/other/cwd"));
                 r.value = r.s->path() + "\n" + state(*r.s);
                 return Status::Ok();
               }});

  // --- reading ---
  w.push_back({"read-only open", base, nullptr, [](Trial& r) { return open_session(r, read_opts(r)); },
               Target::kNone, true});
  w.push_back({"read-only open of a large file (parallel loader)",
               [](Trial& t) {
                 auto s = Session::open(t.fs, t.file(), opts(t, true));
                 ASSERT_TRUE(s.ok());
                 std::string id, text(64 * 1024, 'z');
                 for (int i = 0; i < 136; ++i) ASSERT_TRUE((*s)->append_message(user_message(text), &id).ok());
                 ASSERT_TRUE((*s)->close().ok());
               },
               nullptr, [](Trial& r) { return open_session(r, read_opts(r)); }, Target::kNone, true});
  auto reload_op = [](Trial& r) {
    int64_t added = 0;
    XS_RETURN_IF_ERROR(r.s->reload(&added));
    r.value = std::to_string(added) + "\n" + state(*r.s);
    return Status::Ok();
  };
  w.push_back({"reload: a tail another writer appended", base,
               [](Trial& r) {
                 XS_RETURN_IF_ERROR(open_session(r, read_opts(r)));
                 auto writer = Session::open(storage::make_posix_fs(), r.file(), opts(r));
                 XS_RETURN_IF_ERROR(writer.status());
                 std::string id;
                 XS_RETURN_IF_ERROR((*writer)->append_message(user_message("from the writer"), &id));
                 return (*writer)->close();
               },
               reload_op, Target::kNone, true});
  w.push_back({"reload: the file was replaced by a rewrite", base,
               [](Trial& r) {
                 XS_RETURN_IF_ERROR(open_session(r, read_opts(r)));
                 auto writer = Session::open(storage::make_posix_fs(), r.file(), opts(r));
                 XS_RETURN_IF_ERROR(writer.status());
                 XS_RETURN_IF_ERROR((*writer)->set_title(std::string_view("retitled")));
                 return (*writer)->close();
               },
               reload_op, Target::kNone, true});
  auto image_base = [](Trial& t) { write_base(t, /*image=*/true); };
  auto open_image_read = [](Trial& r) { return open_session(r, read_opts(r)); };
  w.push_back({"context with its blobs resolved", image_base, open_image_read,
               [](Trial& r) {
                 auto c = r.s->context(std::nullopt);
                 if (!c.ok()) return c.status();
                 r.value = *c;
                 return degraded_read(*r.s, *c);
               },
               Target::kNone, true, true});
  w.push_back({"entries_json with blobs resolved", image_base, open_image_read,
               [](Trial& r) {
                 r.value = r.s->entries_json(/*resolve_blobs=*/true);
                 return degraded_read(*r.s, r.value);
               },
               Target::kNone, true, true});
  w.push_back({"verify_json (checks every blob)", image_base, open_image_read,
               [](Trial& r) {
                 r.value = r.s->verify_json();
                 bool reported = r.value.find("injected fault") != std::string::npos;
                 return reported ? Status::Io("a blob was reported unreadable") : Status::Ok();
               },
               Target::kNone, true, true});

  // --- the blob store's upkeep ---
  auto gc = [](bool dry) {
    return [dry](Trial& r) {
      blobs::GcOptions o;
      o.now_ms = kGcNow;
      o.dry_run = dry;
      auto rep = blobs::collect_garbage(*r.fs, *r.blobs, r.root, o);
      if (!rep.ok()) return rep.status();
      r.value = blobs::gc_report_json(*rep);
      return Status::Ok();
    };
  };
  w.push_back({"blob gc", write_gc_store, nullptr, gc(false), Target::kNone, false, true});
  w.push_back({"blob gc, dry run", write_gc_store, nullptr, gc(true), Target::kNone, true, true});
  auto list = [](bool verify) {
    return [verify](Trial& r) {
      auto l = blobs::list_blobs(*r.fs, *r.blobs, verify);
      if (!l.ok()) return l.status();
      r.value = blobs::listing_json(*l, verify);
      if (r.value.find("injected fault") != std::string::npos) return Status::Io("a blob was reported unreadable");
      return Status::Ok();
    };
  };
  w.push_back({"blob list", write_gc_store, nullptr, list(false), Target::kNone, true, true});
  w.push_back({"blob list with verification", write_gc_store, nullptr, list(true), Target::kNone, true, true});
  return w;
}

}  // namespace xs::test::faults
