// Content-addressed blobs: <root>/blobs/<sha256 hex> holds the raw bytes (docs/decisions.md#3-blobs,
// docs/guarantees.md#g8). A blob is either absent or exactly right:
//  - put is atomic (temp + fsync + rename + directory fsync) and idempotent; putting an existing
//    blob refreshes its mtime, so the garbage collector's grace period restarts;
//  - get verifies the SHA-256 and reports corruption instead of returning wrong bytes;
//  - the entry that references a blob is written only after put returned (the caller's order).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "storage/fs.h"
#include "util/status.h"

namespace xs::blobs {

constexpr std::string_view kRefPrefix = "blob:sha256:";

// Lowercase hex SHA-256 (OpenSSL EVP).
std::string sha256_hex(std::string_view bytes);

// True for 64 lowercase hex characters (a name the store could have written).
bool is_blob_hash(std::string_view hex);

class BlobStore {
 public:
  BlobStore(std::shared_ptr<storage::Fs> fs, std::string root);

  // Stores `bytes`; *hash_out receives the hex digest.
  Status put(std::string_view bytes, std::string* hash_out);
  // The blob's bytes, verified: kNotFound when missing, kCorrupt when the content does not match.
  Status get(std::string_view hash, std::string* out);
  // Like get, without handing the bytes out (verification).
  Status check(std::string_view hash);
  std::string path_of(std::string_view hash) const;
  const std::string& dir() const { return dir_; }

 private:
  Status read_verified(std::string_view hash, storage::PaddedBuffer* buf);

  std::shared_ptr<storage::Fs> fs_;
  std::string dir_;
};

}  // namespace xs::blobs
