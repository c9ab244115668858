// Summaries kept by someone who read the files before (the session index, docs/search.md#listing),
// so that a listing need not read them again: each is good only while its file is exactly as it
// was when read (size, mtime, device and inode), which the listing checks with a stat.
#pragma once

#include <string>
#include <unordered_map>

#include "discovery/session_info.h"
#include "storage/fs.h"
#include "util/status.h"

namespace xs::discovery {

struct KeptSummary {
  storage::FileInfo file;  // the file as stat()ed before it was read
  SessionSummary summary;  // read_summary's, not full
};

class SummarySource {
 public:
  virtual ~SummarySource() = default;
  // Every kept summary by path. An error makes the listing read every file, as without a source.
  virtual Result<std::unordered_map<std::string, KeptSummary>> kept_summaries() = 0;
};

}  // namespace xs::discovery
