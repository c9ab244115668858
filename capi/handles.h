// What the opaque C handles are, and the two mechanisms every C entry point shares: the guard
// that turns a core Status (or a stray C++ exception) into an xs_status plus the handle's error
// text, and the caller-buffer fill with its cached result.
//
// capi/ only translates: argument checks, C <-> C++ types, status mapping. Behaviour lives in core/.
#pragma once

#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "session/session.h"
#include "store/store.h"
#include "util/status.h"
#include "xsession.h"

namespace xs::capi {

struct ErrorSlot {
  xs_status code = XS_OK;
  std::string message;

  xs_status set(xs_status c, std::string m) {
    code = c;
    message = std::move(m);
    return c;
  }
  xs_status from(const Status& st) { return set(static_cast<xs_status>(st.code()), st.ok() ? "" : st.message()); }
};

// Which call produced a cached output: one number per C function that fills a caller buffer, so
// a cached result is only ever reused by the same call. Store and session handles have caches of
// their own, but one numbering for all keeps a new function from reusing another's number.
enum class OutputId : int {
  kNone = 0,
  // store handles
  kSessionDir,
  kBlobGet,
  kList,
  kResolve,
  kBlobList,
  kBlobGc,
  kKeysGet,
  kKeysList,
  kKeysFixStats,
  kArchive,
  kPrune,
  kImport,
  kForeignList,
  // session handles
  kContext,
  kHeader,
  kEntries,
  kEntry,
  kPath,
  kChildren,
  kTree,
  kLabels,
  kLeaf,
  kDiagnostics,
  kInfo,
  kUsage,
  kStats,
  kVerify,
  kRepair,
  kCompactionPlan,
  kResumeCheck,
  // history handles
  kHistorySearch,
  kHistoryRecent,
  kHistoryInfo,
  // index handles
  kIndexRebuild,
  kIndexRefresh,
  kIndexVerify,
  kIndexList,
  kIndexInfo,
  kSearch,
  // bundles (store handles)
  kExport,
  kImportBundle,
  // store handles (the HTML view)
  kExportHtml,
};

// The last result that did not fit the caller's buffer, kept so the retry only copies it.
struct OutputCache {
  bool valid = false;
  OutputId fn = OutputId::kNone;
  std::string key;
  uint64_t generation = 0;
  std::string data;
};

}  // namespace xs::capi

// The store is shared by its handle and every session opened from it: sessions keep it alive after
// xs_store_free, so finalisers in garbage-collected bindings may run in any order.
namespace xs::search {
class SessionIndex;
}

struct xs_store {
  std::mutex mu;
  uint64_t calls = 0;                       // calls made on the handle (a retry is the call right after a size query)
  std::shared_ptr<xs::store::Store> store;  // null until xs_store_open
  bool in_memory = false;                   // opened with XS_STORE_IN_MEMORY: nothing of it is on disk
  bool host_storage = false;                // opened with a host's xs_storage: the disk is not its home
  // The store's index, kept as the summary source of its listings once a listing found index.db
  // (capi/discovery.cc, docs/search.md#listing); tried once.
  std::shared_ptr<xs::search::SessionIndex> listing_index;
  bool listing_index_tried = false;
  xs::capi::ErrorSlot err;
  xs::capi::OutputCache cache;
};

struct xs_session {
  std::mutex mu;
  uint64_t calls = 0;
  std::shared_ptr<xs::store::Store> store;
  std::unique_ptr<xs::session::Session> impl;
  xs::capi::ErrorSlot err;
  xs::capi::OutputCache cache;
};

