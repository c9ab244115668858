// xs verify PATH...: everything wrong with session files, read-only (nothing is ever written).
// Exit status: 0 all clean, 1 problems found, 2 a file could not be read at all.
// xs verify --fix-stats: recounts the sessions of the keyed store's records and repairs the
// records whose stats disagree (xs_keys_fix_stats; docs/session-stats.md#repair-after-a-crash).
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
  bool fix_stats = false;
  std::string key_prefix;
};

struct Tally {
  size_t clean = 0, dirty = 0, unreadable = 0;
  size_t unlisted = 0;  // clean files with nothing to say, summarised in one line
};

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

// "fixed KEY (SESSION): field old -> new, ...", "skipped KEY: reason", then the tally.
std::string fix_text(Json r, const Style& style) {
  std::string out;
  for (Json f : items(r, "fixed")) {
    out += style.green("fixed") + " " + std::string(str(f, "key")) + " (" + std::string(str(f, "sessionId")) + "):";
    std::optional<Json> before = member(f, "before"), after = member(f, "after");
    size_t i = 0;
    for (auto field : before ? fields(*before) : simdjson::dom::object()) {
      std::optional<Json> now = after ? member(*after, field.key) : std::nullopt;
      out += std::string(i++ ? ", " : " ") + std::string(field.key) + " " + to_json(field.value) + " -> " +
             (now ? to_json(*now) : "null");
    }
    out += "\n";
  }
  for (Json k : items(r, "skipped")) {
    out += "skipped " + std::string(str(k, "key")) + ": " + std::string(str(k, "reason")) + "\n";
  }
  out += counted(num(r, "checked"), "key") + " checked: " + std::to_string(count(r, "fixed")) + " fixed, " +
         std::to_string(count(r, "skipped")) + " skipped\n";
  return out;
}

void fix_stats(const Store& store, const VerifyArgs& a, const Style& style) {
  if (!a.paths.empty())
    throw ApiError(XS_EINVAL, "--fix-stats repairs the keyed store's records: no PATH (see --key-prefix)");
  std::string report = read_text(
      [&](char* b, size_t c, size_t* n) { return xs_keys_fix_stats(store.get(), a.key_prefix.c_str(), b, c, n); },
      [&] { return store.error(); });
  std::string out = a.json ? report + "\n" : fix_text(parse_json(report).root(), style);
  std::fwrite(out.data(), 1, out.size(), stdout);
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
  cmd->add_flag("--fix-stats", a->fix_stats,
                "recount the sessions of the keyed store's records and repair the stats that disagree");
  cmd->add_option("--key-prefix", a->key_prefix, "with --fix-stats: only keys that start with this");
  cmd->footer(
      "Paths are shown relative to the store root. Of several files, those without problems are\n"
      "counted, not listed, unless -v.\n"
      "--fix-stats repairs records instead of checking files (exit status 0 when done).\n"
      "Exit status: 0 all clean, 1 problems found, 2 a file could not be read.");
  cmd->callback([a, &g] {
    Store store(g.store());
    Style style(g.color, 1);
    if (a->fix_stats) return fix_stats(store, *a, style);
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
