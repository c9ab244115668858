// The read side as JSON text: entries (as stored), branch paths, children, the tree with labels,
// labels, diagnostics, the session's info and usage. Entry objects are the stored line bytes.
#include "blobs/blob_resolver.h"
#include "format/message_text.h"
#include "format/entry_type.h"
#include "json/json_string.h"
#include "json/member_scanner.h"
#include "session/session.h"
#include "stats/usage.h"

namespace xs::session {

namespace {

void append_optional_string(std::string& out, std::string_view key, const std::optional<std::string>& v) {
  out += ",\"";
  out += key;
  out += "\":";
  if (v) json::append_quoted(out, *v);
  else out += "null";
}

}  // namespace

std::string Session::resolved(std::string_view json) const {
  if (!options_.blobs) return std::string(json);
  std::vector<blobs::BlobProblem> problems;
  auto r = blobs::resolve_blobs(json, *options_.blobs, &problems);
  for (const blobs::BlobProblem& p : problems) {
    bool known = false;
    for (const Diagnostic& d : blob_problems_) known = known || d.reason.find(p.hash) != std::string::npos;
    if (!known) {
      blob_problems_.push_back({0, 0, 0, p.status.code() == Code::kCorrupt ? "corrupt_blob" : "missing_blob",
                                p.status.message() + "; the reference is left in place"});
    }
  }
  return r.ok() ? *r : std::string(json);
}

std::string Session::line_of(const Entry& e, bool resolve_blobs) const {
  return resolve_blobs && e.has_blob_ref() ? resolved(e.line) : std::string(e.line);
}

std::string Session::entry_array(const std::vector<uint32_t>& indices, bool resolve_blobs) const {
  size_t n = 2;
  for (uint32_t i : indices) n += data_.entries[i].line.size() + 1;
  std::string out;
  out.reserve(n);
  out += '[';
  for (size_t k = 0; k < indices.size(); ++k) {
    if (k) out += ',';
    const Entry& e = data_.entries[indices[k]];
    if (resolve_blobs && e.has_blob_ref()) {
      out += resolved(e.line);
    } else {
      out += e.line;
    }
  }
  out += ']';
  return out;
}

std::string Session::entries_json(bool resolve_blobs) const {
  std::vector<uint32_t> all(data_.entries.size());
  for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  return entry_array(all, resolve_blobs);
}

Result<std::string> Session::entry_json(std::string_view id, bool resolve_blobs) const {
  uint32_t i = tree_.find(id);
  if (i == kNone) return Status::NotFound("entry " + std::string(id) + " not found");
  return line_of(data_.entries[i], resolve_blobs);
}

Result<std::string> Session::branch_json(std::optional<std::string_view> id, bool resolve_blobs) const {
  uint32_t from = tree_.leaf();
  if (id) {
    from = tree_.find(*id);
    if (from == kNone) return Status::NotFound("entry " + std::string(*id) + " not found");
  }
  return entry_array(tree_.path_to(from), resolve_blobs);
}

Result<std::string> Session::children_json(std::string_view id, bool resolve_blobs) const {
  uint32_t i = tree_.find(id);
  if (i == kNone) return Status::NotFound("entry " + std::string(id) + " not found");
  return entry_array(tree_.children(i), resolve_blobs);
}

std::string Session::tree_json(bool resolve_blobs) const {
  auto order = tree_.preorder();
  std::vector<std::vector<uint32_t>> kids(data_.entries.size());
  for (auto [i, depth] : order) {
    (void)depth;
    uint32_t p = data_.entries[i].parent;
    if (p != kNone) kids[p].push_back(i);  // pre-order visits siblings in their sorted order
  }
  std::string out = "[";
  bool first = true;
  for (auto [i, depth] : order) {
    const Entry& e = data_.entries[i];
    if (!first) out += ',';
    first = false;
    out += "{\"id\":";
    json::append_quoted(out, e.id);
    out += ",\"parentId\":";
    if (e.parent != kNone) json::append_quoted(out, data_.entries[e.parent].id);
    else out += "null";
    out += ",\"depth\":" + std::to_string(depth) + ",\"children\":[";
    for (size_t k = 0; k < kids[i].size(); ++k) {
      if (k) out += ',';
      json::append_quoted(out, data_.entries[kids[i][k]].id);
    }
    out += ']';
    if (const LabelState* l = tree_.label_of(e.id)) {
      out += ",\"label\":";
      json::append_quoted(out, l->label);
      out += ",\"labelTimestamp\":";
      json::append_quoted(out, l->timestamp);
    }
    out += ",\"entry\":";
    if (resolve_blobs && e.has_blob_ref()) {
      out += resolved(e.line);
    } else {
      out += e.line;
    }
    out += '}';
  }
  out += ']';
  return out;
}

std::string Session::labels_json() const {
  std::string out = "[";
  bool first = true;
  for (const LabelState* l : tree_.labels()) {
    if (!first) out += ',';
    first = false;
    out += "{\"targetId\":";
    json::append_quoted(out, l->target_id);
    out += ",\"label\":";
    json::append_quoted(out, l->label);
    out += ",\"timestamp\":";
    json::append_quoted(out, l->timestamp);
    out += '}';
  }
  out += ']';
  return out;
}

std::string Session::diagnostics_json() const {
  std::string out = "[";
  std::vector<const Diagnostic*> all;
  for (const Diagnostic& d : data_.diagnostics) all.push_back(&d);
  for (const Diagnostic& d : tree_.diagnostics()) all.push_back(&d);
  for (const Diagnostic& d : blob_problems_) all.push_back(&d);
  for (size_t k = 0; k < all.size(); ++k) {
    const Diagnostic& d = *all[k];
    if (k) out += ',';
    out += "{\"line\":" + std::to_string(d.line) + ",\"offset\":" + std::to_string(d.offset) +
           ",\"length\":" + std::to_string(d.length) + ",\"code\":";
    json::append_quoted(out, d.code);
    out += ",\"reason\":";
    json::append_quoted_lossy(out, d.reason);
    out += '}';
  }
  out += ']';
  return out;
}

std::optional<std::string> Session::title() const {
  if (data_.header.title) return data_.header.title;
  for (auto it = data_.entries.rbegin(); it != data_.entries.rend(); ++it) {
    if (it->type != format::EntryType::kSessionInfo) continue;
    std::optional<std::string> name = json::string_value(json::find_member(json::members_of(it->line), "name"));
    if (!name) return std::nullopt;
    std::string_view trimmed = json::js_trim(*name);
    if (trimmed.empty()) return std::nullopt;  // an empty name clears it (pi)
    return std::string(trimmed);
  }
  return std::nullopt;
}

size_t Session::message_count() const {
  size_t n = 0;
  for (const Entry& e : data_.entries) n += e.type == format::EntryType::kMessage;
  return n;
}

size_t Session::diagnostic_count() const {
  return data_.diagnostics.size() + tree_.diagnostics().size() + blob_problems_.size();
}

std::optional<std::string> Session::first_user_text() const {
  for (const Entry& e : data_.entries) {
    if (e.type != format::EntryType::kMessage || e.role != "user") continue;
    std::string text = format::message_text(e.message());
    if (!text.empty()) return text;
  }
  return std::nullopt;
}

std::string Session::info_json() const {
  const format::Header& h = data_.header;
  std::string out = "{\"id\":";
  json::append_quoted(out, h.id);
  out += ",\"path\":";
  json::append_quoted_lossy(out, path());
  out += ",\"cwd\":";
  json::append_quoted(out, h.cwd);
  out += ",\"timestamp\":";
  json::append_quoted(out, h.timestamp);
  append_optional_string(out, "title", title());
  append_optional_string(out, "parentSession", h.parent_session);
  out += ",\"version\":" + std::to_string(h.version);
  out += ",\"entryCount\":" + std::to_string(data_.entries.size());
  out += ",\"leafId\":";
  if (auto leaf = leaf_id()) json::append_quoted(out, *leaf);
  else out += "null";
  out += std::string(",\"persisted\":") + (persisted() ? "true" : "false");
  out += std::string(",\"readOnly\":") + (options_.read_only ? "true" : "false");
  out += ",\"diagnostics\":" + std::to_string(diagnostic_count());
  // Counts by type in the enum's order, unknown types last (xs show; no entry is parsed again).
  constexpr size_t kTypes = static_cast<size_t>(format::EntryType::kMcpToolSelection) + 1;
  uint64_t counts[kTypes] = {};
  for (const Entry& e : data_.entries) ++counts[static_cast<size_t>(e.type)];
  out += ",\"entryTypes\":{";
  bool first = true;
  for (size_t t = 1; t <= kTypes; ++t) {
    size_t type = t % kTypes;  // kUnknown (0) comes last
    if (!counts[type]) continue;
    if (!first) out += ',';
    first = false;
    std::string_view name = format::entry_type_name(static_cast<format::EntryType>(type));
    json::append_quoted(out, name.empty() ? "unknown" : name);
    out += ':' + std::to_string(counts[type]);
  }
  out += "}}";
  return out;
}

std::string Session::usage_json() const { return stats::usage_json(data_); }

}  // namespace xs::session
