#include "import/claude/plan.h"

#include <map>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "import/claude/convert.h"

namespace xs::import::claude {
namespace {

class Planner {
 public:
  explicit Planner(Plan* p) : p_(*p) {}

  void run(const std::vector<RowRef>& labels) {
    size_t conversation_rows = p_.rows.size();
    // Nearly every row has a uuid: the maps of uuids are sized once instead of rehashed as they grow.
    by_uuid_.reserve(conversation_rows);
    line_of_uuid_.reserve(conversation_rows);
    row_of_uuid_.reserve(conversation_rows);
    for (size_t i = 0; i < conversation_rows; ++i) plan_row(i);
    find_first_kept();
    find_leaf(conversation_rows);
    for (const RowRef& l : labels) add_label(l);
  }

 private:
  struct Group {
    int entry;
    int tail;  // the entry the next tool result of this reply follows
  };

  const Row& row(size_t i) const { return *p_.rows[i].row; }
  std::string where(size_t i) const { return std::string(p_.rows[i].file) + " line " + std::to_string(row(i).line); }

  int add(PlanKind kind, size_t row_index, int parent, uint32_t part = 0) {
    PlannedEntry e;
    e.kind = kind;
    e.rows.push_back(row_index);
    e.parent = parent;
    e.part = part;
    const std::string& uuid = row(row_index).uuid;
    if (!uuid.empty()) e.wanted_id = part == 0 ? uuid : uuid + "-" + std::to_string(part);
    p_.entries.push_back(std::move(e));
    int idx = static_cast<int>(p_.entries.size()) - 1;
    p_.row_entry[row_index] = idx;
    p_.outcome[row_index] = kind == PlanKind::kCustom ? RowOutcome::kCustom : RowOutcome::kImported;
    return idx;
  }

  void skip(size_t i, std::string reason) {
    p_.outcome[i] = RowOutcome::kSkipped;
    p_.skip_reason[i] = std::move(reason);
  }

  // The parent of a chain row: its parent's entry, or — when the parent sits in an assistant
  // reply's region (the reply's rows, its tool results, what hangs off them) — the reply's last tool
  // result, so that every call's result stays on the path (docs/import-claude.md#the-tree).
  int chain_parent(size_t i, std::string_view* region_of) {
    const Row& r = row(i);
    if (!r.has_parent) return -1;
    auto it = by_uuid_.find(r.parent_uuid);
    if (it == by_uuid_.end()) {
      p_.notes.push_back(where(i) + ": parent " + r.parent_uuid + " is not in this conversation; " +
                         (last_chain_ < 0 ? "made a root" : "attached to the row before it"));
      return last_chain_;
    }
    auto reg = region_.find(r.parent_uuid);
    if (reg == region_.end()) return it->second;
    *region_of = reg->second;
    return groups_[reg->second].tail;
  }

  void plan_row(size_t i) {
    const Row& r = row(i);
    if (absorbed_.count(i)) return;
    if (!r.uuid.empty()) {
      auto [it, fresh] = line_of_uuid_.emplace(r.uuid, r.line);
      if (!fresh) return skip(i, "duplicate uuid of line " + std::to_string(it->second));
      row_of_uuid_[r.uuid] = i;
    }
    if (!r.is_chain()) {  // a side row: after the row it names, else after the row before it
      auto named = by_uuid_.find(r.message_ref);
      last_ = add(PlanKind::kCustom, i, named != by_uuid_.end() && !r.message_ref.empty() ? named->second : last_);
      return;
    }
    std::string_view region;
    int parent = chain_parent(i, &region);
    int idx;
    if (r.type == "assistant" && r.has_message) {
      auto g = r.message_id.empty() ? groups_.end() : groups_.find(r.message_id);
      if (g != groups_.end()) {  // another block of a reply already planned: merged into it
        p_.entries[g->second.entry].rows.push_back(i);
        p_.row_entry[i] = g->second.entry;
        p_.outcome[i] = RowOutcome::kImported;
        idx = g->second.entry;
      } else {
        idx = add(PlanKind::kAssistant, i, parent);
        if (!r.message_id.empty()) groups_[r.message_id] = {idx, idx};
      }
      for (size_t k = 0; k < r.tool_use_ids.size(); ++k) {
        if (!r.message_id.empty()) group_of_tool_[r.tool_use_ids[k]] = r.message_id;
        p_.tool_names[r.tool_use_ids[k]] = r.tool_use_names[k];
        p_.tool_entry[r.tool_use_ids[k]] = idx;
      }
      if (!r.message_id.empty()) region_[r.uuid] = r.message_id;
    } else if (r.type == "user" && r.has_message) {
      auto tool = group_of_tool_.find(r.tool_result_for);
      uint32_t parts = r.tool_results == 0 ? 1 : r.tool_results + (r.other_blocks ? 1 : 0);
      PlanKind kind = r.tool_results == 0 ? PlanKind::kUser : PlanKind::kToolResult;
      Group* g = tool != group_of_tool_.end() ? &groups_[tool->second] : nullptr;
      idx = g ? g->tail : parent;
      for (uint32_t k = 0; k < parts; ++k) idx = add(kind, i, idx, k);
      if (g) {
        g->tail = idx;
        region_[r.uuid] = tool->second;
      }
    } else if (r.type == "system" && r.subtype == "compact_boundary") {
      idx = plan_compaction(i);
    } else {
      idx = add(PlanKind::kCustom, i, parent);
      if (!region.empty()) region_[r.uuid] = region;  // hangs off a reply: still in its region
    }
    by_uuid_[r.uuid] = idx;
    last_chain_ = idx;
    last_ = idx;
  }

