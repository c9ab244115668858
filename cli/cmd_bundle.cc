// xs export SESSION... -o FILE and xs import-bundle FILE: portable bundles (docs/bundles.md). export
// writes the sessions, the sessions they descend from (unless --no-lineage), their blobs and key
// records into one archive; import-bundle checks every member before it places anything, and says
// per session what it did (imported, renamed, already present). Both take --json for the library's
// report.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "commands.h"
#include "json.h"
#include "text.h"

namespace xs::cli {

namespace {

// xs export: a bundle, or with --html the pages of the HTML view (export_html, cmd_export_html.cc).
struct BundleExportArgs {
  std::vector<std::string> sessions;
  std::string file;  // -o
  bool html = false;
  bool no_lineage = false;
  bool gzip = false;
  bool json = false;
};

struct ImportBundleArgs {
  std::string file;
  std::vector<std::string> cwd_map;  // OLD=NEW
  bool rename = false;
  bool dry_run = false;
  bool json = false;
};

std::string bundle_store_error(const Store& store) { return xs_store_errmsg(store.get()); }

void print_export(const Store& store, const BundleExportArgs& a, const std::string& text) {
  JsonDoc doc = parse_json(text);
  Json d = doc.root();
  std::string out;
  uint64_t sessions = 0, lineage = 0;
  for (Json s : items(d, "sessions")) {
    out += std::string(str(s, "id")) + "  " + std::string(str(s, "cwd"));
    if (flag(s, "archived")) out += "  archived";
    if (flag(s, "lineage")) out += "  (lineage)";
    out += "  " + shown_path(store, std::string(str(s, "path"))) + "\n";
    ++sessions;
    lineage += flag(s, "lineage");
  }
  for (Json h : items(d, "missingBlobs")) out += "missing blob " + std::string(text_of(h)) + " (not carried)\n";
  out += "exported " + counted(sessions, "session");
  if (lineage) out += " (" + std::to_string(lineage) + " by lineage)";
  out += ", " + counted(count(d, "blobs"), "blob") + ", " + counted(count(d, "keys"), "key record") + " to " + a.file +
         "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
}

void print_import_bundle(const Store& store, const ImportBundleArgs& a, const std::string& text) {
  JsonDoc doc = parse_json(text);
  Json d = doc.root();
  std::string out;
  uint64_t sessions = 0, present = 0, blobs = 0, keys = 0, kept = 0;
  const char* verb = a.dry_run ? "would import " : "imported ";
  for (Json s : items(d, "sessions")) {
    std::string id(str(s, "id")), action(str(s, "action")), path = shown_path(store, std::string(str(s, "path")));
    if (action == "present") {
      out += "already present " + id + "\n";
      ++present;
      continue;
    }
    out += action == "renamed" ? std::string(a.dry_run ? "would rename " : "renamed ") + id + " -> " +
                                     std::string(str(s, "newId")) + " (" + path + ")"
                               : verb + id + " -> " + path;
    if (auto old = member(s, "oldCwd"); old && old->is_string()) out += " (cwd was " + std::string(text_of(*old)) + ")";
    out += "\n";
    ++sessions;
  }
  for (Json b : items(d, "blobs")) {
    bool added = str(b, "action") == "imported";
    blobs += added;
    present += !added;
  }
  for (Json k : items(d, "keys")) {
    std::string action(str(k, "action"));
    if (action == "kept") out += "kept key " + std::string(str(k, "key")) + ": the store has another record\n";
    keys += action == "imported";
    present += action == "present";
    kept += action == "kept";
  }
  out += verb + counted(sessions, "session") + ", " + counted(blobs, "blob") + ", " + counted(keys, "key record");
  if (present) out += "; " + std::to_string(present) + " already present";
  if (kept) out += "; " + std::to_string(kept) + " kept";
  out += "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
}

void import_bundle(const Store& store, const ImportBundleArgs& a) {
  require_root(store);
  xs_import_bundle_options o;
  xs_import_bundle_options_init(&o, XS_IMPORT_BUNDLE_OPTIONS_VERSION);
  o.flags = (a.rename ? XS_IMPORT_BUNDLE_RENAME : 0) | (a.dry_run ? XS_IMPORT_BUNDLE_DRY_RUN : 0);
  std::vector<std::string> paths;
  for (const std::string& pair : a.cwd_map) {
    size_t eq = pair.find('=');
    if (eq == std::string::npos) throw ApiError(XS_EINVAL, "--cwd-map takes OLD=NEW, not \"" + pair + "\"");
    paths.push_back(pair.substr(0, eq));
    paths.push_back(pair.substr(eq + 1));
  }
  std::vector<const char*> map;
  for (const std::string& p : paths) map.push_back(p.c_str());
  o.cwd_map = map.data();
  o.cwd_map_len = map.size();
  std::string text = read_text(
      [&](char* b, size_t c, size_t* n) { return xs_import_bundle(store.get(), a.file.c_str(), &o, b, c, n); },
      [&] { return a.file + ": " + bundle_store_error(store); });
  if (a.json) return (void)std::printf("%s\n", text.c_str());
  print_import_bundle(store, a, text);
}

void export_bundle(const Store& store, const BundleExportArgs& a) {
  require_root(store);
  xs_export_options o;
  xs_export_options_init(&o, XS_EXPORT_OPTIONS_VERSION);
  o.flags = (a.no_lineage ? XS_EXPORT_NO_LINEAGE : 0) | (a.gzip ? XS_EXPORT_GZIP : 0);
  std::vector<const char*> ids;
  for (const std::string& s : a.sessions) ids.push_back(s.c_str());
  std::string text =
      read_text([&](char* b, size_t c,
                    size_t* n) { return xs_export(store.get(), ids.data(), ids.size(), a.file.c_str(), &o, b, c, n); },
                [&] { return bundle_store_error(store); });
  if (a.json) return (void)std::printf("%s\n", text.c_str());
  print_export(store, a, text);
}

}  // namespace

void add_export(CLI::App& app, Globals& g) {
  auto a = std::make_shared<BundleExportArgs>();
  CLI::App* cmd = app.add_subcommand(
      "export", "write sessions, their lineage, blobs and key records to one bundle, or (--html) as HTML pages");
  cmd->add_option("session", a->sessions, "the sessions (ids, id prefixes or files)")->required();
  cmd->add_option("-o,--output", a->file,
                  "the bundle file to write (replaced whole); with --html the page (one session) or a directory "
                  "of pages and index.html")
      ->required();
  auto* html = cmd->add_flag("--html", a->html, "self-contained HTML pages that open offline in any browser");
  cmd->add_flag("--no-lineage", a->no_lineage, "only the named sessions, not those they descend from")->excludes(html);
  cmd->add_flag("--gzip", a->gzip, "compress with gzip instead of zstd")->excludes(html);
  cmd->add_flag("--json", a->json, "the library's report");
  cmd->callback([a, &g] {
    if (a->html) return export_html(Store(g.store()), a->sessions, a->file, a->json);
    export_bundle(Store(g.store()), *a);
  });
}

void add_import_bundle(CLI::App& app, Globals& g) {
  auto a = std::make_shared<ImportBundleArgs>();
  CLI::App* cmd = app.add_subcommand("import-bundle", "import a bundle that xs export wrote, checking it whole first");
  cmd->add_option("file", a->file, "the bundle")->required();
  cmd->add_option("--cwd-map", a->cwd_map, "OLD=NEW: sessions of cwd OLD (or below it) go to NEW (repeatable)");
  cmd->add_flag("--rename", a->rename, "give a session whose id the store holds with other content a new id");
  cmd->add_flag("--dry-run", a->dry_run, "check the bundle and say what would be done; write nothing");
  cmd->add_flag("--json", a->json, "the library's report");
  cmd->callback([a, &g] { import_bundle(Store(g.store()), *a); });
}

}  // namespace xs::cli
