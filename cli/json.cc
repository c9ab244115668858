#include "json.h"

#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "api.h"

namespace xs::cli {

rapidjson::Document parse_json(const std::string& text) {
  rapidjson::Document d;
  d.Parse(text.data(), text.size());
  if (d.HasParseError()) {
    throw ApiError(XS_EINTERNAL, std::string("the library returned JSON that does not parse: ") +
                                     rapidjson::GetParseError_En(d.GetParseError()));
  }
  return d;
}

const rapidjson::Value* member(const rapidjson::Value& v, const char* key) {
  if (!v.IsObject()) return nullptr;
  auto it = v.FindMember(key);
  return it == v.MemberEnd() ? nullptr : &it->value;
}

std::string_view str(const rapidjson::Value& v, const char* key, std::string_view fallback) {
  const rapidjson::Value* m = member(v, key);
  return m && m->IsString() ? std::string_view(m->GetString(), m->GetStringLength()) : fallback;
}

int64_t num(const rapidjson::Value& v, const char* key, int64_t fallback) {
  const rapidjson::Value* m = member(v, key);
  if (!m || !m->IsNumber()) return fallback;
  return m->IsInt64() ? m->GetInt64() : static_cast<int64_t>(m->GetDouble());
}

double real(const rapidjson::Value& v, const char* key, double fallback) {
  const rapidjson::Value* m = member(v, key);
  return m && m->IsNumber() ? m->GetDouble() : fallback;
}

bool flag(const rapidjson::Value& v, const char* key) {
  const rapidjson::Value* m = member(v, key);
  return m && m->IsBool() && m->GetBool();
}

std::string json_quoted(std::string_view s) {
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
  return std::string(b.GetString(), b.GetSize());
}

std::string to_json(const rapidjson::Value& v) {
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  v.Accept(w);
  return std::string(b.GetString(), b.GetSize());
}

}  // namespace xs::cli
