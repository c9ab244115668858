// C API helpers shared by the C API fuzz targets.
#pragma once

#include <cstring>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "engine_json.h"
#include "fuzz_check.h"
#include "xsession.h"

namespace xs_fuzz {

// Calls a (buf, cap, out_len) reader: size query, then fill. Aborts if the retry disagrees.
template <class F>
xs_status read_out(F&& call, std::string* out) {
  size_t len = 0;
  xs_status st = call(nullptr, 0, &len);
  if (st != XS_OK && st != XS_EBUFS) return st;
  out->assign(len, '\0');
  size_t len2 = 0;
  st = call(out->empty() ? nullptr : &(*out)[0], out->size(), &len2);
  FUZZ_CHECK(st == XS_OK, std::string("second read returned ") + xs_status_str(st));
  FUZZ_CHECK(len2 == len, "the size query and the read disagree");
  return XS_OK;
}

inline std::string must(xs_status st, const std::string& what, const std::string& v) {
  FUZZ_CHECK(st == XS_OK, what + ": " + xs_status_str(st));
  return v;
}

inline std::string entries(xs_session* s) {
  std::string out;
  xs_status st = read_out([&](char* b, size_t c, size_t* l) { return xs_session_entries(s, 0, b, c, l); }, &out);
  return must(st, "xs_session_entries", out);
}

inline std::string diagnostics(xs_session* s) {
  std::string out;
  xs_status st = read_out([&](char* b, size_t c, size_t* l) { return xs_session_diagnostics(s, b, c, l); }, &out);
  return must(st, "xs_session_diagnostics", out);
}

inline std::string leaf(xs_session* s) {
  std::string out;
  xs_status st = read_out([&](char* b, size_t c, size_t* l) { return xs_session_leaf(s, b, c, l); }, &out);
  return must(st, "xs_session_leaf", out);
}

inline xs_status context(xs_session* s, const char* leaf_id, std::string* out) {
  return read_out([&](char* b, size_t c, size_t* l) { return xs_build_context(s, leaf_id, b, c, l); }, out);
}

inline std::string info_string(xs_session* s, const char* key) {
  std::string info;
  xs_status st = read_out([&](char* b, size_t c, size_t* l) { return xs_session_info(s, b, c, l); }, &info);
  must(st, "xs_session_info", info);
  simdjson::dom::parser parser;
  simdjson::dom::element value;
  FUZZ_CHECK(parser.parse(info)[key].get(value) == simdjson::SUCCESS, "info without " + std::string(key) + ": " + info);
  std::string_view text;
  return value.get(text) == simdjson::SUCCESS ? std::string(text) : std::string();
}

// Valid JSON by the engine's validator (a DOM parser, simdjson's or RapidJSON's, refuses lone
// surrogates and 1e400, which valid entries may hold).
inline bool parses(const std::string& json) { return valid_json(json); }

inline xs_store* memory_store() {
  xs_store* st = xs_store_new();
  FUZZ_CHECK(st != nullptr, "");
  xs_store_options so;
  xs_store_options_init(&so, XS_STORE_OPTIONS_VERSION);
  so.flags = XS_STORE_IN_MEMORY;
  FUZZ_CHECK(xs_store_open(st, nullptr, &so) == XS_OK, xs_store_errmsg(st));
  return st;
}

}  // namespace xs_fuzz
