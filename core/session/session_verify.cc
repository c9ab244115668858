// Verify and repair (DECISIONS.md 'do better' 1-3; the CLI's `xs verify` and `xs repair`).
// Verify only reads. Repair changes nothing a reader could miss: it writes the final newline a
// torn tail lacks, so the fragment becomes a complete (skipped, reported, kept) line and the next
// append cannot be glued onto it. Everything else is reported for a person to decide.
#include <algorithm>
#include <unordered_set>

#include "blobs/blob_refs.h"
#include "format/header.h"
#include "json/json_string.h"
#include "json/line_scanner.h"
#include "session/session.h"

namespace xs::session {

namespace {

struct Problem {
  Diagnostic d;
  bool fixable = false;
};

void append_problem(std::string& out, const Diagnostic& d, std::optional<bool> fixable) {
  out += "{\"line\":" + std::to_string(d.line) + ",\"offset\":" + std::to_string(d.offset) +
         ",\"length\":" + std::to_string(d.length) + ",\"code\":";
  json::append_quoted(out, d.code);
  out += ",\"reason\":";
  json::append_quoted_lossy(out, d.reason);
  if (fixable) out += std::string(",\"fixable\":") + (*fixable ? "true" : "false");
  out += '}';
}

}  // namespace

std::string Session::verify_json() const {
  std::vector<Problem> problems;
  for (const Diagnostic& d : data_.diagnostics) problems.push_back({d, d.code == "incomplete_tail"});
  for (const Diagnostic& d : tree_.diagnostics()) problems.push_back({d, false});
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
  std::stable_sort(problems.begin(), problems.end(),
                   [](const Problem& a, const Problem& b) { return a.d.line < b.d.line; });

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
  for (size_t i = 0; i < problems.size(); ++i) {
    if (i) out += ',';
    append_problem(out, problems[i].d, problems[i].fixable);
  }
  out += "]}";
  return out;
}

Result<std::string> Session::repair() {
  XS_RETURN_IF_ERROR(check_writable());
  std::vector<Diagnostic> done;
  if (rewritten_on_open_) {
    done.push_back({0, 0, 0, "migrated",
                    "rewritten from version " + std::to_string(file_version_) + " to " +
                        std::to_string(format::kCurrentVersion) + " (atomically) when opened for writing"});
  }
  for (const Diagnostic& d : data_.diagnostics) {
    if (d.code == "corrupt_file_preserved") done.push_back(d);
  }
  if (persistence_.needs_newline() && !data_.lines.empty()) {
    Line& last = data_.lines.back();
    XS_RETURN_IF_ERROR(persistence_.terminate_tail());
    done.push_back({data_.lines.size(), last.offset, last.bytes.size(), "newline_written",
                    data_.pending_tail ? "wrote the newline the torn last line lacked; its bytes stay in the file "
                                         "as a skipped line"
                                       : "wrote the newline the last line lacked"});
    data_.ends_with_newline = true;
    if (data_.pending_tail) {
      // The fragment is now a complete bad line: report it as a reopen would.
      data_.pending_tail = false;
      json::LineScanner scanner(options_.limits);
      json::LineFacts facts;
      scanner.scan(last.bytes, &facts);
      for (Diagnostic& d : data_.diagnostics) {
        if (d.code != "incomplete_tail" || d.offset != last.offset) continue;
        d.code = std::string(scanner.code());
        d.reason = scanner.reason();
      }
    }
    ++generation_;
  }
  std::string out = "{\"path\":";
  json::append_quoted_lossy(out, path());
  out += ",\"done\":[";
  for (size_t i = 0; i < done.size(); ++i) {
    if (i) out += ',';
    append_problem(out, done[i], std::nullopt);
  }
  out += "]}";
  return out;
}

}  // namespace xs::session
