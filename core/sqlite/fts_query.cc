// FTS5 query text (fts_query.h).
#include "sqlite/fts_query.h"

namespace xs::sqlite {

std::string literal_query(std::string_view words) {
  std::string out;
  size_t i = 0;
  while (i < words.size()) {
    while (i < words.size() && (words[i] == ' ' || words[i] == '\t' || words[i] == '\n' || words[i] == '\r')) ++i;
    size_t start = i;
    while (i < words.size() && !(words[i] == ' ' || words[i] == '\t' || words[i] == '\n' || words[i] == '\r')) ++i;
    if (start == i) break;
    if (!out.empty()) out += ' ';
    out += '"';
    for (char c : words.substr(start, i - start)) {
      if (c == '"') out += '"';
      out += c;
    }
    out += '"';
  }
  if (!out.empty()) out += '*';  // the last word may be typed only in part
  return out;
}

}  // namespace xs::sqlite
