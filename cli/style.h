// Colours for a terminal: on for a TTY under --color=auto (and NO_COLOR unset), always or never
// when asked. Off, every helper returns its text unchanged, so plain output is stable.
#pragma once

#include <string>
#include <string_view>

namespace xs::cli {

class Style {
 public:
  // `mode` is "auto", "always" or "never"; `fd` the stream the output goes to.
  Style(const std::string& mode, int fd);
  explicit Style(bool on) : on_(on) {}

  bool on() const { return on_; }
  std::string dim(std::string_view s) const { return wrap("2", s); }
  std::string bold(std::string_view s) const { return wrap("1", s); }
  std::string red(std::string_view s) const { return wrap("31", s); }
  std::string green(std::string_view s) const { return wrap("32", s); }
  std::string yellow(std::string_view s) const { return wrap("33", s); }
  std::string blue(std::string_view s) const { return wrap("34", s); }
  std::string magenta(std::string_view s) const { return wrap("35", s); }
  std::string cyan(std::string_view s) const { return wrap("36", s); }

 private:
  std::string wrap(const char* code, std::string_view s) const;
  bool on_ = false;
};

// A search snippet on one line, its matches (between U+0002 and U+0003, as the history and the
// session index mark them) in bold when colour is on; other control characters dropped.
std::string marked_snippet(std::string_view snippet, const Style& style);

}  // namespace xs::cli
