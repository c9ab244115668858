#include "html/escape.h"

#include "json/json_string.h"

namespace xs::html {

namespace {

void append_valid(std::string& out, std::string_view text) {
  size_t run = 0;  // start of the bytes not yet copied
  for (size_t i = 0; i < text.size(); ++i) {
    const char* entity = nullptr;
    unsigned char c = static_cast<unsigned char>(text[i]);
    switch (c) {
      case '&': entity = "&amp;"; break;
      case '<': entity = "&lt;"; break;
      case '>': entity = "&gt;"; break;
      case '"': entity = "&quot;"; break;
      case '\'': entity = "&#39;"; break;
      default:
        if (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') continue;
        entity = "";  // NUL and the other C0 controls: dropped
    }
    out.append(text.data() + run, i - run);
    out += entity;
    run = i + 1;
  }
  out.append(text.data() + run, text.size() - run);
}

}  // namespace

void append_escaped(std::string& out, std::string_view text) {
  if (json::is_valid_utf8(text)) return append_valid(out, text);
  append_valid(out, json::to_valid_utf8(text));
}

std::string escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  append_escaped(out, text);
  return out;
}

std::string shortened(std::string_view text, size_t max) {
  if (text.size() <= max) return std::string(text);
  size_t end = max;
  // Back over continuation bytes (10xxxxxx) to the start of the character the cut falls in.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end)) + "\xE2\x80\xA6";
}

}  // namespace xs::html
