// Makes room for one more element without a reallocation, growing geometrically as push_back
// would. An append calls it before its record is written, so that its push_back after the write
// cannot fail (no entry on disk that the session lacks).
#pragma once

#include <vector>

namespace xs {

template <class T>
void room_for_one(std::vector<T>& v) {
  if (v.size() == v.capacity()) v.reserve(v.empty() ? 16 : v.size() * 2);
}

}  // namespace xs
