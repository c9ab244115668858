#include "model/dialect_detect.h"

#include "json/member_scanner.h"

namespace xs::model {

namespace {

using format::Dialect;
using format::EntryType;

bool has(const std::vector<json::Member>& m, std::string_view key) { return json::find_member(m, key) != nullptr; }

bool is_hex16(std::string_view id) {
  if (id.size() != 16) return false;
  for (char c : id) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace

bool may_carry_mark(EntryType t) {
  switch (t) {
    case EntryType::kSessionInfo:
    case EntryType::kModelChange:
    case EntryType::kCompaction:
    case EntryType::kBranchSummary:
    case EntryType::kCustomMessage: return true;
    default: return format::omp_only(t);
  }
}

std::optional<Dialect> mark_of(EntryType t, const std::vector<json::Member>& m) {
  if (format::omp_only(t)) return Dialect::kOmp;
  switch (t) {
    case EntryType::kSessionInfo: return Dialect::kPi;
    case EntryType::kModelChange:
      if (has(m, "model")) return Dialect::kOmp;
      if (has(m, "provider") && has(m, "modelId")) return Dialect::kPi;
      return std::nullopt;
    case EntryType::kCompaction:
    case EntryType::kBranchSummary:
      if (has(m, "fromExtension") || has(m, "shortSummary") || has(m, "preserveData")) return Dialect::kOmp;
      if (has(m, "fromHook")) return Dialect::kPi;
      return std::nullopt;
    // Without "attribution" it is no mark: a host's own custom_message through xs_append may
    // leave it out in either dialect, and a mark must never change what a reopen decides.
    case EntryType::kCustomMessage:
      if (has(m, "attribution")) return Dialect::kOmp;
      return std::nullopt;
    default: return std::nullopt;
  }
}

std::optional<Dialect> detect_dialect(const SessionData& data) {
  // The last mark wins: the agent that wrote last is the one that reads the file next. Only the
  // few entries that can carry one are parsed, never a message: detection costs nothing next to
  // loading a large session.
  for (auto it = data.entries.rbegin(); it != data.entries.rend(); ++it) {
    if (!may_carry_mark(it->type)) continue;
    if (auto d = mark_of(it->type, json::members_of(it->line))) return d;
  }
  if (data.header_line == kNone) return std::nullopt;
  if (data.header.title) return Dialect::kOmp;
  if (format::is_uuid_shaped(data.header.id)) return Dialect::kPi;
  if (is_hex16(data.header.id)) return Dialect::kOmp;
  return std::nullopt;
}

}  // namespace xs::model
