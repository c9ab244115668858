// Deterministic, realistic session files for the benchmarks: about 2.9 KB a line on average,
// some 20 KB tool results, English prose and code with escapes and some non-ASCII, a few
// branches (branch summaries) and one compaction, in the v3 format the engine writes.
#pragma once

#include <cstdint>
#include <string>

namespace xs::bench {

// A whole session file with `entries` entries after the header.
std::string generate_session(size_t entries, uint64_t seed);

// One realistic assistant message (JSON object text) of about `bytes` bytes.
std::string realistic_message(size_t bytes, uint64_t seed);

}  // namespace xs::bench