  // A compact_boundary and its summary row: one compaction entry, a child of the last row before
  // the compaction (logicalParentUuid), which joins the pre- and post-compaction trees.
  int plan_compaction(size_t i) {
    const Row& b = row(i);
    int parent = last_chain_;
    auto logical = by_uuid_.find(b.logical_parent_uuid);
    if (logical != by_uuid_.end()) {
      auto reg = region_.find(b.logical_parent_uuid);
      parent = reg == region_.end() ? logical->second : groups_[reg->second].tail;
    } else if (!b.logical_parent_uuid.empty()) {
      p_.notes.push_back(where(i) + ": compaction's logical parent " + b.logical_parent_uuid +
                         " is not in this conversation; attached to the row before it");
    }
    int idx = add(PlanKind::kCompaction, i, parent);
    kept_after_[idx] = b.uuid;
    for (size_t j = i + 1; j < p_.rows.size(); ++j) {
      const Row& s = row(j);
      if (s.parent_uuid != b.uuid || !s.is_compact_summary || s.type != "user") continue;
      p_.entries[idx].rows.push_back(j);
      p_.row_entry[j] = idx;
      p_.outcome[j] = RowOutcome::kImported;
      absorbed_.insert(j);
      line_of_uuid_.emplace(s.uuid, s.line);
      row_of_uuid_[s.uuid] = j;
      by_uuid_[s.uuid] = idx;
      kept_after_[idx] = s.uuid;
      break;
    }
    if (p_.entries[idx].rows.size() == 1) p_.notes.push_back(where(i) + ": compaction without its summary row");
    std::string head = preserved_head(b);
    if (!head.empty()) preserved_[idx] = head;
    return idx;
  }

  // firstKeptEntryId: the first entry planned on the summary (or the preserved tail's head).
  void find_first_kept() {
    for (auto& [c, uuid] : kept_after_) {
      auto head = preserved_.find(c);
      if (head != preserved_.end() && by_uuid_.count(head->second)) {
        p_.entries[c].first_kept = by_uuid_[head->second];
        continue;
      }
      for (size_t e = c + 1; e < p_.entries.size(); ++e) {
        const Row& first = row(p_.entries[e].rows.front());
        if (first.parent_uuid == uuid || first.parent_uuid == row(p_.entries[c].rows.front()).uuid) {
          p_.entries[c].first_kept = static_cast<int>(e);
          break;
        }
      }
    }
  }

  // The last conversation row, as Claude Code picks it; its entry, or its reply's last tool result.
  void find_leaf(size_t conversation_rows) {
    for (size_t i = conversation_rows; i-- > 0;) {
      const Row& r = row(i);
      if (!r.is_conversation() || !r.is_chain() || p_.row_entry[i] < 0) continue;
      auto reg = region_.find(r.uuid);
      p_.leaf = reg != region_.end() ? groups_[reg->second].tail : p_.row_entry[i];
      p_.leaf_uuid = r.uuid;
      break;
    }
    // The resumed path, for the title: a summary of a leaf on it names the conversation.
    for (std::string_view u = p_.leaf_uuid; !u.empty() && on_path_.insert(u).second;) {
      auto it = row_of_uuid_.find(u);
      if (it == row_of_uuid_.end()) break;
      u = row(it->second).parent_uuid;
    }
  }

  void add_label(const RowRef& l) {
    p_.rows.push_back(l);
    p_.row_entry.push_back(-1);
    p_.outcome.push_back(RowOutcome::kSkipped);
    p_.skip_reason.emplace_back();
    size_t i = p_.rows.size() - 1;
    auto target = by_uuid_.find(l.row->leaf_uuid);
    if (target == by_uuid_.end()) return skip(i, "summary of a leaf that is not in this conversation");
    int parent = last_label_ >= 0 ? last_label_ : p_.leaf;
    last_label_ = add(PlanKind::kLabel, i, parent);
    p_.entries[last_label_].target = target->second;
    if (on_path_.count(l.row->leaf_uuid)) p_.title = l.row->summary;
  }

  Plan& p_;
  // Keyed by views of the rows' own strings, which outlive the planner (make_plan): no key is
  // copied or freed per row.
  std::unordered_map<std::string_view, int> by_uuid_;  // uuid → the entry that stands for the row
  std::unordered_map<std::string_view, uint64_t> line_of_uuid_;
  std::unordered_map<std::string_view, size_t> row_of_uuid_;
  std::unordered_map<std::string_view, Group> groups_;                    // message.id → its reply
  std::unordered_map<std::string_view, std::string_view> group_of_tool_;  // tool_use id → message.id
  std::unordered_map<std::string_view, std::string_view> region_;  // uuid → message.id of the reply region it is in
  std::set<size_t> absorbed_;                                      // summary rows taken into their compaction
  std::map<int, std::string> kept_after_, preserved_;
  std::unordered_set<std::string_view> on_path_;
  int last_chain_ = -1, last_ = -1, last_label_ = -1;
};

}  // namespace

Plan make_plan(std::vector<RowRef> rows, const std::vector<RowRef>& labels) {
  Plan p;
  p.rows = std::move(rows);
  p.row_entry.assign(p.rows.size(), -1);
  p.outcome.assign(p.rows.size(), RowOutcome::kSkipped);
  p.skip_reason.assign(p.rows.size(), "");
  Planner(&p).run(labels);
  return p;
}

}  // namespace xs::import::claude
