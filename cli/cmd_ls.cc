// xs ls: the store's sessions, newest first. Without --check only a bounded prefix of each file
// is read (the library's listing), so it stays fast on big stores; --check opens and verifies
// every file (xs verify's checks), with a progress bar on a terminal.
#include <cstdio>
#include <filesystem>

#include "commands.h"
#include "json.h"
#include "progress.h"
#include "text.h"

namespace xs::cli {

namespace {

struct LsArgs {
  std::string cwd;
  bool all = false;
  uint64_t limit = 0;
  bool check = false;
  bool json = false;
};

std::string list_json(const Store& store, const LsArgs& a) {
  xs_list_options o;
  xs_list_options_init(&o, XS_LIST_OPTIONS_VERSION);
  o.limit = a.limit;
  std::string cwd = a.cwd;
  if (!a.all) {
    if (cwd.empty()) cwd = std::filesystem::current_path().string();
    o.cwd = cwd.c_str();
  }
  return read_text([&](char* b, size_t c, size_t* n) { return xs_store_list(store.get(), &o, b, c, n); },
                   [&] { return std::string(store.root()) + ": " + xs_store_errmsg(store.get()); });
}

// --check: adds "messageCount", "entryCount" and "problems" (xs verify's count) to each session,
// or "error" when it cannot be read.
void check_all(const Store& store, rapidjson::Document& list) {
  auto& alloc = list.GetAllocator();
  Progress progress("check", list.Size());
  size_t i = 0;
  for (rapidjson::Value& s : list.GetArray()) {
    std::string path(str(s, "path"));
    progress.update(i++, path);
    try {
      Session session = open_read_only(store, path);
      rapidjson::Document info = parse_json(session.info());
      rapidjson::Document report = parse_json(session.verify());
      const rapidjson::Value* types = member(info, "entryTypes");
      s.AddMember("messageCount", types ? num(*types, "message") : 0, alloc);
      s.AddMember("entryCount", num(info, "entryCount"), alloc);
      s.AddMember("problems", static_cast<uint64_t>(report["problems"].Size()), alloc);
    } catch (const ApiError& e) {
      s.AddMember("error", rapidjson::Value(e.what(), alloc), alloc);
    }
  }
}

// M: needs migration; C: a .corrupt-* copy was kept beside it; D: verify found problems, or the
// file could not be read (--check).
std::string flags_of(const rapidjson::Value& s) {
  std::string f;
  if (flag(s, "needsMigration")) f += 'M';
  if (num(s, "corruptCopies") > 0) f += 'C';
  if (num(s, "problems") > 0 || member(s, "error")) f += 'D';
  return f.empty() ? "-" : f;
}

void print_table(const rapidjson::Value& list, const LsArgs& a) {
  int64_t now = now_ms();
  std::string out = a.check ? "ID                MODIFIED    SIZE   MSGS   FLAGS  TITLE\n"
                            : "ID                MODIFIED    SIZE   FLAGS  TITLE\n";
  char buf[256];
  for (const rapidjson::Value& s : list.GetArray()) {
    std::string title(str(s, "title"));
    if (title.empty()) title = str(s, "firstMessage");
    if (title.empty()) title = "(no messages)";
    std::string id = one_line(str(s, "id"), 16);
    if (a.check) {
      std::snprintf(buf, sizeof buf, "%-16s  %-10s  %-5s  %-5lld  %-5s  ", id.c_str(),
                    relative_time(num(s, "modified"), now).c_str(), human_size(num(s, "size")).c_str(),
                    static_cast<long long>(num(s, "messageCount")), flags_of(s).c_str());
    } else {
      std::snprintf(buf, sizeof buf, "%-16s  %-10s  %-5s  %-5s  ", id.c_str(), relative_time(num(s, "modified"), now).c_str(),
                    human_size(num(s, "size")).c_str(), flags_of(s).c_str());
    }
    out += buf;
    out += one_line(title, 60);
    out += '\n';
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
}

}  // namespace

void add_ls(CLI::App& app, Globals& g) {
  auto a = std::make_shared<LsArgs>();
  CLI::App* cmd = app.add_subcommand("ls", "list sessions, newest first (of the current directory unless --cwd/--all)");
  auto* cwd = cmd->add_option("--cwd", a->cwd, "sessions of this working directory");
  cmd->add_flag("--all", a->all, "sessions of every working directory")->excludes(cwd);
  cmd->add_option("--limit", a->limit, "at most N sessions (the newest)");
  cmd->add_flag("--check", a->check, "open and verify every file: message counts, problems (flag D)");
  cmd->add_flag("--json", a->json, "one JSON array (the library's listing)");
  cmd->footer("Flags: M needs migration (xs migrate), C a .corrupt-* copy was kept, D verify found\n"
              "problems (xs verify; with --check).");
  cmd->callback([a, &g] {
    Store store(g.root());
    std::string text = list_json(store, *a);
    if (a->json && !a->check) {
      std::printf("%s\n", text.c_str());
      return;
    }
    rapidjson::Document d = parse_json(text);
    if (a->check) check_all(store, d);
    if (a->json) std::printf("%s\n", to_json(d).c_str());
    else print_table(d, *a);
  });
}

}  // namespace xs::cli
