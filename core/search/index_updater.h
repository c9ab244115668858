// Keeps a session index current with what the store's own sessions write
// (docs/search.md#kept-current): each session handle tells the store of its writes, the store
// tells this updater, and a thread of the updater indexes the files written, a batch at a time,
// from their last indexed byte. An append never waits for it: written() only queues a path.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "session/persistence.h"
#include "util/status.h"

namespace xs::search {

class SessionIndex;

class IndexUpdater final : public session::WriteObserver {
 public:
  // How long the thread waits after a first write for more to join its batch: a turn of an agent
  // writes several entries within milliseconds.
  static constexpr int kBatchWindowMs = 20;

  explicit IndexUpdater(SessionIndex* index) : index_(index) {}
  ~IndexUpdater() override { stop(); }
  IndexUpdater(const IndexUpdater&) = delete;
  IndexUpdater& operator=(const IndexUpdater&) = delete;

  // Queues `path` (a set: a file written many times is indexed once per batch); starts the thread
  // at the first call.
  void written(const std::string& path) override;
  // Waits until what was queued before the call is indexed; the first error met since the last
  // flush, cleared.
  Status flush();
  // Indexes what is queued, then ends the thread; written() queues nothing after it.
  void stop();

 private:
  void run();

  SessionIndex* index_;
  std::mutex mu_;
  std::condition_variable wake_, idle_;
  std::set<std::string> pending_;
  uint64_t queued_ = 0;  // written() calls so far
  uint64_t done_ = 0;    // of those, how many are indexed (or failed)
  bool stopping_ = false;
  Status error_;
  std::thread thread_;
};

}  // namespace xs::search
