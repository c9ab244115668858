// A progress bar on stderr for work over many files (verify, migrate, ls --check) or many bytes
// (import). Drawn only
// when stderr is a terminal, so pipes, logs and tests see nothing of it; it erases itself before
// the command prints its results.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace xs::cli {

class Progress {
 public:
  enum class Unit { kSteps, kBytes };  // how done/total read: "3/12" or "1.5M/12M"

  // `what` names the work ("verify"); `total` the number of steps. Shown only on a TTY and only
  // when there are at least `min_total` steps.
  Progress(std::string what, size_t total, size_t min_total = 2, Unit unit = Unit::kSteps);
  ~Progress() { done(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Step `done_count` of total is under way on `item` (a file name).
  void update(size_t done_count, std::string_view item);
  // Erases the bar (also on destruction).
  void done();

 private:
  std::string what_;
  size_t total_;
  Unit unit_;
  bool on_;
  int64_t last_draw_ms_ = 0;
};

}  // namespace xs::cli
