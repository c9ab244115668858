// Every token of a JSON text with its byte span: what an edit that keeps all other bytes needs
// (the size rules, blob resolution). Runs RapidJSON's SAX reader over text that was validated
// before (see rapidjson_compat for what RapidJSON alone would refuse).
#pragma once

#include <functional>
#include <string_view>

#include "util/status.h"

namespace xs::json {

struct Token {
  enum Kind { kKey, kString, kNumber, kTrue, kFalse, kNull, kStartObject, kEndObject, kStartArray, kEndArray };
  Kind kind;
  size_t start;  // first byte; for kEnd*, the container's opening bracket
  size_t end;    // one past the last byte; for kStart*, one past the opening bracket
  // kKey / kString: the decoded text (lone surrogates read as 'X'), valid during the callback.
  std::string_view text;
};

// Calls visit for each token in document order; visit returning false stops the walk.
Status walk_tokens(std::string_view json, const std::function<bool(const Token&)>& visit);

}  // namespace xs::json
