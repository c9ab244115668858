#include "model/dialect_detect.h"

#include "json/member_scanner.h"

namespace xs::model {

namespace {

using format::Dialect;
using format::EntryType;

bool has(const std::vector<json::Member>& m, std::string_view key) { return json::find_member(m, key) != nullptr; }

// The mark an entry carries, if any. Only these few types are parsed (their member keys), never
// a message body: detection costs nothing next to loading a large session.
std::optional<Dialect> mark_of(const Entry& e) {
  if (format::omp_only(e.type)) return Dialect::kOmp;
  switch (e.type) {
    case EntryType::kSessionInfo: return Dialect::kPi;
    case EntryType::kModelChange: {
      auto m = json::members_of(e.line);
      if (has(m, "model")) return Dialect::kOmp;
      if (has(m, "provider") && has(m, "modelId")) return Dialect::kPi;
      return std::nullopt;
    }
    case EntryType::kCompaction:
    case EntryType::kBranchSummary: {
      auto m = json::members_of(e.line);
      if (has(m, "fromExtension") || has(m, "shortSummary") || has(m, "preserveData")) return Dialect::kOmp;
      if (has(m, "fromHook")) return Dialect::kPi;
      return std::nullopt;
    }
    // Without "attribution" it is no mark: a host's own custom_message through xs_append may
    // leave it out in either dialect, and a mark must never change what a reopen decides.
    case EntryType::kCustomMessage:
      if (has(json::members_of(e.line), "attribution")) return Dialect::kOmp;
      return std::nullopt;
    default: return std::nullopt;
  }
}

bool is_hex16(std::string_view id) {
  if (id.size() != 16) return false;
  for (char c : id) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace

std::optional<Dialect> detect_dialect(const SessionData& data) {
  // The last mark wins: the agent that wrote last is the one that reads the file next.
  for (auto it = data.entries.rbegin(); it != data.entries.rend(); ++it) {
    if (auto d = mark_of(*it)) return d;
  }
  if (data.header_line == kNone) return std::nullopt;
  if (data.header.title) return Dialect::kOmp;
  if (format::is_uuid_shaped(data.header.id)) return Dialect::kPi;
  if (is_hex16(data.header.id)) return Dialect::kOmp;
  return std::nullopt;
}

}  // namespace xs::model