namespace xs::capi {

// XS_EINTERNAL with the exception's text; if even that text cannot be allocated, a fixed one that
// needs no allocation (this runs inside noexcept functions: nothing may throw from here).
inline xs_status internal_error(ErrorSlot& err, const char* what) noexcept {
  try {
    return err.set(XS_EINTERNAL, std::string("internal error: ") + what);
  } catch (...) {
    err.code = XS_EINTERNAL;
    err.message.clear();
    err.message.append("internal error");  // within the string's own buffer: no allocation
    return XS_EINTERNAL;
  }
}

// The handles whose caller-supplied callbacks run on this thread (xs_keys_update, the progress of
// xs_import and xs_store_archive), innermost
// last: their locks are held, so a call on any of them from a callback is refused instead of
// waiting forever (also when A's callback updates B and B's callback calls A).
inline thread_local std::vector<const void*> t_callback_handles;

inline bool in_callback_of(const void* handle) {
  for (const void* h : t_callback_handles) {
    if (h == handle) return true;
  }
  return false;
}

class InCallback {
 public:
  explicit InCallback(const void* handle) { t_callback_handles.push_back(handle); }
  ~InCallback() { t_callback_handles.pop_back(); }
  InCallback(const InCallback&) = delete;
  InCallback& operator=(const InCallback&) = delete;
};

// Runs `body` (returning Status) under the handle's lock and records the outcome on the handle.
// No exception crosses the C boundary.
template <class Handle, class F>
xs_status guarded(Handle* h, F&& body) noexcept {
  if (!h) return XS_EMISUSE;
  if (in_callback_of(h)) return XS_EMISUSE;  // from inside a callback that holds h's lock
  std::lock_guard<std::mutex> lock(h->mu);
  ++h->calls;
  try {
    return h->err.from(body());
  } catch (const std::bad_alloc&) {
    return h->err.set(XS_ENOMEM, "out of memory");  // short enough to need no allocation
  } catch (const std::exception& e) {
    return internal_error(h->err, e.what());
  } catch (...) {
    return internal_error(h->err, "unknown exception");
  }
}

inline Status null_arg(const char* name) { return Status::Invalid(std::string(name) + " is NULL"); }

// A versioned struct the caller filled for another version than this library knows.
inline Status check_struct_version(uint32_t got, uint32_t known, const char* name) {
  if (got == known) return Status::Ok();
  return Status(Code::kVersion, std::string(name) + " version " + std::to_string(got) + " is not supported");
}

// Store calls that need the files: kMisuse until xs_store_open succeeded.
inline Status need_open(const xs_store* st) {
  if (!st->store) return Status(Code::kMisuse, "the store is not open (call xs_store_open first)");
  return Status::Ok();
}

// xs_session_options -> the engine's options (defaults for NULL).
Status translate_options(const xs_session_options* o, session::SessionOptions* out);

// xs_reset_policy (not NULL) -> the engine's policy (capi/reset.cc).
Status translate_policy(const xs_reset_policy* p, store::ResetPolicy* out);

// Wraps a new engine session in a C handle that shares the store.
Status wrap_session(const std::shared_ptr<store::Store>& store, Result<std::unique_ptr<session::Session>> r,
                    xs_session** out);

// The size-query-then-fill protocol. `fn` and `key` identify the call and its arguments;
// `compute` returns Result<std::string>. A result that does not fit is cached, so the retry
// (same call, same arguments, unchanged generation) copies it instead of recomputing.
template <class F>
Status fill(OutputCache& cache, OutputId fn, std::string_view key, uint64_t generation, char* buf, size_t cap,
            size_t* out_len, F&& compute) {
  if (!out_len) return null_arg("out_len");
  if (!buf && cap) return Status::Invalid("buf is NULL but cap is not 0");
  std::string fresh;
  const std::string* result;
  bool cached = cache.valid && cache.fn == fn && cache.generation == generation && cache.key == key;
  if (cached) {
    result = &cache.data;
  } else {
    Result<std::string> r = compute();
    if (!r.ok()) return r.status();
    fresh = std::move(*r);
    result = &fresh;
  }
  *out_len = result->size();
  if (cap < result->size()) {
    if (!cached) {
      cache.valid = true;
      cache.fn = fn;
      cache.key.assign(key);
      cache.generation = generation;
      cache.data = std::move(fresh);
    }
    return Status(Code::kBufs,
                  "the output needs " + std::to_string(*out_len) + " bytes; the buffer has " + std::to_string(cap));
  }
  if (!result->empty()) std::memcpy(buf, result->data(), result->size());
  cache.valid = false;
  std::string().swap(cache.data);  // do not keep a large result alive
  return Status::Ok();
}

// The cache key of a call: its string arguments, then its numbers, NUL-separated (no argument
// holds a NUL); an absent string is "-" and a present one "+" followed by it, so NULL and "" differ.
inline std::string call_key(std::initializer_list<const char*> strings, std::initializer_list<int64_t> numbers) {
  std::string key;
  for (const char* s : strings) {
    key += s ? "+" : "-";
    if (s) key += s;
    key.push_back('\0');
  }
  for (int64_t n : numbers) key += std::to_string(n) + '\0';
  return key;
}

// For results that read the disk afresh (listings): a cached result may serve only the call right
// after the one that cached it, the retry; any later call computes anew.
inline uint64_t retry_generation(const OutputCache& cache, uint64_t calls) {
  return cache.valid && cache.generation + 1 == calls ? cache.generation : calls;
}

// Writes a new entry id into a caller buffer of XS_ID_BUFSIZE bytes (NULL: not wanted).
inline void put_id(char* id_out, const std::string& id) {
  if (!id_out) return;
  size_t n = id.size() < XS_ID_BUFSIZE - 1 ? id.size() : XS_ID_BUFSIZE - 1;
  std::memcpy(id_out, id.data(), n);
  id_out[n] = '\0';
}

}  // namespace xs::capi
