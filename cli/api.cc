#include "api.h"

namespace xs::cli {

Store::Store(const std::string& root) : st_(xs_store_new()), root_(root) {
  if (!st_) throw ApiError(XS_ENOMEM, "out of memory");
  check(xs_store_open(st_, root.c_str(), nullptr), root);
}

void Store::check(xs_status st, const std::string& context) const {
  if (st == XS_OK) return;
  std::string msg = xs_store_errmsg(st_);
  // The library's messages often start with the path already: say it once.
  if (msg.compare(0, context.size() + 2, context + ": ") == 0) throw ApiError(st, msg);
  throw ApiError(st, context + ": " + msg);
}

void Session::check(xs_status st, const std::string& context) const {
  if (st != XS_OK) throw ApiError(st, name_ + ": " + context + ": " + xs_session_errmsg(s_));
}

#define XS_CLI_READER(method, call)                                                                     \
  std::string Session::method const {                                                                   \
    return read_text([&](char* b, size_t c, size_t* n) { return call; }, [this] { return message(); }); \
  }

XS_CLI_READER(info(), xs_session_info(s_, b, c, n))
XS_CLI_READER(header(), xs_session_header(s_, b, c, n))
XS_CLI_READER(entries(uint32_t flags), xs_session_entries(s_, flags, b, c, n))
XS_CLI_READER(tree(uint32_t flags), xs_session_tree(s_, flags, b, c, n))
XS_CLI_READER(labels(), xs_session_labels(s_, b, c, n))
XS_CLI_READER(leaf(), xs_session_leaf(s_, b, c, n))
XS_CLI_READER(diagnostics(), xs_session_diagnostics(s_, b, c, n))
XS_CLI_READER(usage(), xs_session_usage(s_, b, c, n))
XS_CLI_READER(context(const char* leaf_id), xs_build_context(s_, leaf_id, b, c, n))
XS_CLI_READER(verify(), xs_session_verify(s_, b, c, n))
XS_CLI_READER(repair(uint32_t flags), xs_session_repair(s_, flags, b, c, n))

#undef XS_CLI_READER

}  // namespace xs::cli
