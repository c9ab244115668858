#include "html/html_export.h"

#include <set>

#include "discovery/session_info.h"
#include "html/escape.h"
#include "html/page_file.h"
#include "html/session_page.h"
#include "json/json_string.h"
#include "storage/path.h"

namespace xs::html {

namespace {

constexpr size_t kMaxIdFileName = 200;

struct Named {
  std::string ref;
  std::string path;  // the session file
  std::string id;    // its header's
};

// The session file a reference names, by Store::open_session's rule: a path, else (no '/' and no
// such file) a session id, id prefix or file name anywhere in the store.
Result<std::string> resolve(store::Store& store, const std::string& ref) {
  if (ref.empty()) return Status::Invalid("an empty session reference");
  if (ref.find('/') != std::string::npos || store.fs()->stat(ref).ok()) return ref;
  return store.resolve(ref, std::nullopt);
}

// A session id usable as "<id>.html" in the output directory: no separator, no leading dot.
bool usable_as_file_name(std::string_view id) {
  if (id.empty() || id.size() > kMaxIdFileName || id[0] == '.') return false;
  for (char c : id) {
    bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

Result<PageReport> write_page(store::Store& store, storage::Fs& out_fs, const Named& n, const std::string& path,
                              PageFacts* facts) {
  session::SessionOptions o;
  o.read_only = true;
  auto s = store.open_session(n.path, std::move(o));
  if (!s.ok()) return Status(s.status().code(), n.ref + ": " + s.status().message());
  auto page = PageFile::create(out_fs, path);
  if (!page.ok()) return Status(page.status().code(), path + ": " + page.status().message());
  XS_RETURN_IF_ERROR(write_session_page(**s, &store.blobs(), **page, facts));
  PageReport r;
  r.bytes = (*page)->bytes();
  Status committed = (*page)->commit();
  if (!committed.ok()) return Status(committed.code(), path + ": " + committed.message());
  r.path = path;
  r.session_id = facts->session_id;
  r.entries = facts->entries;
  r.messages = facts->messages;
  r.branch_points = facts->branch_points;
  r.branches = facts->branches;
  return r;
}

void cell(std::string& out, std::string_view text) {
  out += "<td>";
  append_escaped(out, text);
  out += "</td>";
}

Status write_index(storage::Fs& out_fs, const std::string& path, const std::vector<PageFacts>& facts,
                   ExportReport* report) {
  auto page = PageFile::create(out_fs, path);
  if (!page.ok()) return Status(page.status().code(), path + ": " + page.status().message());
  std::string& out = (*page)->buffer();
  append_page_head(out, "Sessions");
  out +=
      "<header class=\"session\"><h1>Sessions</h1></header>\n<main><table class=\"sessions\"><thead><tr>"
      "<th>Session</th><th>Created</th><th>Working directory</th><th>Entries</th><th>Messages</th>"
      "<th>Branch points</th></tr></thead><tbody>\n";
  for (const PageFacts& f : facts) {
    out += "<tr><td><a href=\"";
    append_escaped(out, f.session_id + ".html");
    out += "\">";
    append_escaped(out, f.title.empty() ? f.session_id : f.title);
    out += "</a><br><code>";
    append_escaped(out, f.session_id);
    out += "</code></td>";
    cell(out, f.timestamp);
    cell(out, f.cwd);
    cell(out, std::to_string(f.entries));
    cell(out, std::to_string(f.messages));
    cell(out, std::to_string(f.branch_points));
    out += "</tr>\n";
  }
  out += "</tbody></table></main>\n</body></html>\n";
  report->index_bytes = (*page)->bytes();
  Status committed = (*page)->commit();
  if (!committed.ok()) return Status(committed.code(), path + ": " + committed.message());
  report->index_path = path;
  return Status::Ok();
}

// The output's place: for one page, an existing directory to put the file in; for several, a
// directory, made when missing.
Status prepare_output(storage::Fs& out_fs, const std::string& out_path, bool several) {
  if (out_path.empty()) return Status::Invalid("no output path");
  auto info = out_fs.stat(out_path);
  if (!several) {
    if (info.ok() && info->is_dir) {
      return Status::Invalid(out_path + " is a directory: one session's page needs a file name");
    }
    std::string dir = storage::dir_name(out_path);
    auto d = out_fs.stat(dir);
    if (!d.ok() || !d->is_dir) return Status::NotFound(dir + ": no such directory");
    return Status::Ok();
  }
  if (info.ok() && !info->is_dir) {
    return Status::Invalid(out_path + " is not a directory: several sessions are written as a directory of pages");
  }
  if (info.ok()) return Status::Ok();
  Status made = out_fs.make_dirs(out_path);
  if (!made.ok()) return Status(made.code(), out_path + ": " + made.message());
  return Status::Ok();
}

}  // namespace

Result<ExportReport> export_html(store::Store& store, storage::Fs& out_fs, const std::vector<std::string>& refs,
                                 const std::string& out_path) {
  if (refs.empty()) return Status::Invalid("no session to export");
  const bool several = refs.size() > 1;
  std::vector<Named> named;
  std::set<std::string> ids;
  for (const std::string& ref : refs) {
    auto path = resolve(store, ref);
    if (!path.ok()) return Status(path.status().code(), ref + ": " + path.status().message());
    auto summary = discovery::read_summary(store.fs(), *path, false, json::Limits().max_line_bytes);
    if (!summary.ok()) return Status(summary.status().code(), ref + ": " + summary.status().message());
    if (several && !usable_as_file_name(summary->id)) {
      return Status::Invalid(ref + ": the session id \"" + json::to_valid_utf8(summary->id) +
                             "\" cannot name a page (letters, digits, '-', '_' and '.' only, no leading '.')");
    }
    if (!ids.insert(summary->id).second) return Status::Invalid(ref + ": session " + summary->id + " is named twice");
    named.push_back({ref, *path, summary->id});
  }
  XS_RETURN_IF_ERROR(prepare_output(out_fs, out_path, several));

  ExportReport report;
  std::vector<PageFacts> facts(named.size());
  for (size_t i = 0; i < named.size(); ++i) {
    std::string path = several ? storage::join_path(out_path, named[i].id + ".html") : out_path;
    auto page = write_page(store, out_fs, named[i], path, &facts[i]);
    if (!page.ok()) return page.status();
    report.pages.push_back(std::move(*page));
  }
  if (several) XS_RETURN_IF_ERROR(write_index(out_fs, storage::join_path(out_path, "index.html"), facts, &report));
  return report;
}

std::string report_json(const ExportReport& r) {
  std::string out = "{\"pages\":[";
  for (size_t i = 0; i < r.pages.size(); ++i) {
    const PageReport& p = r.pages[i];
    out += i ? ",{\"path\":" : "{\"path\":";
    json::append_quoted_lossy(out, p.path);
    out += ",\"sessionId\":";
    json::append_quoted_lossy(out, p.session_id);
    out += ",\"entries\":" + std::to_string(p.entries) + ",\"messages\":" + std::to_string(p.messages) +
           ",\"branchPoints\":" + std::to_string(p.branch_points) + ",\"branches\":" + std::to_string(p.branches) +
           ",\"bytes\":" + std::to_string(p.bytes) + "}";
  }
  out += "],\"index\":";
  if (r.index_path.empty()) return out + "null}";
  out += "{\"path\":";
  json::append_quoted_lossy(out, r.index_path);
  return out + ",\"bytes\":" + std::to_string(r.index_bytes) + "}}";
}

}  // namespace xs::html
