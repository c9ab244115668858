// JSON handed to the API: validated under the session's limits, then minified token for token
// (docs/format.md#caller-json): whitespace between tokens goes, every string,
// number and literal keeps its exact bytes.
#pragma once

#include <string>
#include <string_view>

#include "json/line_scanner.h"
#include "util/status.h"

namespace xs::json {

class InputJson {
 public:
  explicit InputJson(Limits limits) : scanner_(limits) {}

  // On success *minified holds the text without insignificant whitespace, *kind its root kind,
  // and *facts (when given) the role/provider/model of an object root. Errors: kLimit for size
  // and depth, kInvalid for everything else (grammar, UTF-8, NUL bytes, empty text).
  Status prepare(std::string_view text, std::string* minified, Kind* kind, LineFacts* facts = nullptr);

 private:
  LineScanner scanner_;
  LineFacts scratch_facts_;
  std::string padded_;
};

}  // namespace xs::json
