#include "compaction/compaction_plan.h"

#include <algorithm>

#include "json/json_string.h"
#include "json/member_scanner.h"

namespace xs::compaction {

using format::EntryType;
using model::Entry;
using model::kNone;

bool should_compact(int64_t context_tokens, const Settings& s) {
  return context_tokens > s.context_window - std::max(s.reserve_tokens, s.reserve_floor);
}

bool should_flush_memory(int64_t context_tokens, const Settings& s, int64_t compaction_count,
                         int64_t last_flush_compaction_count) {
  if (last_flush_compaction_count == compaction_count) return false;  // flushed in this cycle
  int64_t threshold = s.context_window - std::max(s.reserve_tokens, s.reserve_floor) - s.soft_threshold_tokens;
  return context_tokens > threshold;
}

int64_t estimate_tokens(const Entry& e) {
  if (e.is_assistant()) {
    auto msg = json::members_of(e.message());
    const json::Member* usage = json::find_member(msg, "usage");
    if (usage && usage->kind == json::Kind::kObject) {
      auto u = json::members_of(usage->value);  // kept: `out` points into it
      const json::Member* out = json::find_member(u, "output");
      if (out && out->kind == json::Kind::kNumber) {
        int64_t n = std::strtoll(std::string(out->value).c_str(), nullptr, 10);
        if (n > 0) return n;
      }
    }
  }
  return static_cast<int64_t>((e.line.size() + 3) / 4);
}

namespace {

// A context may start here without losing what the entry depends on.
bool is_cut_point(const Entry& e) {
  switch (e.type) {
    case EntryType::kMessage: return e.role != "toolResult";
    case EntryType::kCustomMessage:
    case EntryType::kBranchSummary: return true;
    default: return false;
  }
}

}  // namespace

Result<CutPlan> plan_cut(const model::SessionData& data, const model::Tree& tree, uint32_t leaf,
                         int64_t keep_recent_tokens) {
  if (leaf == kNone) leaf = tree.leaf();
  CutPlan plan;
  if (leaf == kNone || leaf >= data.entries.size()) return plan;  // nothing to compact
  std::vector<uint32_t> path = tree.path_to(leaf);
  // What the context holds now starts at the latest compaction's kept entry (or the root).
  size_t start = 0;
  for (size_t p = path.size(); p-- > 0;) {
    const Entry& e = data.entries[path[p]];
    if (e.type != EntryType::kCompaction) continue;
    auto kept = json::string_value(json::find_member(json::members_of(e.line), "firstKeptEntryId"));
    start = p + 1;
    for (size_t q = 0; kept && q < p; ++q) {
      if (data.entries[path[q]].id == *kept) {
        start = q;
        break;
      }
    }
    break;
  }
  for (size_t p = start; p < path.size(); ++p) plan.tokens_before += estimate_tokens(data.entries[path[p]]);
  // Walk back from the leaf until the newest entries hold keep_recent_tokens, then back to a cut point.
  int64_t kept = 0;
  size_t cut = path.size();
  for (size_t p = path.size(); p-- > start;) {
    kept += estimate_tokens(data.entries[path[p]]);
    cut = p;
    if (kept >= keep_recent_tokens) break;
  }
  while (cut > start && !is_cut_point(data.entries[path[cut]])) {
    --cut;
    kept += estimate_tokens(data.entries[path[cut]]);
  }
  if (cut <= start) return plan;  // everything is kept: nothing to summarise
  plan.needed = true;
  plan.first_kept_entry_id = std::string(data.entries[path[cut]].id);
  plan.kept_tokens = kept;
  for (size_t p = start; p < cut; ++p) plan.to_summarise.emplace_back(data.entries[path[p]].id);
  return plan;
}

Result<CutPlan> plan_cut(const model::SessionData& data, const model::Tree& tree,
                         std::optional<std::string_view> leaf_id, int64_t keep_recent_tokens) {
  uint32_t leaf = kNone;
  if (leaf_id) {
    leaf = tree.find(*leaf_id);
    if (leaf == kNone) return Status::NotFound("no entry " + std::string(*leaf_id));
  }
  return plan_cut(data, tree, leaf, keep_recent_tokens);
}

std::string cut_plan_json(const CutPlan& plan) {
  std::string out = std::string("{\"needed\":") + (plan.needed ? "true" : "false") + ",\"firstKeptEntryId\":";
  if (plan.needed) {
    json::append_quoted(out, plan.first_kept_entry_id);
  } else {
    out += "null";
  }
  out += ",\"toSummarise\":[";
  for (size_t i = 0; i < plan.to_summarise.size(); ++i) {
    if (i) out += ',';
    json::append_quoted(out, plan.to_summarise[i]);
  }
  out += "],\"tokensBefore\":" + std::to_string(plan.tokens_before) +
         ",\"keptTokens\":" + std::to_string(plan.kept_tokens) + "}";
  return out;
}

}  // namespace xs::compaction
