// v1 -> v2 -> v3, in memory, exactly as pi migrates (docs/format.md#migration, docs/decisions.md#migration).
//
// v1 -> v2: every entry gets a fresh 8-hex id and the previous entry as parent (a linear chain);
// a compaction's numeric firstKeptEntryIndex (an index that counts the header as 0) becomes
// firstKeptEntryId when it names an earlier entry, and is removed either way.
// v2 -> v3: message role "hookMessage" becomes "custom".
// Changed entries keep their keys in their order, new keys go at the end; the header gets
// version 3 (in place, or appended when it had none). Every other line keeps its bytes.
#pragma once

#include "format/ids.h"
#include "model/session_data.h"
#include "util/status.h"

namespace xs::model {

// Migrates `data` to the current version. *changed tells whether any line changed (the file then
// needs a rewrite when it is open for writing).
Status migrate(SessionData* data, format::IdGenerator& ids, bool* changed);

}  // namespace xs::model
