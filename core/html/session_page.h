// The page of one session (docs/html-view.md#the-page): a header with the session's facts and
// stats, then the conversation along the current path (root to leaf) with every branch point
// marked and each other branch one click away in a collapsed <details>, nested as the tree is.
// Every entry of the session appears exactly once. No script, no URL to fetch: the page's
// Content-Security-Policy allows only its inline style and data: images.
#pragma once

#include <cstdint>
#include <string>

#include "blobs/blob_store.h"
#include "html/page_file.h"
#include "session/session.h"
#include "util/status.h"

namespace xs::html {

// What a page holds, for the export's report and the index page.
struct PageFacts {
  std::string session_id;
  std::string title;      // the session's title, else the start of its first user message, else ""
  std::string timestamp;  // the header's
  std::string cwd;
  uint64_t entries = 0;
  uint64_t messages = 0;       // message entries (<article class="entry msg ...">)
  uint64_t branch_points = 0;  // <div class="branch-point">: entries with more than one child, and
                               // the start when the session has more than one root
  uint64_t branches = 0;       // the other branches shown collapsed (class "branch")
};

// The Content-Security-Policy every page carries.
extern const char kContentSecurityPolicy[];

// Streams the page of `s` into `page` (not committed). Images resolve from `blobs` (null: their
// refs show as missing).
Status write_session_page(const session::Session& s, blobs::BlobStore* blobs, PageFile& page, PageFacts* facts);

// Appends the page's <head> (charset, CSP, title, style) and opens <body>.
void append_page_head(std::string& out, std::string_view title);

}  // namespace xs::html
