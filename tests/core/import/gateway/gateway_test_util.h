// What the gateway's and MyAgents' import tests share: a picture of a source tree (bytes and
// mtimes, to prove an import wrote nothing there) and the accounting every report must satisfy.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <utility>

#include "import/import_report.h"
#include "test_util.h"

namespace xs::import::testing {

// Every regular file under `root`: its bytes and modification time.
inline std::map<std::string, std::pair<std::string, int64_t>> tree_picture(const std::string& root) {
  std::map<std::string, std::pair<std::string, int64_t>> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    auto mtime = std::filesystem::last_write_time(e.path()).time_since_epoch().count();
    out[e.path().string()] = {test::read_file(e.path().string()), static_cast<int64_t>(mtime)};
  }
  return out;
}

// rowsRead = imported + keptAsCustom + alreadyImported + skipped, for every session and in sum.
inline void expect_accounted(const ImportReport& r) {
  for (const ImportedSession& s : r.sessions) {
    EXPECT_EQ(s.rows_read, s.imported + s.kept_as_custom + s.already_imported + s.skipped) << s.source_file;
  }
  EXPECT_EQ(r.rows_read(), r.imported() + r.kept_as_custom() + r.already_imported() + r.skipped_rows());
}

// Runs `import` (returning Result<ImportReport>): it must succeed, account for every row and leave
// every file under `source_tree` as it was, bytes and mtime.
template <typename Import>
ImportReport checked_import(const std::string& source_tree, Import import) {
  auto before = tree_picture(source_tree);
  auto r = import();
  EXPECT_TRUE(r.ok()) << r.status().message();
  if (!r.ok()) return {};
  expect_accounted(*r);
  EXPECT_EQ(tree_picture(source_tree), before) << "the source was written";
  return *r;
}

inline bool has_note(const ImportReport& r, const std::string& needle) {
  for (const std::string& n : r.notes) {
    if (n.find(needle) != std::string::npos) return true;
  }
  return false;
}

inline const ImportedSession* session_of(const ImportReport& r, const std::string& source_file) {
  for (const ImportedSession& s : r.sessions) {
    if (s.source_file == source_file) return &s;
  }
  return nullptr;
}

// Non-blank lines of a JSONL file: its rows.
inline uint64_t rows_in(const std::string& path) {
  std::string bytes = test::read_file(path);
  uint64_t n = 0;
  size_t pos = 0;
  while (pos < bytes.size()) {
    size_t nl = bytes.find('\n', pos);
    size_t end = nl == std::string::npos ? bytes.size() : nl;
    if (bytes.find_first_not_of(" \t\r", pos) < end) ++n;
    pos = end + 1;
  }
  return n;
}

}  // namespace xs::import::testing
