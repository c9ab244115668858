#include "bundle/archive_io.h"

#include <archive.h>
#include <archive_entry.h>
#include <openssl/evp.h>

#include <algorithm>
#include <random>
#include <thread>

#include "storage/atomic_file.h"
#include "storage/path.h"

namespace xs::bundle {

namespace {

constexpr size_t kReadPiece = 1 << 20;

la_ssize_t write_cb(struct archive*, void* self, const void* data, size_t n) {
  Status st = static_cast<ArchiveWriter*>(self)->append_out({static_cast<const char*>(data), n});
  return st.ok() ? static_cast<la_ssize_t>(n) : -1;
}

la_ssize_t read_cb(struct archive*, void* self, const void** data) {
  auto piece = static_cast<ArchiveReader*>(self)->read_in();
  if (!piece.ok()) return -1;
  *data = piece->data();
  return static_cast<la_ssize_t>(piece->size());
}

std::string kind_of(struct archive_entry* e) {
  if (archive_entry_hardlink(e)) return "a hard link";
  switch (archive_entry_filetype(e)) {
    case AE_IFREG: return "a regular file";
    case AE_IFLNK: return "a symbolic link";
    case AE_IFDIR: return "a directory";
    case AE_IFCHR: return "a character device";
    case AE_IFBLK: return "a block device";
    case AE_IFIFO: return "a fifo";
    case AE_IFSOCK: return "a socket";
    default: return "not a regular file";
  }
}

}  // namespace

std::string random_suffix() {
  static const char kHex[] = "0123456789abcdef";
  std::random_device rd;
  std::string s;
  for (int i = 0; i < 4; ++i) {
    unsigned v = rd();
    for (int j = 0; j < 4; ++j, v >>= 4) s.push_back(kHex[v & 0xF]);
  }
  return s;
}

struct Sha256::Ctx {
  EVP_MD_CTX* md = EVP_MD_CTX_new();
  ~Ctx() { EVP_MD_CTX_free(md); }
};

Sha256::Sha256() : ctx_(std::make_unique<Ctx>()) {
  if (!ctx_->md) throw std::bad_alloc();
  EVP_DigestInit_ex(ctx_->md, EVP_sha256(), nullptr);
}

Sha256::~Sha256() = default;

void Sha256::update(std::string_view bytes) { EVP_DigestUpdate(ctx_->md, bytes.data(), bytes.size()); }

std::string Sha256::hex() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx_->md, digest, &len);
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out.push_back(kHex[digest[i] >> 4]);
    out.push_back(kHex[digest[i] & 0xF]);
  }
  return out;
}

// --- writer ---

ArchiveWriter::~ArchiveWriter() {
  if (a_) archive_write_free(a_);
  if (out_) out_->close();
  if (!done_ && !temp_.empty()) fs_->unlink(temp_);
}

Result<std::unique_ptr<ArchiveWriter>> ArchiveWriter::create(std::shared_ptr<storage::Fs> fs, const std::string& path,
                                                             Compression compression) {
  std::unique_ptr<ArchiveWriter> w(new ArchiveWriter());
  w->fs_ = std::move(fs);
  w->path_ = path;
  std::string temp = storage::temp_prefix(path) + random_suffix();
  auto out = w->fs_->create_new(temp);
  if (!out.ok()) return out.status().With("cannot write " + path);
  w->temp_ = temp;
  w->out_ = std::move(*out);
  w->a_ = archive_write_new();
  if (!w->a_) throw std::bad_alloc();
  int r =
      compression == Compression::kZstd ? archive_write_add_filter_zstd(w->a_) : archive_write_add_filter_gzip(w->a_);
  if (r != ARCHIVE_OK) return w->fail("cannot set up the compression");
  // zstd compresses on worker threads while the members are read and hashed (as tar's zstd
  // process does beside tar). With one worker or more the output is the same for any count.
  if (compression == Compression::kZstd) {
    unsigned workers = std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
    archive_write_set_filter_option(w->a_, "zstd", "threads", std::to_string(workers).c_str());
  }
  // gzip without a name or time in its header: the same members make the same file.
  if (compression == Compression::kGzip) archive_write_set_filter_option(w->a_, "gzip", "timestamp", nullptr);
  if (archive_write_set_format_pax_restricted(w->a_) != ARCHIVE_OK) return w->fail("cannot set up tar");
  archive_write_set_bytes_in_last_block(w->a_, 1);  // no padding after the compressed stream
  if (archive_write_open2(w->a_, w.get(), nullptr, write_cb, nullptr, nullptr) != ARCHIVE_OK) {
    return w->fail("cannot start the archive");
  }
  return w;
}

Status ArchiveWriter::fail(const char* what) {
  if (!io_.ok()) return io_;
  const char* why = a_ ? archive_error_string(a_) : nullptr;
  return Status::Io(std::string(what) + " (" + (why ? why : "libarchive") + ")");
}

