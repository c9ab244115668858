// The few file steps the CLI takes itself (finding session files, a repair's backup copy), over a
// store's storage table when the store is not on the disk (--store). Each throws ApiError with
// the storage's status.
#pragma once

#include <string>
#include <vector>

#include "api.h"

namespace xs::cli {

// XS_STORAGE_FILE, XS_STORAGE_DIR or XS_STORAGE_OTHER; 0 when nothing is at `path`.
uint32_t kind_in(const xs_storage& t, const std::string& path);
// Appends every file under `dir` whose name `want` accepts, recursively, sorted per directory.
void find_in(const xs_storage& t, const std::string& dir, bool (*want)(const std::string& name),
             std::vector<std::string>* out);
// Copies `from` to the first free name of `candidates` (created, never over a file), durably.
// Returns the name used.
std::string copy_in(const xs_storage& t, const std::string& from, const std::vector<std::string>& candidates);
// The whole file.
std::string read_in(const xs_storage& t, const std::string& path);
// Writes a new file (XS_EEXISTS if there is one) with `bytes`, synced and closed.
void write_new_in(const xs_storage& t, const std::string& path, const std::string& bytes);
// Removes `path`, ignoring every failure (a copy that is not wanted after all).
void remove_in(const xs_storage& t, const std::string& path);

}  // namespace xs::cli
