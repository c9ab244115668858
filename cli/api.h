// A thin C++ face on xsession.h for the CLI: handles that close themselves, and errors that
// carry the library's status and message. The CLI uses only the public C API, so this file is
// also where an awkward corner of that API would show first.
#pragma once

#include <xsession.h>
#include <xsession_storage.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace xs::cli {

// A failed library call: the status and the handle's message, for one clear line on stderr.
class ApiError : public std::runtime_error {
 public:
  ApiError(xs_status code, const std::string& what) : std::runtime_error(what), code_(code) {}
  xs_status code() const { return code_; }

 private:
  xs_status code_;
};

// Calls `fill(buf, cap, &len)` as a size query, then again with a buffer of that size (the
// library caches the result between the two calls). Throws ApiError with `errmsg()` on failure.
template <typename Fill, typename ErrMsg>
std::string read_text(Fill fill, ErrMsg errmsg) {
  size_t len = 0;
  xs_status st = fill(nullptr, 0, &len);
  if (st != XS_OK && st != XS_EBUFS) throw ApiError(st, errmsg());
  std::string out(len, '\0');
  st = fill(out.data(), out.size(), &len);
  if (st != XS_OK) throw ApiError(st, errmsg());
  out.resize(len);
  return out;
}

// Where a command's store is: a root directory on the disk, or a root inside a database
// (--store postgresql://…, docs/storage.md), whose storage table the CLI also uses for the few
// file steps it takes itself (finding session files, a repair's backup).
// Whether `where` names a database (a postgresql:// URL, as libpq spells one) rather than a path.
inline bool is_database_url(const std::string& where) {
  return where.rfind("postgresql://", 0) == 0 || where.rfind("postgres://", 0) == 0;
}

struct StoreSpec {
  std::string root;
  std::string database;  // a postgresql:// URL, or empty: the disk
};

class Store {
 public:
  explicit Store(const StoreSpec& spec);
  ~Store() { xs_store_free(st_); }
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  xs_store* get() const { return st_; }
  const std::string& root() const { return root_; }
  // The store's storage table when it is not the disk (a copy of what the store was opened with;
  // valid while the store is), else nullptr.
  const xs_storage* storage() const { return on_table_ ? &table_ : nullptr; }
  // Throws ApiError(status, "<context>: <store message>") when st is not XS_OK.
  void check(xs_status st, const std::string& context) const;
  // "<root>: <store message>", for a failed call about the store as a whole.
  std::string error() const { return root_ + ": " + xs_store_errmsg(st_); }

 private:
  xs_store* st_;
  std::string root_;
  xs_storage table_{};
  bool on_table_ = false;
};

class Session {
 public:
  Session() = default;
  // `name` (the file or id the user gave) starts every error message about this session.
  Session(xs_session* s, std::string name) : s_(s), name_(std::move(name)) {}
  ~Session() { xs_session_close(s_); }
  Session(Session&& o) noexcept : s_(o.s_), name_(std::move(o.name_)) { o.s_ = nullptr; }
  Session& operator=(Session&& o) noexcept {
    std::swap(s_, o.s_);
    std::swap(name_, o.name_);
    return *this;
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  xs_session* get() const { return s_; }
  void check(xs_status st, const std::string& context) const;

  // Readers returning the library's JSON text.
  std::string info() const;
  std::string header() const;
  std::string entries(uint32_t flags = 0) const;
  std::string tree(uint32_t flags = 0) const;
  std::string labels() const;
  std::string leaf() const;
  std::string diagnostics() const;
  std::string usage() const;
  std::string context(const char* leaf_id) const;
  std::string verify() const;
  std::string repair(uint32_t flags) const;

 private:
  std::string message() const { return name_ + ": " + xs_session_errmsg(s_); }

  xs_session* s_ = nullptr;
  std::string name_;
};

}  // namespace xs::cli
