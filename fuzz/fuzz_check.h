// Shared helpers of the fuzz targets: invariant checks that abort (libFuzzer and the replay
// runner both report an abort as a failure, with the message and the stack).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace xs_fuzz {

[[noreturn]] inline void violated(const std::string& what, const char* file, int line, const std::string& detail) {
  std::fprintf(stderr, "\nxsession fuzz: INVARIANT VIOLATED at %s:%d: %s\n", file, line, what.c_str());
  if (!detail.empty()) {
    // Long values (contexts, entry arrays) are cut so the report stays readable.
    std::string d = detail.size() > 4000 ? detail.substr(0, 4000) + "...[cut]" : detail;
    std::fprintf(stderr, "%s\n", d.c_str());
  }
  std::fflush(stderr);
  std::abort();
}

// "a" vs "b", for a failed equality.
inline std::string diff_text(std::string_view a, std::string_view b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  size_t from = i > 80 ? i - 80 : 0;
  return "first difference at byte " + std::to_string(i) + " (sizes " + std::to_string(a.size()) + " / " +
         std::to_string(b.size()) + ")\n  before: ..." + std::string(a.substr(from, 300)) + "\n  after:  ..." +
         std::string(b.substr(from, 300));
}

}  // namespace xs_fuzz

#define FUZZ_CHECK(cond, detail)                                             \
  do {                                                                       \
    if (!(cond)) ::xs_fuzz::violated(#cond, __FILE__, __LINE__, (detail));   \
  } while (0)

#define FUZZ_CHECK_EQ(a, b, what)                                                         \
  do {                                                                                    \
    const auto fuzz_a_ = (a);                                                             \
    const auto fuzz_b_ = (b);                                                             \
    if (!(fuzz_a_ == fuzz_b_))                                                            \
      ::xs_fuzz::violated(what, __FILE__, __LINE__, ::xs_fuzz::diff_text(fuzz_a_, fuzz_b_)); \
  } while (0)
