// gzip files (RFC 1952) through zlib: the form of an archived session on disk
// (docs/retention.md#the-archive-file). Compression writes one member; reading accepts one or
// more members, as `gzip -d` does, and refuses everything else with a status, never a short
// result: a damaged, cut or foreign file is kCorrupt, and no input makes a reader allocate more
// than the limit it was given (nor more than 1032 times the compressed size, deflate's bound).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "storage/buffer.h"
#include "storage/fs.h"
#include "util/status.h"

namespace xs::storage {

// An archived session's file name ends so: "<timestamp>_<id>.jsonl.gz".
constexpr std::string_view kArchiveSuffix = ".jsonl.gz";
inline bool is_archive_path(std::string_view path) {
  return path.size() > kArchiveSuffix.size() &&
         path.compare(path.size() - kArchiveSuffix.size(), kArchiveSuffix.size(), kArchiveSuffix) == 0;
}

// The most bytes an archive may inflate to (docs/retention.md#limits): a session larger than this
// is not archived, so an archive that inflates past it is not ours (a zip bomb) and is refused.
constexpr uint64_t kMaxInflatedBytes = 1ull << 30;

// zlib's level for archives: 1 (the fastest) keeps archiving within 1.2x of `gzip -1`
// (bench/archive_bench.cc); session text still shrinks to a fraction.
constexpr int kArchiveLevel = 1;

// `data` as one gzip member at deflate `level` (0-9), a header without name or time.
Result<PaddedBuffer> gzip_compress(std::string_view data, int level);

// Each run of inflated bytes, in order; returning false stops the inflation early.
using InflateSink = std::function<bool(std::string_view chunk)>;

// Inflates `gz` (one or more members) into `sink`. kCorrupt when it is not gzip, damaged (a bad
// check value or length), cut short, followed by bytes that are not another member, or inflates
// past `max_out` bytes. *stopped (if given) says the sink stopped it (then nothing after was checked).
Status gunzip_to(std::string_view gz, uint64_t max_out, const InflateSink& sink, bool* stopped = nullptr);

// The whole inflated content of `gz`, checked as gunzip_to checks it.
Status gunzip(std::string_view gz, uint64_t max_out, PaddedBuffer* out);

// At most the first `max_out` bytes of the inflated content of `gz` (a listing's prefix); *whole
// says nothing followed them. Damage within what was inflated is kCorrupt as above.
Status gunzip_prefix(std::string_view gz, uint64_t max_out, PaddedBuffer* out, bool* whole);

// Whether `gz` inflates to exactly `expected` (OK), else kCorrupt saying where it differs.
Status gunzip_matches(std::string_view gz, std::string_view expected);

// Reads the gzip file `path` through `fs` and inflates it whole. *info (if given) describes the
// compressed file as read.
Status read_gzip_file(Fs& fs, const std::string& path, uint64_t max_out, PaddedBuffer* out, FileInfo* info = nullptr);

}  // namespace xs::storage
