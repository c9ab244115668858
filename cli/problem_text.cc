#include "problem_text.h"

#include <string_view>

#include "text.h"

namespace xs::cli {

std::string place_text(int64_t line, int64_t offset) {
  if (line == 0) return "file";
  return "line " + std::to_string(line) + " (byte " + std::to_string(offset) + ")";
}

std::string problem_line(Json p, const Style& style, bool hint_fixable) {
  // Reasons quote ids and other text from the file: one_line keeps its control characters (and
  // so any terminal escape sequence) off the screen, and cuts nothing.
  std::string out = "  " + place_text(num(p, "line"), num(p, "offset")) + ": " + style.yellow(str(p, "code")) + ": " +
                    one_line(str(p, "reason"), std::string_view::npos);
  if (hint_fixable && flag(p, "fixable")) out += " " + style.green("(xs repair fixes this)");
  return out + "\n";
}

}  // namespace xs::cli
