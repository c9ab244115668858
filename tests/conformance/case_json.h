// What the conformance runner and its step files share: reading case files (simdjson's DOM),
// status and dialect names, files, and the size-query-then-fill call a binding makes.
#pragma once

#include <dirent.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "xsession.h"

namespace case_json {

// Case files and the library's JSON answers are read with simdjson's DOM. A member that a case
// needs but lacks, or that has the wrong type, throws simdjson_error from value(), which fails
// the test with simdjson's message: the case file is malformed.
using simdjson::dom::element;

inline bool has(element v, std::string_view key) { return v[key].error() == simdjson::SUCCESS; }
inline element at(element v, std::string_view key) { return v[key].value(); }
inline std::string_view view(element v) { return v.get_string().value(); }
inline std::string_view view(element v, std::string_view key) { return view(at(v, key)); }
// Strings in simdjson's DOM are NUL-terminated, so they can go to the C API as they are.
inline const char* c_str(element v, std::string_view key) { return at(v, key).get_c_str().value(); }
inline bool flag(element v, std::string_view key) { return has(v, key) && at(v, key).get_bool().value(); }
inline int64_t int64(element v, std::string_view key) { return at(v, key).get_int64().value(); }
inline uint64_t uint64(element v, std::string_view key) { return at(v, key).get_uint64().value(); }
// By value: ranging over value() of a temporary result would dangle.
inline simdjson::dom::array array_of(element v) { return v.get_array().value(); }
inline simdjson::dom::object object_of(element v) { return v.get_object().value(); }
inline std::vector<element> elements(element array) {
  std::vector<element> out;
  for (element e : array_of(array)) out.push_back(e);
  return out;
}

// The library's answers (JSON text) as a DOM held by `parser`.
inline element parse(simdjson::dom::parser& parser, const std::string& json) { return parser.parse(json).value(); }

inline const std::map<std::string, xs_status>& status_names() {
  static const std::map<std::string, xs_status> names = {
      {"XS_OK", XS_OK},           {"XS_ERROR", XS_ERROR},         {"XS_ENOMEM", XS_ENOMEM},
      {"XS_EINVAL", XS_EINVAL},   {"XS_EMISUSE", XS_EMISUSE},     {"XS_ENOTFOUND", XS_ENOTFOUND},
      {"XS_EEXISTS", XS_EEXISTS}, {"XS_EBUFS", XS_EBUFS},         {"XS_ECORRUPT", XS_ECORRUPT},
      {"XS_EIO", XS_EIO},         {"XS_ELOCKED", XS_ELOCKED},     {"XS_EVERSION", XS_EVERSION},
      {"XS_ENOSPC", XS_ENOSPC},   {"XS_EREADONLY", XS_EREADONLY}, {"XS_ECONFLICT", XS_ECONFLICT},
      {"XS_ELIMIT", XS_ELIMIT},   {"XS_ENOHEADER", XS_ENOHEADER}, {"XS_EPOISONED", XS_EPOISONED},
      {"XS_EAMBIGUOUS", XS_EAMBIGUOUS}, {"XS_EDIALECT", XS_EDIALECT},   {"XS_EINTERNAL", XS_EINTERNAL}};
  return names;
}

// A dialect name of a case ("auto", "omp", "pi") as its XS_DIALECT_* value.
inline uint32_t dialect_named(std::string_view name) {
  if (name == "auto") return XS_DIALECT_AUTO;
  if (name == "omp") return XS_DIALECT_OMP;
  if (name == "pi") return XS_DIALECT_PI;
  ADD_FAILURE() << "unknown dialect " << name;
  return XS_DIALECT_AUTO;
}

inline std::string read_file(const std::string& path, bool* exists = nullptr) {
  std::ifstream in(path, std::ios::binary);
  if (exists) *exists = static_cast<bool>(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_file(const std::string& path, const std::string& bytes) {
  std::string cmd = "mkdir -p '" + path.substr(0, path.rfind('/')) + "'";
  if (std::system(cmd.c_str()) != 0) ADD_FAILURE() << "cannot create the directory of " << path;
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  if (!out) ADD_FAILURE() << "cannot write " << path;
}

inline std::string from_hex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

// Values compare by their minified text (member order and number forms included).
inline std::string to_json(element v) { return simdjson::minify(v); }

// Every member of the object `want` is in the object `got`, with the same value.
inline void expect_members(element got, element want, const std::string& where) {
  for (auto [key, value] : object_of(want)) {
    if (!has(got, key)) {
      ADD_FAILURE() << "no member " << key << " in " << where;
    } else {
      EXPECT_EQ(to_json(at(got, key)), to_json(value)) << "member " << key << " of " << where;
    }
  }
}


// Calls a (buf, cap, out_len) function the way a binding would: size query, then fill.
template <class F>
inline xs_status read_text(F&& call, std::string* out) {
  size_t len = 0;
  xs_status rc = call(nullptr, 0, &len);
  if (rc != XS_EBUFS && rc != XS_OK) return rc;
  out->assign(len, '\0');
  rc = call(out->empty() ? nullptr : &(*out)[0], out->size(), &len);
  out->resize(len);
  return rc;
}

// An optional string argument: NULL when absent or not a string.
inline const char* str(element s, const char* key) { return has(s, key) && at(s, key).is_string() ? c_str(s, key) : nullptr; }
// A text argument: a string, or an array of parts (strings and {"repeat": s, "times": n}).
inline std::string text_of(element v) {
  if (v.is_string()) return std::string(view(v));
  std::string out;
  for (element part : array_of(v)) {
    if (part.is_string()) {
      out.append(view(part));
    } else {
      std::string_view unit = view(part, "repeat");
      for (int64_t i = 0; i < int64(part, "times"); ++i) out += unit;
    }
  }
  return out;
}
inline std::string text(element s, const char* key) { return text_of(at(s, key)); }

}  // namespace case_json
