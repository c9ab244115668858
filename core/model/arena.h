// Stable storage for bytes the session creates after loading: decoded ids, appended and migrated
// lines. Views handed out stay valid for the arena's lifetime (blocks are never moved).
#pragma once

#include <string_view>
#include <vector>

#include "util/big_buffer.h"

namespace xs::model {

class Arena {
 public:
  // Copies `s`; the copy is followed by `padding` zero bytes (lines need json::kPadding so the
  // scanner can read them in place).
  std::string_view store(std::string_view s, size_t padding = 0);

 private:
  // Blocks double from kFirstBlock to kMaxBlock: a session that only decodes a few ids stays
  // small, and one that keeps appending touches fresh memory in huge pages (allocate_big).
  static constexpr size_t kFirstBlock = 64 * 1024;
  static constexpr size_t kMaxBlock = 4 * 1024 * 1024;

  std::vector<BigBytes> blocks_;
  size_t next_block_ = kFirstBlock;
  char* cur_ = nullptr;
  size_t left_ = 0;
};

}  // namespace xs::model
