// A session's stats and the key it may be bound to (docs/session-stats.md): counted once from the
// loaded entries, kept current by commit(), and written into the bound record by the store's
// stats::StatsSink at the end of each turn (an assistant message) and on flush and close.
#include "format/clock.h"
#include "session/session.h"

namespace xs::session {

const stats::Counts& Session::counts() const {
  if (!counts_) counts_ = stats::count_entries(data_);
  return *counts_;
}

stats::SessionStats Session::stats() const {
  stats::SessionStats s;
  s.counts = counts();
  s.context_tokens = stats::context_tokens(data_, tree_.leaf());
  return s;
}

Status Session::check_binding(const SessionOptions& options) {
  if (!options.stats_sink) return Status::Ok();
  if (options.read_only) {
    return Status::Invalid(
        "a read-only session writes nothing, not even its key's record: open it writable to bind it");
  }
  return options.stats_sink->check();
}

void Session::bind_stats_sink(std::string key, std::shared_ptr<stats::StatsSink> sink) {
  options_.key = std::move(key);
  options_.stats_sink = std::move(sink);
  bind_stats();
}

void Session::bind_stats() {
  if (!options_.stats_sink) return;
  counts();  // counted now, from what the open just loaded
  auto holds = options_.stats_sink->holds_stats_of(data_.header.id);
  if (holds.ok() && *holds) {
    key_claimed_ = true;  // the key already names this session
    return;
  }
  record_behind_ = true;
  if (!holds.ok()) {
    record_error_ = holds.status().With("reading the session's key record");
    return;
  }
  // A deferred session has no file yet: its record is written with the file, at the first reply.
  if (persistence_.persisted()) (void)publish_stats();
}

void Session::note_appended(const model::Entry& e) {
  try {
    if (counts_) counts_->add(e);
  } catch (...) {
    counts_.reset();  // out of memory: counted again from the entries when next asked
  }
  if (!options_.stats_sink) return;
  record_behind_ = true;
  if (!e.is_assistant() || !persistence_.persisted()) return;
  try {
    (void)publish_stats();  // a failure stays in record_error_; the append has succeeded
  } catch (...) {
    // out of memory while writing the record: it stays behind, and flush or close tries again
  }
}

Status Session::publish_stats() {
  stats::Snapshot snap;
  snap.stats = stats();
  snap.session_id = data_.header.id;
  snap.session_file = path();
  std::optional<int64_t> at;
  if (!data_.entries.empty()) at = format::parse_iso_ms(data_.entries.back().timestamp);
  if (!at) at = format::parse_iso_ms(data_.header.timestamp);
  snap.updated_at_ms = at.value_or(0);
  snap.claim = !key_claimed_;
  Status st = options_.stats_sink->publish(snap);
  if (!st.ok()) {
    record_error_ = st.With("the key record was not updated (the transcript is unaffected)");
    return record_error_;
  }
  record_behind_ = false;
  key_claimed_ = true;
  record_error_ = Status::Ok();
  return st;
}

Status Session::settle_stats() {
  if (!options_.stats_sink || !record_behind_ || !persistence_.persisted()) return Status::Ok();
  return publish_stats();
}

}  // namespace xs::session
