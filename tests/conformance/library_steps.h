// The session library's steps of a conformance case (tests/conformance/README.md, "Compaction
// planning" and "Resume analysis"): xs_compaction_plan and xs_session_resume_check on the case's
// session, the handle-less decisions, and xs_keys_claim_memory_flush on the case's store.
#pragma once

#include <string_view>

#include "case_json.h"
#include "xsession.h"

// Runs `op` if it is one of these steps and returns true; false for any other op.
bool run_library_step(xs_store* store, xs_session* session, std::string_view op, case_json::element s,
                         xs_status expect);
