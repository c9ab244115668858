#include "views/entries.h"

#include "blobs/blob_resolver.h"
#include "json/json_string.h"

namespace xs::views {

using model::Diagnostic;
using model::Entry;
using model::kNone;
using model::LabelState;
using model::SessionData;
using model::Tree;

std::string resolve_refs(const Source& src, std::string_view json) {
  if (!src.blobs) return std::string(json);
  std::vector<blobs::BlobProblem> problems;
  auto r = blobs::resolve_blobs(json, *src.blobs, &problems);
  for (const blobs::BlobProblem& p : problems) {
    bool known = false;
    for (const Diagnostic& d : *src.blob_problems) known = known || d.reason.find(p.hash) != std::string::npos;
    if (!known) {
      src.blob_problems->push_back({0, 0, 0, p.status.code() == Code::kCorrupt ? "corrupt_blob" : "missing_blob",
                                    p.status.message() + "; the reference is left in place"});
    }
  }
  return r.ok() ? *r : std::string(json);
}

namespace {

std::string entry_array(const Source& src, const std::vector<uint32_t>& indices, bool resolve_blobs) {
  size_t n = 2;
  for (uint32_t i : indices) n += src.data.entries[i].line.size() + 1;
  std::string out;
  out.reserve(n);
  out += '[';
  for (size_t k = 0; k < indices.size(); ++k) {
    if (k) out += ',';
    const Entry& e = src.data.entries[indices[k]];
    if (resolve_blobs && e.has_blob_ref()) {
      out += resolve_refs(src, e.line);
    } else {
      out += e.line;
    }
  }
  out += ']';
  return out;
}

}  // namespace

std::string entries_json(const Source& src, bool resolve_blobs) {
  std::vector<uint32_t> all(src.data.entries.size());
  for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  return entry_array(src, all, resolve_blobs);
}

Result<std::string> entry_json(const Source& src, std::string_view id, bool resolve_blobs) {
  uint32_t i = src.tree.find(id);
  if (i == kNone) return Status::NotFound("entry " + std::string(id) + " not found");
  const Entry& e = src.data.entries[i];
  return resolve_blobs && e.has_blob_ref() ? resolve_refs(src, e.line) : std::string(e.line);
}

Result<std::string> path_json(const Source& src, std::optional<std::string_view> id, bool resolve_blobs) {
  uint32_t from = src.tree.leaf();
  if (id) {
    from = src.tree.find(*id);
    if (from == kNone) return Status::NotFound("entry " + std::string(*id) + " not found");
  }
  return entry_array(src, src.tree.path_to(from), resolve_blobs);
}

Result<std::string> children_json(const Source& src, std::string_view id, bool resolve_blobs) {
  uint32_t i = src.tree.find(id);
  if (i == kNone) return Status::NotFound("entry " + std::string(id) + " not found");
  return entry_array(src, src.tree.children(i), resolve_blobs);
}

std::string tree_json(const Source& src, bool resolve_blobs) {
  auto order = src.tree.preorder();
  std::vector<std::vector<uint32_t>> kids(src.data.entries.size());
  for (auto [i, depth] : order) {
    (void)depth;
    uint32_t p = src.data.entries[i].parent;
    if (p != kNone) kids[p].push_back(i);  // pre-order visits siblings in their sorted order
  }
  std::string out = "[";
  bool first = true;
  for (auto [i, depth] : order) {
    const Entry& e = src.data.entries[i];
    if (!first) out += ',';
    first = false;
    out += "{\"id\":";
    json::append_quoted(out, e.id);
    out += ",\"parentId\":";
    if (e.parent != kNone)
      json::append_quoted(out, src.data.entries[e.parent].id);
    else
      out += "null";
    out += ",\"depth\":" + std::to_string(depth) + ",\"children\":[";
    for (size_t k = 0; k < kids[i].size(); ++k) {
      if (k) out += ',';
      json::append_quoted(out, src.data.entries[kids[i][k]].id);
    }
    out += ']';
    if (const LabelState* l = src.tree.label_of(e.id)) {
      out += ",\"label\":";
      json::append_quoted(out, l->label);
      out += ",\"labelTimestamp\":";
      json::append_quoted(out, l->timestamp);
    }
    out += ",\"entry\":";
    if (resolve_blobs && e.has_blob_ref()) {
      out += resolve_refs(src, e.line);
    } else {
      out += e.line;
    }
    out += '}';
  }
  out += ']';
  return out;
}

std::string labels_json(const Tree& tree) {
  std::string out = "[";
  bool first = true;
  for (const LabelState* l : tree.labels()) {
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

std::string diagnostics_json(const SessionData& data, const Tree& tree, const std::vector<Diagnostic>& blob_problems) {
  std::string out = "[";
  std::vector<const Diagnostic*> all;
  for (const Diagnostic& d : data.diagnostics) all.push_back(&d);
  for (const Diagnostic& d : tree.diagnostics()) all.push_back(&d);
  for (const Diagnostic& d : blob_problems) all.push_back(&d);
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

}  // namespace xs::views
