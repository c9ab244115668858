#include "problem_text.h"

namespace xs::cli {

std::string problem_line(Json p, const Style& style, bool hint_fixable) {
  std::string where = num(p, "line") ? "line " + std::to_string(num(p, "line")) + " @" +
                                           std::to_string(num(p, "offset"))
                                     : std::string("file");
  std::string out = "  " + where + ": " + style.yellow(str(p, "code")) + ": " + std::string(str(p, "reason"));
  if (hint_fixable && flag(p, "fixable")) out += " " + style.green("(xs repair fixes this)");
  return out + "\n";
}

}  // namespace xs::cli
