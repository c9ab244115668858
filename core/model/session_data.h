// The in-memory model of one session file: its lines as bytes, the entries indexed from them,
// and what the loader had to skip. Everything the tree, the context builder and the writer need,
// and nothing more: message bodies are never parsed into a DOM, only located.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "format/entry_type.h"
#include "format/header.h"
#include "model/arena.h"
#include "storage/buffer.h"

namespace xs::model {

constexpr uint32_t kNone = 0xFFFFFFFFu;
constexpr std::string_view kBom = "\xEF\xBB\xBF";

enum class LineKind : uint8_t {
  kHeader,
  kEntry,
  kBad,  // skipped and reported; kept byte for byte by rewrites
  kBlank,
  kIgnored,  // valid JSON that is not an entry (a second session header): kept, reported
};

struct Line {
  std::string_view bytes;  // without the '\n'
  uint64_t offset = 0;     // where the line starts in the file
  LineKind kind = LineKind::kBad;
  bool parsed = false;  // valid JSON (v1 migration counts these in firstKeptEntryIndex)
  uint32_t entry = kNone;
};

enum : uint8_t { kBlobRefUnknown, kBlobRefNo, kBlobRefYes };

struct Entry {
  std::string_view line;  // the entry's bytes as stored (no newline)
  std::string_view id;
  std::string_view parent_id;              // meaningful when has_parent_id
  std::string_view timestamp;              // decoded; empty when absent or not a string
  std::string_view role, provider, model;  // message entries (empty when absent)
  std::string_view target_id, label;       // label entries
  uint32_t parent = kNone;                 // resolved parent entry, kNone for roots and orphans
  uint32_t line_no = 0;                    // index into SessionData::lines
  uint32_t message_offset = 0;             // span of the `message` object within `line`
  uint32_t message_length = 0;
  format::EntryType type = format::EntryType::kUnknown;
  bool has_parent_id = false;
  bool label_set = false;  // label entries: a truthy label (otherwise the entry clears it)
  // Whether the line holds a "blob:sha256:" reference (resolved when read). Learned the first
  // time a reader needs to know, so loading never scans message bytes for it.
  mutable uint8_t blob_ref = kBlobRefUnknown;

  bool has_blob_ref() const;

  std::string_view message() const { return line.substr(message_offset, message_length); }
  bool is_assistant() const { return type == format::EntryType::kMessage && role == "assistant"; }
};

inline bool Entry::has_blob_ref() const {
  if (blob_ref == kBlobRefUnknown) {
    // Any entry type: the size rules move images to the store wherever they sit (a custom
    // entry's data, a summary's details), so a ref can be in any line.
    blob_ref = line.find("blob:sha256:") != std::string_view::npos ? kBlobRefYes : kBlobRefNo;
  }
  return blob_ref == kBlobRefYes;
}

struct Diagnostic {
  uint64_t line = 0;    // 1-based physical line
  uint64_t offset = 0;  // byte offset of the line in the file as loaded
  uint64_t length = 0;
  std::string code;    // stable machine-readable kind, e.g. "invalid_json"
  std::string reason;  // human-readable detail
};

struct SessionData {
  std::vector<storage::PaddedBuffer> buffers;  // file images the lines point into
  Arena arena;
  std::vector<std::unique_ptr<Arena>> run_arenas;  // strings of entries scanned by the loader's threads
  std::vector<Line> lines;
  uint32_t header_line = kNone;
  format::Header header;
  std::vector<Entry> entries;
  std::vector<Diagnostic> diagnostics;
  bool ends_with_newline = true;  // false: the next append must first write '\n'
  bool pending_tail = false;      // the last line is an unparseable fragment without a newline
  // The file starts with a UTF-8 byte order mark. pi accepts it (its trim() drops it); lines never
  // include it, and rewrites put it back in front.
  bool bom = false;

  std::string_view header_bytes() const { return lines[header_line].bytes; }
};

}  // namespace xs::model
