#include "blobs/blob_refs.h"

#include "blobs/blob_store.h"

namespace xs::blobs {

std::vector<std::string_view> find_blob_refs(std::string_view text) {
  std::vector<std::string_view> out;
  size_t pos = 0;
  while ((pos = text.find(kRefPrefix, pos)) != std::string_view::npos) {
    pos += kRefPrefix.size();
    std::string_view hex = text.substr(pos, 64);
    if (is_blob_hash(hex)) {
      out.push_back(hex);
      pos += 64;
    }
  }
  return out;
}

}  // namespace xs::blobs
