// Message text as HTML through cmark, the CommonMark reference library (docs/html-view.md#markdown).
#pragma once

#include <string>
#include <string_view>

namespace xs::html {

// Appends the HTML of the Markdown `text`. cmark's safe default stays on (never CMARK_OPT_UNSAFE):
// raw HTML becomes a comment and a javascript:, vbscript:, file: or data: URL (other than an
// image's data:image/png|gif|jpeg|webp) an empty one. On top of that, a link keeps its URL only
// for http:, https: and mailto: and an in-page #anchor, and an image only for a base64 data:image
// URL; any other becomes its own text, so nothing on the page names a file or a server to fetch.
// Bytes that are not UTF-8 become U+FFFD.
void append_markdown(std::string& out, std::string_view text);

// Whether `url` may stay on a link (http:, https:, mailto:, #anchor) or an image (a base64
// data:image URL of a raster type), by the rule above.
bool allowed_link_url(std::string_view url);
bool allowed_image_url(std::string_view url);

}  // namespace xs::html
