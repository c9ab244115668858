// Importing a gateway store into ours (docs/import-hosts.md#importing-a-gateway-store): every
// transcript (live, topic, rotated generation) becomes a native session of the same entries, ids,
// parents, timestamps and bytes of payload, and every key of every agent's `sessions.json` becomes
// a key of our keyed store (store::KeyStore) with its record kept field for field, in order, its
// `sessionFile` pointing at our copy. The source is only read. A re-import adds only what is new.
#pragma once

#include <optional>
#include <string>

#include "import/gateway/reader.h"
#include "import/import_report.h"
#include "storage/fs.h"
#include "store/store.h"
#include "util/status.h"

namespace xs::import::gateway {

using import::ImportOptions;  // import/source_rows.h

// The native session id a transcript becomes: its stem for a live file ("<sessionId>",
// "<sessionId>-topic-<n>"), "<stem>-<generation>-<stamp's letters and digits>" for a rotated one
// (at most 64 characters); nullopt when the stem is not a valid id.
std::optional<std::string> native_session_id(const TranscriptName& name);

// kNotFound when `root` is not a gateway store; otherwise a report, whatever the rows held.
Result<ImportReport> import_store(storage::Fs& source, const std::string& root, store::Store& target,
                                  const ImportOptions& options = {});

}  // namespace xs::import::gateway
