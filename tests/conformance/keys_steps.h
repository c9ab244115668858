// The keyed store's steps of a conformance case (tests/conformance/README.md, "Keyed store"): the
// xs_keys_* calls on the case's store and the exact bytes of its document.
#pragma once

#include <string>
#include <string_view>

#include "case_json.h"
#include "xsession.h"

// Runs `op` if it is a keyed-store step and returns true; false for any other op.
bool run_keys_step(xs_store* store, const std::string& root, std::string_view op, case_json::element s,
                   xs_status expect);
