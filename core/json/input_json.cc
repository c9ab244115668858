#include "json/input_json.h"

#include <simdjson.h>

namespace xs::json {

Status InputJson::prepare(std::string_view text, std::string* minified, Kind* kind, LineFacts* facts) {
  // Caller memory carries no padding; the scanner needs kPadding readable bytes after the text.
  padded_.assign(text);
  padded_.append(kPadding, '\0');
  std::string_view view(padded_.data(), text.size());
  Status st = validate(view, kind, facts ? facts : &scratch_facts_);
  if (!st.ok()) return st;
  minified->resize(text.size() + kPadding);  // simdjson may store whole blocks past the end
  size_t len = 0;
  XS_RETURN_IF_ERROR(minify(view, minified->data(), &len));
  minified->resize(len);
  return Status::Ok();
}

Status InputJson::prepare_padded(std::string_view text, char* out, size_t* out_len, Kind* kind) {
  XS_RETURN_IF_ERROR(validate(text, kind, &scratch_facts_));
  return minify(text, out, out_len);
}

Status InputJson::validate(std::string_view padded_text, Kind* kind, LineFacts* facts) {
  if (scanner_.scan_value(padded_text, kind, facts) != LineVerdict::kObject) {
    bool limit = scanner_.code() == "too_long" || scanner_.code() == "too_deep";
    return Status(limit ? Code::kLimit : Code::kInvalid, scanner_.reason());
  }
  return Status::Ok();
}

Status InputJson::minify(std::string_view padded_text, char* out, size_t* out_len) {
  if (simdjson::minify(padded_text.data(), padded_text.size(), out, *out_len) != simdjson::SUCCESS) {
    return Status::Internal("could not minify validated JSON");
  }
  return Status::Ok();
}

}  // namespace xs::json
