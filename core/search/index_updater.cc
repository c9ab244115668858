#include "search/index_updater.h"

#include <chrono>
#include <utility>

#include "search/session_index.h"

namespace xs::search {

void IndexUpdater::written(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  if (stopping_) return;
  bool first = pending_.empty();
  pending_.insert(path);
  ++queued_;
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  // Only the first write of a batch wakes the thread: during its batch window it waits for stop
  // alone, and a wake per append would cost every append a futex call and the thread a spin.
  if (first) wake_.notify_one();
}

Status IndexUpdater::flush() {
  std::unique_lock<std::mutex> lock(mu_);
  uint64_t want = queued_;
  idle_.wait(lock, [&] { return done_ >= want; });
  return std::exchange(error_, Status::Ok());
}

void IndexUpdater::stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void IndexUpdater::run() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
    if (pending_.empty()) return;  // stopping, nothing left
    if (!stopping_) wake_.wait_for(lock, std::chrono::milliseconds(kBatchWindowMs), [&] { return stopping_; });
    std::set<std::string> batch;
    batch.swap(pending_);
    uint64_t upto = queued_;
    lock.unlock();
    Status st;
    try {
      st = index_->refresh_files(batch).status();
    } catch (const std::bad_alloc&) {
      st = Status(Code::kNoMem, "out of memory while indexing");
    }
    lock.lock();
    if (!st.ok() && error_.ok()) error_ = Status(st.code(), "indexing what sessions wrote: " + st.message());
    done_ = upto;
    idle_.notify_all();
  }
}

}  // namespace xs::search
