// When a session was last active (docs/retention.md#last-activity).
#include <optional>

#include "format/clock.h"
#include "json/line_scanner.h"
#include "retention/retention.h"

namespace xs::retention {

namespace {

constexpr uint64_t kTailBytes = 64 << 10;

// The timestamp of one line, if it is an object with an ISO (or millisecond) "timestamp".
std::optional<int64_t> line_timestamp(json::LineScanner& scanner, std::string_view line) {
  json::LineFacts facts;
  if (scanner.scan(line, &facts) != json::LineVerdict::kObject) return std::nullopt;
  if (facts.timestamp.is_string()) return format::parse_iso_ms(facts.timestamp.str);
  if (facts.timestamp.kind == json::Kind::kNumber) return static_cast<int64_t>(facts.timestamp.num);
  return std::nullopt;
}

}  // namespace

// The content's own time survives a copy or a restore from backup (which reset the mtime); the
// mtime is the fallback for a file whose tail has no timestamp (a very long last line, damage).
int64_t last_activity_ms(storage::Fs& fs, const std::string& path, const storage::FileInfo& info) {
  uint64_t from = info.size > kTailBytes ? info.size - kTailBytes : 0;
  storage::PaddedBuffer tail;
  if (!fs.read_range(path, from, kTailBytes, &tail).ok()) return info.mtime_ms;
  std::string_view text = tail.view();
  if (from > 0) {  // the first line of the window is cut: it starts before it
    size_t nl = text.find('\n');
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  }
  json::LineScanner scanner(json::internal_limits());
  // Lines from the last one back; the buffer's padding follows the last, the next line the others.
  size_t end = text.size();
  while (end > 0) {
    size_t start = text.rfind('\n', end - 1);
    start = start == std::string_view::npos ? 0 : start + 1;
    if (start < end) {
      if (auto t = line_timestamp(scanner, text.substr(start, end - start))) return *t;
    }
    if (start == 0) break;
    end = start - 1;
  }
  return info.mtime_ms;
}

}  // namespace xs::retention
