// What a listing shows as a session's first prompt (docs/format.md#finding-sessions): the first user
// text a person typed, not text an agent injected in the user's role before it — command
// wrappers (<command-name>…), hook output, system reminders, IDE context, all tag-wrapped, and
// the caveat and interruption notes Claude Code writes — cut to a length a listing can show,
// on a character boundary.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace xs::format {

// The longest first prompt a listing carries, in characters (Unicode code points).
constexpr size_t kFirstPromptChars = 200;

// True for a user text an agent injected rather than a person typed: after leading white
// space, an opening tag (`<` + a lowercase letter + [A-Za-z0-9_-]* + white space, `/` or `>`),
// "[Request interrupted by user", or Claude Code's local-command caveat.
bool is_injected_prompt(std::string_view text);

// `text` without leading and trailing white space, cut after `max_chars` code points with "…"
// appended when it was longer; never inside a UTF-8 sequence (invalid bytes count as one each).
std::string listing_text(std::string_view text, size_t max_chars = kFirstPromptChars);

}  // namespace xs::format
