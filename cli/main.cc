// xs: the command-line tool for session stores. It uses only the public C API (xsession.h).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <functional>
#include <string>

#include "commands.h"
#include "store_files.h"

namespace xs::cli {

std::string Globals::local_root() const {
  if (const char* home = std::getenv("XS_HOME"); home && *home) return home;
  const char* user_home = std::getenv("HOME");
  return std::string(user_home && *user_home ? user_home : ".") + "/.xcsh/agent";
}

std::string Globals::root() const {
  if (!root_option.empty()) return root_option;
  if (!store_option.empty()) return "/xsession";
  return local_root();
}

StoreSpec Globals::store() const { return StoreSpec{root(), store_option}; }

xs_session_options session_options(uint32_t flags) {
  xs_session_options o;
  xs_session_options_init(&o, XS_SESSION_OPTIONS_VERSION);
  o.flags = flags;
  // Ids are random and time is the clock's, unless tests fix them (reproducible output).
  if (const char* seed = std::getenv("XS_ID_SEED"); seed && *seed) o.id_seed = std::strtoull(seed, nullptr, 10);
  if (const char* now = std::getenv("XS_NOW_MS"); now && *now) {
    o.flags |= XS_SESSION_FIXED_CLOCK;
    o.clock_start_ms = std::strtoll(now, nullptr, 10);
    o.clock_step_ms = 1000;
  }
  return o;
}

namespace {

Session open_with(const Store& store, const std::string& ref, uint32_t flags) {
  xs_session_options o = session_options(flags);
  xs_session* s = nullptr;
  store.check(xs_session_open(store.get(), ref.c_str(), &o, &s), ref);
  return Session(s, ref);
}

// A session file: "*.jsonl", but not the quarantine files `xs repair` leaves beside sessions
// ("<file>.jsonl.quarantine-<time>.jsonl": records of removed lines, not a session).
bool is_session_file_name(const std::string& name) {
  auto ends_with = [&](const std::string& tail) {
    return name.size() >= tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
  };
  return ends_with(".jsonl") && name.find(".jsonl.quarantine-") == std::string::npos;
}

void find_jsonl(const std::filesystem::path& dir, std::vector<std::string>* out) {
  std::error_code ec;
  std::filesystem::recursive_directory_iterator it(dir, ec), end;
  if (ec) throw ApiError(XS_EIO, dir.string() + ": " + ec.message());
  std::vector<std::string> found;
  for (; it != end; it.increment(ec)) {
    if (ec) throw ApiError(XS_EIO, dir.string() + ": " + ec.message());
    if (it->is_regular_file(ec) && is_session_file_name(it->path().filename().string())) {
      found.push_back(it->path().string());
    }
  }
  std::sort(found.begin(), found.end());
  out->insert(out->end(), found.begin(), found.end());
}

// --root and --color on `app` and every command below it, so they may come before or after the
// command's name (`xs ls --root DIR` as well as `xs --root DIR ls`) and every --help lists them.
// All copies write the same Globals; given twice, the last one wins.
void add_global_options(CLI::App& app, Globals& g) {
  app.add_option("--root", g.root_option, "store root (default: $XS_HOME, else ~/.xcsh/agent)")
      ->group("Global options");
  app.add_option("--store", g.store_option,
                 "a store in PostgreSQL: a postgresql:// URL (its root: --root, else /xsession)")
      ->check([](const std::string& v) {
        return is_database_url(v) ? std::string()
                                  : std::string("--store takes a postgresql:// URL (a directory is --root)");
      })
      ->group("Global options");
  app.add_option("--color", g.color, "colours: auto (on a terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->group("Global options");
  std::function<bool(CLI::App*)> every;  // empty: no filter
  for (CLI::App* sub : app.get_subcommands(every)) add_global_options(*sub, g);
}

}  // namespace

Session open_read_only(const Store& store, const std::string& ref) {
  return open_with(store, ref, XS_SESSION_READ_ONLY);
}

Session open_writable(const Store& store, const std::string& ref) { return open_with(store, ref, 0); }

void require_root(const Store& store) {
  if (const xs_storage* t = store.storage()) {
    uint32_t kind = kind_in(*t, store.root());
    if (kind == XS_STORAGE_DIR) return;
    throw ApiError(XS_ENOTFOUND, store.root() + ": the store root " + (kind ? "is not a directory" : "does not exist") +
                                     " in --store's database");
  }
  std::error_code ec;
  if (std::filesystem::is_directory(store.root(), ec)) return;
  bool exists = std::filesystem::exists(store.root(), ec);
  std::string what = exists ? "is not a directory" : "does not exist";
  throw ApiError(XS_ENOTFOUND, store.root() + ": the store root " + what + " (--root or $XS_HOME names it)");
}

std::string absolute_cwd(const std::string& dir) {
  if (dir.empty() || dir[0] == '/') return dir;
  std::string out = std::filesystem::absolute(dir).lexically_normal().string();
  if (out.size() > 1 && out.back() == '/') out.pop_back();  // "." normalises to "<cwd>/"
  return out;
}

std::string shown_path(const Store& store, const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path root = fs::absolute(store.root(), ec).lexically_normal();
  if (ec) return path;
  fs::path file = fs::absolute(path, ec).lexically_normal();
  if (ec) return path;
  if (!root.has_filename()) root = root.parent_path();  // "/store/" names "/store"
  fs::path rel = file.lexically_relative(root);
  if (rel.empty() || rel == "." || *rel.begin() == "..") return path;
  return rel.string();
}

std::string shown_error(const Store& store, const std::string& path, const std::string& message) {
  if (message.compare(0, path.size() + 2, path + ": ") != 0) return message;
  return shown_path(store, path) + message.substr(path.size());
}

std::vector<std::string> session_files(const Store& store, const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  const xs_storage* t = store.storage();
  if (paths.empty()) {
    require_root(store);
    if (t) {
      find_in(*t, store.root(), is_session_file_name, &out);
    } else {
      find_jsonl(store.root(), &out);
    }
    return out;
  }
  for (const std::string& p : paths) {
    if (t && kind_in(*t, p) == XS_STORAGE_DIR)
      find_in(*t, p, is_session_file_name, &out);
    else if (!t && std::filesystem::is_directory(p))
      find_jsonl(p, &out);
    else
      out.push_back(p);  // a file, or an id the library resolves (a missing one is reported there)
  }
  return out;
}

}  // namespace xs::cli

int main(int argc, char** argv) {
  using namespace xs::cli;
  CLI::App app{"xs: inspect and maintain coding-agent session stores (xsession)", "xs"};
  app.footer(
      "SESSION is a file path, a session id or an unambiguous id prefix.\n"
      "Exit status: 0 done, 1 problems found (verify, blobs verify), 2 error.");
  app.require_subcommand(1);
  app.set_version_flag("--version", [] {
    int major = 0, minor = 0, patch = 0;
    xs_version(&major, &minor, &patch);
    return "xs (libxsession " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch) + ")";
  });
  Globals g;
  add_ls(app, g);
  add_show(app, g);
  add_tree(app, g);
  add_context(app, g);
  add_new(app, g);
  add_continue(app, g);
  add_append(app, g);
  add_branch(app, g);
  add_label(app, g);
  add_fork(app, g);
  add_migrate(app, g);
  add_verify(app, g);
  add_repair(app, g);
  add_blobs(app, g);
  add_archive(app, g);
  add_import(app, g);
  add_prune(app, g);
  add_keys(app, g);
  add_compact_plan(app, g);
  add_stats(app, g);
  add_reset(app, g);
  add_history(app, g);
  add_search(app, g);
  add_index(app, g);
  add_copy(app, g);
  add_export(app, g);
  add_import_bundle(app, g);
  add_global_options(app, g);

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
  return g.exit_code;
}
