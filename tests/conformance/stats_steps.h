// The session-stats steps of a conformance case (tests/conformance/README.md, "Session stats"):
// xs_session_stats on the case's session, xs_keys_fix_stats on its store, and the keyed document's
// bytes with the store root in them.
#pragma once

#include <string>
#include <string_view>

#include "case_json.h"
#include "xsession.h"

// Runs `op` if it is a stats step and returns true; false for any other op.
bool run_stats_step(xs_store* store, xs_session* session, const std::string& root, std::string_view op,
                    case_json::element s, xs_status expect);
