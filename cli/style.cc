#include "style.h"

#include <unistd.h>

#include <cstdlib>

namespace xs::cli {

Style::Style(const std::string& mode, int fd) {
  if (mode == "always") {
    on_ = true;
  } else if (mode == "never") {
    on_ = false;
  } else {
    const char* no_color = std::getenv("NO_COLOR");  // https://no-color.org
    on_ = ::isatty(fd) == 1 && !(no_color && *no_color);
  }
}

std::string Style::wrap(const char* code, std::string_view s) const {
  if (!on_ || s.empty()) return std::string(s);
  std::string out = "\x1b[";
  out += code;
  out += 'm';
  out += s;
  out += "\x1b[0m";
  return out;
}

std::string marked_snippet(std::string_view snippet, const Style& style) {
  std::string out, match;
  bool in_match = false;
  for (char c : snippet) {
    if (c == '\x02') {
      in_match = true;
    } else if (c == '\x03') {
      out += style.bold(match);
      match.clear();
      in_match = false;
    } else {
      char shown = (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
      if (static_cast<unsigned char>(shown) < 0x20) continue;
      (in_match ? match : out) += shown;
    }
  }
  return out + match;
}

}  // namespace xs::cli
