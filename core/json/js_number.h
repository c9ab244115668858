// Numbers written the way JavaScript's Number#toString (and so JSON.stringify) writes them.
#pragma once

#include <cstdint>
#include <string>

namespace xs::json {

// Shortest round-trip digits in JavaScript's layout: 100, 0.1, 1e+21, 1.5e-7. NaN and the
// infinities become null, as JSON.stringify writes them.
void append_js_number(std::string& out, double v);

}  // namespace xs::json
