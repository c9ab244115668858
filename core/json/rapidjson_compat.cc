#include "json/rapidjson_compat.h"

#include <cstring>

namespace xs::json {

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

// The JSON number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_json_number(std::string_view t) {
  size_t i = 0, n = t.size();
  if (i < n && t[i] == '-') ++i;
  if (i >= n) return false;
  if (t[i] == '0') {
    ++i;
  } else if (t[i] >= '1' && t[i] <= '9') {
    while (i < n && digit(t[i])) ++i;
  } else {
    return false;
  }
  if (i < n && t[i] == '.') {
    ++i;
    if (i >= n || !digit(t[i])) return false;
    while (i < n && digit(t[i])) ++i;
  }
  if (i < n && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < n && (t[i] == '+' || t[i] == '-')) ++i;
    if (i >= n || !digit(t[i])) return false;
    while (i < n && digit(t[i])) ++i;
  }
  return i == n;
}

bool hex(char c) { return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// 1 for a high-surrogate escape (\uD800-\uDBFF) at `at`, 2 for a low one (\uDC00-\uDFFF), else 0.
// All four hex digits are required: "\ud8" followed by a quote is a malformed escape for RapidJSON
// to refuse; replacing it would overwrite the quote and let invalid JSON through
// (fuzz/regressions/README.md).
int surrogate_half(std::string_view t, size_t at) {
  if (at + 5 >= t.size() || t[at] != '\\' || t[at + 1] != 'u' || (t[at + 2] != 'd' && t[at + 2] != 'D')) return 0;
  if (!hex(t[at + 4]) || !hex(t[at + 5])) return 0;
  char b = t[at + 3];
  if (b == '8' || b == '9' || b == 'a' || b == 'A' || b == 'b' || b == 'B') return 1;
  if ((b >= 'c' && b <= 'f') || (b >= 'C' && b <= 'F')) return 2;
  return 0;
}

bool number_char(char c) { return digit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'; }

}  // namespace

std::optional<std::string> rapidjson_compatible_copy(std::string_view text) {
  std::optional<std::string> copy;
  auto put = [&](size_t at, std::string_view with) {
    if (!copy) copy.emplace(text);
    std::memcpy(&(*copy)[at], with.data(), with.size());
  };
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '"') {
        in_string = false;
      } else if (c == '\\' && i + 1 < text.size()) {
        if (text[i + 1] == 'u' && i + 5 < text.size()) {
          int half = surrogate_half(text, i);
          if (half == 1 && surrogate_half(text, i + 6) == 2) {
            i += 11;  // a well-formed pair, which RapidJSON decodes itself
            continue;
          }
          if (half != 0) put(i + 2, "0058");
          // Past the 'u' and the hex digits there are (four in a well-formed escape): a short one
          // must not carry the scan past the quote that ends its string.
          ++i;
          for (int k = 0; k < 4 && i + 1 < text.size() && hex(text[i + 1]); ++k) ++i;
        } else {
          ++i;  // the escaped character, so "\\u" is not read as an escape
        }
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '-' || digit(c)) {
      size_t end = i;
      while (end < text.size() && number_char(text[end])) ++end;
      std::string_view token = text.substr(i, end - i);
      // Only a well-formed number is replaced (by a small one of the same length); anything else
      // is left for RapidJSON to reject.
      if (is_json_number(token)) {
        std::string small = token.size() == 1   ? "0"
                            : token.size() == 2 ? "10"
                                                : "1." + std::string(token.size() - 2, '0');
        if (small != token) put(i, small);
      }
      i = end - 1;
    }
  }
  return copy;
}

}  // namespace xs::json
