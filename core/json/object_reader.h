// A whole JSON document that must be one object of many members (the keyed store's sessions.json:
// a gateway's thousand records), validated and split into its members in one walk of simdjson's
// On Demand over the file's bytes, instead of a validating DOM parse, a minify and a split, three
// passes each with its own structural index (docs/keyed-store.md#reading).
#pragma once

#include <string_view>
#include <vector>

#include "json/limits.h"
#include "json/member_scanner.h"
#include "util/status.h"

namespace xs::json {

// Validates `padded_text` (followed by kPadding readable bytes) as one JSON value within `limits`
// with the verdicts and messages of InputJson::prepare_padded, and lists the top-level members of
// an object in order (duplicates included), their key tokens and minified values written to `out`
// (room for padded_text.size() + kPadding bytes) and the members pointing there alone, so the text
// read may go. *kind is the root's kind; `members` is empty unless it is kObject.
//
// The one walk vouches only for what it fully checked: every key and string unescaped, every
// number parsed, every literal read, nothing after the root, no NUL byte, and nesting well inside
// limits.max_depth. Anything else it hands to InputJson's full validation, which decides (the
// lenient texts it accepts, lone surrogate escapes and numbers beyond double's range, among them).
// Errors: kLimit for size and depth, kInvalid for everything else.
Status read_object(std::string_view padded_text, const Limits& limits, char* out, std::vector<Member>* members,
                   Kind* kind);

// The one walk alone: true when it vouches for the text (members as read_object gives them), false
// when the full validation must decide. For tests that hold it to the full validation's verdicts.
bool read_object_one_walk(std::string_view padded_text, const Limits& limits, char* out, std::vector<Member>* members);

}  // namespace xs::json
