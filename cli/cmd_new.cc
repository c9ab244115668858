// xs new / xs continue: start a session, or pick up the most recent one of a directory. Both
// print "<session id> <file>" (or the session's info with --json) so scripts can chain commands.
#include <cstdio>
#include <filesystem>

#include "commands.h"
#include "json.h"

namespace xs::cli {

namespace {

struct NewArgs {
  std::string cwd;
  std::string title;
  std::string id;
  std::string dialect;
  bool json = false;
};

}  // namespace

void print_session(const Session& s, bool json) {
  std::string info = s.info();
  if (json) {
    std::printf("%s\n", info.c_str());
    return;
  }
  JsonDoc doc = parse_json(info);
  Json d = doc.root();
  std::printf("%s %s\n", std::string(str(d, "id")).c_str(), std::string(str(d, "path")).c_str());
}

namespace {

std::string cwd_or_current(const std::string& cwd) {
  return cwd.empty() ? std::filesystem::current_path().string() : cwd;
}

}  // namespace

void add_new(CLI::App& app, Globals& g) {
  auto a = std::make_shared<NewArgs>();
  CLI::App* cmd = app.add_subcommand("new", "start a session (written at once) and print its id and file");
  cmd->add_option("--cwd", a->cwd, "its working directory (default: the current one)");
  cmd->add_option("--title", a->title, "a title for the header");
  cmd->add_option("--id", a->id, "the session id (default: 16 random hex digits; a UUIDv7 for pi)");
  cmd->add_option("--dialect", a->dialect, "write pi's forms (pi) or oh-my-pi's (omp, the default)")
      ->check(CLI::IsMember({"omp", "pi"}));
  cmd->add_flag("--json", a->json, "print the session's info as JSON");
  cmd->callback([a, &g] {
    Store store(g.store());
    xs_session_options o = session_options(XS_SESSION_NO_DEFER);
    if (!a->dialect.empty()) o.dialect = a->dialect == "pi" ? XS_DIALECT_PI : XS_DIALECT_OMP;
    if (!a->title.empty()) o.title = a->title.c_str();
    if (!a->id.empty()) o.session_id = a->id.c_str();
    std::string cwd = cwd_or_current(a->cwd);
    xs_session* raw = nullptr;
    store.check(xs_session_create(store.get(), cwd.c_str(), &o, &raw), cwd);
    print_session(Session(raw, cwd), a->json);
  });
}

void add_continue(CLI::App& app, Globals& g) {
  auto a = std::make_shared<NewArgs>();
  CLI::App* cmd = app.add_subcommand("continue", "the most recent session of a directory (a new one if it has none)");
  cmd->add_option("--cwd", a->cwd, "the working directory (default: the current one)");
  cmd->add_flag("--json", a->json, "print the session's info as JSON");
  cmd->footer("With $XS_TERMINAL_ID set, the session this terminal used last in that directory wins.");
  cmd->callback([a, &g] {
    Store store(g.store());
    xs_session_options o = session_options(XS_SESSION_NO_DEFER);
    std::string cwd = cwd_or_current(a->cwd);
    const char* terminal = std::getenv("XS_TERMINAL_ID");
    if (terminal && !*terminal) terminal = nullptr;
    xs_session* raw = nullptr;
    store.check(xs_session_continue_recent(store.get(), cwd.c_str(), terminal, &o, &raw), cwd);
    print_session(Session(raw, cwd), a->json);
  });
}

}  // namespace xs::cli
