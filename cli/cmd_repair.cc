// xs repair PATH: fixes what `verify` found that can be fixed without losing anything, after
// keeping a backup copy of the file: lines that are not JSON (torn tails, garbage, glued writes)
// moved to <file>.quarantine-<time>.jsonl with their line numbers, offsets and exact bytes (or,
// with --keep-lines, only the missing final newline of a torn tail written), a v1/v2 file
// rewritten as v3, a file without a session header preserved as <file>.corrupt-<time> (by the
// library's writable open) with a fresh session in its place. JSON lines the engine skips,
// duplicate ids, orphans and missing blobs are listed for a person; nothing is ever deleted.
#include <fcntl.h>
#include <sys/stat.h>
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
#include "store_files.h"
#include "style.h"
#include "text.h"

namespace xs::cli {

namespace {

struct RepairArgs {
  std::string session;
  bool json = false;
  bool keep_lines = false;  // leave lines that are not JSON in the file (no quarantine)
};

// What the file needs, found before anything is written (a read-only open).
struct Assessment {
  std::string path;         // the file (the library resolves an id or prefix)
  std::string verify_json;  // the library's verify report; empty when the file has no header
  bool headerless = false;  // no session header: the writable open keeps its bytes, starts afresh
  bool fixable = false;     // something repair can fix (or headerless)
};

// The outcome of a repair: the copy kept first and the library's reports.
struct Repaired {
  std::string backup;       // empty when the repair found nothing to do (the copy is removed)
  std::string repair_json;  // {"done": [...], "quarantine": ...}
  std::string verify_json;  // verify, after the repair
};

// Verify's codes for lines that may not be JSON at all: the library's quarantine moves those
// whose bytes do not parse (a line before the header may be JSON, and then stays).
bool may_be_quarantined(std::string_view code) {
  return code == "invalid_json" || code == "invalid_utf8" || code == "nul_byte" || code == "incomplete_tail" ||
         code == "before_header";
}

[[noreturn]] void io_error(const std::string& what) { throw ApiError(XS_EIO, what + ": " + std::strerror(errno)); }

// A descriptor closed on every way out of keep_backup.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

void copy_bytes(int in, const std::string& in_name, int out, const std::string& out_name) {
  char buf[1 << 16];
  for (;;) {
    ssize_t got = ::read(in, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) io_error(in_name);
    if (got == 0) return;
    for (ssize_t off = 0; off < got;) {
      ssize_t put = ::write(out, buf + off, static_cast<size_t>(got - off));
      if (put < 0 && errno == EINTR) continue;
      if (put < 0) io_error(out_name);
      off += put;
    }
  }
}

// Copies `path` to "<path>.bak-<UTC time>" (a new file, never over another) with the original's
// permission bits (a backup must not be readable by more people than the file, nor by fewer),
// and makes the copy durable before anything touches the original. Returns the copy's name.
std::string keep_backup(const std::string& path) {
  time_t t = static_cast<time_t>(now_ms() / 1000);
  struct tm tm;
  gmtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
  Fd in{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  struct stat st;
  if (in.fd < 0 || ::fstat(in.fd, &st) != 0) io_error(path);
  std::string backup;
  Fd out;
  for (int n = 0; out.fd < 0 && n < 100; ++n) {
    backup = path + ".bak-" + stamp + (n ? "-" + std::to_string(n) : "");
    // Created owner-only; fchmod sets the original's bits exactly, whatever the umask.
    out.fd = ::open(backup.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (out.fd < 0 && errno != EEXIST) break;
  }
  if (out.fd < 0) io_error(backup);
  try {
    copy_bytes(in.fd, path, out.fd, backup);
    if (::fchmod(out.fd, st.st_mode & 0777) != 0 || ::fsync(out.fd) != 0) io_error(backup);
  } catch (const ApiError&) {
    std::error_code ignored;
    std::filesystem::remove(backup, ignored);  // a partial copy is no backup
    throw;
  }
  Fd dir{::open(std::filesystem::path(backup).parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  if (dir.fd >= 0) ::fsync(dir.fd);
  return backup;
}

bool has_fixable(Json report, bool quarantine) {
  for (Json p : items(report, "problems")) {
    if (flag(p, "fixable") || (quarantine && may_be_quarantined(str(p, "code")))) return true;
  }
  return flag(report, "needsMigration");
}

Assessment assess(const Store& store, const std::string& session, bool quarantine) {
  Assessment a;
  a.path = session;
  try {
    Session s = open_read_only(store, session);
    a.verify_json = s.verify();
    JsonDoc d = parse_json(a.verify_json);
    a.path = std::string(str(d.root(), "path"));
    a.fixable = has_fixable(d.root(), quarantine);
  } catch (const ApiError& e) {
    if (e.code() != XS_ENOHEADER) throw;
    a.headerless = a.fixable = true;
  }
  return a;
}

// Whether the library's repair report says it changed nothing.
bool did_nothing(const std::string& repair_json) {
  JsonDoc d = parse_json(repair_json);
  std::optional<Json> moved = member(d.root(), "quarantine");
  return items(d.root(), "done").size() == 0 && (!moved || moved->is_null());
}

// Keeps the backup, then lets the library repair the file through a writable open.
// The backup of a store in a database (--store): the same names, through its storage.
std::string keep_backup_in(const xs_storage& t, const std::string& path) {
  time_t secs = static_cast<time_t>(now_ms() / 1000);
  struct tm tm;
  gmtime_r(&secs, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
  std::vector<std::string> names;
  for (int n = 0; n < 100; ++n) names.push_back(path + ".bak-" + stamp + (n ? "-" + std::to_string(n) : ""));
  return copy_in(t, path, names);
}

void drop_backup(const Store& store, const std::string& backup) {
  if (const xs_storage* t = store.storage()) return remove_in(*t, backup);
  std::error_code ignored;
  std::filesystem::remove(backup, ignored);
}

Repaired repair_file(const Store& store, const std::string& path, uint32_t flags) {
  Repaired r;
  r.backup = store.storage() ? keep_backup_in(*store.storage(), path) : keep_backup(path);
  Session s;
  try {
    s = open_writable(store, path);
  } catch (const ApiError&) {
    drop_backup(store, r.backup);  // nothing was changed (an agent holds the file, say)
    throw;
  }
  r.repair_json = s.repair(flags);
  r.verify_json = s.verify();
  if (did_nothing(r.repair_json)) {
    // Only lines that turned out to be JSON (kept, listed for a person): no copy is needed.
    drop_backup(store, r.backup);
    r.backup.clear();
  }
  return r;
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

constexpr const char* kLeftHeading = "left for a person (see xs verify):";

std::string nothing_text(const std::string& path, const std::string& verify_json, const Style& style) {
  JsonDoc d = parse_json(verify_json);
  return path + ": nothing to repair\n" + listed(d.root(), "problems", kLeftHeading, style);
}

std::string repaired_text(const Assessment& a, const Repaired& r, const Style& style) {
  JsonDoc done = parse_json(r.repair_json);
  JsonDoc after = parse_json(r.verify_json);
  std::string out = a.path + ": " + style.green(a.headerless ? "replaced (no session header)" : "repaired") + "\n";
  out += "backup: " + r.backup + "\n";
  if (std::optional<Json> q = member(done.root(), "quarantine"); q && q->is_object()) {
    int64_t lines = int_of(*member(*q, "lines"), 0);
    out += "quarantine: " + std::string(str(*q, "path")) + " (" + std::to_string(lines) +
           (lines == 1 ? " line)\n" : " lines)\n");
  }
  out += listed(done.root(), "done", "done:", style);
  std::set<std::string> said;
  for (Json x : items(done.root(), "done")) said.insert(std::string(str(x, "code")));
  out += listed(after.root(), "problems", kLeftHeading, style, said);
  return out;
}

}  // namespace

void add_repair(CLI::App& app, Globals& g) {
  auto a = std::make_shared<RepairArgs>();
  CLI::App* cmd = app.add_subcommand("repair", "fix what can be fixed without losing anything (keeps a backup)");
  cmd->add_option("SESSION", a->session, "a session file, id or id prefix")->required();
  cmd->add_flag("--json", a->json, "{\"backup\", \"repair\", \"verify\"}: the library's reports");
  cmd->add_flag("--keep-lines", a->keep_lines,
                "leave lines that are not JSON in the file (a torn last line only gets its newline)");
  cmd->footer(
      "Fixes: lines that are not JSON (a torn last line, garbage, glued writes) move to\n"
      "<file>.quarantine-<time>.jsonl, one record each with its line, byte offset and exact bytes;\n"
      "a v1/v2 file is rewritten as v3; a file without a header is kept as <file>.corrupt-<time>\n"
      "and replaced by a fresh session. Everything else is listed for a person. The original is\n"
      "first copied to <file>.bak-<time>, with the original's permissions.");
  cmd->callback([a, &g] {
    Store store(g.store());
    Style style(g.color, 1);
    uint32_t flags = a->keep_lines ? 0 : XS_REPAIR_QUARANTINE;
    Assessment before = assess(store, a->session, flags & XS_REPAIR_QUARANTINE);
    std::string out;
    if (!before.fixable) {
      out = a->json ? "{\"backup\":null,\"repair\":null,\"verify\":" + before.verify_json + "}\n"
                    : nothing_text(before.path, before.verify_json, style);
    } else {
      Repaired r = repair_file(store, before.path, flags);
      std::string backup = r.backup.empty() ? "null" : json_quoted(r.backup);
      if (a->json) {
        out = "{\"backup\":" + backup + ",\"repair\":" + r.repair_json + ",\"verify\":" + r.verify_json + "}\n";
      } else {
        out = r.backup.empty() ? nothing_text(before.path, r.verify_json, style) : repaired_text(before, r, style);
      }
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
  });
}

}  // namespace xs::cli
