// Stable storage for bytes the session creates after loading: decoded ids, appended and migrated
// lines. Views handed out stay valid for the arena's lifetime (blocks are never moved).
#pragma once

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
  static constexpr size_t kBlock = 256 * 1024;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* cur_ = nullptr;
  size_t left_ = 0;
};

}  // namespace xs::session
