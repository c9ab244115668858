#include "model/tree.h"

#include <algorithm>
#include <climits>

#include "format/clock.h"
#include "util/room_for_one.h"

namespace xs::model {

void Tree::build() {
  by_id_.clear();
  by_id_.reserve(data_->entries.size());
  label_index_.clear();
  labels_.clear();
  diagnostics_.clear();
  has_assistant_ = false;
  std::vector<Entry>& entries = data_->entries;
  for (uint32_t i = 0; i < entries.size(); ++i) {
    uint32_t earlier = by_id_.put(entries[i].id, i);
    if (earlier != IdIndex::kMissing) {
      const Line& line = data_->lines[entries[i].line_no];
      diagnostics_.push_back({entries[i].line_no + 1u, line.offset, line.bytes.size(), "duplicate_id",
                              "id " + std::string(entries[i].id) + " also on line " +
                                  std::to_string(entries[earlier].line_no + 1) + "; this later entry wins"});
    }
  }
  // Parents resolve against the final map, as the reference's byId lookups do.
  for (Entry& e : entries) {
    e.parent = kNone;
    if (!e.has_parent_id) continue;
    uint32_t p = by_id_.get(e.parent_id);
    if (p != IdIndex::kMissing) e.parent = p;
  }
  cut_cycles();
  for (uint32_t i = 0; i < entries.size(); ++i) {
    apply_label(entries[i]);
    if (entries[i].is_assistant()) has_assistant_ = true;
  }
  leaf_ = entries.empty() ? kNone : static_cast<uint32_t>(entries.size() - 1);
}

// A parent chain that loops (a -> b -> a, or a self-parent) has no root; the reference would
// loop forever walking it. The entry whose parent link closes the loop becomes a root.
void Tree::cut_cycles() {
  std::vector<Entry>& entries = data_->entries;
  enum : uint8_t { kUnseen, kOnPath, kDone };
  std::vector<uint8_t> state(entries.size(), kUnseen);
  std::vector<uint32_t> walk;
  for (uint32_t start = 0; start < entries.size(); ++start) {
    walk.clear();
    uint32_t i = start;
    while (i != kNone && state[i] == kUnseen) {
      state[i] = kOnPath;
      walk.push_back(i);
      i = entries[i].parent;
    }
    if (i != kNone && state[i] == kOnPath) {
      uint32_t closer = walk.back();
      const Entry& e = entries[closer];
      const Line& line = data_->lines[e.line_no];
      diagnostics_.push_back({e.line_no + 1u, line.offset, line.bytes.size(), "parent_cycle",
                              "parent chain of " + std::string(e.id) + " loops; treated as a root"});
      entries[closer].parent = kNone;
    }
    for (uint32_t w : walk) state[w] = kDone;
  }
}

void Tree::reserve_for(const Entry& e) {
  by_id_.reserve(by_id_.size() + 1);
  if (e.type == format::EntryType::kLabel) {
    label_index_.reserve(label_index_.size() + 1);
    room_for_one(labels_);
  }
}

void Tree::add(uint32_t index) {
  Entry& e = data_->entries[index];
  by_id_.put(e.id, index);
  apply_label(e);
  if (e.is_assistant()) has_assistant_ = true;
  leaf_ = index;
}

void Tree::apply_label(const Entry& e) {
  if (e.type != format::EntryType::kLabel) return;
  uint32_t i = label_index_.get(e.target_id);
  bool live = i != IdIndex::kMissing && labels_[i].alive;
  if (e.label_set) {
    if (live) {
      labels_[i].label = e.label;
      labels_[i].timestamp = e.timestamp;
    } else {
      // Set again after a clear: a new Map entry in JavaScript, so it goes last in the order.
      label_index_.put(e.target_id, static_cast<uint32_t>(labels_.size()));
      labels_.push_back({e.target_id, e.label, e.timestamp, true});
    }
  } else if (live) {
    labels_[i].alive = false;
  }
}

uint32_t Tree::find(std::string_view id) const {
  uint32_t i = by_id_.get(id);
  return i == IdIndex::kMissing ? kNone : i;
}

std::vector<uint32_t> Tree::path_to(uint32_t index) const {
  std::vector<uint32_t> path;
  for (uint32_t i = index; i != kNone; i = data_->entries[i].parent) path.push_back(i);
  std::reverse(path.begin(), path.end());
  return path;
}

std::vector<uint32_t> Tree::children(uint32_t index) const {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < data_->entries.size(); ++i) {
    if (data_->entries[i].parent == index) out.push_back(i);
  }
  return out;
}

std::vector<std::pair<uint32_t, uint32_t>> Tree::preorder() const {
  const std::vector<Entry>& entries = data_->entries;
  const uint32_t n = static_cast<uint32_t>(entries.size());
  // Children lists in file order, then sorted by time, ties in file order.
  std::vector<std::vector<uint32_t>> kids(n);
  std::vector<uint32_t> roots;
  for (uint32_t i = 0; i < n; ++i) {
    (entries[i].parent == kNone ? roots : kids[entries[i].parent]).push_back(i);
  }
  // Roots stay in file order (the reference sorts only children). An unparseable timestamp is
  // NaN to JavaScript's sort, whose order is then engine-defined; we sort those first.
  std::vector<int64_t> when(n);
  for (uint32_t i = 0; i < n; ++i) when[i] = format::parse_iso_ms(entries[i].timestamp).value_or(INT64_MIN);
  // The indices are file positions, so the index is the tiebreak that keeps file order (as a
  // stable sort would; std::stable_sort is avoided: libstdc++'s uses std::get_temporary_buffer,
  // which newer clang reports as deprecated). Most lists are in order already (entries are
  // appended as time goes on), which one pass sees.
  auto by_time = [&](uint32_t a, uint32_t b) { return when[a] != when[b] ? when[a] < when[b] : a < b; };
  for (auto& k : kids) {
    if (!std::is_sorted(k.begin(), k.end(), by_time)) std::sort(k.begin(), k.end(), by_time);
  }

  std::vector<std::pair<uint32_t, uint32_t>> out;
  out.reserve(n);
  std::vector<std::pair<uint32_t, uint32_t>> stack;  // explicit: trees can be 100k deep
  for (auto r = roots.rbegin(); r != roots.rend(); ++r) stack.push_back({*r, 0});
  while (!stack.empty()) {
    auto [i, depth] = stack.back();
    stack.pop_back();
    out.push_back({i, depth});
    for (auto c = kids[i].rbegin(); c != kids[i].rend(); ++c) stack.push_back({*c, depth + 1});
  }
  return out;
}

const LabelState* Tree::label_of(std::string_view id) const {
  uint32_t i = label_index_.get(id);
  return i != IdIndex::kMissing && labels_[i].alive ? &labels_[i] : nullptr;
}

std::vector<const LabelState*> Tree::labels() const {
  std::vector<const LabelState*> out;
  for (const LabelState& l : labels_) {
    if (l.alive) out.push_back(&l);
  }
  return out;
}

}  // namespace xs::model
