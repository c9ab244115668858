// xs migrate [PATH...] [--write]: brings v1/v2 session files to v3. A dry run (the default) only
// says what would change; --write opens each such file for writing, which makes the library
// rewrite it atomically (skipped lines keep their bytes). A file an agent has open is reported
// (locked) and left alone.
#include <cstdio>

#include "commands.h"
#include "json.h"
#include "progress.h"
#include "style.h"
#include "text.h"

namespace xs::cli {

namespace {

struct MigrateArgs {
  std::vector<std::string> paths;
  bool write = false;
  bool json = false;
  bool verbose = false;
};

}  // namespace

void add_migrate(CLI::App& app, Globals& g) {
  auto a = std::make_shared<MigrateArgs>();
  CLI::App* cmd = app.add_subcommand("migrate", "bring v1/v2 session files to v3 (a dry run unless --write)");
  cmd->add_option("PATH", a->paths, "session files, ids or directories (default: the whole store)");
  cmd->add_flag("--write", a->write, "rewrite the files (atomically); without it nothing is written");
  cmd->add_flag("-v,--verbose", a->verbose, "list every file, also those already at version 3");
  cmd->add_flag("--json", a->json, "[{\"path\",\"fileVersion\",\"needsMigration\",\"migrated\"}]");
  cmd->footer(
      "Paths are shown relative to the store root. Of several files, those already at version 3\n"
      "are counted, not listed, unless -v.");
  cmd->callback([a, &g] {
    Store store(g.store());
    Style style(g.color, 1);
    std::vector<std::string> files = session_files(store, a->paths);
    bool list_all = a->verbose || files.size() == 1;
    size_t pending = 0, migrated = 0, failed = 0, unlisted = 0;
    std::string out = a->json ? "[" : "";
    Progress progress(a->write ? "migrate" : "check", files.size());
    for (size_t i = 0; i < files.size(); ++i) {
      progress.update(i, files[i]);
      std::string path = files[i];
      int64_t version = 0;
      bool needs = false, done = false;
      try {
        JsonDoc doc = parse_json(open_read_only(store, files[i]).verify());
        Json d = doc.root();
        path = std::string(str(d, "path"));
        version = num(d, "fileVersion");
        needs = flag(d, "needsMigration");
        if (needs && a->write) {
          open_writable(store, path);  // the open rewrites it; closing flushes nothing more
          done = true;
        }
      } catch (const ApiError& e) {
        ++failed;
        if (a->json) {
          out += (i ? "," : "") + std::string("{\"path\":") + json_quoted(files[i]) +
                 ",\"error\":" + json_quoted(e.what()) + "}";
        } else {
          out += style.red("failed") + ": " + shown_error(store, files[i], e.what()) + "\n";
        }
        continue;
      }
      pending += needs && !done;
      migrated += done;
      if (a->json) {
        out += (i ? "," : "") + std::string("{\"path\":") + json_quoted(path) +
               ",\"fileVersion\":" + std::to_string(version) +
               ",\"needsMigration\":" + (needs && !done ? "true" : "false") +
               ",\"migrated\":" + (done ? "true" : "false") + "}";
      } else if (done) {
        out += shown_path(store, path) + ": version " + std::to_string(version) + " -> 3, " + style.green("rewritten") +
               "\n";
      } else if (needs) {
        out += shown_path(store, path) + ": version " + std::to_string(version) + " -> 3 " +
               style.yellow("(would rewrite)") + "\n";
      } else if (list_all) {
        out += shown_path(store, path) + ": version 3, nothing to do\n";
      } else {
        ++unlisted;
      }
    }
    progress.done();
    if (a->json) {
      out += "]\n";
    } else {
      if (unlisted) {
        out += counted(unlisted, unlisted == files.size() ? "file" : "other file") +
               " already at version 3 (-v lists them)\n";
      }
      if (a->write) {
        out += std::to_string(migrated) + " migrated, " + std::to_string(failed) + " failed\n";
      } else {
        out += std::to_string(pending) + " to migrate" + (pending ? " (run again with --write)" : "") + "\n";
      }
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    if (failed) g.exit_code = kExitError;
  });
}

}  // namespace xs::cli
