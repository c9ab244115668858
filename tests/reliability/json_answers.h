// Reading the engine's JSON answers in the reliability checks: the diagnostics array and the ids
// of an entries array. Parsed with simdjson's DOM (the engine's own JSON dependency) rather than
// RapidJSON's document.h, which newer clang refuses to compile in RapidJSON 1.1.0.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace xs::test {

// One element of diagnostics_json(): {"line":…,"offset":…,"length":…,"code":…,…}.
struct Diagnostic {
  uint64_t line = 0;
  uint64_t offset = 0;
  uint64_t length = 0;
  std::string code;
};

// The elements of a diagnostics_json() text; nullopt unless it is an array of objects that each
// have those four members with those types.
inline std::optional<std::vector<Diagnostic>> parse_diagnostics(const std::string& json) {
  simdjson::dom::parser parser;
  simdjson::dom::array items;
  if (parser.parse(json).get(items) != simdjson::SUCCESS) return std::nullopt;
  std::vector<Diagnostic> out;
  for (simdjson::dom::element item : items) {
    Diagnostic d;
    std::string_view code;
    if (item["line"].get(d.line) != simdjson::SUCCESS || item["offset"].get(d.offset) != simdjson::SUCCESS ||
        item["length"].get(d.length) != simdjson::SUCCESS || item["code"].get(code) != simdjson::SUCCESS) {
      return std::nullopt;
    }
    d.code = std::string(code);
    out.push_back(std::move(d));
  }
  return out;
}

// The "id" of each object of a JSON array (entries_json(), children_json()), in order; nullopt
// unless it is an array of objects with a string "id".
inline std::optional<std::vector<std::string>> ids_of(const std::string& json) {
  simdjson::dom::parser parser;
  simdjson::dom::array items;
  if (parser.parse(json).get(items) != simdjson::SUCCESS) return std::nullopt;
  std::vector<std::string> ids;
  for (simdjson::dom::element item : items) {
    std::string_view id;
    if (item["id"].get(id) != simdjson::SUCCESS) return std::nullopt;
    ids.emplace_back(id);
  }
  return ids;
}

}  // namespace xs::test
