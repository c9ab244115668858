// Helpers shared by the core tests.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "json/limits.h"
#include "model/session_data.h"
#include "model/tree.h"
#include "storage/buffer.h"
#include "storage/fs.h"
#include "util/status.h"

namespace xs::test {

// A fresh directory under /tmp, removed with everything in it when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(std::string_view name) const { return path_ + "/" + std::string(name); }

 private:
  std::string path_;
};

std::string read_file(const std::string& path);
void write_file(const std::string& path, std::string_view bytes);
bool file_exists(const std::string& path);
// Permission bits (st_mode & 07777) of a path, or -1 when it cannot be stat'ed.
int file_mode(const std::string& path);
// Names in a directory, sorted (no "." or "..").
std::vector<std::string> list_dir(const std::string& path);
// Sets a file's access and modification times to `ms` after the epoch (listings order by mtime:
// tests set it rather than sleep); false when that fails.
bool set_mtime(const std::string& path, int64_t ms);

// A padded copy, as the loader and the line scanner require.
storage::PaddedBuffer padded(std::string_view bytes);

// Through the Fs seam: writes (replacing) a whole file, creating its directory; reads one back.
void put_file(storage::Fs& fs, const std::string& path, std::string_view bytes);
std::string get_file(storage::Fs& fs, const std::string& path);
// Appends to an existing file through the seam (a "foreign process" writing).
void append_file(storage::Fs& fs, const std::string& path, std::string_view bytes);
// Sorted names in a directory through the seam.
std::vector<std::string> fs_list(storage::Fs& fs, const std::string& dir);

// A file image loaded into SessionData with its tree built (the tree points into data, so the
// pair lives on the heap and never moves).
struct Loaded {
  model::SessionData data;
  model::Tree tree{&data};
  Status status;
};
// Loads `bytes`; when `migrate_seed` is non-zero the data is also migrated with that id seed.
// The tree is built whenever loading succeeded.
std::unique_ptr<Loaded> load(std::string_view bytes, json::Limits limits = {}, uint64_t migrate_seed = 0);

// "code@line" for every diagnostic, comma-separated: a compact exact form for assertions.
std::string diag_summary(const model::SessionData& data);
// The loader's diagnostics followed by the tree's (duplicate ids, parent cycles).
std::vector<model::Diagnostic> all_diagnostics(const Loaded& l);
std::string diag_summary(const Loaded& l);

// The lines of a SessionData joined with '\n' plus a final '\n', after the byte-order mark the
// file started with, if any (what a rewrite writes).
std::string joined_lines(const model::SessionData& data);

// The ids a seeded generator hands out for entries, in order (no collisions assumed).
std::vector<std::string> seeded_entry_ids(uint64_t seed, size_t n, bool skip_session_id = false);

}  // namespace xs::test

// Asserts that a Status-returning expression is OK, printing the expression and its message if not.
#define ASSERT_OK(expr)                                      \
  do {                                                       \
    ::xs::Status st_ = (expr);                               \
    ASSERT_TRUE(st_.ok()) << #expr << ": " << st_.message(); \
  } while (0)
