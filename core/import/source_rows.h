// Reading another agent's files for an import (docs/import-hosts.md#reading-a-source): whole files
// through the storage::Fs seam, read only (nothing here writes), split into JSONL rows, each
// validated as JSON.parse would, with the verdict an import report needs. Shared by the gateway's
// and MyAgents' readers.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "import/import_progress.h"
#include "import/import_report.h"
#include "json/member_scanner.h"
#include "storage/buffer.h"
#include "storage/fs.h"
#include "util/status.h"

namespace xs::import {

// The largest source file read whole (a Claude or gateway transcript of a long-lived chat).
constexpr uint64_t kMaxSourceFileBytes = 1ull << 30;

// How a host reader treats the host's index lock (docs/import-hosts.md#foreign-locks).
struct ReadOptions {
  // How long to wait for the lock (the gateway's `sessions.json.lock`, MyAgents' `sessions.lock/`;
  // both hold it for a write of the index) before reading the index anyway, with a note.
  std::chrono::milliseconds lock_wait{2000};
  // A lock older than this is stale (both hosts' own rule: 30 s): not waited for.
  std::chrono::milliseconds stale_after{30000};
  int64_t now_ms = 0;  // 0: the system clock
};

// What a host importer takes.
struct ImportOptions {
  bool dry_run = false;  // report what would be done; write nothing
  ReadOptions read;
  // The cwd of a session its source gives none (a gateway transcript without a header or another
  // generation to take it from, a MyAgents session without agentDir); empty: the source directory.
  std::string fallback_cwd;
  ImportProgressFn progress;  // may be empty: bytes of the transcripts handled
};

// An empty report of an import of `kind` from `root`.
ImportReport start_report(std::string kind, std::string root, bool dry_run);

// One non-blank line of a JSONL file.
struct SourceRow {
  uint64_t line = 0;       // from 1
  std::string_view text;   // without its newline (and without a '\r' before it)
  bool terminated = true;  // false: the file's last line, with no newline after it
};

struct SourceFile {
  storage::PaddedBuffer bytes;
  storage::FileInfo info;
  std::vector<SourceRow> rows;  // blank lines are not rows; a byte-order mark on line 1 is ignored
};

// Reads `path` whole. kInvalid "binary file ..." when its first 4 KiB hold a NUL byte (no JSON
// text has one), kLimit past kMaxSourceFileBytes, the Fs's status otherwise.
Status read_source_rows(storage::Fs& fs, const std::string& path, SourceFile* out);
// The same checks for a file read as one JSON document (an index): *text is the document.
Status read_source_document(storage::Fs& fs, const std::string& path, storage::PaddedBuffer* out,
                            storage::FileInfo* info = nullptr);

// A row's members when it is a JSON object (JSON.parse's grammar, valid UTF-8, within the
// engine's limits); else nullopt and *reason says why ("not JSON: ...", "not an object").
std::optional<std::vector<json::Member>> object_members(std::string_view text, std::string* reason);

// Records `row` of `file` as skipped for `reason`, in the report and in the session's count; a
// last line still without its newline is said to be read again by the next import.
void skip_row(ImportReport& report, ImportedSession& session, const std::string& file, const SourceRow& row,
              std::string reason);

// `object` (a JSON object text) without its members named `drop` (every occurrence), other members
// as they were, in order.
std::string without_members(const std::vector<json::Member>& members, std::initializer_list<std::string_view> drop);

// A member's value as a number (kNumber only).
std::optional<double> number_value(const json::Member* m);

// The system clock in epoch ms, unless `fixed_ms` is non-zero (tests).
int64_t now_ms(int64_t fixed_ms);

// Another program's lock, met while reading its store: a file or directory that exists while it
// writes. The reader only looks at it (it never takes or removes a foreign lock).
enum class ForeignLock { kFree, kReleased, kStale, kHeld };
struct LockWait {
  ForeignLock state = ForeignLock::kFree;
  std::chrono::milliseconds waited{0};
  int64_t age_ms = 0;  // how old the lock was when last seen (kStale, kHeld)
};
// Waits up to `wait` while `lock_path` exists and is younger than `stale_after`, polling. The
// lock's age is now - created(fs, path), where `created` gives its creation time in epoch ms
// (nullopt: the path's mtime). `fixed_now_ms` as for now_ms().
using LockCreatedFn = std::function<std::optional<int64_t>(storage::Fs&, const std::string&)>;
LockWait wait_for_foreign_lock(storage::Fs& fs, const std::string& lock_path, std::chrono::milliseconds wait,
                               std::chrono::milliseconds stale_after, int64_t fixed_now_ms,
                               const LockCreatedFn& created = nullptr);
// "held for 1200 ms", "stale (45 s old)", ... for notes.
std::string describe(const LockWait& w, const std::string& lock_name);

// For the listings' JSON: ,"problems":[{"file","line","reason"}],"notes":[...] (text that is not
// UTF-8, as file names may be, with U+FFFD).
void append_problems_and_notes(std::string& out, const std::vector<SkippedRow>& problems,
                               const std::vector<std::string>& notes);
// ,"name":"text" or ,"name":null.
void append_text_member(std::string& out, std::string_view name, const std::optional<std::string>& text);

// "name" relative to a root, for report entries: the path with "<root>/" taken off.
std::string relative_to(const std::string& root, const std::string& path);

}  // namespace xs::import
