// Whole-document edits of minified JSON that keep every token the caller did not mean to change:
// a JSON merge patch (RFC 7386) that keeps the order of existing keys, and the layout of
// JSON.stringify(value, null, 2) for documents people and other tools read (the keyed store's
// sessions.json, as openclaw writes it).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json/member_scanner.h"
#include "util/status.h"

namespace xs::json {

// RFC 7386 over minified texts: a patch that is not an object replaces the target; a member whose
// patch value is null is removed; objects merge recursively; any other member replaces the
// target's in place (its position kept, as JavaScript assignment keeps it) or is appended. Every
// untouched token keeps its bytes. Both texts must be valid, minified JSON.
Result<std::string> merge_patch(std::string_view target, std::string_view patch);

// The top-level members of a minified object text that was validated before, as Members (key
// token, value span, kind): what a large document is split into its records with, and an appended
// entry into its members (json::members_of validates
// again, which a 1,000-record document cannot afford on every read). simdjson's On Demand finds the
// spans from its vectorised structural index, so strings are never walked byte by byte; it
// parses no string or number, so the lenient texts validation accepts (lone surrogate escapes,
// numbers out of double's range) split like any other. `object` must be followed by kPadding
// readable bytes (json/limits.h). Errors: kInternal if the text is not a minified object after
// all (a caller's bug). Empty for "{}".
Result<std::vector<Member>> split_minified_object(std::string_view object);

// `minified` laid out as JSON.stringify(value, null, 2) lays it out: one member or element per
// line, two spaces per level, ": " after keys, empty containers as {} and []. Tokens keep their
// bytes (string escapes and number spellings as they are). `depth`: the level the value sits at
// (a member of a top-level object is at 1), for laying out one value of a larger document.
std::string indent_2(std::string_view minified, int depth = 0);

}  // namespace xs::json
