// The session index behind the store's listings (docs/search.md#listing): each row keeps the
// listing's summary of its file, and an open index is its store's summary source.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "discovery/summary_source.h"
#include "search/session_read.h"

namespace xs::search {

class SessionIndex;

// The listing's summary of `path` (discovery::read_summary, as a listing that is not full reads
// it) as summary_json, kept only when it was read from the file as `stat` found it.
std::optional<std::string> listing_summary(const std::shared_ptr<storage::Fs>& fs, const std::string& path,
                                           const storage::FileInfo& stat);

// The summary of the row `old` after lines appended to its file, when they leave it as it was but
// for the file's size and mtime (taken from `stat`, so that the row says what listing_summary
// would read now): its fields come from the file's first lines up to the first prompt (read_tail
// refuses new headers and session_info), so once that prompt is in the summary, what follows
// cannot change them. nullopt: the summary must be read again.
std::optional<std::string> summary_after_tail(const SessionRead& read, const SessionRow* old,
                                              const storage::FileInfo& stat);

// The index as its store's summary source. The store holds it weakly and a listing may hold it
// while the index closes: detach() (the index's destructor) waits for a listing in progress, and
// after it the source answers with an error, which makes listings read the files.
class KeptSummaries final : public discovery::SummarySource {
 public:
  explicit KeptSummaries(SessionIndex* index) : index_(index) {}
  Result<std::unordered_map<std::string, discovery::KeptSummary>> kept_summaries() override;
  void detach();

 private:
  std::mutex mu_;
  SessionIndex* index_;
};

}  // namespace xs::search
