// xs: the command-line tool for session stores. It uses only the public C API (xsession.h).
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "commands.h"

namespace xs::cli {

std::string Globals::root() const {
  if (!root_option.empty()) return root_option;
  if (const char* home = std::getenv("XS_HOME"); home && *home) return home;
  const char* user_home = std::getenv("HOME");
  return std::string(user_home && *user_home ? user_home : ".") + "/.xcsh/agent";
}

Session open_read_only(const Store& store, const std::string& ref) {
  xs_session_options o;
  xs_session_options_init(&o, XS_SESSION_OPTIONS_VERSION);
  o.flags = XS_SESSION_READ_ONLY;
  // Ids that a migration makes up are random; $XS_ID_SEED makes them reproducible (tests).
  if (const char* seed = std::getenv("XS_ID_SEED"); seed && *seed) o.id_seed = std::strtoull(seed, nullptr, 10);
  xs_session* s = nullptr;
  store.check(xs_session_open(store.get(), ref.c_str(), &o, &s), ref);
  return Session(s, ref);
}

}  // namespace xs::cli

int main(int argc, char** argv) {
  using namespace xs::cli;
  CLI::App app{"xs: inspect and maintain coding-agent session stores (xsession)", "xs"};
  app.footer(
      "SESSION is a file path, a session id or an unambiguous id prefix.\n"
      "Exit status: 0 done, 1 problems found (verify), 2 error.");
  app.require_subcommand(1);
  app.set_version_flag("--version", [] {
    int major = 0, minor = 0, patch = 0;
    xs_version(&major, &minor, &patch);
    return "xs (libxsession " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch) + ")";
  });
  Globals g;
  app.add_option("--root", g.root_option, "store root (default: $XS_HOME, else ~/.xcsh/agent)");
  app.add_option("--color", g.color, "colours: auto (on a terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  add_ls(app, g);
  add_show(app, g);
  add_tree(app, g);
  add_context(app, g);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitError;
  } catch (const ApiError& e) {
    std::fprintf(stderr, "xs: %s\n", e.what());
    return kExitError;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "xs: %s\n", e.what());
    return kExitError;
  }
  return 0;
}
