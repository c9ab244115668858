#include "paths.h"

namespace xspg {

namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

PathParts split_path(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  PathParts p;
  p.path = std::string(path);
  size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) {
    p.name = p.path;
  } else if (path == "/") {
    p.dir = "/";
  } else {
    p.dir = std::string(path.substr(0, slash == 0 ? 1 : slash));
    p.name = std::string(path.substr(slash + 1));
  }
  return p;
}

bool implicit_dir(const std::string& path) { return path.empty() || path == "/"; }

std::string_view undecorated(std::string_view name) {
  constexpr std::string_view kTemp = ".xs-tmp-";
  if (name.size() < 2 || name[0] != '.') return name;
  size_t at = name.rfind(kTemp);
  if (at == std::string_view::npos || at < 2) return name;
  return name.substr(1, at - 1);
}

bool is_hash(std::string_view name) {
  if (name.size() != 64) return false;
  for (char c : name) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

const char* file_kind(std::string_view name) {
  if (ends_with(name, ".jsonl")) return "session";
  if (ends_with(name, ".jsonl.gz")) return "archive";
  return "file";
}

std::vector<std::string> dir_prefixes(const std::string& path) {
  std::vector<std::string> out;
  for (size_t i = 1; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      std::string prefix = path.substr(0, i);
      if (!implicit_dir(prefix) && (out.empty() || out.back() != prefix)) out.push_back(prefix);
    }
  }
  return out;
}

}  // namespace xspg
