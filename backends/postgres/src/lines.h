// What the tables keep beside a line's bytes: its entry id and parent id, and a session header's
// id and cwd, read with simdjson. A line that is not a JSON object leaves them absent; it is
// stored all the same (docs/postgres.md#schema).
#ifndef XS_POSTGRES_LINES_H
#define XS_POSTGRES_LINES_H

#include <optional>
#include <string>
#include <string_view>

namespace xspg {

struct LineFields {
  std::optional<std::string> id, parent_id;  // "id", "parentId" when strings
  bool session_header = false;               // "type":"session"
  std::optional<std::string> cwd;            // "cwd" when a string
};

// `line` without or with its '\n'. Never throws for bad JSON.
LineFields line_fields(std::string_view line);

// True when `doc` is one JSON object (the keyed store's document, before its rows replace the old).
bool is_json_object(std::string_view doc);

}  // namespace xspg

#endif  // XS_POSTGRES_LINES_H
