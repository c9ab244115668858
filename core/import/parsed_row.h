// A source row's JSON parsed again for its nested members, for the importers' converters
// (docs/import.md): their rows keep views of the source's bytes, not trees, and a converter reads
// a row's content once more where it builds an entry from it.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace xs::import {

class ParsedRow {
 public:
  // A text simdjson refuses reads as an empty object: the row was validated as JSON.parse reads
  // it already, and the few texts JSON.parse takes and simdjson does not (a lone surrogate
  // escape) are kept by the importers as they were, not read for members.
  explicit ParsedRow(std::string_view text);
  ~ParsedRow();
  ParsedRow(const ParsedRow&) = delete;
  ParsedRow& operator=(const ParsedRow&) = delete;

  simdjson::dom::object root() const;
  // The root's member `key` when it is an object, else an empty object.
  simdjson::dom::object object_member(std::string_view key) const;

  // A parser and the padded copy of a row it reads. A thread keeps a few once their rows are
  // done, so that a row does not allocate (and free) a parser's buffers of its size again.
  struct Parser {
    std::string padded;
    simdjson::dom::parser parser;
  };

 private:
  std::unique_ptr<Parser> p_;
  bool parsed_ = false;
  simdjson::dom::element root_;
};

// Appends `e` as minified JSON: byte for byte what simdjson::to_string(e) returns (its escapes
// are json::append_quoted's; numbers are printed as it prints them), without that string or its
// byte-by-byte escaping of every string after the first character that needs an escape, which
// the importers' large tool results and inputs reach almost at once (a newline).
void append_minified(std::string& out, const simdjson::dom::element& e);

// `o[key]` as a string, or "" when it is missing or not one.
std::string str_member(const simdjson::dom::object& o, std::string_view key);
// `o[key]` as an integer (a double cut to one), or 0 when it is missing or not a number.
int64_t int_member(const simdjson::dom::object& o, std::string_view key);

}  // namespace xs::import
