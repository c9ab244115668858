// Text into HTML (docs/html-view.md#escaping): every string of a transcript reaches the page
// through these, so none of it can become markup, an attribute or a script.
#pragma once

#include <string>
#include <string_view>

namespace xs::html {

// Appends `text` as HTML text or as a double-quoted attribute value: & < > " ' become entities,
// bytes that are not well-formed UTF-8 become U+FFFD, NUL and the C0 controls a browser treats as
// parse errors (all but tab, line feed and carriage return) are dropped.
void append_escaped(std::string& out, std::string_view text);
std::string escaped(std::string_view text);

// `text` cut to at most `max` bytes at a character boundary, "…" added when cut.
std::string shortened(std::string_view text, size_t max);

}  // namespace xs::html
