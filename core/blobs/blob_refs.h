// Blob references as they appear in stored text: "blob:sha256:<64 lowercase hex>". Verify checks
// each one a session holds; the garbage collector marks every one found under the store root.
#pragma once

#include <string_view>
#include <vector>

namespace xs::blobs {

// The hashes referenced in `text`, in order of appearance (repeats included). Conservative on
// purpose: any occurrence counts, inside a JSON string or not, so the collector can only keep too
// much, never too little.
std::vector<std::string_view> find_blob_refs(std::string_view text);

}  // namespace xs::blobs
