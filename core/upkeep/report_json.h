// The item shared by the verify and repair reports: one problem, or one thing done, at a place in
// the file: {"line","offset","length","code","reason"[,"fixable"]} (line 0: the file as a whole).
#pragma once

#include <optional>
#include <string>

#include "model/session_data.h"

namespace xs::upkeep {

void append_problem(std::string& out, const model::Diagnostic& d, std::optional<bool> fixable);

}  // namespace xs::upkeep
