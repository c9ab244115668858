// Entry lines as omp writes them: the envelope (type, id, parentId, timestamp) around a payload,
// in the key order of docs/format.md#entries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace xs::format {

// Payload members in the order they are added; values are raw JSON (already validated and
// minified) or text we escape ourselves.
class Payload {
 public:
  void raw(std::string_view key, std::string_view json);
  void text(std::string_view key, std::string_view utf8);
  void boolean(std::string_view key, bool v) { raw(key, v ? "true" : "false"); }
  void null(std::string_view key) { raw(key, "null"); }
  void integer(std::string_view key, int64_t v) { raw(key, std::to_string(v)); }
  // A member whose bytes are already `"key":value` (copied from a caller's object). Returns
  // where it starts within bytes().
  size_t member(std::string_view key_colon_value);
  // Room for `n` bytes of members, taken at once instead of as they grow.
  void reserve(size_t n) { bytes_.reserve(n); }

  const std::string& bytes() const { return bytes_; }

 private:
  void key(std::string_view k);
  std::string bytes_;
};

struct Envelope {
  std::string_view type_token;  // the raw JSON string token of the type, e.g. "\"message\""
  std::string_view id;
  std::optional<std::string_view> parent_id;  // nullopt -> null
  std::string_view timestamp_token;           // raw JSON string token
  bool after_payload = false;                 // custom / custom_message put the envelope last
};

// The entry line (no newline). *payload_at receives where the payload starts in the line.
std::string build_entry_line(const Envelope& env, const Payload& payload, size_t* payload_at = nullptr);

}  // namespace xs::format
