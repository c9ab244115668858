// xs export --html SESSION... -o FILE|DIR: sessions as self-contained HTML pages (docs/html-view.md),
// registered with the bundle export (cmd_bundle.cc). One session: -o names the page. Several: -o
// names a directory (made when missing) that gets a page per session and index.html. --json prints
// the library's report.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "json.h"
#include "text.h"

namespace xs::cli {

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

}  // namespace xs::cli
