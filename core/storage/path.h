// Path string helpers (POSIX separators; the engine never interprets paths beyond this).
#pragma once

#include <string>
#include <string_view>

namespace xs::storage {

// The process's working directory (pi's process.cwd()); "/" when it cannot be read (removed).
std::string current_directory();

inline std::string join_path(std::string_view a, std::string_view b) {
  if (a.empty()) return std::string(b);
  std::string out(a);
  if (out.back() != '/') out.push_back('/');
  out.append(b);
  return out;
}

inline std::string dir_name(std::string_view p) {
  size_t slash = p.rfind('/');
  if (slash == std::string_view::npos) return ".";
  if (slash == 0) return "/";
  return std::string(p.substr(0, slash));
}

inline std::string base_name(std::string_view p) {
  size_t slash = p.rfind('/');
  return std::string(slash == std::string_view::npos ? p : p.substr(slash + 1));
}

}  // namespace xs::storage
