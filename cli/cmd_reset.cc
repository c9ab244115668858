// xs reset KEY: a manual reset (a host's /new) of a session key: a new session for the key, written
// at once, whose header names the old one; the key's record moves to it and lists the old id
// (docs/reset-policies.md). Prints "<session id> <file>" like xs new (or its info with --json).
#include <cstdio>

#include "commands.h"
#include "text.h"

namespace xs::cli {

namespace {

struct ResetArgs {
  std::string key;
  std::string cwd;
  bool json = false;
};

}  // namespace

void add_reset(CLI::App& app, Globals& g) {
  auto a = std::make_shared<ResetArgs>();
  CLI::App* cmd = app.add_subcommand("reset", "start a new session for a session key (a manual /new)");
  cmd->add_option("KEY", a->key, "the session key (xs keys lists them)")->required();
  cmd->add_option("--cwd", a->cwd,
                  "the new session's working directory (default: the record's cwd, else the current one)");
  cmd->add_flag("--json", a->json, "print the new session's info as JSON");
  cmd->footer("The old transcript is kept; the record's previousSessionIds lists it.");
  cmd->callback([a, &g] {
    Store store(g.store());
    xs_session_options o = session_options(XS_SESSION_NO_DEFER);
    if (!a->cwd.empty()) o.cwd = a->cwd.c_str();
    xs_session* raw = nullptr;
    store.check(
        xs_store_session_for_key(store.get(), a->key.c_str(), now_ms(), nullptr, XS_RESET_FORCE, &o, &raw, nullptr),
        a->key);
    print_session(Session(raw, a->key), a->json);
  });
}

}  // namespace xs::cli
