// File image -> SessionData: the lenient loader of docs/format.md#reading-a-file, plus diagnostics.
//
// Every line is kept as bytes. Lines that cannot be entries are skipped *and reported* (line,
// offset, reason) and survive rewrites untouched. The header is the first line that parses; if
// that is not a session header, the file has no header (Code::kNoHeader) and nothing is guessed.
#pragma once

#include "json/limits.h"
#include "json/line_scanner.h"
#include "model/session_data.h"
#include "storage/fs.h"
#include "util/status.h"

namespace xs::model {

// Parses `image` into `data` (which must be empty). On kNoHeader, `data` is unusable.
Status load_file(storage::PaddedBuffer image, const json::Limits& limits, SessionData* data);

// Large files: reads and scans shares of the file on several threads at once (reading fresh
// memory costs as much as parsing it). Returns false, with `data` to be discarded, when that does
// not apply: a small file, a header that is not in the first line(s), or a file that changed
// while it was read; the caller then reads it the plain way.
Result<bool> load_file_parallel(storage::Fs& fs, const std::string& path, const json::Limits& limits, SessionData* data,
                                storage::FileInfo* read);

// Parses the lines of `bytes` (which start at file offset `base` and live in one of
// data->buffers) after those already in `data`: a reload's new tail. A last line without a newline
// that does not parse is reported and flagged as pending (data->pending_tail).
Status load_lines(std::string_view bytes, uint64_t base, const json::Limits& limits, SessionData* data);

// Builds an entry from a scanned line; strings are copied into `arena`.
Entry entry_from_facts(const json::LineFacts& facts, std::string_view line, Arena& arena);

}  // namespace xs::model
