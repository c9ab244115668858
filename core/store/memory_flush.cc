#include "store/memory_flush.h"

#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

#include "format/clock.h"
#include "json/document_edit.h"
#include "json/member_scanner.h"

namespace xs::store {

namespace {

// A count field of a record: nullopt when absent or null; kInvalid when not a whole number.
Result<std::optional<int64_t>> count_field(std::string_view record, std::string_view name) {
  auto members = json::members_of(record);
  const json::Member* m = json::find_member(members, name);
  if (!m || m->kind == json::Kind::kNull) return std::optional<int64_t>();
  std::string token(m->value);
  double v = m->kind == json::Kind::kNumber ? std::strtod(token.c_str(), nullptr) : NAN;
  if (!std::isfinite(v) || v != std::floor(v) || std::fabs(v) > 9007199254740991.0) {
    return Status::Invalid("record field \"" + std::string(name) + "\" is not a whole number: " + token);
  }
  return std::optional<int64_t>(static_cast<int64_t>(v));
}

}  // namespace

Result<bool> claim_memory_flush(const KeyStore& keys, std::string_view key, const compaction::Settings& settings,
                                int64_t context_tokens, int64_t now_ms) {
  if (now_ms == 0) now_ms = format::Clock::Real().now_ms();
  bool run = false;
  Status st = keys.update(key, [&](std::optional<std::string_view> current) -> Result<std::optional<std::string>> {
    if (!current) return Status::NotFound("no record for key " + std::string(key));
    auto count = count_field(*current, "compactionCount");
    if (!count.ok()) return count.status();
    auto flushed = count_field(*current, "memoryFlushCompactionCount");
    if (!flushed.ok()) return flushed.status();
    int64_t cycle = count->value_or(0);
    // Never flushed: no cycle matches (a count is never negative).
    run = compaction::should_flush_memory(context_tokens, settings, cycle, flushed->value_or(-1));
    if (!run) return std::optional<std::string>(std::string(*current));
    std::string patch = "{\"memoryFlushAt\":" + std::to_string(now_ms) +
                        ",\"memoryFlushCompactionCount\":" + std::to_string(cycle) + "}";
    auto merged = json::merge_patch(*current, patch);
    if (!merged.ok()) return merged.status();
    return std::optional<std::string>(std::move(*merged));
  });
  XS_RETURN_IF_ERROR(st);
  return run;
}

}  // namespace xs::store
