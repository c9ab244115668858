// Top-level members of a JSON object as raw byte spans: the robust, slower path.
//
// The fast loader path (line_scanner) learns values from simdjson's DOM, which keeps no byte
// positions. Whenever the engine must know *where* a value sits in a line (to splice it into a
// context, to replace one value during a migration, or to read a line simdjson refused), it asks
// this scanner, which runs RapidJSON's SAX reader over the text and records where each top-level
// member's key and value begin and end. It doubles as the lenient validator: it accepts
// everything JSON.parse accepts (lone surrogate escapes, numbers of any magnitude) and nothing
// else (invalid UTF-8 or grammar, too deep).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/limits.h"
#include "util/status.h"

namespace xs::json {

enum class Kind : uint8_t { kAbsent, kNull, kFalse, kTrue, kNumber, kString, kObject, kArray };

// The kind of a valid JSON value from its first byte (no whitespace before it).
inline Kind kind_of_first(char first) {
  switch (first) {
    case '{': return Kind::kObject;
    case '[': return Kind::kArray;
    case '"': return Kind::kString;
    case 't': return Kind::kTrue;
    case 'f': return Kind::kFalse;
    case 'n': return Kind::kNull;
    default: return Kind::kNumber;
  }
}

struct Member {
  std::string_view key;    // raw key token, quotes included (empty for array elements)
  std::string_view value;  // raw value token or container text
  Kind kind;
};

// Validates `text` as one JSON value within `limits` and lists its top-level members in order:
// an object's members (duplicates included; callers take the last one, as JSON.parse does) or an
// array's elements (with empty keys). *is_object tells which. Errors carry a reason.
Status scan_members(std::string_view text, const Limits& limits, std::vector<Member>* out, bool* is_object);

// The members of a stored object text (validated before): empty when it is not an object.
std::vector<Member> members_of(std::string_view object_text);

// A member's decoded string value; nullopt when absent or not a string.
std::optional<std::string> string_value(const Member* m);

// Last member whose decoded key equals `key`, or nullptr.
const Member* find_member(const std::vector<Member>& members, std::string_view key);

// JavaScript truthiness of a raw value (what `if (entry.summary)` decides).
bool is_truthy(const Member* m);

}  // namespace xs::json
