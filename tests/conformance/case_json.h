// What the conformance runner and its step files share: reading case files (simdjson's DOM),
// status and dialect names, files, and the size-query-then-fill call a binding makes.
#pragma once

#include <dirent.h>
#include <sys/stat.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "xsession.h"
#include "xsession_storage.h"

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

// Where a case's files live. Normally the local disk; with XS_CONFORMANCE_STORAGE the store sits
// on a storage table, and the files under its root (but the import sources, under "source/",
// which importers read from the local disk) are written and read through that table, as a host
// would see them.
struct CaseStorage {
  const xs_storage* table = nullptr;
  std::string root;
};
inline CaseStorage& case_storage() {
  static CaseStorage storage;
  return storage;
}
inline bool through_table(const std::string& path) {
  const CaseStorage& s = case_storage();
  return s.table && path.rfind(s.root + "/", 0) == 0 && path.compare(s.root.size() + 1, 7, "source/") != 0;
}

inline std::string read_file(const std::string& path, bool* exists = nullptr) {
  if (through_table(path)) {
    const xs_storage& t = *case_storage().table;
    struct Into {
      xs_storage_buffer buffer;
      std::string bytes;
      static void* alloc(xs_storage_buffer* self, uint64_t size) {
        auto* into = static_cast<Into*>(self->opaque);
        into->bytes.resize(size);
        return &into->bytes[0];
      }
    } into{{&Into::alloc, nullptr}, {}};
    into.buffer.opaque = &into;
    uint64_t got = 0;
    xs_storage_info info{};
    xs_status rc = t.read(t.user, path.c_str(), 0, UINT64_MAX, &into.buffer, &got, &info);
    if (exists) *exists = rc == XS_OK;
    if (rc != XS_OK && rc != XS_ENOTFOUND) ADD_FAILURE() << "storage read " << path << ": " << xs_status_str(rc);
    into.bytes.resize(rc == XS_OK ? got : 0);
    return into.bytes;
  }
  std::ifstream in(path, std::ios::binary);
  if (exists) *exists = static_cast<bool>(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Writes `bytes` at the end of the file (`append`) or as its whole new content.
inline void put_file(const std::string& path, const std::string& bytes, bool append) {
  const xs_storage& t = *case_storage().table;
  std::string dir = path.substr(0, path.rfind('/'));
  void* file = nullptr;
  xs_status rc = append ? XS_OK : t.make_dirs(t.user, dir.c_str());
  if (rc == XS_OK && !append) {
    rc = t.remove(t.user, path.c_str());
    if (rc == XS_ENOTFOUND) rc = XS_OK;
  }
  if (rc == XS_OK) rc = t.open(t.user, path.c_str(), append ? XS_STORAGE_APPEND : XS_STORAGE_CREATE, &file);
  if (rc == XS_OK) {
    rc = t.write(t.user, file, bytes.data(), bytes.size());
    xs_status closed = t.close(t.user, file);
    if (rc == XS_OK) rc = closed;
  }
  if (rc != XS_OK) ADD_FAILURE() << "storage write " << path << ": " << xs_status_str(rc);
}

inline void write_file(const std::string& path, const std::string& bytes) {
  if (through_table(path)) return put_file(path, bytes, false);
  std::string cmd = "mkdir -p '" + path.substr(0, path.rfind('/')) + "'";
  if (std::system(cmd.c_str()) != 0) ADD_FAILURE() << "cannot create the directory of " << path;
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  if (!out) ADD_FAILURE() << "cannot write " << path;
}

inline void append_file(const std::string& path, const std::string& bytes) {
  if (through_table(path)) return put_file(path, bytes, true);
  std::ofstream(path, std::ios::binary | std::ios::app) << bytes;
}

// The names in a directory (unsorted; none when it is missing).
inline std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> names;
  if (through_table(dir + "/x")) {
    const xs_storage& t = *case_storage().table;
    auto add = [](void* ctx, const char* name, size_t len) -> xs_status {
      static_cast<std::vector<std::string>*>(ctx)->emplace_back(name, len);
      return XS_OK;
    };
    xs_status rc = t.list(t.user, dir.c_str(), add, &names);
    if (rc != XS_OK && rc != XS_ENOTFOUND) ADD_FAILURE() << "storage list " << dir << ": " << xs_status_str(rc);
    // The import sources sit on the local disk in the root, beside what the table holds.
    struct stat st;
    if (dir == case_storage().root && ::stat((dir + "/source").c_str(), &st) == 0 &&
        std::find(names.begin(), names.end(), "source") == names.end()) {
      names.push_back("source");
    }
    return names;
  }
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..") names.push_back(n);
    }
    closedir(d);
  }
  return names;
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
