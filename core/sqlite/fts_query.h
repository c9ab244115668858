// FTS5 query text the engine makes from what a user typed (docs/history.md#queries): the prompt
// history and the session index search the same way.
#pragma once

#include <string>
#include <string_view>

namespace xs::sqlite {

// The FTS5 query for plain words: each word quoted (a '"' doubled), the last one a prefix, all
// required. Empty when there is no word.
std::string literal_query(std::string_view words);

}  // namespace xs::sqlite
