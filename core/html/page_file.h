// A page being written (docs/html-view.md#writing): streamed into a temp file beside its path in
// pieces of about 1 MiB, then synced and renamed into place, so a page is there whole or not at
// all (an older page at the path stays until the rename), however large the session.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "storage/fs.h"
#include "util/status.h"

namespace xs::html {

class PageFile {
 public:
  // Creates the temp file ".<name>.xs-tmp-<hex>" in the directory of `path`, which must exist.
  static Result<std::unique_ptr<PageFile>> create(storage::Fs& fs, std::string path);
  // Removes the temp file unless commit() renamed it.
  ~PageFile();
  PageFile(const PageFile&) = delete;
  PageFile& operator=(const PageFile&) = delete;

  // The text waiting to be written: append to it, then call maybe_flush().
  std::string& buffer() { return buf_; }
  // Writes the buffer out once it holds 1 MiB or more.
  Status maybe_flush();
  // Writes the rest, syncs, closes and renames the file onto its path (then syncs the directory).
  Status commit();
  // Bytes of the page so far (written and buffered).
  uint64_t bytes() const { return written_ + buf_.size(); }
  const std::string& path() const { return path_; }

 private:
  PageFile(storage::Fs& fs, std::string path, std::string tmp)
      : fs_(fs), path_(std::move(path)), tmp_(std::move(tmp)) {}
  Status flush();

  storage::Fs& fs_;
  std::string path_;
  std::string tmp_;
  std::unique_ptr<storage::WritableFile> file_;
  std::string buf_;
  uint64_t written_ = 0;
  bool committed_ = false;
};

}  // namespace xs::html
