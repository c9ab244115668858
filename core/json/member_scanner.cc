#include "json/member_scanner.h"

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <cstdlib>
#include <cstring>
#include <optional>

#include "json/json_string.h"
#include "json/rapidjson_compat.h"

namespace xs::json {

namespace {

bool is_json_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class SpanHandler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, SpanHandler> {
 public:
  SpanHandler(const rapidjson::MemoryStream& stream, std::string_view text, uint32_t max_depth,
              std::vector<Member>* out)
      : stream_(stream), text_(text), max_depth_(max_depth), out_(out) {}

  bool depth_exceeded() const { return depth_exceeded_; }
  bool root_is_object() const { return root_is_object_; }

  bool Null() { return Scalar(Kind::kNull); }
  bool Bool(bool b) { return Scalar(b ? Kind::kTrue : Kind::kFalse); }
  bool RawNumber(const char*, rapidjson::SizeType, bool) { return Scalar(Kind::kNumber); }
  bool String(const char*, rapidjson::SizeType, bool) { return Scalar(Kind::kString); }
  bool StartObject() { return Open(Kind::kObject); }
  bool StartArray() { return Open(Kind::kArray); }
  bool EndObject(rapidjson::SizeType) { return Close(); }
  bool EndArray(rapidjson::SizeType) { return Close(); }

  bool Key(const char*, rapidjson::SizeType, bool) {
    if (containers_ != 1) return true;
    size_t end = stream_.Tell();
    size_t start = cursor_;
    while (start < end && text_[start] != '"') ++start;
    key_ = text_.substr(start, end - start);
    size_t v = end;
    while (v < text_.size() && (is_json_ws(text_[v]) || text_[v] == ':')) ++v;
    value_start_ = v;
    return true;
  }

 private:
  // A scalar at container depth d sits at value depth d + 1.
  bool Scalar(Kind kind) {
    if (containers_ + 1 > max_depth_) return Exceeded();
    if (containers_ == 1) {
      if (!root_is_object_) value_start_ = element_start();
      Record(kind, stream_.Tell());
    }
    return true;
  }
  bool Open(Kind kind) {
    ++containers_;
    if (containers_ > max_depth_) return Exceeded();
    if (containers_ == 1) root_is_object_ = (kind == Kind::kObject);
    // RapidJSON's iterative parser calls StartObject/StartArray and EndObject/EndArray before it
    // consumes the bracket, so Tell() is the bracket's own position here.
    if (containers_ == 2) {
      member_kind_ = kind;
      value_start_ = stream_.Tell();
    }
    return true;
  }
  bool Close() {
    --containers_;
    if (containers_ == 1) Record(member_kind_, stream_.Tell() + 1);
    return true;
  }
  // Where an array element starts: past the separators after the previous element.
  size_t element_start() const {
    size_t v = cursor_;
    while (v < text_.size() && (is_json_ws(text_[v]) || text_[v] == ',' || text_[v] == '[')) ++v;
    return v;
  }
  void Record(Kind kind, size_t end) {
    if (out_) out_->push_back({key_, text_.substr(value_start_, end - value_start_), kind});
    cursor_ = end;
  }
  bool Exceeded() {
    depth_exceeded_ = true;
    return false;
  }

  const rapidjson::MemoryStream& stream_;
  std::string_view text_;
  uint32_t max_depth_;
  std::vector<Member>* out_;
  uint32_t containers_ = 0;
  bool depth_exceeded_ = false;
  bool root_is_object_ = false;
  size_t cursor_ = 0;  // end of the last top-level member (keys start after it)
  std::string_view key_;
  size_t value_start_ = 0;
  Kind member_kind_ = Kind::kNull;
};

}  // namespace

Status scan_members(std::string_view text, const Limits& limits, std::vector<Member>* out, bool* is_object) {
  if (out) out->clear();
  // A NUL would end RapidJSON's input early and hide whatever follows it.
  // (Not for an empty view: its data() may be null, which memchr must not get.)
  if (!text.empty() && std::memchr(text.data(), 0, text.size())) return Status::Invalid("NUL byte in JSON text");
  std::optional<std::string> copy = rapidjson_compatible_copy(text);
  std::string_view input = copy ? std::string_view(*copy) : text;
  rapidjson::MemoryStream stream(input.data(), input.size());
  SpanHandler handler(stream, text, limits.max_depth, out);
  rapidjson::Reader reader;
  constexpr unsigned kFlags =
      rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag | rapidjson::kParseNumbersAsStringsFlag;
  rapidjson::ParseResult r = reader.Parse<kFlags>(stream, handler);
  if (handler.depth_exceeded()) {
    return Status::Limit("nesting deeper than " + std::to_string(limits.max_depth));
  }
  if (r.IsError()) {
    return Status::Invalid(std::string("invalid JSON at byte ") + std::to_string(r.Offset()) + ": " +
                           rapidjson::GetParseError_En(r.Code()));
  }
  if (is_object) *is_object = handler.root_is_object();
  return Status::Ok();
}

std::vector<Member> members_of(std::string_view object_text) {
  std::vector<Member> m;
  bool is_object = false;
  if (!scan_members(object_text, internal_limits(), &m, &is_object).ok() || !is_object) m.clear();
  return m;
}

std::optional<std::string> string_value(const Member* m) {
  std::string s;
  if (!m || m->kind != Kind::kString || !decode_string_token(m->value, s)) return std::nullopt;
  return s;
}

const Member* find_member(const std::vector<Member>& members, std::string_view key) {
  std::string decoded;
  for (auto it = members.rbegin(); it != members.rend(); ++it) {
    std::string_view raw = it->key;
    if (raw.size() < 2) continue;  // array elements have no key
    std::string_view content = raw.substr(1, raw.size() - 2);
    if (content.find('\\') == std::string_view::npos) {
      if (content == key) return &*it;
    } else if (decode_string_token(raw, decoded) && decoded == key) {
      return &*it;
    }
  }
  return nullptr;
}

bool is_truthy(const Member* m) {
  if (!m) return false;
  switch (m->kind) {
    case Kind::kAbsent:
    case Kind::kNull:
    case Kind::kFalse: return false;
    case Kind::kString: return m->value.size() > 2;
    case Kind::kNumber:
      // As JavaScript sees the number: zero in any spelling, and anything that underflows to zero
      // (1e-400), is falsy; 1e400 is Infinity, truthy.
      return std::strtod(std::string(m->value).c_str(), nullptr) != 0;
    default: return true;
  }
}

}  // namespace xs::json
