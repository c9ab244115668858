// The two dialects of the format: whose forms a session writes (docs/dialects.md). Both are
// always read; a session keeps writing in the dialect of the agent that wrote its file.
#pragma once

#include <string_view>

#include "format/entry_type.h"

namespace xs::format {

enum class Dialect : uint8_t {
  kOmp,  // oh-my-pi 13: model "provider/id" + role, header title, attribution, blobs, truncation
  kPi,   // pi 0.73.1: model {provider, modelId}, session_info titles, everything inline
};

std::string_view dialect_name(Dialect d);  // "omp", "pi"

// Entry types only oh-my-pi writes and reads: a pi-dialect session refuses them, since pi would
// drop them from its context without a word (docs/dialects.md#what-the-pi-dialect-writes).
bool omp_only(EntryType t);

// An id shaped like pi's session ids: a UUID, 36 characters 8-4-4-4-12 of hex digits.
bool is_uuid_shaped(std::string_view id);

}  // namespace xs::format
