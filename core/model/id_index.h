// Entry id -> entry index. Opening a 100,000-entry session inserts and looks up 100,000 ids;
// std::unordered_map's node per insert made that a tenth of the open. This is one flat array
// with linear probing: no allocation per id, and the ids themselves stay where they are.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace xs::model {

class IdIndex {
 public:
  static constexpr uint32_t kMissing = 0xFFFFFFFFu;

  void clear() {
    slots_.clear();
    size_ = 0;
  }
  size_t size() const { return size_; }
  // Room for n ids: put() of up to n ids in all then allocates nothing.
  void reserve(size_t n) {
    if (n * 2 > slots_.size()) rehash(capacity_for(n));
  }
  // Sets id -> index (replacing an earlier index); returns the index it replaced, or kMissing.
  uint32_t put(std::string_view id, uint32_t index) {
    if ((size_ + 1) * 2 > slots_.size()) rehash(capacity_for(size_ + 1));
    Slot& s = slots_[probe(id)];
    uint32_t before = s.index;
    if (before == kMissing) ++size_;
    s.id = id;
    s.index = index;
    return before;
  }
  uint32_t get(std::string_view id) const {
    if (slots_.empty()) return kMissing;
    return slots_[probe(id)].index;
  }

 private:
  struct Slot {
    std::string_view id;
    uint32_t index = kMissing;
  };
  static size_t capacity_for(size_t n) {
    size_t c = 16;
    while (c < n * 2) c *= 2;
    return c;
  }
  // The slot holding `id`, or the empty slot where it would go (the table is never full).
  size_t probe(std::string_view id) const {
    size_t mask = slots_.size() - 1;
    for (size_t i = std::hash<std::string_view>()(id) & mask;; i = (i + 1) & mask) {
      if (slots_[i].index == kMissing || slots_[i].id == id) return i;
    }
  }
  void rehash(size_t capacity) {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(capacity, Slot{});
    for (const Slot& s : old) {
      if (s.index != kMissing) slots_[probe(s.id)] = s;
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace xs::model
