// xs export --html SESSION... -o FILE|DIR: sessions as self-contained HTML pages (docs/html-view.md).
// One session: -o names the page. Several: -o names a directory (made when missing) that gets a
// page per session and index.html. --json prints the library's report.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "json.h"
#include "text.h"

namespace xs::cli {

namespace {

struct ExportHtmlArgs {
  bool html = false;
  std::vector<std::string> sessions;
  std::string out;
  bool json = false;
};

}  // namespace

void export_html(const Store& store, const std::vector<std::string>& sessions, const std::string& out, bool json) {
  require_root(store);
  std::vector<const char*> ids;
  for (const std::string& s : sessions) ids.push_back(s.c_str());
  std::string text = read_text(
      [&](char* b, size_t c, size_t* n) {
        return xs_export_html(store.get(), ids.data(), ids.size(), out.c_str(), nullptr, b, c, n);
      },
      [&] { return store.error(); });
  if (json) return (void)std::printf("%s\n", text.c_str());
  JsonDoc doc = parse_json(text);
  Json d = doc.root();
  std::string lines;
  for (Json p : items(d, "pages")) {
    lines += "wrote " + std::string(str(p, "path")) + " (" + std::string(str(p, "sessionId")) + ": " +
             counted(num(p, "messages"), "message") + ", " + counted(num(p, "branchPoints"), "branch point") + ", " +
             human_size(num(p, "bytes")) + ")\n";
  }
  std::optional<Json> index = member(d, "index");
  if (index && index->is_object()) lines += "wrote " + std::string(str(*index, "path")) + " (index)\n";
  std::fwrite(lines.data(), 1, lines.size(), stdout);
}

void add_export_html(CLI::App& app, Globals& g) {
  auto a = std::make_shared<ExportHtmlArgs>();
  CLI::App* cmd = app.add_subcommand("export", "write sessions as self-contained HTML pages (--html)");
  cmd->add_flag("--html", a->html, "HTML pages that open offline in any browser")->required();
  cmd->add_option("SESSION", a->sessions, "session files, ids or id prefixes")->required();
  cmd->add_option("-o,--output", a->out, "the page (one session) or a directory of pages and index.html")->required();
  cmd->add_flag("--json", a->json, "the library's report");
  cmd->callback([a, &g] { export_html(Store(g.store()), a->sessions, a->out, a->json); });
}

}  // namespace xs::cli
