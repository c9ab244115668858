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
  // The same over a text followed by kPadding readable bytes (a whole file as the storage layer
  // reads it), without copying it: the minified text goes to `out`, which has room for
  // text.size() + kPadding bytes (a storage::PaddedBuffer of the text's size), its length to
  // *out_len.
  Status prepare_padded(std::string_view text, char* out, size_t* out_len, Kind* kind);

 private:
  Status validate(std::string_view padded_text, Kind* kind, LineFacts* facts);
  static Status minify(std::string_view padded_text, char* out, size_t* out_len);

  LineScanner scanner_;
  LineFacts scratch_facts_;
  std::string padded_;
};

}  // namespace xs::json