Status ArchiveWriter::append_out(std::string_view bytes) {
  Status st = out_->append(bytes);
  if (!st.ok() && io_.ok()) io_ = st.With("cannot write " + path_);
  return st;
}

Status ArchiveWriter::begin_member(const std::string& name, uint64_t size) {
  struct archive_entry* e = archive_entry_new();
  if (!e) throw std::bad_alloc();
  archive_entry_set_pathname(e, name.c_str());
  archive_entry_set_size(e, static_cast<la_int64_t>(size));
  archive_entry_set_filetype(e, AE_IFREG);
  archive_entry_set_perm(e, 0600);
  archive_entry_set_mtime(e, 0, 0);
  int r = archive_write_header(a_, e);
  archive_entry_free(e);
  return r == ARCHIVE_OK ? Status::Ok() : fail("cannot write a member header");
}

Status ArchiveWriter::add_data(std::string_view bytes) {
  while (!bytes.empty()) {
    la_ssize_t n = archive_write_data(a_, bytes.data(), bytes.size());
    if (n <= 0) return fail("cannot write member data");
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return Status::Ok();
}

Status ArchiveWriter::finish(uint64_t* bytes) {
  if (archive_write_close(a_) != ARCHIVE_OK) return fail("cannot finish the archive");
  XS_RETURN_IF_ERROR(out_->sync().With("cannot write " + path_));
  auto info = out_->stat();
  if (!info.ok()) return info.status();
  std::unique_ptr<storage::WritableFile> out = std::move(out_);
  XS_RETURN_IF_ERROR(out->close().With("cannot write " + path_));
  XS_RETURN_IF_ERROR(fs_->rename(temp_, path_).With("cannot write " + path_));
  done_ = true;
  fs_->sync_dir(storage::dir_name(path_));  // best effort: the bundle is whole either way
  *bytes = info->size;
  return Status::Ok();
}

// --- reader ---

ArchiveReader::~ArchiveReader() {
  if (a_) archive_read_free(a_);
}

Result<std::unique_ptr<ArchiveReader>> ArchiveReader::open(std::shared_ptr<storage::Fs> fs, const std::string& path) {
  std::unique_ptr<ArchiveReader> r(new ArchiveReader());
  r->fs_ = std::move(fs);
  r->path_ = path;
  auto info = r->fs_->stat(path);
  if (!info.ok()) {
    if (info.status().code() == Code::kNotFound) return Status::NotFound("bundle " + path + " does not exist");
    return info.status();
  }
  if (!info->is_regular) return Status::Invalid("bundle " + path + " is not a regular file");
  r->file_size_ = info->size;
  r->a_ = archive_read_new();
  if (!r->a_) throw std::bad_alloc();
  // Only what a bundle can be: tar, compressed with zstd or gzip, or not at all.
  archive_read_support_filter_zstd(r->a_);
  archive_read_support_filter_gzip(r->a_);
  archive_read_support_format_tar(r->a_);
  if (archive_read_open(r->a_, r.get(), nullptr, read_cb, nullptr) != ARCHIVE_OK) {
    return r->fail("not a bundle, or a damaged one");
  }
  return r;
}

Status ArchiveReader::fail(const char* what) {
  if (!io_.ok()) return io_;
  const char* why = archive_error_string(a_);
  return Status::Corrupt(std::string(what) + " (" + (why ? why : "libarchive") + ")");
}

Result<std::string_view> ArchiveReader::read_in() {
  if (offset_ >= file_size_) return std::string_view();
  Status st = fs_->read_range(path_, offset_, kReadPiece, &chunk_);
  if (!st.ok()) {
    io_ = st.With("cannot read " + path_);
    return st;
  }
  offset_ += chunk_.size();
  return chunk_.view();
}

Result<bool> ArchiveReader::next(Header* out) {
  struct archive_entry* e = nullptr;
  int r = archive_read_next_header(a_, &e);
  if (r == ARCHIVE_EOF) return false;
  if (r != ARCHIVE_OK) return fail("the bundle is damaged or cut short");
  const char* name = archive_entry_pathname(e);
  out->name = name ? name : "";
  out->size = archive_entry_size_is_set(e) ? static_cast<uint64_t>(archive_entry_size(e)) : 0;
  out->kind = kind_of(e);
  out->regular = !archive_entry_hardlink(e) && archive_entry_filetype(e) == AE_IFREG;
  return true;
}

Result<std::string_view> ArchiveReader::read(size_t max) {
  if (!piece_) piece_.reset(new char[kReadPiece]);
  return read_into(piece_.get(), std::min(max, kReadPiece));
}

Result<std::string_view> ArchiveReader::read_into(char* dst, size_t max) {
  la_ssize_t n = archive_read_data(a_, dst, max);
  if (n < 0) return fail("the bundle is damaged or cut short");
  return std::string_view(dst, static_cast<size_t>(n));
}

uint64_t ArchiveReader::stream_bytes() const { return static_cast<uint64_t>(archive_filter_bytes(a_, 0)); }

}  // namespace xs::bundle
