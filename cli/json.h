// Reading the library's JSON output (simdjson's DOM) and writing JSON text (RapidJSON's writer).
#pragma once

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace xs::cli {

// A value inside a JsonDoc; valid while its document lives.
using Json = simdjson::dom::element;
using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

// A parsed document. It owns its parser, since every Json of it points into the parser's memory.
class JsonDoc {
 public:
  explicit JsonDoc(const std::string& text);
  Json root() const { return root_; }

 private:
  std::unique_ptr<simdjson::dom::parser> parser_;
  Json root_;
};

// Parses text the library returned; a failure here is a bug (ApiError XS_EINTERNAL).
JsonDoc parse_json(const std::string& text);

// Member `key` of object v; nothing when v is no object or has no such member.
std::optional<Json> member(Json v, std::string_view key);
// Member `key` of object v as text / number; `fallback` when absent or of another type.
std::string_view str(Json v, std::string_view key, std::string_view fallback = "");
int64_t num(Json v, std::string_view key, int64_t fallback = 0);
double real(Json v, std::string_view key, double fallback = 0);
bool flag(Json v, std::string_view key);
// v itself as an integer; `fallback` when it is no number.
int64_t int_of(Json v, int64_t fallback = 0);
// v itself as text (empty when v is no string).
std::string_view text_of(Json v);

// The items of array v / the members of object v: empty when v is of another type, so loops
// over what the library returned need no checks of their own.
simdjson::dom::array items(Json v);
simdjson::dom::array items(Json v, std::string_view key);
simdjson::dom::object fields(Json v);
size_t count(Json v);
size_t count(Json v, std::string_view key);

// A JSON string literal for s (quotes and escapes).
std::string json_quoted(std::string_view s);
// Writes v through w; numbers, escapes and member order come out as RapidJSON writes them.
void write_json(JsonWriter& w, Json v);
// Minified JSON text of v.
std::string to_json(Json v);

}  // namespace xs::cli
