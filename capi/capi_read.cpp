// The read family: everything that returns JSON or an id through a caller buffer.
#include "handles.h"

using xs::Result;
using xs::Status;
using xs::capi::guarded;
using xs::capi::null_arg;

namespace {

// One number per function, so a cached result is only ever reused by the same call.
enum Fn : int {
  kContext = 1,
  kHeader,
  kEntries,
  kEntry,
  kBranchPath,
  kChildren,
  kTree,
  kLabels,
  kLeaf,
  kDiagnostics,
  kInfo,
  kUsage,
};

// The cache key of an optional id argument: NULL and "" must differ.
std::string key_of(const char* id) { return id ? std::string("=") + id : std::string(); }

template <class F>
xs_status read(xs_session* s, Fn fn, const std::string& key, char* buf, size_t cap, size_t* out_len, F&& compute) {
  return guarded(s, [&] {
    return xs::capi::fill(s->cache, fn, key, s->impl->generation(), buf, cap, out_len,
                          [&]() -> Result<std::string> { return compute(*s->impl); });
  });
}

}  // namespace

extern "C" {

xs_status xs_build_context(xs_session* s, const char* leaf_id, char* buf, size_t cap, size_t* out_len) {
  return read(s, kContext, key_of(leaf_id), buf, cap, out_len, [&](xs::session::Session& x) {
    return x.context(leaf_id ? std::optional<std::string_view>(leaf_id) : std::nullopt);
  });
}

xs_status xs_session_header(xs_session* s, char* buf, size_t cap, size_t* out_len) {
  return read(s, kHeader, "", buf, cap, out_len,
              [](xs::session::Session& x) -> Result<std::string> { return std::string(x.header()); });
}

xs_status xs_session_entries(xs_session* s, char* buf, size_t cap, size_t* out_len) {
  return read(s, kEntries, "", buf, cap, out_len,
              [](xs::session::Session& x) -> Result<std::string> { return x.entries_json(); });
}

xs_status xs_session_entry(xs_session* s, const char* id, char* buf, size_t cap, size_t* out_len) {
  if (s && !id) return guarded(s, [] { return null_arg("id"); });
  return read(s, kEntry, key_of(id), buf, cap, out_len, [&](xs::session::Session& x) { return x.entry_json(id); });
}

xs_status xs_session_branch_path(xs_session* s, const char* id, char* buf, size_t cap, size_t* out_len) {
  return read(s, kBranchPath, key_of(id), buf, cap, out_len, [&](xs::session::Session& x) {
    return x.branch_json(id ? std::optional<std::string_view>(id) : std::nullopt);
  });
}

xs_status xs_session_children(xs_session* s, const char* id, char* buf, size_t cap, size_t* out_len) {
  if (s && !id) return guarded(s, [] { return null_arg("id"); });
  return read(s, kChildren, key_of(id), buf, cap, out_len, [&](xs::session::Session& x) { return x.children_json(id); });
}

xs_status xs_session_tree(xs_session* s, char* buf, size_t cap, size_t* out_len) {
  return read(s, kTree, "", buf, cap, out_len,
              [](xs::session::Session& x) -> Result<std::string> { return x.tree_json(); });
}

xs_status xs_session_labels(xs_session* s, char* buf, size_t cap, size_t* out_len) {
  return read(s, kLabels, "", buf, cap, out_len,
              [](xs::session::Session& x) -> Result<std::string> { return x.labels_json(); });
}

xs_status xs_session_leaf(xs_session* s, char* buf, size_t cap, size_t* out_len) {
  return read(s, kLeaf, "", buf, cap, out_len, [](xs::session::Session& x) -> Result<std::string> {
    auto leaf = x.leaf_id();
    return leaf ? std::string(*leaf) : std::string();
  });
}

xs_status xs_session_diagnostics(xs_session* s, char* buf, size_t cap, size_t* out_len) {
  return read(s, kDiagnostics, "", buf, cap, out_len,
              [](xs::session::Session& x) -> Result<std::string> { return x.diagnostics_json(); });
}

xs_status xs_session_info(xs_session* s, char* buf, size_t cap, size_t* out_len) {
  return read(s, kInfo, "", buf, cap, out_len,
              [](xs::session::Session& x) -> Result<std::string> { return x.info_json(); });
}

xs_status xs_session_usage(xs_session* s, char* buf, size_t cap, size_t* out_len) {
  return read(s, kUsage, "", buf, cap, out_len,
              [](xs::session::Session& x) -> Result<std::string> { return x.usage_json(); });
}

}  // extern "C"
