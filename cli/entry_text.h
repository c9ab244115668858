// What an entry or a message says, in words: the one-line previews of `xs tree` and the
// readable form of `xs context`.
#pragma once

#include <string>

#include "json.h"

namespace xs::cli {

// The readable text of a message's content: text blocks joined by newlines; tool calls as
// "→ name(args)"; images and thinking as "[image]" / "[thinking]".
std::string content_text(Json message);

// "user: fix the…", "assistant: …", "compaction: …", "label abcd1234: good": one line, at most
// max_chars code points.
std::string entry_preview(Json entry, size_t max_chars);

// The heading of a context message: "user", "assistant (anthropic/claude)", "tool result (bash)",
// "compaction summary", "branch summary", "custom (type)".
std::string message_heading(Json message);

}  // namespace xs::cli
