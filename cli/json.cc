#include "json.h"

#include <rapidjson/encodedstream.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include "api.h"

namespace xs::cli {

namespace {

// An empty array and an empty object, parsed once: what items() and fields() return for values
// of another type.
Json empty_container(size_t index) {
  static const JsonDoc doc("[[],{}]");
  return doc.root().get_array().value_unsafe().at(index).value_unsafe();
}

// The library keeps valid JSON text that simdjson's DOM refuses: integers beyond 64 bits. They
// are shown as the nearest double, as JSON.parse reads them: RapidJSON's reader, feeding its
// writer, rewrites them as doubles, and simdjson reads the result. Text both refuse (1e400, lone
// surrogate escapes) gets RapidJSON's message.
std::string as_doubles(const std::string& text) {
  rapidjson::StringBuffer out;
  JsonWriter w(out);
  rapidjson::Reader reader;
  rapidjson::MemoryStream bytes(text.data(), text.size());
  rapidjson::EncodedInputStream<rapidjson::UTF8<>, rapidjson::MemoryStream> in(bytes);
  // Full precision: every other number keeps the value simdjson would have read.
  if (!reader.Parse<rapidjson::kParseFullPrecisionFlag>(in, w)) {
    throw ApiError(XS_EINTERNAL, std::string("the library returned JSON that does not parse: ") +
                                     rapidjson::GetParseError_En(reader.GetParseErrorCode()));
  }
  return std::string(out.GetString(), out.GetSize());
}

}  // namespace

JsonDoc::JsonDoc(const std::string& text) : parser_(std::make_unique<simdjson::dom::parser>()) {
  simdjson::error_code err = parser_->parse(text).get(root_);
  if (err == simdjson::MEMALLOC) throw std::bad_alloc();
  if (err == simdjson::SUCCESS) return;
  std::string rewritten = as_doubles(text);
  err = parser_->parse(rewritten).get(root_);
  if (err == simdjson::MEMALLOC) throw std::bad_alloc();
  if (err != simdjson::SUCCESS) {
    throw ApiError(XS_EINTERNAL,
                   std::string("the library returned JSON that does not parse: ") + simdjson::error_message(err));
  }
}

JsonDoc parse_json(const std::string& text) { return JsonDoc(text); }

std::optional<Json> member(Json v, std::string_view key) {
  simdjson::dom::object o;
  Json m;
  if (v.get_object().get(o) != simdjson::SUCCESS || o.at_key(key).get(m) != simdjson::SUCCESS) return std::nullopt;
  return m;
}

std::string_view text_of(Json v) {
  std::string_view s;
  return v.get_string().get(s) == simdjson::SUCCESS ? s : std::string_view();
}

std::string_view str(Json v, std::string_view key, std::string_view fallback) {
  std::optional<Json> m = member(v, key);
  return m && m->is_string() ? text_of(*m) : fallback;
}

int64_t int_of(Json v, int64_t fallback) {
  int64_t i = 0;
  if (v.get_int64().get(i) == simdjson::SUCCESS) return i;
  double d = 0;
  if (v.get_double().get(d) != simdjson::SUCCESS) return fallback;
  // A number beyond int64 or a fraction: the nearest integer there is (the library's counts and
  // times are integers well inside int64).
  return d >= 9.2e18 ? INT64_MAX : d <= -9.2e18 ? INT64_MIN : static_cast<int64_t>(d);
}

int64_t num(Json v, std::string_view key, int64_t fallback) {
  std::optional<Json> m = member(v, key);
  return m ? int_of(*m, fallback) : fallback;
}

double real(Json v, std::string_view key, double fallback) {
  std::optional<Json> m = member(v, key);
  double d = 0;
  return m && m->get_double().get(d) == simdjson::SUCCESS ? d : fallback;
}

bool flag(Json v, std::string_view key) {
  std::optional<Json> m = member(v, key);
  bool b = false;
  return m && m->get_bool().get(b) == simdjson::SUCCESS && b;
}

simdjson::dom::array items(Json v) {
  simdjson::dom::array a;
  if (v.get_array().get(a) == simdjson::SUCCESS) return a;
  return empty_container(0).get_array().value_unsafe();
}

simdjson::dom::array items(Json v, std::string_view key) {
  std::optional<Json> m = member(v, key);
  return items(m ? *m : empty_container(0));
}

simdjson::dom::object fields(Json v) {
  simdjson::dom::object o;
  if (v.get_object().get(o) == simdjson::SUCCESS) return o;
  return empty_container(1).get_object().value_unsafe();
}

size_t count(Json v, std::string_view key) { return count(member(v, key).value_or(empty_container(0))); }

size_t count(Json v) {
  simdjson::dom::array a = items(v);
  size_t n = a.size();
  // The DOM stores sizes up to 0xFFFFFF; past that only counting tells.
  if (n == 0xFFFFFF) {
    n = 0;
    for (auto it = a.begin(); it != a.end(); ++it) ++n;
  }
  return n;
}

std::string json_quoted(std::string_view s) {
  rapidjson::StringBuffer b;
  JsonWriter w(b);
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
  return std::string(b.GetString(), b.GetSize());
}

void write_json(JsonWriter& w, Json v) {
  switch (v.type()) {
    case simdjson::dom::element_type::ARRAY:
      w.StartArray();
      for (Json item : items(v)) write_json(w, item);
      w.EndArray();
      return;
    case simdjson::dom::element_type::OBJECT:
      w.StartObject();
      for (simdjson::dom::key_value_pair kv : fields(v)) {
        w.Key(kv.key.data(), static_cast<rapidjson::SizeType>(kv.key.size()));
        write_json(w, kv.value);
      }
      w.EndObject();
      return;
    case simdjson::dom::element_type::INT64: w.Int64(v.get_int64().value_unsafe()); return;
    case simdjson::dom::element_type::UINT64: w.Uint64(v.get_uint64().value_unsafe()); return;
    case simdjson::dom::element_type::DOUBLE: w.Double(v.get_double().value_unsafe()); return;
    case simdjson::dom::element_type::STRING: {
      std::string_view s = text_of(v);
      w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
      return;
    }
    case simdjson::dom::element_type::BOOL: w.Bool(v.get_bool().value_unsafe()); return;
    case simdjson::dom::element_type::NULL_VALUE: w.Null(); return;
  }
}

std::string to_json(Json v) {
  rapidjson::StringBuffer b;
  JsonWriter w(b);
  write_json(w, v);
  return std::string(b.GetString(), b.GetSize());
}

}  // namespace xs::cli
