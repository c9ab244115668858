// A heap buffer with zeroed padding after its contents, so simdjson may read past the end of any
// line inside it (json::kPadding) without a copy.
#pragma once

#include <cstring>
#include <memory>
#include <string_view>

#include "json/limits.h"
#include "util/big_buffer.h"

namespace xs::storage {

class PaddedBuffer {
 public:
  PaddedBuffer() = default;
  explicit PaddedBuffer(size_t size) : data_(allocate_big(size + json::kPadding)), size_(size) {
    std::memset(data_.get() + size, 0, json::kPadding);
  }
  static PaddedBuffer Copy(std::string_view s) {
    PaddedBuffer b(s.size());
    if (!s.empty()) std::memcpy(b.data(), s.data(), s.size());
    return b;
  }

  char* data() { return data_.get(); }
  const char* data() const { return data_.get(); }
  size_t size() const { return size_; }
  std::string_view view() const { return {data_.get(), size_}; }
  // Shrinks the visible size (after a short read); the padding stays zeroed.
  void truncate(size_t n) {
    size_ = n;
    std::memset(data_.get() + n, 0, json::kPadding);
  }

 private:
  BigBytes data_;
  size_t size_ = 0;
};

}  // namespace xs::storage
