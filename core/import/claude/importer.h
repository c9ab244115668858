// Claude Code projects imported into native sessions of a store (docs/import-claude.md): every
// row of every transcript is accounted for in the report; the source is only read.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "import/import_progress.h"
#include "import/import_report.h"
#include "storage/fs.h"
#include "store/store.h"
#include "util/status.h"

namespace xs::import::claude {

struct ImportOptions {
  bool dry_run = false;                   // the report only: nothing is written
  std::optional<std::string> target_cwd;  // the native cwd of every session; nullopt: the rows' cwd
  ImportProgressFn progress;              // may be empty: bytes of the transcripts handled
};

// One project directory (~/.claude/projects/<encoded cwd>/), read through `source_fs`, into
// `store`. Re-importing is idempotent, and a transcript that grew since gets only its new rows.
// kNotFound when `dir` is not a directory; problems inside are in the report, never a failure;
// a failed write to the store is returned (the sessions written so far stay whole).
Result<ImportReport> import_project(store::Store& store, const std::shared_ptr<storage::Fs>& source_fs,
                                    const std::string& dir, const ImportOptions& options = {});

// Every project directory under `root` (~/.claude/projects), one report.
Result<ImportReport> import_projects(store::Store& store, const std::shared_ptr<storage::Fs>& source_fs,
                                     const std::string& root, const ImportOptions& options = {});

// `path` as a user names it: one project directory, or the projects root (reader.h's
// is_project_dir tells which), imported with import_project or import_projects.
Result<ImportReport> import_path(store::Store& store, const std::shared_ptr<storage::Fs>& source_fs,
                                 const std::string& path, const ImportOptions& options = {});

// The native session id a conversation goes to. `key` names it under the projects root:
// "<project dir name>/<path in the project>", plus "#<root uuid>" for an inline sidechain. A main
// transcript named by a UUID (Claude Code's session ids) keeps that id; any other gets the first 16 hex digits of the
// SHA-256 of `key`, the same on every run and machine.
std::string native_session_id(const std::string& key);

}  // namespace xs::import::claude
