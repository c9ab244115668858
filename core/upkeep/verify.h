// Verify (the CLI's `xs verify`): everything wrong with a session file as loaded, each problem with
// its line and offset. It only reads; repair (session/session_rewrites.cc) fixes what it can.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "blobs/blob_store.h"
#include "model/session_data.h"
#include "model/tree.h"

namespace xs::upkeep {

// What the loaded bytes do not tell about the file they came from.
struct FileFacts {
  std::string_view path;
  uint64_t links = 1;            // names the file had when read (more than one: no writer opens it)
  int version_read = 0;          // the header's version before migration; 0: the loaded header's
  bool needs_migration = false;  // migrated in memory and not rewritten (a read-only open)
};

// {"path","id","fileVersion","needsMigration","lines","entries","blobRefs","problems":[...]}: the
// loader's skipped lines and incomplete tail, a last line without its newline, duplicate ids,
// parent cycles, orphans (a parentId that names no entry), a file with several names, and, with
// `blobs` (null: not checked), blob refs whose blob is missing or damaged. Problems are ordered by
// line; each says whether repair can fix it.
std::string verify_json(const model::SessionData& data, const model::Tree& tree, blobs::BlobStore* blobs,
                        const FileFacts& file);

}  // namespace xs::upkeep
