#include "api.h"

#ifdef XS_CLI_POSTGRES
#include <xsession_postgres.h>
#endif

namespace xs::cli {

Store::Store(const StoreSpec& spec) : st_(xs_store_new()), root_(spec.root) {
  if (!st_) throw ApiError(XS_ENOMEM, "out of memory");
  if (spec.database.empty()) {
    check(xs_store_open(st_, root_.c_str(), nullptr), root_);
    return;
  }
#ifdef XS_CLI_POSTGRES
  char err[1024] = "";
  xs_status st = xs_postgres_storage(spec.database.c_str(), nullptr, &table_, err, sizeof err);
  if (st != XS_OK) throw ApiError(st, "--store: " + std::string(err[0] ? err : xs_status_str(st)));
  xs_store_options o;
  xs_store_options_init(&o, XS_STORE_OPTIONS_VERSION);
  o.storage = &table_;
  st = xs_store_open(st_, root_.c_str(), &o);
  if (st != XS_OK) table_.release(table_.user);  // not taken: still ours
  on_table_ = st == XS_OK;
  check(st, root_);
#else
  throw ApiError(XS_EINVAL,
                 "--store " + spec.database + ": this xs was built without PostgreSQL (XS_BUILD_POSTGRES=OFF)");
#endif
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
