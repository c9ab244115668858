#include "json/object_reader.h"

#include <simdjson.h>

#include <cstring>
#include <new>

#include "json/document_edit.h"
#include "json/input_json.h"

namespace xs::json {

namespace {

namespace od = simdjson::ondemand;

bool is_ws(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Backs over whitespace from `p` (one past what is looked at), then over `sep` when it is given,
// then whitespace again: one past the token before. Null when `sep` is not there.
const char* back_over(const char* begin, const char* p, char sep) {
  while (p > begin && is_ws(p[-1])) --p;
  if (sep) {
    if (p == begin || p[-1] != sep) return nullptr;
    --p;
    while (p > begin && is_ws(p[-1])) --p;
  }
  return p;
}

// Every value below `v` read as the DOM parse reads it: keys and strings unescaped (bad escapes,
// lone surrogates), numbers parsed, literals matched, containers walked to their ends (commas,
// colons, brackets). `depth` counts as json::Limits does (the root is 1); deeper than `deepest`
// is left to the full validation.
bool walk(od::value& v, uint32_t depth, uint32_t deepest) {
  if (depth > deepest) return false;
  od::json_type type;
  if (v.type().get(type)) return false;
  switch (type) {
    case od::json_type::object: {
      od::object object;
      if (v.get_object().get(object)) return false;
      for (auto member : object) {
        od::field field;
        std::string_view key;
        if (std::move(member).get(field) || field.unescaped_key().get(key)) return false;
        if (!walk(field.value(), depth + 1, deepest)) return false;
      }
      return true;
    }
    case od::json_type::array: {
      od::array array;
      if (v.get_array().get(array)) return false;
      for (auto element : array) {
        od::value item;
        if (element.get(item) || !walk(item, depth + 1, deepest)) return false;
      }
      return true;
    }
    case od::json_type::string: {
      std::string_view s;
      return !v.get_string().get(s);
    }
    case od::json_type::number: {
      od::number n;
      return !v.get_number().get(n);
    }
    case od::json_type::boolean: {
      bool b;
      return !v.get_bool().get(b);
    }
    case od::json_type::null: {
      bool is_null = false;
      return !v.is_null().get(is_null) && is_null;
    }
  }
  return false;
}

}  // namespace

bool read_object_one_walk(std::string_view text, const Limits& limits, char* out, std::vector<Member>* members) {
  members->clear();
  if (text.size() > limits.max_line_bytes || limits.max_depth < 3) return false;
  if (std::memchr(text.data(), 0, text.size()) != nullptr) return false;
  const char* begin = text.data();
  const char* end = back_over(begin, begin + text.size(), 0);  // one past the root's closing brace
  if (end == begin || end[-1] != '}') return false;

  od::parser parser;
  od::document doc;
  od::object root;
  simdjson::error_code e = parser.iterate(text.data(), text.size(), text.size() + kPadding).get(doc);
  if (e == simdjson::MEMALLOC) throw std::bad_alloc();
  if (e || doc.get_object().get(root)) return false;
  struct Span {
    const char* key;    // the key token's opening quote
    const char* value;  // the value's first byte
  };
  std::vector<Span> spans;
  for (auto member : root) {
    od::field field;
    if (std::move(member).get(field)) return false;
    const char* key = field.key().raw() - 1;
    std::string_view unescaped;
    if (field.unescaped_key().get(unescaped)) return false;
    od::value& value = field.value();
    const char* at = value.raw_json_token().data();
    if (!walk(value, 2, limits.max_depth - 2)) return false;
    spans.push_back({key, at});
  }
  if (doc.current_location().error() != simdjson::OUT_OF_BOUNDS) return false;  // something after the root

  // The spans between the tokens hold only whitespace, ':' and ',' (the walk checked them).
  members->reserve(spans.size());
  size_t written = 0;
  for (size_t i = 0; i < spans.size(); ++i) {
    const char* key_end = back_over(begin, spans[i].value, ':');
    const char* value_end =
        i + 1 < spans.size() ? back_over(begin, spans[i + 1].key, ',') : back_over(begin, end - 1, 0);
    if (!key_end || !value_end || value_end <= spans[i].value) return false;
    // The key token too, so that the members point into `out` alone, as after the full validation.
    size_t key_len = static_cast<size_t>(key_end - spans[i].key);
    std::memcpy(out + written, spans[i].key, key_len);
    size_t len = 0;
    if (simdjson::minify(spans[i].value, static_cast<size_t>(value_end - spans[i].value), out + written + key_len,
                         len) != simdjson::SUCCESS) {
      return false;
    }
    members->push_back({std::string_view(out + written, key_len), std::string_view(out + written + key_len, len),
                        kind_of_first(*spans[i].value)});
    written += key_len + len;
  }
  return true;
}

Status read_object(std::string_view text, const Limits& limits, char* out, std::vector<Member>* members, Kind* kind) {
  if (read_object_one_walk(text, limits, out, members)) {
    *kind = Kind::kObject;
    return Status::Ok();
  }
  members->clear();
  size_t len = 0;
  InputJson input(limits);
  XS_RETURN_IF_ERROR(input.prepare_padded(text, out, &len, kind));
  if (*kind != Kind::kObject) return Status::Ok();
  std::memset(out + len, 0, kPadding);  // split reads the minified text with simdjson's padding
  auto split = split_minified_object(std::string_view(out, len));
  if (!split.ok()) return split.status();
  *members = std::move(*split);
  return Status::Ok();
}

}  // namespace xs::json
