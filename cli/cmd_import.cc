// xs import claude|myagents|gateway|codex [PATH]: another agent's store into this one (docs/import.md),
// with a summary table (per session: rows read, imported, kept as custom, already imported,
// skipped; then every skipped row as file:line: reason, and the notes); --dry-run writes nothing.
// xs ls --foreign KIND [PATH] (cmd_ls.cc) shows what such a store holds without importing it.
// On a terminal a progress bar shows the source's bytes handled (xs_import_options.progress).
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "commands.h"
#include "json.h"
#include "progress.h"
#include "text.h"

namespace xs::cli {

namespace {

struct ImportArgs {
  std::string kind;
  std::string path;
  std::string cwd;
  bool dry_run = false;
  bool json = false;
};

// Where each kind keeps its store when PATH is not given.
std::string default_foreign_path(const std::string& kind) {
  const char* home = std::getenv("HOME");
  std::string h = home && *home ? home : ".";
  if (kind == "claude") return h + "/.claude/projects";
  if (kind == "myagents") return h + "/.myagents";
  if (kind == "codex") {
    // Codex keeps its state in $CODEX_HOME (default ~/.codex), its rollouts under sessions/.
    const char* codex_home = std::getenv("CODEX_HOME");
    return (codex_home && *codex_home ? std::string(codex_home) : h + "/.codex") + "/sessions";
  }
  return h + "/.openclaw";
}

std::string import_report(const Store& store, const ImportArgs& a) {
  xs_import_options o;
  xs_import_options_init(&o, XS_IMPORT_OPTIONS_VERSION);
  o.flags = a.dry_run ? XS_IMPORT_DRY_RUN : 0;
  std::unique_ptr<Progress> bar;  // made at the first call, when the total is known
  o.progress_user = &bar;
  o.progress = [](uint64_t done, uint64_t total, void* user) {
    auto& b = *static_cast<std::unique_ptr<Progress>*>(user);
    if (!b) b = std::make_unique<Progress>("import", total, 1, Progress::Unit::kBytes);
    b->update(done, "");
  };
  // --cwd: every session's cwd for Claude (its rows name their own), the cwd of sessions whose
  // source names none for the hosts (their transcripts keep their own headers).
  if (!a.cwd.empty()) (a.kind == "claude" ? o.target_cwd : o.fallback_cwd) = a.cwd.c_str();
  std::string path = a.path.empty() ? default_foreign_path(a.kind) : a.path;
  std::string text = read_text(
      [&](char* b, size_t c, size_t* n) { return xs_import(store.get(), a.kind.c_str(), path.c_str(), &o, b, c, n); },
      [&] { return std::string(xs_store_errmsg(store.get())); });  // it names the path that failed
  bar.reset();                                                     // erased before the table is printed
  return text;
}

void print_import(const std::string& text) {
  JsonDoc doc = parse_json(text);
  Json r = doc.root();
  bool dry = flag(r, "dryRun");
  std::string out = std::string(dry ? "dry run: would import " : "imported ") + std::string(str(r, "source")) +
                    " from " + std::string(str(r, "root")) + "\n";
  std::string root(str(r, "root"));
  char buf[512];
  if (count(r, "sessions") > 0) {
    out += "SESSION                               NEW  ROWS    IMPORTED  CUSTOM  ALREADY  SKIPPED  SOURCE\n";
    for (Json s : items(r, "sessions")) {
      // A host's index is reported as a "session" without an id: its rows are its keys.
      std::string id(str(s, "sessionId"));
      std::snprintf(buf, sizeof buf, "%-36s  %-3s  %-6lld  %-8lld  %-6lld  %-7lld  %-7lld  ",
                    id.empty() ? "(keys)" : one_line(id, 36).c_str(), flag(s, "created") ? "yes" : "no",
                    static_cast<long long>(num(s, "rowsRead")), static_cast<long long>(num(s, "imported")),
                    static_cast<long long>(num(s, "keptAsCustom")), static_cast<long long>(num(s, "alreadyImported")),
                    static_cast<long long>(num(s, "skipped")));
      std::string file(str(s, "sourceFile"));
      if (file.compare(0, root.size() + 1, root + "/") == 0) file = file.substr(root.size() + 1);
      out += buf + file + "\n";
    }
  }
  out += counted(count(r, "sessions"), "session") + ", " + counted(num(r, "rowsRead"), "row") + ": " +
         std::to_string(num(r, "imported")) + " imported, " + std::to_string(num(r, "keptAsCustom")) +
         " kept as custom, " + std::to_string(num(r, "alreadyImported")) + " already imported, " +
         std::to_string(num(r, "skipped")) + " skipped\n";
  if (count(r, "skippedRows") > 0) {
    out += "skipped:\n";
    for (Json k : items(r, "skippedRows")) {
      out += "  " + std::string(str(k, "file")) + ":" + std::to_string(num(k, "line")) + ": " +
             std::string(str(k, "reason")) + "\n";
    }
  }
  if (count(r, "notes") > 0) {
    out += "notes:\n";
    for (Json n : items(r, "notes")) out += "  " + std::string(text_of(n)) + "\n";
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
}

// One line per transcript or session of a foreign listing.
std::string foreign_table(const std::string& kind, Json l) {
  std::string out;
  char buf[512];
  if (kind == "claude") {
    out = "PROJECT                       FILE                                          ROWS    BAD  TITLE\n";
    for (Json p : items(l, "projects")) {
      std::string dir(str(p, "dir"));
      std::string project = dir.substr(dir.rfind('/') + 1);
      for (Json t : items(p, "transcripts")) {
        std::string title(str(t, "title"));
        if (title.empty()) title = str(t, "summary");
        if (title.empty()) title = str(t, "firstPrompt");
        std::snprintf(buf, sizeof buf, "%-28s  %-44s  %-6lld  %-3lld  ", one_line(project, 28).c_str(),
                      one_line(str(t, "file"), 44).c_str(), static_cast<long long>(num(t, "rows")),
                      static_cast<long long>(num(t, "badRows")));
        out += buf + one_line(title, 50) + "\n";
      }
    }
  } else if (kind == "gateway") {
    out = "AGENT         FILE                                                  GENERATION  SIZE   KEYS\n";
    for (Json g : items(l, "agents")) {
      for (Json t : items(g, "transcripts")) {
        std::snprintf(buf, sizeof buf, "%-12s  %-52s  %-10s  %-5s  %lld\n", one_line(str(g, "id"), 12).c_str(),
                      one_line(str(t, "file"), 52).c_str(), std::string(str(t, "generation")).c_str(),
                      human_size(num(t, "size")).c_str(), static_cast<long long>(count(t, "keys")));
        out += buf;
      }
    }
  } else if (kind == "codex") {
    // The file names the session too (rollout-<time>-<id>.jsonl); --json has it.
    out = "SESSION                               STARTED           ROWS    BAD  MODEL            FIRST PROMPT\n";
    for (Json t : items(l, "sessions")) {
      std::string id(str(t, "sessionId"));
      std::snprintf(buf, sizeof buf, "%-36s  %-16s  %-6lld  %-3lld  %-15s  ",
                    one_line(id.empty() ? str(t, "file") : id, 36).c_str(),
                    one_line(str(t, "started").substr(0, 16), 16).c_str(), static_cast<long long>(num(t, "rows")),
                    static_cast<long long>(num(t, "badRows")), one_line(str(t, "model"), 15).c_str());
      out += buf + one_line(str(t, "firstPrompt"), 50) + "\n";
    }
  } else {
    out = "ID                                    INDEX  FILE    TITLE\n";
    for (Json s : items(l, "sessions")) {
      const char* file = !str(s, "messagesFile").empty() ? (str(s, "legacyFile").empty() ? "jsonl" : "both")
                                                         : (str(s, "legacyFile").empty() ? "none" : "legacy");
      std::snprintf(buf, sizeof buf, "%-36s  %-5s  %-6s  ", one_line(str(s, "id"), 36).c_str(),
                    flag(s, "inIndex") ? "yes" : "no", file);
      out += buf + one_line(str(s, "title"), 60) + "\n";
    }
  }
  return out;
}

}  // namespace

void list_foreign(const Store& store, const std::string& kind, const std::string& path, bool json) {
  if (kind != "claude" && kind != "myagents" && kind != "gateway" && kind != "codex") {
    throw CLI::ValidationError("--foreign", "\"" + kind + "\" is not claude, myagents, gateway or codex");
  }
  std::string where = path.empty() ? default_foreign_path(kind) : path;
  std::string text =
      read_text([&](char* b, size_t c,
                    size_t* n) { return xs_foreign_list(store.get(), kind.c_str(), where.c_str(), nullptr, b, c, n); },
                [&] { return std::string(xs_store_errmsg(store.get())); });
  if (json) return (void)std::printf("%s\n", text.c_str());
  JsonDoc doc = parse_json(text);
  std::string out = foreign_table(kind, doc.root());
  std::fwrite(out.data(), 1, out.size(), stdout);
}

void add_import(CLI::App& app, Globals& g) {
  auto a = std::make_shared<ImportArgs>();
  CLI::App* cmd = app.add_subcommand("import", "import another agent's sessions into the store");
  cmd->add_option("kind", a->kind, "claude, myagents, gateway or codex")
      ->required()
      ->check(CLI::IsMember({"claude", "myagents", "gateway", "codex"}));
  cmd->add_option("path", a->path,
                  "the source (default: ~/.claude/projects, ~/.myagents, ~/.openclaw, $CODEX_HOME/sessions or "
                  "~/.codex/sessions); for claude a projects root or one project directory");
  cmd->add_flag("--dry-run", a->dry_run, "report what would be imported; write nothing");
  cmd->add_option("--cwd", a->cwd,
                  "claude: the cwd of every imported session; myagents, gateway, codex: of sessions whose source "
                  "names none");
  cmd->add_flag("--json", a->json, "the library's report");
  cmd->callback([a, &g] {
    Store store(g.store());
    std::string text = import_report(store, *a);
    if (a->json) return (void)std::printf("%s\n", text.c_str());
    print_import(text);
  });
}

}  // namespace xs::cli
