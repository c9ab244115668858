// Reading the library's JSON output (RapidJSON DOM) and writing JSON strings.
#pragma once

#include <rapidjson/document.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace xs::cli {

// Parses text the library returned; a failure here is a bug (ApiError XS_EINTERNAL).
rapidjson::Document parse_json(const std::string& text);

// Member `key` of object v as text / number; `fallback` when absent or of another type.
std::string_view str(const rapidjson::Value& v, const char* key, std::string_view fallback = "");
int64_t num(const rapidjson::Value& v, const char* key, int64_t fallback = 0);
double real(const rapidjson::Value& v, const char* key, double fallback = 0);
bool flag(const rapidjson::Value& v, const char* key);
const rapidjson::Value* member(const rapidjson::Value& v, const char* key);

// A JSON string literal for s (quotes and escapes).
std::string json_quoted(std::string_view s);
// Minified JSON text of v.
std::string to_json(const rapidjson::Value& v);

}  // namespace xs::cli
