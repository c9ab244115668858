// Codex CLI rollouts imported into native sessions of a store (docs/import-codex.md): each rollout
// file becomes one session, one linear chain (plan.h says how rows map), every row accounted for
// in the report. The source is only read. A re-import appends only the rows (by line) the session
// does not hold yet, so importing twice imports nothing the second time and a rollout that grew
// since gets only its new rows.
#pragma once

#include <string>

#include "import/codex/reader.h"
#include "import/import_report.h"
#include "import/source_rows.h"
#include "storage/fs.h"
#include "store/store.h"
#include "util/status.h"

namespace xs::import::codex {

using import::ImportOptions;  // import/source_rows.h: dry_run, fallback_cwd, progress

// The native id of a rollout: its session_meta id (a UUID) when it is a valid caller id, else
// "codex-" and the first 16 hex digits of the SHA-256 of "codex/<rel>" (the same on every run).
std::string native_session_id(const Rollout& rollout);

// Every rollout under `root` (~/.codex/sessions). kNotFound when `root` is not a directory;
// problems inside are in the report, never a failure; a failed write to the store is returned
// (the sessions written so far stay whole).
Result<ImportReport> import_sessions(storage::Fs& source, const std::string& root, store::Store& target,
                                     const ImportOptions& options = {});

}  // namespace xs::import::codex
