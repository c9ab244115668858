// What a quarantine repair moves out of a session file, and how each moved line is recorded.
//
// Moved: the lines whose bytes are not JSON at all — the line scanner's verdict is invalid_json,
// invalid_utf8 or nul_byte — wherever the loader met them: between entries, before the header
// ("before_header") or as a torn last line ("incomplete_tail"). No reader can make anything of
// those bytes. Kept, byte for byte: lines that are JSON but not entries (not_object, no_type,
// no_id, a second header, duplicate ids, orphans) and lines over the limits (too_long,
// too_deep): those may be valid JSON that a reader with other limits handles, so they are not
// ours to remove.
//
// The quarantine file holds one JSON object per moved line, in file order:
//   {"line":3,"offset":120,"length":7,"code":"invalid_json","reason":"...","newline":true,"text":"garbage"}
// line (1-based) and offset are where the line was in the session file; length counts its bytes
// without the '\n'; newline says a '\n' followed it (a torn last line has none), so the bytes
// removed from the session are, in order, each record's bytes plus its '\n' when newline is true.
// The bytes are "text" (a JSON string that decodes to them exactly) when they are valid UTF-8,
// else "base64" (standard alphabet, padded).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "json/limits.h"
#include "model/session_data.h"

namespace xs::upkeep {

struct QuarantinedLine {
  uint32_t index = 0;   // into model::SessionData::lines
  uint64_t offset = 0;  // where the line starts in the file as it is on disk now
  bool newline = true;  // a '\n' follows it in the file
  std::string code;     // as the loader reported it (what verify shows)
  std::string reason;
};

// The lines of `data` that a quarantine repair moves, in file order. `ends_with_newline`: whether
// the file on disk ends in '\n' (else its last line has none). The lines are scanned again under
// `limits` (the loader's), since a torn tail or a line before the header is reported under a
// code of its own.
std::vector<QuarantinedLine> lines_to_quarantine(const model::SessionData& data, bool ends_with_newline,
                                                 const json::Limits& limits);

// The quarantine file's record of one moved line whose bytes are `bytes`, with its '\n'.
std::string quarantine_record(const QuarantinedLine& q, std::string_view bytes);

}  // namespace xs::upkeep
