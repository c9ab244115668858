// What RapidJSON 1.1.0 refuses although JSON.parse accepts it: a lone surrogate escape
// ("\ud83d", which JSON.stringify writes; well-formed pairs are left alone) and numbers beyond
// the double range (1e400, a 400-digit integer). The lenient paths run RapidJSON on a copy in
// which such tokens are replaced by valid tokens of the same length, so byte offsets stay the
// same and grammar and UTF-8 are still checked by RapidJSON. Values are never taken from the copy.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace xs::json {

// The copy, or nullopt when the text holds nothing to replace.
std::optional<std::string> rapidjson_compatible_copy(std::string_view text);

}  // namespace xs::json
