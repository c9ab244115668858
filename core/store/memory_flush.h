// The pre-compaction memory flush, tracked in the keyed store (docs/compaction-planning.md#when):
// a host asks before each turn whether to run the silent turn that writes durable notes before a
// compaction wipes the context. The decision and its mark are one update under the document's
// lock, so two processes serving the same key never both run the flush of one compaction cycle.
#pragma once

#include <cstdint>
#include <string_view>

#include "compaction/compaction_plan.h"
#include "store/key_store.h"
#include "util/status.h"

namespace xs::store {

// True when the flush should run now: compaction::should_flush_memory over the key's record
// (compactionCount, absent = 0; memoryFlushCompactionCount, absent or null = never flushed). Then
// the record gets memoryFlushAt = now_ms (0: now, by the system clock) and memoryFlushCompactionCount =
// compactionCount, so the next call of this cycle answers false. False leaves the record as it was. kNotFound without a
// record; kInvalid for a record whose counts are not whole numbers.
Result<bool> claim_memory_flush(const KeyStore& keys, std::string_view key, const compaction::Settings& settings,
                                int64_t context_tokens, int64_t now_ms);

}  // namespace xs::store
