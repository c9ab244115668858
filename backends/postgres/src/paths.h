// How a store path maps to the tables (docs/postgres.md#paths): its directory and name, and
// whether its bytes live in `blobs` or as lines in `files`/`entries`.
#ifndef XS_POSTGRES_PATHS_H
#define XS_POSTGRES_PATHS_H

#include <string>
#include <string_view>
#include <vector>

namespace xspg {

struct PathParts {
  std::string path;  // without trailing '/' (except "/" itself)
  std::string dir;   // "" for a relative name without '/', "/" for a name under the root
  std::string name;
};

PathParts split_path(std::string_view path);

// "" and "/" are directories that always exist (the process's directory and the root).
bool implicit_dir(const std::string& path);

// The name with our temp decoration removed: ".<name>.xs-tmp-<random>" -> "<name>".
std::string_view undecorated(std::string_view name);

// 64 lowercase hex chars: a blob's content hash.
bool is_hash(std::string_view name);

// A temp file of a blob is a blob too, so that its rename into place is an UPDATE of one row.
inline bool is_blob_path(const PathParts& p) { return is_hash(undecorated(p.name)); }

// files.kind for a name: 'session' (".jsonl"), 'archive' (".jsonl.gz") or 'file'.
const char* file_kind(std::string_view name);

// Every directory from the outermost to `path` itself, without the implicit ones.
std::vector<std::string> dir_prefixes(const std::string& path);

}  // namespace xspg

#endif  // XS_POSTGRES_PATHS_H
