#include "progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "text.h"

namespace xs::cli {

namespace {

int64_t monotonic_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

size_t terminal_width() {
  struct winsize ws {};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
  return 80;
}

}  // namespace

Progress::Progress(std::string what, size_t total, size_t min_total, Unit unit)
    : what_(std::move(what)), total_(total), unit_(unit), on_(total >= min_total && isatty(STDERR_FILENO)) {}

void Progress::update(size_t done_count, std::string_view item) {
  if (!on_) return;
  // Redrawing costs a write per step; ten frames a second is smooth enough, and the first step,
  // the last one and the end always show.
  int64_t now = monotonic_ms();
  if (done_count != 0 && done_count + 1 != total_ && done_count != total_ && now - last_draw_ms_ < 100) return;
  last_draw_ms_ = now;
  constexpr size_t kBar = 24;
  size_t filled = total_ ? done_count * kBar / total_ : kBar;
  std::string line = "\r\x1b[2K" + what_ + " [";
  line.append(filled, '#');
  line.append(kBar - filled, '-');
  if (unit_ == Unit::kBytes) {
    line += "] " + human_size(done_count) + "/" + human_size(total_) + " ";
  } else {
    line += "] " + std::to_string(done_count) + "/" + std::to_string(total_) + " ";
  }
  size_t used = display_width(line) - 5;  // "\r" and the erase sequence take no columns
  size_t width = terminal_width();
  // The file's own name says which one; its directory would only push it off the line.
  size_t slash = item.rfind('/');
  if (slash != std::string_view::npos) item.remove_prefix(slash + 1);
  if (used + 4 < width) line += one_line(item, width - used - 1);
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
}

void Progress::done() {
  if (!on_) return;
  std::fputs("\r\x1b[2K", stderr);
  std::fflush(stderr);
  on_ = false;
}

}  // namespace xs::cli
