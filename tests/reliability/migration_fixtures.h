// For readers_test.cc: old session files (v1, v2; the migration's rules in docs/format.md#migration
// and core/model/migration.cc) with the exact bytes their migration must produce, written out by
// hand from the rules (not by the engine): v1 entries get "id" and "parentId" appended (ids from
// the seed, each entry the child of the one before), a numeric firstKeptEntryIndex becomes
// firstKeptEntryId, "hookMessage" roles become "custom", the header gets version 3 (appended, or
// replaced in place), and every other line, a damaged one included, keeps its bytes. Plus the
// check that a session opened on such a path shows exactly that migration.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "json_answers.h"
#include "reliability_util.h"

namespace xs::test {

struct OldFile {
  std::string name;
  int version = 0;            // as written
  std::string old_bytes;
  std::string new_bytes;      // the file after the migration rewrite
  std::string header;         // the migrated header line
  std::string entries;        // entries_json of the migrated session
  std::string junk;           // a damaged line the file holds (kept by the rewrite), or ""
};

inline std::string quoted(const std::string& s) { return "\"" + s + "\""; }

inline std::string entries_array(const std::vector<std::string>& lines) {
  std::string out = "[";
  for (const std::string& l : lines) out += (out.size() > 1 ? "," : "") + l;
  return out + "]";
}

// A small v1 file with every kind of change: ids, a compaction's index, a hook message, and a
// damaged line between entries. `ids`: the four ids the migration hands out, in order.
inline OldFile small_v1(const std::vector<std::string>& ids) {
  OldFile f;
  f.name = "small-v1.jsonl";
  f.version = 1;
  f.junk = "not json";
  const std::string h = R"({"type":"session","id":"m1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w")";
  const std::string e0 =
      R"({"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"})";
  const std::string e1 =
      R"({"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"assistant","content":"yo"})";
  const std::string c = R"({"type":"compaction","timestamp":"2025-01-01T00:00:03.000Z","summary":"s",)";
  const std::string e3 = R"({"type":"message","timestamp":"2025-01-01T00:00:04.000Z","message":{"role":")";
  const std::string e3_rest = R"(","customType":"x","content":"h","display":true})";
  f.old_bytes = h + "}\n" + e0 + "}\n" + e1 + "}\n" + f.junk + "\n" + c +
                R"("firstKeptEntryIndex":2,"tokensBefore":10})" "\n" + e3 + "hookMessage" + e3_rest + "}\n";
  f.header = h + R"(,"version":3})";
  // firstKeptEntryIndex counts parsed values with the header as 0; the damaged line does not count,
  // so index 2 is the second message.
  std::vector<std::string> entries = {
      e0 + ",\"id\":" + quoted(ids[0]) + ",\"parentId\":null}",
      e1 + ",\"id\":" + quoted(ids[1]) + ",\"parentId\":" + quoted(ids[0]) + "}",
      c + R"("tokensBefore":10,"id":)" + quoted(ids[2]) + ",\"parentId\":" + quoted(ids[1]) +
          ",\"firstKeptEntryId\":" + quoted(ids[1]) + "}",
      e3 + "custom" + e3_rest + ",\"id\":" + quoted(ids[3]) + ",\"parentId\":" + quoted(ids[2]) + "}",
  };
  f.new_bytes = f.header + "\n" + entries[0] + "\n" + entries[1] + "\n" + f.junk + "\n" + entries[2] + "\n" +
                entries[3] + "\n";
  f.entries = entries_array(entries);
  return f;
}

