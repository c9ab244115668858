// The entry tree over SessionData: id lookup, resolved parents, labels and the movable leaf
// (docs/format.md#reading-a-file, docs/glossary.md#tree). Append-only: entries are added, never removed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/id_index.h"
#include "model/session_data.h"

namespace xs::model {

struct LabelState {
  std::string_view target_id;
  std::string_view label;
  std::string_view timestamp;
  bool alive = true;  // cleared labels stay as tombstones so insertion order is JavaScript's
};

class Tree {
 public:
  explicit Tree(SessionData* data) : data_(data) {}

  // Indexes every entry of data (after loading, migration or a reload): ids (a later duplicate
  // wins, as in the reference, and is reported), parents (a parent cycle is cut and reported),
  // labels in file order, and the leaf at the last entry in file order.
  void build();
  // What build() found: duplicate ids and parent cycles.
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  // Makes room for indexing `e`, so that add() of it allocates nothing: an append calls this
  // before its record is written, and add() after, which then cannot fail (throws bad_alloc).
  void reserve_for(const Entry& e);
  // Indexes the entry just pushed onto data->entries by an append and moves the leaf to it.
  void add(uint32_t index);

  uint32_t find(std::string_view id) const;
  uint32_t leaf() const { return leaf_; }
  void set_leaf(uint32_t index) { leaf_ = index; }

  // Root-first path ending at `index` (empty for kNone). O(path length).
  std::vector<uint32_t> path_to(uint32_t index) const;
  // Entries whose resolved parent is `index`, in file order.
  std::vector<uint32_t> children(uint32_t index) const;
  // Every entry in depth-first pre-order (children by timestamp, ties in file order), with depth.
  std::vector<std::pair<uint32_t, uint32_t>> preorder() const;

  // Label of an entry, or nullptr.
  const LabelState* label_of(std::string_view id) const;
  // Live labels in JavaScript Map insertion order.
  std::vector<const LabelState*> labels() const;

  bool has_assistant() const { return has_assistant_; }

 private:
  void index_entry(uint32_t index);
  void apply_label(const Entry& e);
  void cut_cycles();

  SessionData* data_;
  IdIndex by_id_;
  IdIndex label_index_;  // target id -> its latest LabelState (a cleared one stays, not alive)
  std::vector<LabelState> labels_;
  std::vector<Diagnostic> diagnostics_;
  uint32_t leaf_ = kNone;
  bool has_assistant_ = false;
};

}  // namespace xs::model
