// One entry of a session as an HTML <article> (docs/html-view.md#entries): messages by role with
// their Markdown rendered, tool calls, tool results and thinking collapsed, images inline as
// data: URLs from the blob store, and the marks of compactions, branch summaries, labels and the
// other state entries. Every string from the transcript goes through escape.h or markdown.h.
#pragma once

#include <cstdint>
#include <string>

#include "blobs/blob_store.h"
#include "model/session_data.h"
#include "model/tree.h"

namespace xs::html {

// What the entries of one page share.
struct EntrySource {
  const model::SessionData& data;
  const model::Tree& tree;
  blobs::BlobStore* blobs = nullptr;  // null: blob refs are shown as missing images
};

// Appends the <article id="e-<id>"> of entry `index`. A message entry has the class "msg" and its
// role's; compaction, branch_summary and label entries the class "mark" and their kind's.
void append_entry(std::string& out, const EntrySource& src, uint32_t index);

// The element id of an entry ("e-" and its id): anchors and branch links point at it.
std::string entry_anchor(std::string_view id);

// A line of plain text that stands for the entry in a branch's summary line: its role or kind and
// the start of its text.
std::string entry_preview(const model::Entry& e);

}  // namespace xs::html
