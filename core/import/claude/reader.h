// What a Claude Code project directory holds (~/.claude/projects/<encoded cwd>/), read only
// (docs/import-claude.md#the-listing): its transcripts `<sessionId>.jsonl`, their subagent files
// `<sessionId>/subagents/*.jsonl`, the older `agent-*.jsonl` beside them, and
// `sessions-index.json`, which is checked against the files and never trusted over them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "import/claude/rows.h"
#include "import/import_report.h"
#include "storage/fs.h"
#include "util/status.h"

namespace xs::import::claude {

enum class FileKind {
  kSession,   // <sessionId>.jsonl
  kSubagent,  // <sessionId>/subagents/<name>.jsonl (2.1.x)
  kAgent,     // agent-<id>.jsonl beside the sessions (2.0.x)
};
const char* file_kind_name(FileKind k);

// One transcript as the listing shows it.
struct TranscriptInfo {
  std::string file;  // relative to the project directory
  FileKind kind = FileKind::kSession;
  std::string session_id;         // the rows' sessionId (a subagent's is its parent's), else the file stem
  std::string parent_session_id;  // subagent and agent files: the session they belong to
  std::string agent_id;
  std::string cwd;           // the first row's
  std::string first_prompt;  // what a person typed first (format/prompt_text.h), cut for a listing
  std::string summary;       // a summary row for this transcript's leaf, else its last, else the index's
  std::string title;         // customTitle (the index's or a custom-title row)
  uint64_t rows = 0;         // non-blank lines
  uint64_t bad_rows = 0;     // of them, lines that are not a JSON object with a type
  uint64_t size = 0;
  int64_t mtime_ms = 0;
  std::string leaf_uuid;  // the row Claude Code would resume from ("" when it has none)
  bool in_index = false;
};

// A project directory read whole: the listing plus the rows, for the importer.
struct SourceFile {
  TranscriptInfo info;
  Transcript transcript;
};
struct IndexEntry {
  std::string session_id, first_prompt, summary, custom_title, project_path;
};
struct ProjectScan {
  std::string dir;
  bool has_index = false;
  std::string original_path;  // the index's originalPath
  std::vector<IndexEntry> index;
  std::vector<SourceFile> files;    // sessions first, then agent files, subagents last; by name within each
  std::vector<SkippedRow> skipped;  // bad rows, and files that could not be read (line 0)
  std::vector<std::string> notes;   // index drift, an index that is not an object, ...
};

// A transcript file of a project directory, found but not read.
struct TranscriptFile {
  std::string rel;  // relative to the project directory
  FileKind kind = FileKind::kSession;
  uint64_t size = 0;
};
// The transcripts of `dir` in the order scan_project reads them: sessions, then agent files, then
// subagent files, by name within each. kNotFound when `dir` is not a directory.
Result<std::vector<TranscriptFile>> find_transcripts(storage::Fs& fs, const std::string& dir);

// Reads every transcript and the index of `dir` (never writes). kNotFound when `dir` is not a
// directory; everything inside is reported, never a failure.
Result<ProjectScan> scan_project(const std::shared_ptr<storage::Fs>& fs, const std::string& dir);

// The row Claude Code resumes from (docs/import-claude.md#the-leaf): the last appended user or
// assistant row that is not a sidechain row (in a file of sidechain rows only: the last of those).
std::optional<size_t> resume_leaf(const std::vector<Row>& rows);

// {"dir","hasIndex","originalPath","transcripts":[{"file","kind","sessionId","parentSessionId",
//  "agentId","cwd","firstPrompt","summary","title","rows","badRows","size","mtime","leafUuid",
//  "inIndex"}],"skippedRows":[{"file","line","reason"}],"notes":[...]}
std::string listing_json(const ProjectScan& scan);

// Whether `path` is one project directory (it holds a *.jsonl file or sessions-index.json itself)
// rather than the projects root holding such directories (anything else, an empty one included).
Result<bool> is_project_dir(storage::Fs& fs, const std::string& path);

// What `path` holds, read only: {"source":"claude","root":path,"projects":[listing_json of each
// project, by name]}, one project when `path` is a project directory (is_project_dir), else every
// project directory under it (~/.claude/projects), scanned one at a time (only one project's files
// are in memory at once). kNotFound when `path` is not a directory.
Result<std::string> list_json(const std::shared_ptr<storage::Fs>& fs, const std::string& path);

}  // namespace xs::import::claude
