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

// Writes `bytes` to `path` (created or truncated, mode 0600) with plain write(2), not through the
// engine's seam, so a benchmark's setup costs none of what it measures; aborts on failure.
void write_whole(const std::string& path, const std::string& bytes);

// The run's own directory under /tmp for the benchmarks' files, made at the first call; main()
// (session_bench.cc) removes it with everything in it when the run ends, so no run leaves
// generated stores behind.
const std::string& scratch_dir();
// A new empty directory inside scratch_dir() whose name starts with `prefix`.
std::string scratch_subdir(const std::string& prefix);

}  // namespace xs::bench
