// Importing MyAgents' store into ours (docs/import-hosts.md#importing-myagents): each session's
// messages become a native session, one linear chain in file order (messages.h says how a row
// maps), and each session's metadata and stats become the record of key "myagents:<id>" in our
// keyed store. The source is only read; a legacy file left beside its JSONL is reported, never
// removed. A re-import appends only the rows whose source id the session lacks.
#pragma once

#include <string>
#include <string_view>

#include "import/import_report.h"
#include "import/myagents/reader.h"
#include "storage/fs.h"
#include "store/store.h"
#include "util/status.h"

namespace xs::import::myagents {

using import::ImportOptions;  // import/source_rows.h

// The key of a MyAgents session in our keyed store.
std::string key_for(std::string_view myagents_id);

// kNotFound when `root` is not a MyAgents store; otherwise a report, whatever the files held.
Result<ImportReport> import_store(storage::Fs& source, const std::string& root, store::Store& target,
                                  const ImportOptions& options = {});

}  // namespace xs::import::myagents
