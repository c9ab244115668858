// The read side as JSON text: entries as stored (each object is the line's bytes), branch paths,
// children, the tree with labels, labels and diagnostics. Free functions over the loaded model, so
// any layer above it (the session, a catalog, a tool) reads a session the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "blobs/blob_store.h"
#include "model/session_data.h"
#include "model/tree.h"
#include "util/status.h"

namespace xs::views {

// What the views read, and where blob refs resolve. Entries come back as stored (refs in place)
// unless a call asks for their content; a missing or damaged blob then leaves its ref and is added
// to `blob_problems` once per blob (read-side problems never fail a read).
struct Source {
  const model::SessionData& data;
  const model::Tree& tree;
  blobs::BlobStore* blobs = nullptr;                        // null: refs stay as stored
  std::vector<model::Diagnostic>* blob_problems = nullptr;  // required when blobs is set
};

// `json` (a stored line or a message) with its blob refs resolved; as it is without a blob store.
std::string resolve_refs(const Source& src, std::string_view json);

std::string entries_json(const Source& src, bool resolve_blobs);
// kNotFound for an unknown id.
Result<std::string> entry_json(const Source& src, std::string_view id, bool resolve_blobs);
// The entries from the root to `id` (the leaf when nullopt); kNotFound for an unknown id.
Result<std::string> path_json(const Source& src, std::optional<std::string_view> id, bool resolve_blobs);
Result<std::string> children_json(const Source& src, std::string_view id, bool resolve_blobs);
// Pre-order: [{"id","parentId","depth","children":[ids][,"label","labelTimestamp"],"entry"}].
std::string tree_json(const Source& src, bool resolve_blobs);
// [{"targetId","label","timestamp"}] in label order.
std::string labels_json(const model::Tree& tree);
// [{"line","offset","length","code","reason"}]: the loader's, the tree's, then the blobs'.
std::string diagnostics_json(const model::SessionData& data, const model::Tree& tree,
                             const std::vector<model::Diagnostic>& blob_problems);

}  // namespace xs::views
