// xs repair PATH: fixes what `verify` found that can be fixed without losing anything, after
// keeping a backup copy of the file: the missing final newline of a torn tail, a v1/v2 file
// rewritten as v3, a file without a session header preserved as <file>.corrupt-<time> (by the
// library's writable open) with a fresh session in its place. Skipped lines, duplicate ids,
// orphans and missing blobs are listed for a person; nothing is ever deleted.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <set>

#include "commands.h"
#include "json.h"
#include "problem_text.h"
#include "style.h"
#include "text.h"

namespace xs::cli {

namespace {

struct RepairArgs {
  std::string path;
  bool json = false;
};

[[noreturn]] void io_error(const std::string& what) { throw ApiError(XS_EIO, what + ": " + std::strerror(errno)); }

// Copies `path` to "<path>.bak-<UTC time>" (a new file, never over another) and makes the copy
// durable before anything touches the original. Returns the copy's name.
std::string keep_backup(const std::string& path) {
  time_t t = static_cast<time_t>(now_ms() / 1000);
  struct tm tm;
  gmtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
  int in = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) io_error(path);
  std::string backup;
  int out = -1;
  for (int n = 0; out < 0 && n < 100; ++n) {
    backup = path + ".bak-" + stamp + (n ? "-" + std::to_string(n) : "");
    out = ::open(backup.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (out < 0 && errno != EEXIST) break;
  }
  if (out < 0) {
    ::close(in);
    io_error(backup);
  }
  char buf[1 << 16];
  for (;;) {
    ssize_t got = ::read(in, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) io_error(path);
    if (got == 0) break;
    for (ssize_t off = 0; off < got;) {
      ssize_t put = ::write(out, buf + off, static_cast<size_t>(got - off));
      if (put < 0 && errno == EINTR) continue;
      if (put < 0) io_error(backup);
      off += put;
    }
  }
  if (::fsync(out) != 0) io_error(backup);
  ::close(out);
  ::close(in);
  int dir = ::open(std::filesystem::path(backup).parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return backup;
}

bool has_fixable(Json report) {
  for (Json p : items(report, "problems")) {
    if (flag(p, "fixable")) return true;
  }
  return flag(report, "needsMigration");
}

// The items of doc[key] under a heading, except those whose code is in `skip` (already said).
std::string listed(Json doc, const char* key, const char* heading, const Style& style,
                   const std::set<std::string>& skip = {}) {
  std::string out;
  for (Json p : items(doc, key)) {
    if (!skip.count(std::string(str(p, "code")))) out += problem_line(p, style, false);
  }
  return out.empty() ? "" : std::string(heading) + "\n" + out;
}

}  // namespace

void add_repair(CLI::App& app, Globals& g) {
  auto a = std::make_shared<RepairArgs>();
  CLI::App* cmd = app.add_subcommand("repair", "fix what can be fixed without losing anything (keeps a backup)");
  cmd->add_option("SESSION", a->path, "a session file, id or id prefix")->required();
  cmd->add_flag("--json", a->json, "{\"backup\", \"repair\", \"verify\"}: the library's reports");
  cmd->footer("Fixes: a torn last line gets its newline (the fragment stays, skipped), a v1/v2 file is\n"
              "rewritten as v3, a file without a header is kept as <file>.corrupt-<time> and replaced by\n"
              "a fresh session. Everything else is listed for a person. The original is first copied\n"
              "to <file>.bak-<time>.");
  cmd->callback([a, &g] {
    Store store(g.root());
    Style style(g.color, 1);
    std::string path = a->path;
    bool headerless = false;
    try {
      Session s = open_read_only(store, a->path);
      std::string before = s.verify();
      JsonDoc doc = parse_json(before);
      Json d = doc.root();
      path = std::string(str(d, "path"));
      if (!has_fixable(d)) {
        if (a->json) {
          std::printf("{\"backup\":null,\"repair\":null,\"verify\":%s}\n", before.c_str());
        } else {
          std::printf("%s: nothing to repair\n%s", path.c_str(),
                      listed(d, "problems", "left for a person (see xs verify):", style).c_str());
        }
        return;
      }
    } catch (const ApiError& e) {
      if (e.code() != XS_ENOHEADER) throw;
      headerless = true;  // the writable open below keeps its bytes and starts afresh
    }
    std::string backup = keep_backup(path);
    Session s;
    try {
      s = open_writable(store, path);
    } catch (const ApiError&) {
      // Nothing was changed (an agent holds the file, say): the copy would only be clutter.
      std::filesystem::remove(backup);
      throw;
    }
    std::string done = s.repair();
    std::string after = s.verify();
    if (a->json) {
      std::printf("{\"backup\":%s,\"repair\":%s,\"verify\":%s}\n", json_quoted(backup).c_str(), done.c_str(),
                  after.c_str());
      return;
    }
    JsonDoc r = parse_json(done);
    JsonDoc v = parse_json(after);
    std::string out = path + ": " + style.green(headerless ? "replaced (no session header)" : "repaired") + "\n";
    out += "backup: " + backup + "\n";
    out += listed(r.root(), "done", "done:", style);
    std::set<std::string> said;
    for (Json x : items(r.root(), "done")) said.insert(std::string(str(x, "code")));
    out += listed(v.root(), "problems", "left for a person (see xs verify):", style, said);
    std::fwrite(out.data(), 1, out.size(), stdout);
  });
}

}  // namespace xs::cli
