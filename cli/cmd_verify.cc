// xs verify PATH...: everything wrong with session files, read-only (nothing is ever written).
// Exit status: 0 all clean, 1 problems found, 2 a file could not be read at all.
#include <cstdio>

#include "commands.h"
#include "json.h"
#include "problem_text.h"
#include "progress.h"
#include "style.h"
#include "text.h"

namespace xs::cli {

namespace {

struct VerifyArgs {
  std::vector<std::string> paths;
  bool json = false;
  bool verbose = false;
};

struct Tally {
  size_t clean = 0, dirty = 0, unreadable = 0;
  size_t unlisted = 0;  // clean files with nothing to say, summarised in one line
};

std::string entries_text(int64_t n) { return std::to_string(n) + (n == 1 ? " entry" : " entries"); }

std::string report_text(Json r, const std::string& path, const Style& style) {
  std::string out = path;
  size_t n = count(r, "problems");
  if (n == 0) {
    out += ": " + style.green("ok") + ", " + entries_text(num(r, "entries")) + "\n";
  } else {
    out += ": " + style.red(counted(n, "problem")) + "\n";
    for (Json p : items(r, "problems")) out += problem_line(p, style, true);
  }
  if (flag(r, "needsMigration")) {
    out += "  note: a version " + std::to_string(num(r, "fileVersion")) +
           " file; `xs migrate --write` rewrites it as version 3\n";
  }
  return out;
}

}  // namespace

void add_verify(CLI::App& app, Globals& g) {
  auto a = std::make_shared<VerifyArgs>();
  CLI::App* cmd = app.add_subcommand("verify",
                                     "check session files: skipped lines, torn tails, duplicate ids, "
                                     "orphans, missing or damaged blobs (never writes)");
  cmd->add_option("PATH", a->paths, "session files, ids or directories (default: the whole store)");
  cmd->add_flag("-v,--verbose", a->verbose, "list every file, also those without problems");
  cmd->add_flag("--json", a->json, "one JSON array of the library's reports");
  cmd->footer(
      "Paths are shown relative to the store root. Of several files, those without problems are\n"
      "counted, not listed, unless -v.\n"
      "Exit status: 0 all clean, 1 problems found, 2 a file could not be read.");
  cmd->callback([a, &g] {
    Store store(g.root());
    Style style(g.color, 1);
    std::vector<std::string> files = session_files(store, a->paths);
    bool list_all = a->verbose || files.size() == 1;
    Tally t;
    std::string out = a->json ? "[" : "";
    Progress progress("verify", files.size());
    for (size_t i = 0; i < files.size(); ++i) {
      progress.update(i, files[i]);
      std::string report;
      try {
        Session s = open_read_only(store, files[i]);
        report = s.verify();
      } catch (const ApiError& e) {
        ++t.unreadable;
        if (a->json) {
          out += (i ? "," : "") + std::string("{\"path\":") + json_quoted(files[i]) +
                 ",\"error\":" + json_quoted(e.what()) + ",\"status\":" + json_quoted(xs_status_str(e.code())) + "}";
        } else {
          out += style.red("unreadable") + ": " + shown_error(store, files[i], e.what()) + "\n";
        }
        continue;
      }
      JsonDoc d = parse_json(report);
      bool dirty = count(d.root(), "problems") != 0;
      ++(dirty ? t.dirty : t.clean);
      if (a->json) {
        out += (i ? "," : "") + report;
      } else if (!list_all && !dirty && !flag(d.root(), "needsMigration")) {
        ++t.unlisted;
      } else {
        out += report_text(d.root(), shown_path(store, std::string(str(d.root(), "path"))), style);
      }
    }
    progress.done();
    if (a->json) {
      out += "]\n";
    } else if (files.size() != 1) {
      if (t.unlisted) {
        bool others = t.unlisted != files.size();
        out += counted(t.unlisted, others ? "other file" : "file") + " without problems (-v lists them)\n";
      }
      out += counted(files.size(), "file") + ": " + std::to_string(t.clean) + " clean, " + std::to_string(t.dirty) +
             " with problems, " + std::to_string(t.unreadable) + " unreadable\n";
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    g.exit_code = t.unreadable ? kExitError : t.dirty ? kExitProblems : 0;
  });
}

}  // namespace xs::cli
