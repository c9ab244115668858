// Helpers for the reliability tests (fault injection, kill -9, corruption sweep, power loss, processes).
#pragma once

#include <dirent.h>

#include <cstdlib>
#include <string>

#include "session/session.h"
#include "test_util.h"

namespace xs::test {

inline session::SessionOptions options(bool create, bool no_defer) {
  session::SessionOptions o;
  o.create_if_missing = create;
  o.defer_until_assistant = !no_defer;
  o.cwd = "/work";
  return o;
}

inline session::SessionOptions read_only() {
  session::SessionOptions o;
  o.read_only = true;
  return o;
}

inline std::string user_message(const std::string& text) {
  return "{\"role\":\"user\",\"content\":\"" + text + "\"}";
}

inline std::string assistant_message(const std::string& text) {
  return "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"" + text +
         "\"}],\"provider\":\"p\",\"model\":\"m\"}";
}

// Open descriptors of this process (/proc/self/fd), to catch leaks.
inline int open_fd_count() {
  int n = 0;
  if (DIR* d = opendir("/proc/self/fd")) {
    while (readdir(d)) ++n;
    closedir(d);
  }
  return n;
}

// A count or seed from the environment (the CI default otherwise): a positive integer, or the
// fallback when unset, empty or not positive.
inline size_t env_count(const char* name, size_t fallback) {
  const char* v = std::getenv(name);
  unsigned long long n = v && *v ? std::strtoull(v, nullptr, 10) : 0;
  return n > 0 ? static_cast<size_t>(n) : fallback;
}

inline size_t count_occurrences(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

}  // namespace xs::test
