// The session-index steps of a conformance case (tests/conformance/README.md, "Session index and
// search"): xs_index_refresh/rebuild/verify/list and xs_search over the case's store, through an
// index file on the disk beside it (a store on a host's storage has no directory of its own).
#pragma once

#include <string>
#include <string_view>

#include "case_json.h"
#include "xsession.h"

// Runs `op` if it is an index step and returns true; false for any other op.
bool run_search_step(xs_store* store, const std::string& root, std::string_view op, case_json::element s,
                     xs_status expect);
