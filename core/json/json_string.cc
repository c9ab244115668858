#include "json/json_string.h"

#include <simdjson.h>

namespace xs::json {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool read_hex4(std::string_view s, size_t pos, unsigned* out) {
  if (pos + 4 > s.size()) return false;
  unsigned v = 0;
  for (size_t i = 0; i < 4; ++i) {
    int h = hex_value(s[pos + i]);
    if (h < 0) return false;
    v = (v << 4) | static_cast<unsigned>(h);
  }
  *out = v;
  return true;
}

void append_utf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

constexpr unsigned kReplacement = 0xFFFD;

}  // namespace

void append_quoted(std::string& out, std::string_view s) {
  static const char kHex[] = "0123456789abcdef";
  out.push_back('"');
  size_t run = 0;  // start of the current run of bytes that need no escaping
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        out += "\\u00";
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 0xF]);
    }
  }
  out.append(s.data() + run, s.size() - run);
  out.push_back('"');
}

bool decode_string_token(std::string_view tok, std::string& out) {
  out.clear();
  if (tok.size() < 2 || tok.front() != '"' || tok.back() != '"') return false;
  std::string_view s = tok.substr(1, tok.size() - 2);
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c != '\\') {
      if (c == '"') return false;
      out.push_back(c);
      ++i;
      continue;
    }
    if (i + 1 >= s.size()) return false;
    char e = s[i + 1];
    i += 2;
    switch (e) {
      case '"': out.push_back('"'); break;
      case '\\': out.push_back('\\'); break;
      case '/': out.push_back('/'); break;
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'n': out.push_back('\n'); break;
      case 'r': out.push_back('\r'); break;
      case 't': out.push_back('\t'); break;
      case 'u': {
        unsigned u;
        if (!read_hex4(s, i, &u)) return false;
        i += 4;
        if (u >= 0xD800 && u <= 0xDBFF) {
          unsigned lo;
          if (i + 6 <= s.size() && s[i] == '\\' && s[i + 1] == 'u' && read_hex4(s, i + 2, &lo) && lo >= 0xDC00 &&
              lo <= 0xDFFF) {
            append_utf8(out, 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00));
            i += 6;
          } else {
            append_utf8(out, kReplacement);  // lone high surrogate
          }
        } else if (u >= 0xDC00 && u <= 0xDFFF) {
          append_utf8(out, kReplacement);  // lone low surrogate
        } else {
          append_utf8(out, u);
        }
        break;
      }
      default: return false;
    }
  }
  return true;
}

namespace {

// Length of the JavaScript whitespace character starting at s[i], or 0.
size_t js_space_at(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  if (c == ' ' || (c >= '\t' && c <= '\r')) return 1;
  auto cp3 = [&](size_t j) -> unsigned {  // callers ensure j + 2 < s.size()
    return (static_cast<unsigned>(static_cast<unsigned char>(s[j]) & 0x0F) << 12) |
           (static_cast<unsigned>(static_cast<unsigned char>(s[j + 1]) & 0x3F) << 6) |
           (static_cast<unsigned char>(s[j + 2]) & 0x3F);
  };
  if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xA0) return 2;  // U+00A0
  if ((c & 0xF0) == 0xE0 && i + 2 < s.size()) {
    unsigned cp = cp3(i);
    if (cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
        cp == 0x205F || cp == 0x3000 || cp == 0xFEFF) {
      return 3;
    }
  }
  return 0;
}

}  // namespace

std::string_view js_trim(std::string_view s) {
  size_t b = 0;
  while (b < s.size()) {
    size_t n = js_space_at(s, b);
    if (!n) break;
    b += n;
  }
  size_t e = s.size();
  while (e > b) {
    // Step back to the start of the last character, then test it.
    size_t start = e - 1;
    while (start > b && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
    size_t n = js_space_at(s, start);
    if (n != e - start) break;
    e = start;
  }
  return s.substr(b, e - b);
}

bool is_valid_utf8(std::string_view s) { return simdjson::validate_utf8(s.data(), s.size()); }

namespace {

// Length of the well-formed UTF-8 sequence at s[i] (RFC 3629 table 3-7), or 0 if there is none.
size_t sequence_length(std::string_view s, size_t i) {
  auto at = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = at(i);
  if (c < 0x80) return 1;
  size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range narrows for a few leads
  if (c == 0xE0) lo = 0xA0;            // overlong
  if (c == 0xED) hi = 0x9F;            // surrogates
  if (c == 0xF0) lo = 0x90;            // overlong
  if (c == 0xF4) hi = 0x8F;            // above U+10FFFF
  if (at(i + 1) < lo || at(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k) {
    if (at(i + k) < 0x80 || at(i + k) > 0xBF) return 0;
  }
  return n;
}

}  // namespace

std::string to_valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    size_t n = sequence_length(s, i);
    if (n == 0) {
      append_utf8(out, kReplacement);
      ++i;
      continue;
    }
    out.append(s.data() + i, n);
    i += n;
  }
  return out;
}

void append_optional_member(std::string& out, std::string_view key, const std::optional<std::string>& value) {
  out += ",\"";
  out += key;
  out += "\":";
  if (value)
    append_quoted(out, *value);
  else
    out += "null";
}

void append_quoted_lossy(std::string& out, std::string_view s) {
  if (is_valid_utf8(s))
    append_quoted(out, s);
  else
    append_quoted(out, to_valid_utf8(s));
}

}  // namespace xs::json
