// xs fork SESSION [--at ID]: a new session copied from another (the source is only read). Whole
// (xs_session_fork: every entry, parentSession = the source's id); or with --at, only the path
// from the root to ID (xs_session_create_branched, parentSession = the source's path), so a
// branch can be carried on as a session of its own. Prints "<new id> <file>".
#include "commands.h"

namespace xs::cli {

namespace {

struct ForkArgs {
  std::string session;
  std::string at;
  bool json = false;
};

}  // namespace

void add_fork(CLI::App& app, Globals& g) {
  auto a = std::make_shared<ForkArgs>();
  CLI::App* cmd = app.add_subcommand("fork", "copy a session into a new one (whole, or the path to --at ID)");
  cmd->add_option("SESSION", a->session, "a session file, id or id prefix")->required();
  cmd->add_option("--at", a->at, "copy only the branch from the root to this entry");
  cmd->add_flag("--json", a->json, "print the new session's info as JSON");
  cmd->callback([a, &g] {
    Store store(g.store());
    Session source = open_read_only(store, a->session);
    xs_session_options o = session_options(XS_SESSION_NO_DEFER);
    xs_session* raw = nullptr;
    if (a->at.empty()) {
      source.check(xs_session_fork(source.get(), &o, &raw), "fork");
    } else {
      source.check(xs_session_create_branched(source.get(), a->at.c_str(), &o, &raw), "fork --at " + a->at);
    }
    print_session(Session(raw, a->session), a->json);
  });
}

}  // namespace xs::cli
