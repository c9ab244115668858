// A message's text as pi shows it in lists: the content string, or its text blocks joined with " ".
#pragma once

#include <string>
#include <string_view>

namespace xs::format {

std::string message_text(std::string_view message_json);

}  // namespace xs::format
