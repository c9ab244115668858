// xs copy --to DEST: the store, file for file, into another storage: a directory on the disk or a
// database (postgresql://). Both ways are the same code over two storage tables
// (docs/storage.md), so a store moved into PostgreSQL and back is byte for byte the store it was.
#include <cstdio>
#include <optional>

#include "commands.h"
#include "store_files.h"

#ifdef XS_CLI_POSTGRES
#include <xsession_postgres.h>
#endif

namespace xs::cli {

namespace {

struct CopyArgs {
  std::string to;
  std::string to_root;
  bool json = false;
};

// A storage table this command owns (released at the end), for the disk or a database.
class OwnedTable {
 public:
  explicit OwnedTable(const std::string& where) {
    xs_status st;
    if (is_database_url(where)) {
#ifdef XS_CLI_POSTGRES
      char err[1024] = "";
      st = xs_postgres_storage(where.c_str(), nullptr, &t_, err, sizeof err);
      if (st != XS_OK) throw ApiError(st, where + ": " + (err[0] ? err : xs_status_str(st)));
#else
      throw ApiError(XS_EINVAL, where + ": this xs was built without PostgreSQL (XS_BUILD_POSTGRES=OFF)");
#endif
    } else {
      st = xs_storage_posix(&t_);
      if (st != XS_OK) throw ApiError(st, "the disk's storage: " + std::string(xs_status_str(st)));
    }
  }
  ~OwnedTable() { t_.release(t_.user); }
  OwnedTable(const OwnedTable&) = delete;
  OwnedTable& operator=(const OwnedTable&) = delete;
  const xs_storage& get() const { return t_; }

 private:
  xs_storage t_{};
};

struct Copied {
  uint64_t files = 0;
  uint64_t bytes = 0;
};

// Lock files hold no data (a lock in a database is not a file at all) and temp files are a
// writer's unfinished work: neither is part of the store.
bool is_data(const std::string& name) {
  auto ends_with = [&](const char* tail) {
    std::string t(tail);
    return name.size() >= t.size() && name.compare(name.size() - t.size(), t.size(), t) == 0;
  };
  return !ends_with(".lock") && name.find(".xs-tmp-") == std::string::npos;
}

void copy_tree(const xs_storage& from, const std::string& from_dir, const xs_storage& to, const std::string& to_dir,
               Copied* done) {
  xs_status st = to.make_dirs(to.user, to_dir.c_str());
  if (st != XS_OK) throw ApiError(st, to_dir + ": " + xs_status_str(st));
  std::vector<std::string> files;
  find_in(
      from, from_dir, [](const std::string&) { return true; }, &files);
  for (const std::string& path : files) {
    std::string name = path.substr(path.rfind('/') + 1);
    if (!is_data(name)) continue;
    std::string target = to_dir + path.substr(from_dir.size());
    std::string dir = target.substr(0, target.rfind('/'));
    st = to.make_dirs(to.user, dir.c_str());
    if (st != XS_OK) throw ApiError(st, dir + ": " + xs_status_str(st));
    std::string bytes = read_in(from, path);
    write_new_in(to, target, bytes);
    ++done->files;
    done->bytes += bytes.size();
  }
}

}  // namespace

void add_copy(CLI::App& app, Globals& g) {
  auto a = std::make_shared<CopyArgs>();
  CLI::App* cmd = app.add_subcommand("copy", "copy the store, file for file, to a directory or a PostgreSQL database");
  cmd->add_option("--to", a->to, "a directory (a new or empty store root) or a postgresql:// URL")->required();
  cmd->add_option("--to-root", a->to_root, "the store's root in the database (default /xsession)");
  cmd->add_flag("--json", a->json, "{\"files\",\"bytes\"}");
  cmd->footer(
      "Every file keeps its bytes and its place under the root; lock and temp files are left out.\n"
      "The destination must hold no store yet. Copy a store no agent is writing: a session is\n"
      "copied as it was when it was read. Modification times are the copy's own.");
  cmd->callback([a, &g] {
    StoreSpec spec = g.store();
    Store store(spec);  // the source must be a store that opens (its root a directory)
    require_root(store);
    std::optional<OwnedTable> disk;
    if (!store.storage()) disk.emplace("");
    const xs_storage& from = store.storage() ? *store.storage() : disk->get();
    OwnedTable to(a->to);
    std::string to_root = is_database_url(a->to) ? (a->to_root.empty() ? "/xsession" : a->to_root) : a->to;
    while (to_root.size() > 1 && to_root.back() == '/') to_root.pop_back();
    if (!store.storage() && !is_database_url(a->to) &&
        (to_root == store.root() || to_root.rfind(store.root() + "/", 0) == 0)) {
      throw ApiError(XS_EINVAL, to_root + ": the destination is inside the store it would copy");
    }
    uint32_t kind = kind_in(to.get(), to_root);
    if (kind != 0) {
      std::vector<std::string> present;
      if (kind == XS_STORAGE_DIR)
        find_in(
            to.get(), to_root, [](const std::string&) { return true; }, &present);
      if (kind != XS_STORAGE_DIR || !present.empty()) {
        throw ApiError(XS_EEXISTS, to_root + ": the destination already holds files; copy into an empty one");
      }
    }
    Copied done;
    copy_tree(from, store.root(), to.get(), to_root, &done);
    if (a->json) {
      std::printf("{\"files\":%llu,\"bytes\":%llu}\n", static_cast<unsigned long long>(done.files),
                  static_cast<unsigned long long>(done.bytes));
    } else {
      std::printf("copied %llu files (%llu bytes) to %s\n", static_cast<unsigned long long>(done.files),
                  static_cast<unsigned long long>(done.bytes), to_root.c_str());
    }
  });
}

}  // namespace xs::cli
