// The retention steps of a conformance case (tests/conformance/README.md, "Retention"):
// xs_store_archive and xs_store_prune on the case's store, and whether a file exists.
#pragma once

#include <string>
#include <string_view>

#include "case_json.h"
#include "xsession.h"

// Runs `op` if it is a retention step and returns true; false for any other op.
bool run_archive_step(xs_store* store, const std::string& root, std::string_view op, case_json::element s,
                      xs_status expect);
