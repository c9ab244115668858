// The `xs` subcommands. Each file registers one command on the app; main.cc runs it and turns
// failures into one line on stderr and an exit status.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "api.h"

namespace xs::cli {

// Exit statuses: 0 done, 1 problems found (verify), 2 an error (could not read, resolve or write;
// bad usage).
constexpr int kExitProblems = 1;
constexpr int kExitError = 2;

// Options every command shares.
struct Globals {
  std::string root_option;   // --root
  std::string color = "auto";  // --color

  // --root, else $XS_HOME, else ~/.xcsh/agent (the seed's location).
  std::string root() const;
};

// Opens SESSION (a file path, a session id or an unambiguous id prefix) without writing anything.
Session open_read_only(const Store& store, const std::string& ref);

void add_ls(CLI::App& app, Globals& g);
void add_show(CLI::App& app, Globals& g);
void add_tree(CLI::App& app, Globals& g);
void add_context(CLI::App& app, Globals& g);

}  // namespace xs::cli
