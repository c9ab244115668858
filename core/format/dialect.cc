#include "format/dialect.h"

namespace xs::format {

std::string_view dialect_name(Dialect d) { return d == Dialect::kPi ? "pi" : "omp"; }

bool omp_only(EntryType t) {
  switch (t) {
    case EntryType::kTtsrInjection:
    case EntryType::kSessionInit:
    case EntryType::kModeChange:
    case EntryType::kServiceTierChange:
    case EntryType::kMcpToolSelection: return true;
    default: return false;
  }
}

bool is_uuid_shaped(std::string_view id) {
  if (id.size() != 36) return false;
  for (size_t i = 0; i < id.size(); ++i) {
    char c = id[i];
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (c != '-') return false;
    } else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
      return false;
    }
  }
  return true;
}

}  // namespace xs::format
