// The read family: everything that returns JSON or an id through a caller buffer.
#include "handles.h"
#include "views/resume.h"

using xs::Result;
using xs::Status;
using xs::capi::guarded;
using xs::capi::null_arg;
using xs::capi::OutputId;

namespace {

// The cache key of an optional id argument and the read flags.
std::string key_of(const char* id, uint32_t flags = 0) { return xs::capi::call_key({id}, {flags}); }

Status check_flags(uint32_t flags, const char* id = "", const char* required_name = nullptr) {
  if (required_name && !id) return null_arg(required_name);
  if (flags & ~XS_READ_RESOLVE_BLOBS) return Status::Invalid("unknown bits in the read flags");
  return Status::Ok();
}

bool resolve(uint32_t flags) { return flags & XS_READ_RESOLVE_BLOBS; }

// `check` is an argument problem found before the call (OK when there is none).
template <class F>
xs_status read(xs_session* s, OutputId fn, const std::string& key, const Status& check, char* buf, size_t cap,
               size_t* out_len, F&& compute) {
  return guarded(s, [&] {
    XS_RETURN_IF_ERROR(check);
    return xs::capi::fill(s->cache, fn, key, s->impl->generation(), buf, cap, out_len,
                          [&]() -> Result<std::string> { return compute(*s->impl); });
  });
}

const Status kNoProblem;

}  // namespace

extern "C" {

xs_status xs_build_context(xs_session* s, const char* leaf_id, char* buf, size_t cap, size_t* out_len) {
  return read(s, OutputId::kContext, key_of(leaf_id), kNoProblem, buf, cap, out_len, [&](xs::session::Session& x) {
    return x.context(leaf_id ? std::optional<std::string_view>(leaf_id) : std::nullopt);
  });
}

xs_status xs_session_header(xs_session* s, char* buf, size_t cap, size_t* out_len) {
  return read(s, OutputId::kHeader, "", kNoProblem, buf, cap, out_len,
              [](xs::session::Session& x) -> Result<std::string> { return std::string(x.header()); });
}

xs_status xs_session_entries(xs_session* s, uint32_t flags, char* buf, size_t cap, size_t* out_len) {
  return read(s, OutputId::kEntries, key_of(nullptr, flags), check_flags(flags), buf, cap, out_len,
              [&](xs::session::Session& x) -> Result<std::string> { return x.entries_json(resolve(flags)); });
}

xs_status xs_session_entry(xs_session* s, const char* id, uint32_t flags, char* buf, size_t cap, size_t* out_len) {
  return read(s, OutputId::kEntry, key_of(id, flags), check_flags(flags, id, "id"), buf, cap, out_len,
              [&](xs::session::Session& x) { return x.entry_json(id, resolve(flags)); });
}

xs_status xs_session_path(xs_session* s, const char* id, uint32_t flags, char* buf, size_t cap, size_t* out_len) {
  return read(s, OutputId::kPath, key_of(id, flags), check_flags(flags), buf, cap, out_len,
              [&](xs::session::Session& x) {
                return x.path_json(id ? std::optional<std::string_view>(id) : std::nullopt, resolve(flags));
              });
}

xs_status xs_session_children(xs_session* s, const char* id, uint32_t flags, char* buf, size_t cap, size_t* out_len) {
  return read(s, OutputId::kChildren, key_of(id, flags), check_flags(flags, id, "id"), buf, cap, out_len,
              [&](xs::session::Session& x) { return x.children_json(id, resolve(flags)); });
}

xs_status xs_session_tree(xs_session* s, uint32_t flags, char* buf, size_t cap, size_t* out_len) {
  return read(s, OutputId::kTree, key_of(nullptr, flags), check_flags(flags), buf, cap, out_len,
              [&](xs::session::Session& x) -> Result<std::string> { return x.tree_json(resolve(flags)); });
}

xs_status xs_session_labels(xs_session* s, char* buf, size_t cap, size_t* out_len) {
  return read(s, OutputId::kLabels, "", kNoProblem, buf, cap, out_len,
              [](xs::session::Session& x) -> Result<std::string> { return x.labels_json(); });
}

xs_status xs_session_leaf(xs_session* s, char* buf, size_t cap, size_t* out_len) {
  return read(s, OutputId::kLeaf, "", kNoProblem, buf, cap, out_len,
              [](xs::session::Session& x) -> Result<std::string> {
                auto leaf = x.leaf_id();
                return leaf ? std::string(*leaf) : std::string();
              });
}

xs_status xs_session_diagnostics(xs_session* s, char* buf, size_t cap, size_t* out_len) {
  return read(s, OutputId::kDiagnostics, "", kNoProblem, buf, cap, out_len,
              [](xs::session::Session& x) -> Result<std::string> { return x.diagnostics_json(); });
}

xs_status xs_session_info(xs_session* s, char* buf, size_t cap, size_t* out_len) {
  return read(s, OutputId::kInfo, "", kNoProblem, buf, cap, out_len,
              [](xs::session::Session& x) -> Result<std::string> { return x.info_json(); });
}

xs_status xs_session_usage(xs_session* s, char* buf, size_t cap, size_t* out_len) {
  return read(s, OutputId::kUsage, "", kNoProblem, buf, cap, out_len,
              [](xs::session::Session& x) -> Result<std::string> { return x.usage_json(); });
}

xs_status xs_session_resume_check(xs_session* s, const char* leaf_id, char* buf, size_t cap, size_t* out_len) {
  return read(s, OutputId::kResumeCheck, key_of(leaf_id), kNoProblem, buf, cap, out_len, [&](xs::session::Session& x) {
    return xs::views::resume_json(x.data(), x.tree(),
                                  leaf_id ? std::optional<std::string_view>(leaf_id) : std::nullopt);
  });
}

}  // extern "C"
