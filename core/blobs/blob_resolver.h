// The way back from the blob store: "blob:sha256:<hex>" refs replaced by what they stand for —
// an image block's data (in an array under `content`) by the base64 of the blob, an image_url by
// the data URL it held. Used for contexts (always) and for entries read through the API when the
// caller asks. A missing or damaged blob leaves its ref in place and is reported, never fatal.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "blobs/blob_store.h"
#include "util/status.h"

namespace xs::blobs {

struct BlobProblem {
  std::string hash;
  Status status;  // kNotFound or kCorrupt
};

// `json` is validated JSON (an entry line or a message). Returns it with refs resolved.
Result<std::string> resolve_blobs(std::string_view json, BlobStore& blobs, std::vector<BlobProblem>* problems);

}  // namespace xs::blobs
