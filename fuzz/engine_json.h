// JSON helpers for the fuzz targets built on the engine's own JSON layer: its validator (which
// accepts what session files legitimately hold and RapidJSON's DOM refuses: lone-surrogate escapes,
// numbers like 1e400) and its token walker.
#pragma once

#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.h"
#include "json/input_json.h"
#include "json/limits.h"
#include "json/token_walker.h"

namespace xs_fuzz {

// Valid JSON, as the engine validates it (no size or depth limit of its own).
inline bool valid_json(std::string_view text) {
  xs::json::InputJson input(xs::json::internal_limits());
  std::string minified;
  xs::json::Kind kind;
  return input.prepare(text, &minified, &kind).ok();
}

// The members of each object of a top-level array: key -> raw token text (strings without
// quotes when they hold no escape; with a backslash left as is, numbers as written).
inline std::vector<std::map<std::string, std::string>> array_of_objects(std::string_view json) {
  FUZZ_CHECK(valid_json(json), "not valid JSON: " + std::string(json.substr(0, 2000)));
  std::vector<std::map<std::string, std::string>> out;
  int depth = 0;
  std::string key;
  xs::Status st = xs::json::walk_tokens(json, [&](const xs::json::Token& t) {
    using T = xs::json::Token;
    switch (t.kind) {
      case T::kStartArray:
      case T::kStartObject:
        ++depth;
        if (depth == 2 && t.kind == T::kStartObject) out.emplace_back();
        break;
      case T::kEndArray:
      case T::kEndObject:
        --depth;
        break;
      case T::kKey:
        if (depth == 2) key = std::string(t.text);
        break;
      default:
        if (depth == 2 && !out.empty()) {
          std::string_view raw = json.substr(t.start, t.end - t.start);
          if (t.kind == T::kString && raw.find('\\') == std::string_view::npos) raw = t.text;
          out.back()[key] = std::string(raw);
        }
        break;
    }
    return true;
  });
  FUZZ_CHECK(st.ok(), "walk_tokens failed on valid JSON: " + st.message());
  return out;
}

}  // namespace xs_fuzz
