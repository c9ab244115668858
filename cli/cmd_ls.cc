// xs ls: the store's sessions, newest first. Without --check only a bounded prefix of each file
// is read (the library's listing), so it stays fast on big stores; --check opens and verifies
// every file (xs verify's checks), with a progress bar on a terminal.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <vector>

#include "commands.h"
#include "json.h"
#include "progress.h"
#include "style.h"
#include "text.h"

namespace xs::cli {

namespace {

struct LsArgs {
  std::string cwd;
  bool all = false;
  uint64_t limit = 0;
  bool check = false;
  bool json = false;
  std::string foreign;       // --foreign KIND
  std::string foreign_path;  // PATH (with --foreign)
};

// The directory whose sessions are listed; empty for --all.
std::string listed_cwd(const LsArgs& a) {
  if (a.all) return "";
  return a.cwd.empty() ? std::filesystem::current_path().string() : a.cwd;
}

// The library's listing: the sessions of `cwd` (all when empty), at most `limit` (0: no limit).
std::string list_json(const Store& store, const std::string& cwd, uint64_t limit) {
  xs_list_options o;
  xs_list_options_init(&o, XS_LIST_OPTIONS_VERSION);
  o.limit = limit;
  if (!cwd.empty()) o.cwd = cwd.c_str();
  return read_text([&](char* b, size_t c, size_t* n) { return xs_store_list(store.get(), &o, b, c, n); },
                   [&] { return store.error(); });
}

// What --check found for one session: its counts and xs verify's number of problems, or why it
// could not be read.
struct Checked {
  int64_t messages = 0;
  int64_t entries = 0;
  uint64_t problems = 0;
  std::string error;  // set when the file could not be read
};

std::vector<Checked> check_all(const Store& store, Json list) {
  std::vector<Checked> out;
  Progress progress("check", count(list));
  for (Json s : items(list)) {
    std::string path(str(s, "path"));
    progress.update(out.size(), path);
    Checked c;
    try {
      Session session = open_read_only(store, path);
      JsonDoc info = parse_json(session.info());
      JsonDoc report = parse_json(session.verify());
      std::optional<Json> types = member(info.root(), "entryTypes");
      c.messages = types ? num(*types, "message") : 0;
      c.entries = num(info.root(), "entryCount");
      c.problems = count(report.root(), "problems");
    } catch (const ApiError& e) {
      c.error = e.what();
    }
    out.push_back(std::move(c));
  }
  return out;
}

// The listing with each session's --check results added after its own members:
// "messageCount", "entryCount" and "problems", or "error".
std::string checked_json(Json list, const std::vector<Checked>& checked) {
  rapidjson::StringBuffer b;
  JsonWriter w(b);
  w.StartArray();
  size_t i = 0;
  for (Json s : items(list)) {
    const Checked& c = checked[i++];
    w.StartObject();
    for (simdjson::dom::key_value_pair kv : fields(s)) {
      w.Key(kv.key.data(), static_cast<rapidjson::SizeType>(kv.key.size()));
      write_json(w, kv.value);
    }
    if (c.error.empty()) {
      w.Key("messageCount");
      w.Int64(c.messages);
      w.Key("entryCount");
      w.Int64(c.entries);
      w.Key("problems");
      w.Uint64(c.problems);
    } else {
      w.Key("error");
      w.String(c.error.data(), static_cast<rapidjson::SizeType>(c.error.size()));
    }
    w.EndObject();
  }
  w.EndArray();
  return std::string(b.GetString(), b.GetSize());
}

// M: needs migration; C: a .corrupt-* copy was kept beside it; A: archived (read-only,
// docs/retention.md); D: verify found problems, or the file could not be read (--check).
std::string flags_of(Json s, const Checked* c) {
  std::string f;
  if (flag(s, "needsMigration")) f += 'M';
  if (num(s, "corruptCopies") > 0) f += 'C';
  if (flag(s, "archived")) f += 'A';
  if (c && (c->problems > 0 || !c->error.empty())) f += 'D';
  return f.empty() ? "-" : f;
}

// An empty listing prints no table: stderr says whether the store has no sessions at all or only
// none of this directory.
void say_none(const Store& store, const std::string& cwd) {
  std::string msg = "xs: no sessions in " + store.root() + "\n";
  if (!cwd.empty() && count(parse_json(list_json(store, "", 1)).root()) != 0) {
    msg = "xs: no sessions of " + cwd + " (xs ls --all lists every directory's)\n";
  }
  std::fputs(msg.c_str(), stderr);
}

void print_table(Json list, const std::vector<Checked>& checked, const LsArgs& a, const Style& style) {
  int64_t now = now_ms();
  std::string out = a.check ? "ID                MODIFIED    SIZE   MSGS   FLAGS  TITLE\n"
                            : "ID                MODIFIED    SIZE   FLAGS  TITLE\n";
  char buf[256];
  size_t i = 0;
  for (Json s : items(list)) {
    const Checked* c = a.check ? &checked[i++] : nullptr;
    std::string title(str(s, "title"));
    if (title.empty()) title = str(s, "firstPrompt");
    if (title.empty()) title = "(no messages)";
    std::string id = one_line(str(s, "id"), 16);
    if (c) {
      std::snprintf(buf, sizeof buf, "%-16s  %-10s  %-5s  %-5lld  %-5s  ", id.c_str(),
                    relative_time(num(s, "modified"), now).c_str(), human_size(num(s, "size")).c_str(),
                    static_cast<long long>(c->messages), flags_of(s, c).c_str());
    } else {
      std::snprintf(buf, sizeof buf, "%-16s  %-10s  %-5s  %-5s  ", id.c_str(),
                    relative_time(num(s, "modified"), now).c_str(), human_size(num(s, "size")).c_str(),
                    flags_of(s, c).c_str());
    }
    out += buf;
    out += one_line(title, 60);
    out += '\n';
  }
  // A person at a terminal reads the flags here; scripts and pipes get the table alone.
  if (isatty(STDOUT_FILENO)) {
    out += style.dim(std::string("FLAGS: M needs migration (xs migrate), C a .corrupt-* copy was kept, A archived") +
                     (a.check ? ", D problems (xs verify)" : "")) +
           "\n";
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
}

}  // namespace

void add_ls(CLI::App& app, Globals& g) {
  auto a = std::make_shared<LsArgs>();
  CLI::App* cmd = app.add_subcommand("ls", "list sessions, newest first (of the current directory unless --cwd/--all)");
  auto* cwd_option = cmd->add_option("--cwd", a->cwd, "sessions of this working directory");
  cmd->add_flag("--all", a->all, "sessions of every working directory")->excludes(cwd_option);
  cmd->add_option("--limit", a->limit, "at most N sessions (the newest)");
  cmd->add_flag("--check", a->check, "open and verify every file: message counts, problems (flag D)");
  cmd->add_flag("--json", a->json, "one JSON array (the library's listing)");
  auto* foreign =
      cmd->add_option("--foreign", a->foreign, "list another agent's store instead: claude, myagents, gateway, codex")
          ->excludes(cwd_option);
  cmd->add_option("path", a->foreign_path, "with --foreign: the source (default: its usual place)")->needs(foreign);
  cmd->footer(
      "Flags: M needs migration (xs migrate), C a .corrupt-* copy was kept, D verify found\n"
      "problems (xs verify; with --check).");
  cmd->callback([a, &g] {
    Store store(g.store());
    if (!a->foreign.empty()) return list_foreign(store, a->foreign, a->foreign_path, a->json);
    require_root(store);
    std::string cwd = listed_cwd(*a);
    std::string text = list_json(store, cwd, a->limit);
    if (a->json && !a->check) {
      std::printf("%s\n", text.c_str());
      return;
    }
    JsonDoc d = parse_json(text);
    if (!a->json && count(d.root()) == 0) {
      say_none(store, cwd);
      return;
    }
    std::vector<Checked> checked;
    if (a->check) checked = check_all(store, d.root());
    if (a->json)
      std::printf("%s\n", checked_json(d.root(), checked).c_str());
    else
      print_table(d.root(), checked, *a, Style(g.color, STDOUT_FILENO));
  });
}

}  // namespace xs::cli
