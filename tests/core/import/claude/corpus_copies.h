// Copies of a Claude Code transcript that read as separate chains of one conversation: used to
// make a large project from the corpus (the 100 MB bad-input test and bench/import_bench.cc).
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "format/dialect.h"

namespace xs::import::claude::testing {

// `text` with the last four hex digits of every uuid but `keep` (the session's own id) replaced
// by copy `n`'s number, so the rows of different copies never share a uuid.
inline std::string copy_with_distinct_uuids(const std::string& text, unsigned n, std::string_view keep) {
  std::string out = text;
  char tail[5];
  std::snprintf(tail, sizeof tail, "%04x", n & 0xFFFF);
  for (size_t i = 0; i + 36 <= out.size(); ++i) {
    std::string_view at = std::string_view(out).substr(i, 36);
    if (!format::is_uuid_shaped(at) || at == keep) continue;
    out.replace(i + 32, 4, tail);
    i += 35;
  }
  return out;
}

}  // namespace xs::import::claude::testing