// A v2 file: ids stay, only hook messages and the version change.
inline OldFile small_v2() {
  OldFile f;
  f.name = "small-v2.jsonl";
  f.version = 2;
  const std::string m1 =
      R"({"type":"message","id":"m1","parentId":null,"timestamp":"t","message":{"customType":"x","role":")";
  const std::string m1_rest = R"(","content":"h"}})";
  const std::string m2 =
      R"({"type":"message","id":"m2","parentId":"m1","timestamp":"t",)"
      R"("message":{"role":"user","content":"hookMessage"}})";
  const std::string c = R"({"type":"custom","customType":"hookMessage","id":"c","parentId":"m2","timestamp":"t"})";
  f.old_bytes = R"({"type":"session","version":2,"id":"m2","timestamp":"t","cwd":"/w"})" "\n" + m1 +
                "hookMessage" + m1_rest + "\n" + m2 + "\n" + c + "\n";
  f.header = R"({"type":"session","version":3,"id":"m2","timestamp":"t","cwd":"/w"})";
  f.new_bytes = f.header + "\n" + m1 + "custom" + m1_rest + "\n" + m2 + "\n" + c + "\n";
  f.entries = entries_array({m1 + "custom" + m1_rest, m2, c});
  return f;
}

// A v2 file of `n` messages of about 4 KB, every 100th a hook message: over 8 MiB it is loaded by
// the parallel loader, which reads the file in shares through several descriptors (each must be
// the same inode while a rewrite renames a new file into place).
inline OldFile large_v2(size_t n) {
  OldFile f;
  f.name = "large-v2.jsonl";
  f.version = 2;
  f.old_bytes = R"({"type":"session","version":2,"id":"m3","timestamp":"t","cwd":"/w"})" "\n";
  f.header = R"({"type":"session","version":3,"id":"m3","timestamp":"t","cwd":"/w"})";
  f.new_bytes = f.header + "\n";
  f.entries = "[";
  for (size_t i = 0; i < n; ++i) {
    std::string text = std::to_string(i) + ":";
    while (text.size() < 4000) text += static_cast<char>('a' + (i * 7 + text.size() * 13) % 26);
    std::string head = R"({"type":"message","id":"L)" + std::to_string(i) + R"(","parentId":)" +
                       (i ? "\"L" + std::to_string(i - 1) + "\"" : "null") + R"(,"timestamp":"t","message":{"role":")";
    std::string tail = R"(","content":")" + text + "\"}}";
    std::string role = i % 100 == 50 ? "hookMessage" : "user";
    f.old_bytes += head + role + tail + "\n";
    std::string line = head + (i % 100 == 50 ? "custom" : role) + tail;
    f.new_bytes += line + "\n";
    f.entries += (i ? "," : "") + line;
  }
  f.entries += "]";
  return f;
}

// The ids of the entries in an entries_json array, in order.
inline std::vector<std::string> ids_in(const std::string& entries) {
  return ids_of(entries).value_or(std::vector<std::string>());
}

// "" when `s` (an open of f's path) holds exactly the migrated session, and diagnostics that point
// into the file it read: the old one (*old = true, migrated in memory) or the rewritten one.
inline std::string check_migrated(const OldFile& f, const session::Session& s, bool* old) {
  std::string v = s.verify_json();
  *old = v.find(",\"fileVersion\":" + std::to_string(f.version) + ",\"needsMigration\":true,") != std::string::npos;
  bool rewritten = v.find(",\"fileVersion\":3,\"needsMigration\":false,") != std::string::npos;
  if (*old == rewritten) return "neither the old file nor its rewrite: " + v.substr(0, 300);
  if (s.header() != f.header) return "header " + std::string(s.header());
  if (s.entries_json() != f.entries) return "the entries are not the migrated ones";
  std::string want = "[]";
  if (!f.junk.empty()) {
    const std::string& bytes = *old ? f.old_bytes : f.new_bytes;
    size_t at = bytes.find("\n" + f.junk + "\n") + 1;
    size_t line = static_cast<size_t>(std::count(bytes.begin(), bytes.begin() + at, '\n')) + 1;
    want = "[{\"line\":" + std::to_string(line) + ",\"offset\":" + std::to_string(at) +
           ",\"length\":" + std::to_string(f.junk.size()) + ",\"code\":\"invalid_json\"";
  }
  std::string d = s.diagnostics_json();
  if (d.compare(0, want.size(), want) != 0 || count_occurrences(d, "{\"line\":") != (f.junk.empty() ? 0u : 1u)) {
    return std::string(*old ? "old" : "rewritten") + " file: diagnostics " + d;
  }
  return "";
}

}  // namespace xs::test
