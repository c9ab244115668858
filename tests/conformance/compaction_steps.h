// The compaction-planning steps of a conformance case (tests/conformance/README.md, "Compaction
// planning"): xs_compaction_plan on the case's session, the handle-less decisions, and
// xs_keys_claim_memory_flush on the case's store.
#pragma once

#include <string_view>

#include "case_json.h"
#include "xsession.h"

// Runs `op` if it is a compaction-planning step and returns true; false for any other op.
bool run_compaction_step(xs_store* store, xs_session* session, std::string_view op, case_json::element s,
                         xs_status expect);
