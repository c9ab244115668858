#include "format/session_paths.h"

#include "storage/path.h"

namespace xs::format {

std::string encode_cwd(std::string_view cwd) {
  if (!cwd.empty() && (cwd.front() == '/' || cwd.front() == '\\')) cwd.remove_prefix(1);
  std::string out(cwd);
  for (char& c : out) {
    if (c == '/' || c == '\\' || c == ':') c = '-';
  }
  return out;
}

std::string sessions_root(std::string_view root) { return storage::join_path(root, "sessions"); }

std::string session_dir(std::string_view root, std::string_view cwd) {
  return storage::join_path(sessions_root(root), "--" + encode_cwd(cwd) + "--");
}

std::string session_file_name(std::string_view iso_timestamp, std::string_view session_id) {
  std::string name(iso_timestamp);
  for (char& c : name) {
    if (c == ':' || c == '.') c = '-';
  }
  name += '_';
  name += session_id;
  name += ".jsonl";
  return name;
}

}  // namespace xs::format
