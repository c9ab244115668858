// The session header: line 1 of every file, {"type":"session",...}.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "util/status.h"

namespace xs::format {

constexpr int kCurrentVersion = 3;

struct Header {
  std::string id;
  int version = 1;  // a missing version means v1
  std::string timestamp;
  std::string cwd;
  std::optional<std::string> title;
  std::optional<std::string> parent_session;
};

// Parses a header line. The caller has already established that it is an object with
// type "session" and a string id; other fields are read when present and of the right type.
Result<Header> parse_header(std::string_view line);

// {"type":"session","version":3,"id":…,"timestamp":…,"cwd":…[,"title":…][,"parentSession":…]}
std::string build_header_line(const Header& h);

// The header line with its title set (nullopt removes it): an existing title is replaced in
// place, a new one goes before parentSession (our own key order) or at the end.
Result<std::string> set_header_title(std::string_view line, const std::optional<std::string>& title);

}  // namespace xs::format
