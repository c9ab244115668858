// A session file read into the rows of the index (docs/search.md#schema): the whole file through a
// read-only Session, or only the lines a writer appended since the last indexed byte.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/fs.h"
#include "util/status.h"

namespace xs::search {

// One row of `entries`.
struct EntryRow {
  std::string entry_id;
  std::optional<std::string> parent_id;
  std::string_view role;  // entry_text's; empty for an entry without text
  std::string_view kind;  // the entry type's name; empty for a type the engine does not know
  std::optional<int64_t> ts;
  bool on_path = false;
  std::string text;
};

// One row of `sessions`.
struct SessionRow {
  int64_t rowid = 0;  // 0: not in the index yet
  std::string path, id, cwd;
  std::optional<std::string> title, first_prompt, dialect, source_agent, parent_session, leaf_id;
  std::optional<int64_t> created, updated;
  int64_t entries = 0, messages = 0, input_tokens = 0, output_tokens = 0;
  double cost = 0;
  bool archived = false;
  storage::FileInfo file;      // as stat()ed before the file was read
  uint64_t indexed_bytes = 0;  // the file's bytes indexed: up to the end of its last whole line
  // The listing's summary of the file as `file` (discovery::summary_json), or nullopt.
  std::optional<std::string> summary;
};

struct SessionRead {
  SessionRow row;
  std::vector<EntryRow> entries;  // in file order
  bool whole = true;              // false: `entries` follow those already indexed for the row
  uint64_t text_bytes = 0;        // of all entries (what a batch is sized by)
};

// Reads `path` whole (an archive inflated), as a read-only session reads it: migrated in memory,
// with its tree and leaf. `stat` is the file as found just before.
Result<SessionRead> read_whole(const std::shared_ptr<storage::Fs>& fs, const std::string& path,
                               const storage::FileInfo& stat);

// Reads only the whole lines after old.indexed_bytes of a file that grew in place (same device
// and inode, larger): the row is `old` brought up to date and the entries are the new ones.
// nullopt when that is not enough and the file must be read whole: the file is not the one
// indexed any more, or its new lines hold a header, an entry without an id, or a session_info
// (the title may change).
Result<std::optional<SessionRead>> read_tail(storage::Fs& fs, const SessionRow& old, const storage::FileInfo& stat);

}  // namespace xs::search
