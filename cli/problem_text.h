// One line per problem or repair the library reports ({"line","offset","code","reason"[,"fixable"]}),
// shared by xs verify and xs repair so both say it the same way.
#pragma once

#include <string>

#include "json.h"
#include "style.h"

namespace xs::cli {

// "  line 4 @599: code: reason\n" ("  file: ..." for line 0, the file as a whole); with
// `hint_fixable`, a problem repair can fix says so.
std::string problem_line(Json p, const Style& style, bool hint_fixable);

}  // namespace xs::cli
