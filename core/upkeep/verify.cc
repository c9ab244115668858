#include "upkeep/verify.h"

#include <algorithm>
#include <numeric>
#include <unordered_set>

#include "blobs/blob_refs.h"
#include "format/header.h"
#include "json/json_string.h"
#include "upkeep/report_json.h"

namespace xs::upkeep {

namespace {

using model::Diagnostic;
using model::Entry;
using model::Line;

struct Problem {
  Diagnostic d;
  bool fixable = false;
};

}  // namespace

std::string verify_json(const model::SessionData& data, const model::Tree& tree, blobs::BlobStore* blobs,
                        const FileFacts& file) {
  std::vector<Problem> problems;
  for (const Diagnostic& d : data.diagnostics) problems.push_back({d, d.code == "incomplete_tail"});
  for (const Diagnostic& d : tree.diagnostics()) problems.push_back({d, false});
  if (file.links > 1) {
    problems.push_back({{0, 0, 0, "multiple_names",
                         "the file has " + std::to_string(file.links) +
                             " names (hard links, or a move to another directory that stopped half-way); no "
                             "writer opens it until the other name is removed"},
                        false});
  }
  if (!data.ends_with_newline && !data.pending_tail && !data.lines.empty()) {
    const Line& last = data.lines.back();
    problems.push_back({{data.lines.size(), last.offset, last.bytes.size(), "missing_newline",
                         "the last line has no newline (the next append writes one first)"},
                        true});
  }
  std::unordered_set<std::string_view> seen_blobs;
  for (const Entry& e : data.entries) {
    const Line& line = data.lines[e.line_no];
    if (e.has_parent_id && tree.find(e.parent_id) == model::kNone) {
      problems.push_back({{e.line_no + 1u, line.offset, line.bytes.size(), "orphan",
                           "entry " + std::string(e.id) + " names parent " + std::string(e.parent_id) +
                               ", which is not in the session; it is read as a root"},
                          false});
    }
    if (!blobs) continue;
    for (std::string_view hash : blobs::find_blob_refs(e.line)) {
      if (!seen_blobs.insert(hash).second) continue;
      Status st = blobs->check(hash);
      if (st.ok()) continue;
      const char* code = st.code() == Code::kNotFound  ? "missing_blob"
                         : st.code() == Code::kCorrupt ? "corrupt_blob"
                                                       : "unreadable_blob";
      problems.push_back({{e.line_no + 1u, line.offset, line.bytes.size(), code,
                           st.message() + " (referenced by entry " + std::string(e.id) + ")"},
                          false});
    }
  }
  // By line; problems of one line in the order they were found.
  std::vector<size_t> order(problems.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return problems[a].d.line != problems[b].d.line ? problems[a].d.line < problems[b].d.line : a < b;
  });

  int file_version = file.version_read ? file.version_read : data.header.version;
  std::string out = "{\"path\":";
  json::append_quoted_lossy(out, file.path);
  out += ",\"id\":";
  json::append_quoted(out, data.header.id);
  out += ",\"fileVersion\":" + std::to_string(file_version);
  out += std::string(",\"needsMigration\":") + (file.needs_migration ? "true" : "false");
  out += ",\"lines\":" + std::to_string(data.lines.size());
  out += ",\"entries\":" + std::to_string(data.entries.size());
  out += ",\"blobRefs\":" + std::to_string(seen_blobs.size());
  out += ",\"problems\":[";
  for (size_t i = 0; i < order.size(); ++i) {
    if (i) out += ',';
    append_problem(out, problems[order[i]].d, problems[order[i]].fixable);
  }
  out += "]}";
  return out;
}

}  // namespace xs::upkeep
