#include "blobs/blob_store.h"

#include <openssl/evp.h>

#include "storage/atomic_file.h"
#include "storage/path.h"

namespace xs::blobs {

std::string sha256_hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &len, EVP_sha256(), nullptr) != 1) return std::string();
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * len);
  for (unsigned int i = 0; i < len; ++i) {
    out.push_back(kHex[digest[i] >> 4]);
    out.push_back(kHex[digest[i] & 0xF]);
  }
  return out;
}

bool is_blob_hash(std::string_view hex) {
  if (hex.size() != 64) return false;
  for (char c : hex) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

BlobStore::BlobStore(std::shared_ptr<storage::Fs> fs, std::string root)
    : fs_(std::move(fs)), dir_(storage::join_path(root, "blobs")) {}

std::string BlobStore::path_of(std::string_view hash) const { return storage::join_path(dir_, hash); }

Status BlobStore::put(std::string_view bytes, std::string* hash_out) {
  std::string hash = sha256_hex(bytes);
  if (hash.empty()) return Status::Internal("SHA-256 failed");
  std::string path = path_of(hash);
  *hash_out = hash;
  auto existing = fs_->stat(path);
  if (existing.ok() && existing->size == bytes.size()) {
    // Already there: refresh its age for the collector's grace period, unless it was damaged.
    storage::PaddedBuffer on_disk;
    // Its name must be durable too before an entry may point at it (docs/guarantees.md#g8): the put that made it may
    // have failed at its directory sync (or crashed before it), so sync the directory again.
    if (fs_->read_file(path, bytes.size(), &on_disk).ok() && on_disk.view() == bytes) {
      XS_RETURN_IF_ERROR(fs_->touch(path));
      return fs_->sync_dir(dir_);
    }
  }
  XS_RETURN_IF_ERROR(fs_->make_dirs(dir_));
  // A damaged copy of the right name is replaced; a concurrent identical put that wins the race
  // is fine: whichever rename lands, the bytes are the same.
  Status st = storage::atomic_replace(*fs_, path, {bytes},
                                      existing.ok() ? storage::Expected::Of(*existing) : storage::Expected::None());
  if (st.code() == Code::kConflict) {
    auto now = fs_->stat(path);
    if (now.ok() && now->size == bytes.size()) return Status::Ok();
  }
  return st;
}

Status BlobStore::read_verified(std::string_view hash, storage::PaddedBuffer* buf) {
  if (!is_blob_hash(hash)) return Status::Invalid("not a blob hash: " + std::string(hash));
  Status st = fs_->read_file(path_of(hash), UINT64_MAX, buf);
  if (st.code() == Code::kNotFound) return Status::NotFound("blob " + std::string(hash) + " is missing");
  XS_RETURN_IF_ERROR(st);
  if (sha256_hex(buf->view()) != hash) {
    return Status::Corrupt("blob " + std::string(hash) + " does not match its hash");
  }
  return Status::Ok();
}

Status BlobStore::get(std::string_view hash, std::string* out) {
  storage::PaddedBuffer buf;
  XS_RETURN_IF_ERROR(read_verified(hash, &buf));
  out->assign(buf.view());
  return Status::Ok();
}

Status BlobStore::check(std::string_view hash) {
  storage::PaddedBuffer buf;
  return read_verified(hash, &buf);
}

}  // namespace xs::blobs
