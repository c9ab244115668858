// JSON string tokens: writing them the way JSON.stringify does, and decoding raw tokens.
//
// Two directions, two rules (docs/format.md#escaping):
//  - strings we generate (ids, timestamps, summaries handed to us as text) are escaped exactly as
//    JSON.stringify escapes them, so our lines are byte-identical to the reference agents';
//  - tokens we read are decoded by decode_string_token, which accepts lone-surrogate escapes
//    (valid JSON that pi writes) and maps them to U+FFFD, as Node does when it turns such a
//    string into UTF-8. The raw token itself is never rewritten, so nothing is lost on disk.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace xs::json {

// Appends `"<escaped utf8>"` to out. `utf8` must be valid UTF-8 (checked by callers at the API
// boundary). Escapes: \" \\ \b \f \n \r \t, other control characters as \u00xx, nothing else.
void append_quoted(std::string& out, std::string_view utf8);
// Appends `,"<key>":"<escaped value>"`, or `,"<key>":null` without a value (the objects we emit
// write every key, absent ones as null). `key` is a plain ASCII name, written as it is.
void append_optional_member(std::string& out, std::string_view key, const std::optional<std::string>& value);

// Decodes a raw JSON string token (including its quotes) into UTF-8. Returns false when the token
// is not a well-formed string token. Lone surrogate escapes decode to U+FFFD.
bool decode_string_token(std::string_view token, std::string& out);

// String.prototype.trim: drops leading and trailing JavaScript whitespace (ASCII blanks, NBSP,
// BOM, the Unicode space separators, U+2028/U+2029) from valid UTF-8.
std::string_view js_trim(std::string_view s);

// True when `s` is well-formed UTF-8 (no overlongs, no encoded surrogates, nothing above U+10FFFF).
bool is_valid_utf8(std::string_view s);

// `s` with every byte that is not part of a well-formed UTF-8 sequence replaced by U+FFFD. For text
// that does not come through the API's UTF-8 checks: file names (a path in a listing, a header's
// parentSession) and messages that quote them. JSON we emit must be UTF-8, and a session line with
// a raw invalid byte would be skipped when read back.
std::string to_valid_utf8(std::string_view s);
// append_quoted for such text: valid text as is, anything else through to_valid_utf8.
void append_quoted_lossy(std::string& out, std::string_view s);

}  // namespace xs::json
