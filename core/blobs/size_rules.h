// What keeps a transcript line from growing without bound: omp's prepareEntryForPersistence
// (docs/format.md#size-rules), applied to an entry line before it is written.
//
//  - a string longer than 500,000 UTF-16 code units is cut to 499,953 units (one less if that
//    would end in a high surrogate) plus the notice "\n\n[Session persistence truncated large
//    content]"; under thinkingSignature / thoughtSignature / textSignature it becomes "";
//  - members named partialJson and jsonlEvents are removed;
//  - an object that changed and has a string `content` and a numeric `lineCount` gets its
//    lineCount recomputed (content.split("\n").length);
//  - an image block ({type:"image", data}) in an array under the key `content` whose base64 data
//    is at least 1024 chars moves to the blob store (hash of the decoded bytes) and its data
//    becomes "blob:sha256:<hex>"; a string under `image_url` that is a base64 image data URL
//    moves to the blob store whole (hash of its UTF-8 bytes).
//
// Only the values these rules change are rewritten; every other token keeps its bytes. The blobs
// are stored before the function returns, so the entry that references them is written after them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "blobs/blob_store.h"
#include "util/status.h"

namespace xs::blobs {

constexpr size_t kMaxPersistChars = 500000;
constexpr size_t kBlobExternalizeThreshold = 1024;

struct SizeRulesOutcome {
  std::optional<std::string> rewritten;  // the new line; nullopt when nothing changed
  bool has_blob_ref = false;             // the (new) line holds a blob:sha256: reference
};

// `line` is a validated JSON object. `blobs` may be null: images then stay inline (an in-memory
// store keeps them, as the seed's in-memory sessions do).
Result<SizeRulesOutcome> apply_size_rules(std::string_view line, BlobStore* blobs);

}  // namespace xs::blobs
