// How the CLI names a place in a session file and says what is wrong there: one form for the
// skipped lines of xs show, the problems of xs verify and the repairs of xs repair.
#pragma once

#include <cstdint>
#include <string>

#include "json.h"
#include "style.h"

namespace xs::cli {

// "line 4 (byte 599)": the 1-based line and the byte offset where it starts; "file" for line 0,
// which the library uses for the file as a whole.
std::string place_text(int64_t line, int64_t offset);

// "  line 4 (byte 599): code: reason\n" for one item the library reports
// ({"line","offset","code","reason"[,"fixable"]}): the reason whole, on one line. With
// `hint_fixable`, a problem repair can fix says so.
std::string problem_line(Json p, const Style& style, bool hint_fixable);

}  // namespace xs::cli
