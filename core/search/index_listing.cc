// The session index behind the store's listings (index_listing.h).
#include "search/index_listing.h"

#include "discovery/finder.h"
#include "search/session_index.h"

namespace xs::search {

std::optional<std::string> listing_summary(const std::shared_ptr<storage::Fs>& fs, const std::string& path,
                                           const storage::FileInfo& stat) {
  auto s = discovery::read_summary(fs, path, false, discovery::ListQuery().max_line_bytes);
  if (!s.ok() || s->size != stat.size || s->modified_ms != stat.mtime_ms) return std::nullopt;
  return discovery::summary_json(*s);
}

std::optional<std::string> summary_after_tail(const SessionRead& read, const SessionRow* old,
                                              const storage::FileInfo& stat) {
  if (read.whole || !old || !old->summary) return std::nullopt;
  auto s = discovery::parse_summary_json(*old->summary);
  if (!s.ok() || !s->first_prompt) return std::nullopt;
  s->size = stat.size;
  s->modified_ms = stat.mtime_ms;
  return discovery::summary_json(*s);
}

Result<std::unordered_map<std::string, discovery::KeptSummary>> KeptSummaries::kept_summaries() {
  std::lock_guard<std::mutex> hold(mu_);
  if (!index_) return Status(Code::kNotFound, "the session index is closed");
  return index_->kept_summaries();
}

void KeptSummaries::detach() {
  std::lock_guard<std::mutex> hold(mu_);
  index_ = nullptr;
}

}  // namespace xs::search
