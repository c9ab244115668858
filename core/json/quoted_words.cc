#include "json/quoted_words.h"

#include <cstring>
#include <stdexcept>

namespace xs::json {

namespace {

// GCC/Clang vector extensions: SSE2 on x86-64, NEON on arm64, from one portable source.
typedef unsigned char Bytes16 __attribute__((vector_size(16)));

inline Bytes16 load16(const char* p) {
  Bytes16 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline bool any_set(Bytes16 m) {
  uint64_t lo, hi;
  std::memcpy(&lo, &m, 8);
  std::memcpy(&hi, reinterpret_cast<const char*>(&m) + 8, 8);
  return (lo | hi) != 0;
}

}  // namespace

QuotedWords::QuotedWords(std::initializer_list<std::string_view> words) {
  for (std::string_view w : words) {
    if (w.empty() || count_ == 8) throw std::logic_error("QuotedWords: up to 8 non-empty words");
    words_[count_++] = w;
    unsigned char c = static_cast<unsigned char>(w[0]);
    bool known = false;
    for (size_t i = 0; i < first_count_; ++i) known = known || firsts_[i] == c;
    if (known) continue;
    if (first_count_ == 4) throw std::logic_error("QuotedWords: at most 4 distinct first bytes");
    firsts_[first_count_++] = c;
  }
  // Unused slots repeat a real first byte so the vector test needs no count.
  for (size_t i = first_count_; i < 4; ++i) firsts_[i] = firsts_[0];
}

void QuotedWords::check(std::string_view text, size_t at, uint32_t* found) const {
  for (size_t w = 0; w < count_; ++w) {
    if (text.compare(at, words_[w].size(), words_[w]) == 0) *found |= 1u << w;
  }
}

uint32_t QuotedWords::find(std::string_view text) const {
  uint32_t found = 0;
  const char* p = text.data();
  size_t n = text.size();
  size_t i = 0;
  if (count_ == 0) return 0;
  // Lanes where byte i is '"' and byte i+1 is one of the words' first bytes.
  const Bytes16 quote = {'"', '"', '"', '"', '"', '"', '"', '"', '"', '"', '"', '"', '"', '"', '"', '"'};
  Bytes16 f[4];
  for (int k = 0; k < 4; ++k) {
    for (int j = 0; j < 16; ++j) f[k][j] = firsts_[k];
  }
  for (; i + 17 <= n; i += 16) {
    Bytes16 a = load16(p + i), b = load16(p + i + 1);
    Bytes16 hit = (Bytes16)((a == quote) & ((b == f[0]) | (b == f[1]) | (b == f[2]) | (b == f[3])));
    if (!any_set(hit)) continue;
    for (int j = 0; j < 16; ++j) {
      if (hit[j]) check(text, i + static_cast<size_t>(j) + 1, &found);
    }
  }
  for (; i + 1 < n; ++i) {
    if (p[i] == '"') check(text, i + 1, &found);
  }
  return found;
}

}  // namespace xs::json
