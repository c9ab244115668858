// Where sessions live under a store root (docs/format.md#store-layout):
//   <root>/sessions/--<cwd-encoded>--/<timestamp>_<sessionId>.jsonl
#pragma once

#include <string>
#include <string_view>

namespace xs::format {

// Drops one leading '/' or '\', then turns every '/', '\' and ':' into '-'. Different paths can
// collide ("/a-b" and "/a/b"), which is why listing by cwd also checks the header's cwd.
std::string encode_cwd(std::string_view cwd);

std::string sessions_root(std::string_view root);
std::string session_dir(std::string_view root, std::string_view cwd);

// "<ISO timestamp with ':' and '.' as '-'>_<id>.jsonl"
std::string session_file_name(std::string_view iso_timestamp, std::string_view session_id);

}  // namespace xs::format
