// libarchive over the storage seam (docs/bundles.md#the-archive): a tar writer and reader whose
// bytes go through an Fs, so the bundle file is written and read by the same seam as everything
// else (posix_fs for a local path; tests use memory_fs). libarchive only frames and compresses.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "storage/buffer.h"
#include "storage/fs.h"
#include "util/status.h"

struct archive;

namespace xs::bundle {

// Streaming SHA-256 (OpenSSL EVP), lowercase hex at the end.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(std::string_view bytes);
  std::string hex();  // once

 private:
  struct Ctx;
  std::unique_ptr<Ctx> ctx_;
};

// 16 random lowercase hex characters, for the names of temporary files.
std::string random_suffix();

enum class Compression { kZstd, kGzip };

// Writes a tar archive into a new file beside `path` and puts it in place when finished (an
// existing file at `path` is replaced whole, never left half written). Members are regular files,
// mode 0600, owner 0, time 0: the same content makes the same archive.
class ArchiveWriter {
 public:
  ~ArchiveWriter();
  static Result<std::unique_ptr<ArchiveWriter>> create(std::shared_ptr<storage::Fs> fs, const std::string& path,
                                                       Compression compression);
  // A member of `size` bytes, given in one or more add_data calls that add up to `size`.
  Status begin_member(const std::string& name, uint64_t size);
  Status add_data(std::string_view bytes);
  // Finishes the archive, syncs it and renames it to `path`. *bytes receives its size.
  Status finish(uint64_t* bytes);

  // For libarchive's callbacks.
  Status append_out(std::string_view bytes);

 private:
  ArchiveWriter() = default;
  Status fail(const char* what);

  std::shared_ptr<storage::Fs> fs_;
  std::string path_, temp_;
  std::unique_ptr<storage::WritableFile> out_;
  struct archive* a_ = nullptr;
  Status io_;  // the first write error the callback met
  bool done_ = false;
};

// Reads a tar archive (zstd, gzip or none) member by member. Every refusal is kCorrupt with what
// was wrong; the archive file is read through the seam in 1 MiB pieces.
class ArchiveReader {
 public:
  ~ArchiveReader();
  static Result<std::unique_ptr<ArchiveReader>> open(std::shared_ptr<storage::Fs> fs, const std::string& path);

  struct Header {
    std::string name;
    uint64_t size = 0;
    bool regular = false;  // a plain file: not a link, directory, device or fifo
    std::string kind;      // what it is, for a refusal: "a symbolic link", "a hard link", ...
  };
  // The next member's header; false at the end of the archive.
  Result<bool> next(Header* out);
  // Up to `max` bytes of the current member (at most 1 MiB), valid until the next call; empty at
  // its end.
  Result<std::string_view> read(size_t max);
  // The same, decompressed straight into `dst` (room for `max` bytes): a member kept in memory is
  // read into its place, with no copy on the way.
  Result<std::string_view> read_into(char* dst, size_t max);
  // Bytes of the decompressed tar stream read so far (headers and padding included).
  uint64_t stream_bytes() const;

  // For libarchive's callbacks.
  Result<std::string_view> read_in();

 private:
  ArchiveReader() = default;
  Status fail(const char* what);

  std::shared_ptr<storage::Fs> fs_;
  std::string path_;
  uint64_t offset_ = 0, file_size_ = 0;
  storage::PaddedBuffer chunk_;
  std::unique_ptr<char[]> piece_;
  struct archive* a_ = nullptr;
  Status io_;
};

}  // namespace xs::bundle
