// `xs export --html` (docs/html-view.md): sessions of a store as self-contained HTML pages. One
// session: the page at the path given. Several: a directory (made when missing) with one
// "<session id>.html" each and an "index.html" linking them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "storage/fs.h"
#include "store/store.h"
#include "util/status.h"

namespace xs::html {

struct PageReport {
  std::string path;
  std::string session_id;
  uint64_t entries = 0;
  uint64_t messages = 0;
  uint64_t branch_points = 0;
  uint64_t branches = 0;
  uint64_t bytes = 0;
};

struct ExportReport {
  std::vector<PageReport> pages;  // in the order the sessions were named
  std::string index_path;         // several sessions only ("" otherwise)
  uint64_t index_bytes = 0;
};

// Renders each session `refs` names (a file path, a session id or an unambiguous id prefix, as
// Store::open_session takes them) into pages written through `out_fs` (the pages are not part of
// the store: the C API writes them on the local disk). Every reference is resolved and, with
// several, checked (a session id usable as a file name, no session twice) before anything is
// written. Each page replaces its path whole or not at all; on an error, pages already written
// stay and no index is written.
// kInvalid: no reference, an empty one, one session and `out_path` a directory, several and
// `out_path` a file, a session id that cannot name a file, a session named twice. kNotFound /
// kAmbiguous: a reference that names no session / several. I/O errors as the file system gives them.
Result<ExportReport> export_html(store::Store& store, storage::Fs& out_fs, const std::vector<std::string>& refs,
                                 const std::string& out_path);

// {"pages":[{"path","sessionId","entries","messages","branchPoints","branches","bytes"}],
//  "index":null|{"path","bytes"}} (capi/schema/html-report.schema.json)
std::string report_json(const ExportReport& r);

}  // namespace xs::html
