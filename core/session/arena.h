// Stable storage for bytes the session creates after loading: decoded ids, appended and migrated
// lines. Views handed out stay valid for the arena's lifetime (blocks are never moved).
#pragma once

#include <cstdlib>
#include <memory>
#include <string_view>
#include <vector>

namespace xs::session {

class Arena {
 public:
  // Copies `s`; the copy is followed by `padding` zero bytes (lines need json::kPadding so the
  // scanner can read them in place).
  std::string_view store(std::string_view s, size_t padding = 0);

 private:
  struct Free {
    void operator()(char* p) const { std::free(p); }
  };
  using Block = std::unique_ptr<char, Free>;

  // Blocks double from kFirstBlock to kMaxBlock: a session that only decodes a few ids stays
  // small, and one that keeps appending touches fresh memory in huge pages. First touches of
  // new pages were a sixth of an append's time with 4 KiB pages.
  static constexpr size_t kFirstBlock = 64 * 1024;
  static constexpr size_t kMaxBlock = 4 * 1024 * 1024;
  static Block allocate(size_t size);

  std::vector<Block> blocks_;
  size_t next_block_ = kFirstBlock;
  char* cur_ = nullptr;
  size_t left_ = 0;
};

}  // namespace xs::session
