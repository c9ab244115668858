#include "json/token_walker.h"

#include "json/rapidjson_compat.h"

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <cstring>
#include <optional>
#include <vector>

namespace xs::json {

namespace {

bool is_skippable(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ':' || c == '[' || c == '{';
}

class Handler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Handler> {
 public:
  Handler(const rapidjson::MemoryStream& s, std::string_view text, const std::function<bool(const Token&)>& visit)
      : s_(s), text_(text), visit_(visit) {}

  bool Null() { return Scalar(Token::kNull, {}); }
  bool Bool(bool b) { return Scalar(b ? Token::kTrue : Token::kFalse, {}); }
  bool RawNumber(const char*, rapidjson::SizeType, bool) { return Scalar(Token::kNumber, {}); }
  bool String(const char* str, rapidjson::SizeType len, bool) { return Scalar(Token::kString, {str, len}); }
  bool Key(const char* str, rapidjson::SizeType len, bool) { return Scalar(Token::kKey, {str, len}); }
  // The iterative reader reports brackets before consuming them: Tell() is the bracket itself.
  bool StartObject() { return Open(Token::kStartObject); }
  bool StartArray() { return Open(Token::kStartArray); }
  bool EndObject(rapidjson::SizeType) { return Close(Token::kEndObject); }
  bool EndArray(rapidjson::SizeType) { return Close(Token::kEndArray); }

 private:
  size_t next_start() const {
    size_t p = cursor_;
    while (p < text_.size() && is_skippable(text_[p])) ++p;
    return p;
  }
  bool Scalar(Token::Kind kind, std::string_view decoded) {
    size_t end = s_.Tell();
    Token t{kind, next_start(), end, decoded};
    cursor_ = end;
    return visit_(t);
  }
  bool Open(Token::Kind kind) {
    size_t at = s_.Tell();
    opens_.push_back(at);
    cursor_ = at + 1;
    return visit_(Token{kind, at, at + 1, {}});
  }
  bool Close(Token::Kind kind) {
    size_t start = opens_.back();
    opens_.pop_back();
    cursor_ = s_.Tell() + 1;
    return visit_(Token{kind, start, cursor_, {}});
  }

  const rapidjson::MemoryStream& s_;
  std::string_view text_;
  const std::function<bool(const Token&)>& visit_;
  std::vector<size_t> opens_;
  size_t cursor_ = 0;
};

}  // namespace

Status walk_tokens(std::string_view json, const std::function<bool(const Token&)>& visit) {
  std::optional<std::string> copy = rapidjson_compatible_copy(json);
  std::string_view input = copy ? std::string_view(*copy) : json;
  rapidjson::MemoryStream stream(input.data(), input.size());
  Handler handler(stream, json, visit);
  rapidjson::Reader reader;
  constexpr unsigned kFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag;
  rapidjson::ParseResult r = reader.Parse<kFlags>(stream, handler);
  if (r.IsError() && r.Code() != rapidjson::kParseErrorTermination) {
    return Status::Invalid(std::string("invalid JSON at byte ") + std::to_string(r.Offset()) + ": " +
                           rapidjson::GetParseError_En(r.Code()));
  }
  return Status::Ok();
}

}  // namespace xs::json
