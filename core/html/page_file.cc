#include "html/page_file.h"

#include <random>

#include "storage/atomic_file.h"
#include "storage/path.h"

namespace xs::html {

namespace {

constexpr size_t kFlushBytes = 1 << 20;

std::string temp_name(const std::string& path) {
  static const char kHex[] = "0123456789abcdef";
  std::random_device rd;
  uint64_t v = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  std::string name = storage::temp_prefix(path);
  for (int i = 0; i < 16; ++i, v >>= 4) name.push_back(kHex[v & 0xF]);
  return name;
}

}  // namespace

Result<std::unique_ptr<PageFile>> PageFile::create(storage::Fs& fs, std::string path) {
  std::string tmp = temp_name(path);
  std::unique_ptr<PageFile> page(new PageFile(fs, std::move(path), std::move(tmp)));
  auto file = fs.create_new(page->tmp_);
  if (!file.ok()) return file.status();
  page->file_ = std::move(*file);
  page->buf_.reserve(kFlushBytes + (kFlushBytes >> 2));
  return page;
}

PageFile::~PageFile() {
  if (committed_) return;
  try {
    if (file_) file_->close();
    fs_.unlink(tmp_);
  } catch (...) {  // out of memory: a stray temp file is named as ours and harmless
  }
}

Status PageFile::flush() {
  if (buf_.empty()) return Status::Ok();
  XS_RETURN_IF_ERROR(file_->append(buf_));
  written_ += buf_.size();
  buf_.clear();
  return Status::Ok();
}

Status PageFile::maybe_flush() { return buf_.size() >= kFlushBytes ? flush() : Status::Ok(); }

Status PageFile::commit() {
  XS_RETURN_IF_ERROR(flush());
  XS_RETURN_IF_ERROR(file_->sync());
  Status closed = file_->close();
  file_.reset();
  XS_RETURN_IF_ERROR(closed);
  XS_RETURN_IF_ERROR(fs_.rename(tmp_, path_));
  committed_ = true;
  return fs_.sync_dir(storage::dir_name(path_));
}

}  // namespace xs::html
