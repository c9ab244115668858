#include "json/input_json.h"

#include <simdjson.h>

namespace xs::json {

Status InputJson::prepare(std::string_view text, std::string* minified, Kind* kind, LineFacts* facts) {
  // Caller memory carries no padding; the scanner needs kPadding readable bytes after the text.
  padded_.assign(text);
  padded_.append(kPadding, '\0');
  std::string_view view(padded_.data(), text.size());
  if (scanner_.scan_value(view, kind, facts ? facts : &scratch_facts_) != LineVerdict::kObject) {
    bool limit = scanner_.code() == "too_long" || scanner_.code() == "too_deep";
    return Status(limit ? Code::kLimit : Code::kInvalid, scanner_.reason());
  }
  minified->resize(text.size() + kPadding);
  size_t len = 0;
  if (simdjson::minify(view.data(), view.size(), minified->data(), len) != simdjson::SUCCESS) {
    return Status::Internal("could not minify validated JSON");
  }
  minified->resize(len);
  return Status::Ok();
}

}  // namespace xs::json
