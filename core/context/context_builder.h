// What the model sees: pi's buildSessionContext (docs/context.md) in the output shape of
// docs/context.md#output.
//
// The path from the leaf to the root is walked once through resolved parent indices, state is
// folded from the few small entries that carry it, and every `message` value is copied into the
// output as the exact bytes stored in the file: message bodies are never parsed. Only the rare
// constructed messages (compaction and branch summaries, custom messages) and state entries are
// re-read, through the member scanner.
#pragma once

#include <functional>
#include <string>

#include "model/session_data.h"
#include "model/tree.h"

namespace xs::context {

// Resolves blob refs in a JSON value (messages and custom-message content that hold them).
using BlobResolver = std::function<std::string(std::string_view json)>;

// The context for the path that ends at `leaf`; kNone gives the empty context. `resolve` may be
// empty (refs then stay as stored). `pi_model` adds pi's "model" member (docs/dialects.md).
std::string build_context(const model::SessionData& data, const model::Tree& tree, uint32_t leaf,
                          const BlobResolver& resolve = {}, bool pi_model = false);

}  // namespace xs::context
