// A one-pass filter for rules that only concern certain keys or string values: which of a few
// words occur right after a '"' in a JSON text. The size rules use it to skip lines that cannot
// change (most of them) without walking their tokens; four memmem passes over every appended
// line cost more than the rest of the rules together.
//
// A word written with escapes ("partial\u004Ason") is not found: callers treat a miss as "the
// rule does not apply", and the writers of this format never escape ASCII letters.
#pragma once

#include <cstdint>
#include <string_view>

namespace xs::json {

class QuotedWords {
 public:
  // Up to 8 non-empty words whose first bytes take at most 4 distinct values.
  QuotedWords(std::initializer_list<std::string_view> words);

  // Bit i is set when words[i] occurs in `text` directly after a '"'.
  uint32_t find(std::string_view text) const;

 private:
  void check(std::string_view text, size_t after_quote, uint32_t* found) const;

  std::string_view words_[8];
  size_t count_ = 0;
  unsigned char firsts_[4] = {0, 0, 0, 0};
  size_t first_count_ = 0;
};

}  // namespace xs::json
