#include "import/import_progress.h"

#include <algorithm>

namespace xs::import {

void ProgressMeter::start(uint64_t total) {
  total_ = total;
  done_ = 0;
  next_call_ = std::max<uint64_t>(total_ / 1000, 1);
  if (fn_) fn_(0, total_);
}

void ProgressMeter::add(uint64_t bytes) {
  done_ = std::min(total_, done_ + bytes);
  if (!fn_ || done_ < next_call_ || done_ == total_) return;  // the last call is finish()'s
  fn_(done_, total_);
  next_call_ = done_ + std::max<uint64_t>(total_ / 1000, 1);
}

void ProgressMeter::finish() {
  done_ = total_;
  if (fn_) fn_(total_, total_);
}

}  // namespace xs::import
