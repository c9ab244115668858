// How far an import is, for a caller's progress bar: source bytes handled of the source bytes to
// read (the unit every importer can count before it starts: file sizes).
#pragma once

#include <cstdint>
#include <functional>

namespace xs::import {

// done of total bytes; called on the importing thread.
using ImportProgressFn = std::function<void(uint64_t done, uint64_t total)>;

// Calls the caller's function once at the start (0 of total), then each time `done` passes
// another thousandth of the total, and once at the end (total of total): about a thousand calls
// however many rows, so a callback may draw without throttling and costs nothing per row.
class ProgressMeter {
 public:
  explicit ProgressMeter(ImportProgressFn fn) : fn_(std::move(fn)) {}

  void start(uint64_t total);
  // `bytes` more of the source handled; `done` never passes the total (sizes may change under us).
  void add(uint64_t bytes);
  // Everything handled (rows the importers pass over without a look count here).
  void finish();

 private:
  ImportProgressFn fn_;
  uint64_t total_ = 0;
  uint64_t done_ = 0;
  uint64_t next_call_ = 0;
};

}  // namespace xs::import
