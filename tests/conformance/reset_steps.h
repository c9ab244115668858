// The reset-policy steps of a conformance case (tests/conformance/README.md, "Reset policies"):
// xs_store_session_for_key on the case's store, the store's default policy, and the keyed
// document's exact bytes with the store root in them.
#pragma once

#include <string>
#include <string_view>

#include "case_json.h"
#include "xsession.h"

// Fills *p from a case's policy object {"daily_hour"?, "idle_minutes"?, "time_zone"?}.
void reset_policy_of(case_json::element v, xs_reset_policy* p);

// A session_for_key step with the session options `o` (the case's, as for create): the session it
// returned (owned by the caller), or NULL when the call failed (its status checked against expect).
xs_session* run_session_for_key(xs_store* store, case_json::element s, xs_status expect, xs_session_options o);

// Runs `op` if it is another reset-policy step and returns true; false for any other op.
bool run_reset_step(const std::string& root, std::string_view op, case_json::element s);
