// Verify (the CLI's `xs verify`): only reads. Everything wrong with the file as loaded is
// reported with its line and offset; repair (session_repair.cc) fixes what it can.
#include <algorithm>
#include <numeric>
#include <unordered_set>

#include "blobs/blob_refs.h"
#include "format/header.h"
#include "json/json_string.h"
#include "session/report_json.h"
#include "session/session.h"

namespace xs::session {

namespace {

struct Problem {
  Diagnostic d;
  bool fixable = false;
};

}  // namespace

void append_problem(std::string& out, const Diagnostic& d, std::optional<bool> fixable) {
  out += "{\"line\":" + std::to_string(d.line) + ",\"offset\":" + std::to_string(d.offset) +
         ",\"length\":" + std::to_string(d.length) + ",\"code\":";
  json::append_quoted(out, d.code);
  out += ",\"reason\":";
  json::append_quoted_lossy(out, d.reason);
  if (fixable) out += std::string(",\"fixable\":") + (*fixable ? "true" : "false");
  out += '}';
}

std::string Session::verify_json() const {
  std::vector<Problem> problems;
  for (const Diagnostic& d : data_.diagnostics) problems.push_back({d, d.code == "incomplete_tail"});
  for (const Diagnostic& d : tree_.diagnostics()) problems.push_back({d, false});
  if (read_links_ > 1) {
    problems.push_back({{0, 0, 0, "multiple_names",
                         "the file has " + std::to_string(read_links_) +
                             " names (hard links, or a move to another directory that stopped half-way); no "
                             "writer opens it until the other name is removed"},
                        false});
  }
  if (!data_.ends_with_newline && !data_.pending_tail && !data_.lines.empty()) {
    const Line& last = data_.lines.back();
    problems.push_back({{data_.lines.size(), last.offset, last.bytes.size(), "missing_newline",
                         "the last line has no newline (the next append writes one first)"},
                        true});
  }
  std::unordered_set<std::string_view> seen_blobs;
  for (const Entry& e : data_.entries) {
    const Line& line = data_.lines[e.line_no];
    if (e.has_parent_id && tree_.find(e.parent_id) == kNone) {
      problems.push_back({{e.line_no + 1u, line.offset, line.bytes.size(), "orphan",
                           "entry " + std::string(e.id) + " names parent " + std::string(e.parent_id) +
                               ", which is not in the session; it is read as a root"},
                          false});
    }
    if (!options_.blobs) continue;
    for (std::string_view hash : blobs::find_blob_refs(e.line)) {
      if (!seen_blobs.insert(hash).second) continue;
      Status st = options_.blobs->check(hash);
      if (st.ok()) continue;
      const char* code = st.code() == Code::kNotFound ? "missing_blob"
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

  int file_version = file_version_ ? file_version_ : data_.header.version;
  std::string out = "{\"path\":";
  json::append_quoted_lossy(out, path());
  out += ",\"id\":";
  json::append_quoted(out, data_.header.id);
  out += ",\"fileVersion\":" + std::to_string(file_version);
  out += std::string(",\"needsMigration\":") + (migrated_in_memory_ && !rewritten_on_open_ ? "true" : "false");
  out += ",\"lines\":" + std::to_string(data_.lines.size());
  out += ",\"entries\":" + std::to_string(data_.entries.size());
  out += ",\"blobRefs\":" + std::to_string(seen_blobs.size());
  out += ",\"problems\":[";
  for (size_t i = 0; i < order.size(); ++i) {
    if (i) out += ',';
    append_problem(out, problems[order[i]].d, problems[order[i]].fixable);
  }
  out += "]}";
  return out;
}

}  // namespace xs::session
