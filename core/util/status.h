// Status and Result<T>: how every fallible operation in core/ reports failure.
//
// Errors inside the engine are values, not exceptions (leveldb's Status, abseil's StatusOr): an
// expected failure such as "not found", a corrupt line or an I/O error travels back up as a
// Status and the C shim maps its code to an xs_status. Exceptions are reserved for the truly
// unexpected (std::bad_alloc), and the C shim catches those as a backstop.
#pragma once

#include <cassert>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace xs {

// The codes mirror xs_status one to one (capi/ converts by value); core/ never includes the C
// header, so the numbers are restated here and a C API test checks that they agree.
enum class Code : int {
  kOk = 0,
  kError = -1,
  kNoMem = -2,
  kInvalid = -3,
  kMisuse = -4,
  kNotFound = -5,
  kExists = -6,
  kBufs = -7,
  kCorrupt = -8,
  kIo = -9,
  kLocked = -10,
  kVersion = -11,
  kNoSpace = -12,
  kReadOnly = -13,
  kConflict = -14,
  kLimit = -15,
  kNoHeader = -16,
  kPoisoned = -17,
  kAmbiguous = -18,
  kDialect = -19,  // no form in the session's dialect (docs/dialects.md)
  kInternal = -99,
};

class Status {
 public:
  Status() = default;  // OK
  Status(Code code, std::string msg) : code_(code), msg_(std::move(msg)) {}

  static Status Ok() { return Status(); }
  static Status Invalid(std::string m) { return {Code::kInvalid, std::move(m)}; }
  static Status NotFound(std::string m) { return {Code::kNotFound, std::move(m)}; }
  static Status Exists(std::string m) { return {Code::kExists, std::move(m)}; }
  static Status Io(std::string m) { return {Code::kIo, std::move(m)}; }
  static Status Corrupt(std::string m) { return {Code::kCorrupt, std::move(m)}; }
  static Status Limit(std::string m) { return {Code::kLimit, std::move(m)}; }
  static Status ReadOnly(std::string m) { return {Code::kReadOnly, std::move(m)}; }
  static Status WrongDialect(std::string m) { return {Code::kDialect, std::move(m)}; }
  static Status Internal(std::string m) { return {Code::kInternal, std::move(m)}; }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return msg_; }

  // Prefixes the message with context ("open /x/y.jsonl: ") and keeps the code.
  Status With(const std::string& context) const {
    if (ok()) return *this;
    return Status(code_, context + ": " + msg_);
  }

 private:
  Code code_ = Code::kOk;
  std::string msg_;
};

// A value or the Status explaining its absence (C++17 has no std::expected).
template <class T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit on purpose, like StatusOr
  Result(Status status) : status_(std::move(status)) { assert(!status_.ok()); }

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  T& value() { return *value_; }
  const T& value() const { return *value_; }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace xs

#define XS_RETURN_IF_ERROR(expr)                     \
  do {                                               \
    ::xs::Status xs_status_tmp_ = (expr);            \
    if (!xs_status_tmp_.ok()) return xs_status_tmp_; \
  } while (0)
