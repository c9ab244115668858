// The `xs` subcommands. Each file registers one command on the app; main.cc runs it and turns
// failures into one line on stderr and an exit status.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "api.h"

namespace xs::cli {

// Exit statuses: 0 done, 1 problems found (verify), 2 an error (could not read, resolve or write;
// bad usage).
constexpr int kExitProblems = 1;
constexpr int kExitError = 2;

// Options every command shares.
struct Globals {
  std::string root_option;     // --root
  std::string store_option;    // --store
  std::string color = "auto";  // --color
  int exit_code = 0;           // a command that found problems sets kExitProblems

  // --root, else $XS_HOME, else ~/.xcsh/agent (docs/format.md#store-layout).
  std::string root() const;
  // The store: --store (a postgresql:// URL; its root --root, else /xsession), else root().
  StoreSpec store() const;
  // The machine's own store root: where a store in a database keeps its prompt history (a SQLite
  // file, local to the machine the prompts are typed on).
  std::string local_root() const;
};

// Session options with `flags`; $XS_ID_SEED fixes the ids and $XS_NOW_MS the clock (tests).
xs_session_options session_options(uint32_t flags);
// Opens SESSION (a file path, a session id or an unambiguous id prefix) without writing anything.
Session open_read_only(const Store& store, const std::string& ref);
// Opens SESSION as its one writer (XS_ELOCKED while an agent has it open).
Session open_writable(const Store& store, const std::string& ref);
// Prints "<session id> <file>\n", or the session's info JSON.
void print_session(const Session& s, bool json);
// Session files named by PATH arguments: files as given; directories searched recursively for
// *.jsonl (a store root, a sessions directory); no argument: every session of the store (an
// ApiError when the store's root does not exist).
std::vector<std::string> session_files(const Store& store, const std::vector<std::string>& paths);
// Throws ApiError (exit status 2) when the store's root is not a directory: a mistyped --root
// would otherwise look like an empty store.
void require_root(const Store& store);
// An absolute form of a --cwd given relative ("." included), as agents record cwds; "" and an
// absolute one as given.
std::string absolute_cwd(const std::string& dir);
// `path` relative to the store's root when it lies under it ("sessions/--w--/x.jsonl"), else as
// given: the root is long and the same on every line.
std::string shown_path(const Store& store, const std::string& path);
// An error message that starts with "<path>: ", with the path as shown_path shows it.
std::string shown_error(const Store& store, const std::string& path, const std::string& message);

void add_ls(CLI::App& app, Globals& g);
void add_show(CLI::App& app, Globals& g);
void add_tree(CLI::App& app, Globals& g);
void add_context(CLI::App& app, Globals& g);
void add_new(CLI::App& app, Globals& g);
void add_continue(CLI::App& app, Globals& g);
void add_append(CLI::App& app, Globals& g);
void add_branch(CLI::App& app, Globals& g);
void add_label(CLI::App& app, Globals& g);
void add_fork(CLI::App& app, Globals& g);
void add_migrate(CLI::App& app, Globals& g);
void add_keys(CLI::App& app, Globals& g);
void add_compact_plan(CLI::App& app, Globals& g);
void add_stats(CLI::App& app, Globals& g);
void add_reset(CLI::App& app, Globals& g);
void add_verify(CLI::App& app, Globals& g);
void add_repair(CLI::App& app, Globals& g);
void add_blobs(CLI::App& app, Globals& g);
void add_archive(CLI::App& app, Globals& g);
void add_prune(CLI::App& app, Globals& g);
void add_import(CLI::App& app, Globals& g);
void add_history(CLI::App& app, Globals& g);
void add_search(CLI::App& app, Globals& g);
void add_index(CLI::App& app, Globals& g);
void add_copy(CLI::App& app, Globals& g);
void add_export(CLI::App& app, Globals& g);  // bundles, or --html pages (cmd_bundle.cc)
void add_import_bundle(CLI::App& app, Globals& g);
// The pages of `sessions` at `out` (xs_export_html), as lines or the library's report.
void export_html(const Store& store, const std::vector<std::string>& sessions, const std::string& out, bool json);

// xs ls --foreign KIND [PATH] (cmd_import.cc): what another agent's store holds, read only, as a table
// or the library's JSON; an empty PATH is the kind's usual place.
void list_foreign(const Store& store, const std::string& kind, const std::string& path, bool json);

}  // namespace xs::cli
