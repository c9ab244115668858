// All-or-nothing file replacement (docs/guarantees.md#g5): temp file in the same directory -> fsync ->
// freshness check -> rename -> fsync of the directory. After a crash at any point the path holds
// the complete old file or the complete new one, never a mix and never nothing.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/fs.h"

namespace xs::storage {

// What the caller last saw at `path`: a file with this identity and size, or no file at all.
// If the path no longer matches just before the rename, someone else wrote it and the
// replacement fails with Code::kConflict, leaving their bytes in place.
struct Expected {
  bool exists = false;
  uint64_t dev = 0, ino = 0, size = 0;

  static Expected None() { return {}; }
  static Expected Of(const FileInfo& fi) { return {true, fi.dev, fi.ino, fi.size}; }
};

// Replaces `path` with the concatenation of `chunks`. *written (if given) describes the new file
// and *replaced (if given) says it is in place: both are set by the rename, so also when the
// directory sync after it fails (the error then means "replaced, but maybe not durably").
// *lookup_failed (if given) says a failure was the freshness check's stat of `path` (nothing was
// replaced and nothing failed to write: the caller need not latch it).
Status atomic_replace(Fs& fs, const std::string& path, const std::vector<std::string_view>& chunks,
                      const Expected& expected, FileInfo* written = nullptr, bool* lookup_failed = nullptr,
                      bool* replaced = nullptr);

// Writes `chunks` into a new file beside the files it keeps bytes of (a preserved copy, a
// quarantine file), durably: created exclusively, written, synced, closed, then its directory
// synced. It never replaces anything: the name is `stem` + `suffix`, or `stem` + "-1" + `suffix`,
// "-2"... when that is taken (kExists after 100 names). A file that could not be written whole is
// removed, also when running out of memory half-way (a short copy would pass for the bytes); a
// whole one stays. *path_out receives its name as soon as it is whole, so also when only the
// directory sync failed.
Status write_new_file(Fs& fs, const std::string& stem, const std::string& suffix,
                      const std::vector<std::string_view>& chunks, std::string* path_out);

// Our temp files for `path` are named ".<basename>.xs-tmp-<random>" in the same directory, so a
// writable open can recognise and remove leftovers of its own kind (and never omp's ".tmp" files).
std::string temp_prefix(const std::string& path);

// Removes leftover temp files of ours for `path`. Only a writable, locked open may call this.
void remove_stale_temps(Fs& fs, const std::string& path);

// A file being made (a temp file, a preserved copy) that is removed on every way out, an error or
// running out of memory (create_new may throw after it made the file), unless keep() says it is
// complete or not ours. Removal is best effort and never throws (docs/guarantees.md#g11: no leftover).
class RemoveUnlessKept {
 public:
  RemoveUnlessKept(Fs& fs, const std::string& path) : fs_(fs), path_(path) {}
  ~RemoveUnlessKept();
  RemoveUnlessKept(const RemoveUnlessKept&) = delete;
  RemoveUnlessKept& operator=(const RemoveUnlessKept&) = delete;
  void keep() { keep_ = true; }

 private:
  Fs& fs_;
  const std::string& path_;
  bool keep_ = false;
};

}  // namespace xs::storage
