// Surgical edits of one member of a JSON object text, leaving every other byte as it was.
// A rewrite must change only what it means to change: only entries whose content changed are
// serialised again, and inside such an entry untouched values keep their tokens
// (docs/decisions.md#10-rewrites-keep-what-they-did-not-mean-to-change).
#pragma once

#include <string>
#include <string_view>

#include "json/limits.h"
#include "util/status.h"

namespace xs::json {

// Sets `key` to the raw JSON `value`: the existing value is replaced in place (JavaScript
// assignment keeps a key's position); a new key goes before `before_key` when that key exists,
// else at the end (where assignment to a new key puts it).
Result<std::string> set_member(std::string_view object, std::string_view key, std::string_view value,
                               std::string_view before_key = {});

// Removes `key` (every occurrence) with its separating comma.
Result<std::string> remove_member(std::string_view object, std::string_view key);

}  // namespace xs::json
