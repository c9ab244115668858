// The import steps of a conformance case (tests/conformance/README.md, "Import"): xs_import and
// xs_foreign_list of a source the case wrote under the store root (write_file), and a file's exact
// bytes (a source is never written).
#pragma once

#include <string>
#include <string_view>

#include "case_json.h"
#include "xsession.h"

// Runs `op` if it is an import step and returns true; false for any other op.
bool run_import_step(xs_store* store, const std::string& root, std::string_view op, case_json::element s,
                     xs_status expect);
